"""Property tests for the Fall Challenge 2020 referee: random legal play from many seeds.

* every game ends within 100 turns, inventories stay within 0..10, legal moves are never refused;
* the same seeds give the same game;
* ``legal_actions`` is exactly the set of commands the referee accepts, and agrees with the
  official test bot's own move generator (an independent implementation of the same checks).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
from types import ModuleType

import pytest

import referee
from referee.base import EndReason
from referee.fall2020 import inputs, resolution
from referee.fall2020.actions import parse
from referee.fall2020.referee import Fall2020Referee
from tests.helpers.copies import copy_fall_state
from tests.helpers.paths import PARITY

SEEDS = range(200)


def random_game(seed: int, player_seed: int | None = None, check=None) -> tuple[str, object]:
    """Play ``seed`` with uniformly random legal moves; return (digest of everything, outcome)."""
    ref = referee.create("fall2020", seed)
    rng = random.Random(seed if player_seed is None else player_seed)
    digest = hashlib.sha256()
    while not ref.is_over:
        requests = ref.requests()
        for r in requests:
            digest.update("\n".join(r.lines).encode())
        outputs = {}
        for r in requests:
            legal = ref.legal_actions(r.player)
            assert legal and legal[-1] == "WAIT"
            outputs[r.player] = rng.choice(legal)
        if check is not None:
            check(ref, requests)
        report = ref.apply(outputs)
        assert report.errors == (), (seed, ref.turn, outputs, report.errors)
        assert report.deactivations == ()
        for p in ref.state.players:
            assert all(0 <= x <= 10 for x in p.inventory), (seed, ref.turn, p.inventory)
            assert sum(p.inventory) <= 10
        digest.update(repr(outputs).encode())
    outcome = ref.outcome()
    digest.update(json.dumps(outcome.to_dict(), sort_keys=True).encode())
    return digest.hexdigest(), outcome


def test_random_games_end_in_time_and_stay_legal() -> None:
    reasons = set()
    for seed in SEEDS:
        _, outcome = random_game(seed)
        assert 1 <= outcome.turns <= 100
        reasons.add(outcome.end_reason)
        if outcome.end_reason is EndReason.MAX_TURNS:
            assert outcome.turns == 100
        else:
            assert outcome.end_reason is EndReason.DELIVERY_GOAL
        assert all(s >= 0 for s in outcome.scores)
    assert reasons == {EndReason.MAX_TURNS, EndReason.DELIVERY_GOAL}


def test_same_seed_same_game() -> None:
    for seed in (0, 1, -5, 2**63 - 1, 123456789):
        first = random_game(seed, player_seed=99)
        second = random_game(seed, player_seed=99)
        assert first[0] == second[0]
        assert first[1] == second[1]
    # Seeds equal modulo 2**48 give the same deal (java.util.Random keeps 48 bits).
    digest = random_game(42, player_seed=7)[0]
    assert digest == random_game(42 + 2**48, player_seed=7)[0]
    assert digest != random_game(43, player_seed=7)[0]


def _candidates(ref: Fall2020Referee, player: int) -> list[str]:
    """Every command worth trying: all ids on the table (own spells with repeat counts 0..11,
    the opponent's with one), REST, WAIT."""
    s = ref.state
    out = ["REST", "WAIT"]
    out += [f"BREW {o.id}" for o in s.deliveries]
    out += [f"LEARN {t.id}" for t in s.tome]
    for p in s.players:
        for spell in p.spells:
            out.append(f"CAST {spell.id}")
            if p is s.players[player]:
                out += [f"CAST {spell.id} {k}" for k in range(0, 12)]
    return out


def _accepted_commands(ref: Fall2020Referee, player: int) -> set[str]:
    """The candidates the rules accept, each tried alone on a copy of the state. A refused
    action must leave the state untouched (both players' input lines as they were when the copy
    was made: each refusal before it was checked the same way), so a copy is only replaced after
    a success."""
    work = copy_fall_state(ref.state)
    before = [inputs.input_lines(work, 0), inputs.input_lines(work, 1)]
    accepted = set()
    for command in _candidates(ref, player):
        actions = [None, None]
        actions[player] = parse(command)
        if resolution.resolve_turn(work, actions).errors:
            assert [inputs.input_lines(work, 0), inputs.input_lines(work, 1)] == before
        else:
            accepted.add(_canonical(command))
            work = copy_fall_state(ref.state)
            before = [inputs.input_lines(work, 0), inputs.input_lines(work, 1)]
    return accepted


def _canonical(command: str) -> str:
    return (
        command[: -len(" 1")]
        if command.startswith("CAST") and command.endswith(" 1") and len(command.split()) == 3
        else command
    )


def test_legal_actions_are_exactly_the_accepted_commands() -> None:
    def check(ref: Fall2020Referee, requests) -> None:
        if ref.turn % 6:
            return
        for r in requests:
            legal = set(ref.legal_actions(r.player))
            accepted = _accepted_commands(ref, r.player)
            assert legal == accepted, (ref.turn, r.player, legal ^ accepted)

    for seed in range(3):
        random_game(seed, check=check)


def _load_bot() -> ModuleType:
    path = PARITY / "bots" / "fall2020_bot.py"
    spec = importlib.util.spec_from_file_location("fall2020_parity_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bot_rows(lines: tuple[str, ...]) -> tuple[list, list[int]]:
    """Parse one turn of input as the test bot does."""
    n = int(lines[0])
    rows = []
    for line in lines[1 : 1 + n]:
        p = line.split()
        rows.append(
            (
                int(p[0]),
                p[1],
                [int(x) for x in p[2:6]],
                int(p[6]),
                int(p[7]),
                int(p[8]),
                int(p[9]) == 1,
                int(p[10]) == 1,
            )
        )
    me = [int(x) for x in lines[1 + n].split()]
    return rows, me[:4]


def test_legal_actions_agree_with_the_official_test_bot() -> None:
    bot = _load_bot()

    def check(ref: Fall2020Referee, requests) -> None:
        for r in requests:
            rows, inv = _bot_rows(r.lines)
            brews, casts, learns, rest = bot.legal_moves(rows, inv)
            assert set(ref.legal_actions(r.player)) == set(brews + casts + learns + rest + ["WAIT"])

    for seed in range(20):
        random_game(seed, check=check)


def test_snapshots_are_json_serialisable() -> None:
    def check(ref: Fall2020Referee, requests) -> None:
        snap = json.loads(json.dumps(ref.snapshot()))
        assert snap["turn"] == ref.turn
        assert [p["inventory"] for p in snap["players"]] == [p.inventory for p in ref.state.players]

    for seed in range(3):
        random_game(seed, check=check)


@pytest.mark.parametrize("seed", [3, 11])
def test_official_bot_moves_are_never_refused(seed: int) -> None:
    """Play the official test bot's move choice in-process (its legal-move generator and a seeded
    choice) and require that the referee never refuses one of its legal moves."""
    bot = _load_bot()
    ref = referee.create("fall2020", seed)
    rngs = [bot.SplitMix64(1000 + seed), bot.SplitMix64(5000 + seed)]
    while not ref.is_over:
        outputs = {}
        for r in ref.requests():
            rows, inv = _bot_rows(r.lines)
            brews, casts, learns, rest = bot.legal_moves(rows, inv)
            pool = brews + casts + learns + rest + ["WAIT"]
            outputs[r.player] = rngs[r.player].choice(pool)
        report = ref.apply(outputs)
        assert report.errors == ()
    assert ref.outcome().end_reason in (EndReason.DELIVERY_GOAL, EndReason.MAX_TURNS)
