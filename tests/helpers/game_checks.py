"""Checks that any registered game must pass (the protocol of ``referee/base.py``), whatever its
rules: used for every shipped game and for the test plugin game.

Where a game lists its legal actions, random legal play drives it to the end; otherwise players
stay silent, which every game must handle (the engine disqualifies them)."""

from __future__ import annotations

import json
import random

import pytest

import referee
from referee import DeactivationCause, ParameterError, ProtocolError, Referee


def _answers(ref: Referee, rng: random.Random) -> dict[int, tuple[str, ...] | None]:
    out: dict[int, tuple[str, ...] | None] = {}
    for r in ref.requests():
        if not r.expected_lines:
            continue
        try:
            legal = ref.legal_actions(r.player)
        except NotImplementedError:
            out[r.player] = None
            continue
        out[r.player] = tuple(rng.choice(legal) for _ in range(r.expected_lines)) if legal else None
    return out


def play_out(name: str, seed: int) -> list[object]:
    """Play a game to the end with seeded random answers, checking each frame; returns what was
    seen (requests, reports, snapshots) for comparison."""
    cls = referee.get(name)
    ref = referee.create(name, seed)
    rng = random.Random(seed)
    seen: list[object] = [ref.snapshot()]
    executed: set[int] = set()
    for _ in range(10_000):
        if ref.outcome() is not None:
            break
        requests = ref.requests()
        assert requests, "a running game must execute someone (or deliver to player 0)"
        assert ref.requests() == requests, "requests() must not change before apply()"
        for r in requests:
            assert 0 <= r.player < cls.player_count and r.expected_lines >= 0 and r.time_limit_ms > 0
            if r.expected_lines and r.player not in executed:
                assert r.time_limit_ms == cls.first_turn_time_ms
                executed.add(r.player)
        answers = _answers(ref, rng)
        report = ref.apply(answers)
        snapshot = ref.snapshot()
        json.dumps(snapshot)  # replays need it serialisable
        seen += [requests, report, snapshot]
    outcome = ref.outcome()
    assert outcome is not None, "the game did not end within 10,000 turns"
    assert len(outcome.scores) == len(outcome.ranks) == cls.player_count
    assert outcome.ranks == tuple(sum(o > s for o in outcome.scores) for s in outcome.scores)
    assert ref.requests() == ()
    with pytest.raises(ProtocolError):
        ref.apply({})
    seen.append(outcome)
    return seen


def check_game(name: str) -> None:
    cls = referee.get(name)
    assert cls.name == name and 2 <= cls.player_count <= 8
    assert play_out(name, 7) == play_out(name, 7), "the same seed and answers must give the same game"

    ref = referee.create(name, 3)
    while not any(r.expected_lines for r in ref.requests()):
        ref.apply({})  # frames that read nobody (Spring 2021's gathering)
    asked = [r for r in ref.requests() if r.expected_lines]
    wrong = {r.player: None for r in asked[1:]}
    with pytest.raises(ProtocolError):
        ref.apply(wrong)  # one player missing
    too_many = {r.player: ("x",) * (r.expected_lines + 1) for r in asked}
    with pytest.raises(ProtocolError):
        ref.apply(too_many)
    report = ref.apply({r.player: None for r in asked})  # everybody silent: all disqualified
    assert {(d.player, d.cause) for d in report.deactivations} == {(r.player, DeactivationCause.TIMEOUT) for r in asked}

    with pytest.raises(ParameterError):
        referee.create(name, 2**63)
    with pytest.raises(ParameterError):
        referee.create(name, 1, {"no_such_parameter_anywhere": "1"})
