"""Random legal play from many seeds: invariants that must hold in every game."""

from __future__ import annotations

import hashlib
import random

import pytest

import referee
from referee import EndReason

_SEEDER = random.Random(2021)
SEEDS = [_SEEDER.randrange(-(2**63), 2**63) for _ in range(200)]
assert len(set(SEEDS)) == len(SEEDS)


def check_frame_input(lines: tuple[str, ...], richness: list[int]) -> None:
    """The state a player is sent: non-negative sun, one tree per cell, only on soil."""
    at = 0 if lines[0] != "37" else 38
    day, nutrients = int(lines[at]), int(lines[at + 1])
    my_sun, _ = map(int, lines[at + 2].split())
    opp_sun = int(lines[at + 3].split()[0])
    assert 0 <= day < 24 and 0 <= nutrients <= 20
    assert my_sun >= 0 and opp_sun >= 0
    n = int(lines[at + 4])
    cells = [int(line.split()[0]) for line in lines[at + 5 : at + 5 + n]]
    assert cells == sorted(set(cells)), "two trees on one cell, or trees out of order"
    assert all(richness[c] > 0 for c in cells)


def play_and_fingerprint(seed: int) -> tuple[str, referee.Outcome]:
    ref = referee.create("spring2021", seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    richness = ref.snapshot()["richness"]
    while not ref.is_over:
        outputs = {}
        for r in ref.requests():
            digest.update("\n".join(r.lines).encode())
            if r.expected_lines:
                check_frame_input(r.lines, richness)
                outputs[r.player] = rng.choice(ref.legal_actions(r.player))
        ref.apply(outputs)
        snap = ref.snapshot()
        assert all(p["sun"] >= 0 for p in snap["players"])
        assert snap["day"] <= 24
    outcome = ref.outcome()
    digest.update(repr(outcome.scores).encode())
    return digest.hexdigest(), outcome


@pytest.mark.parametrize("chunk", range(4))
def test_random_legal_games_end_by_day_24_with_sane_states(chunk):
    for seed in SEEDS[chunk::4]:
        _, outcome = play_and_fingerprint(seed)
        assert outcome.end_reason is EndReason.MAX_ROUNDS, seed
        assert not outcome.deactivations
        assert all(s >= 0 for s in outcome.scores)


def test_same_seed_same_game():
    digests = []
    for seed in SEEDS[:20]:
        digest = play_and_fingerprint(seed)[0]
        assert digest == play_and_fingerprint(seed)[0]
        digests.append(digest)
    assert digests[0] != digests[1]
