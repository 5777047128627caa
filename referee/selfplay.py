"""In-process self-play with random legal moves: property tests, benchmarks and demos.

No processes and no clock: a "policy" is a function ``(referee, player, rng) -> line``.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator

from .base import FrameReport, Outcome, Referee

__all__ = ["Policy", "random_policy", "play", "frames"]

Policy = Callable[[Referee, int, random.Random], str]


def random_policy(ref: Referee, player: int, rng: random.Random) -> str:
    """A uniformly random legal command."""
    return rng.choice(ref.legal_actions(player))


def frames(
    ref: Referee, rng: random.Random, policies: tuple[Policy, ...] | None = None
) -> Iterator[FrameReport]:
    """Play ``ref`` to the end, yielding each turn's report."""
    chosen = policies or (random_policy,) * ref.player_count
    while not ref.is_over:
        outputs = {
            r.player: chosen[r.player](ref, r.player, rng)
            for r in ref.requests()
            if r.expected_lines > 0
        }
        yield ref.apply(outputs)


def play(
    ref: Referee, rng: random.Random | int = 0, policies: tuple[Policy, ...] | None = None
) -> Outcome:
    """Play ``ref`` to the end with the given policies (random legal play by default)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    for _ in frames(ref, rng, policies):
        pass
    outcome = ref.outcome()
    assert outcome is not None
    return outcome
