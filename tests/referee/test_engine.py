"""The engine's own shortcuts give what the plain constructions give."""

from __future__ import annotations

import dataclasses

import pytest

import referee
from referee.base import Deactivation, DeactivationCause, FrameReport, Request
from referee.engine import _frame_report
from referee.fall2020.referee import Fall2020Referee


def test_the_engine_builds_the_frame_report_the_dataclass_builds() -> None:
    gone = Deactivation(1, 7, DeactivationCause.TIMEOUT, "Timeout!")
    fields = (7, ("Round 3/23",), ((0, "Cell 99 not found"),), (gone,), ((1, "hi"),), "ACTIONS")
    made = _frame_report(*fields)
    assert made == FrameReport(*fields)
    assert dataclasses.astuple(made) == dataclasses.astuple(FrameReport(*fields))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.turn = 8  # type: ignore[misc]


def test_a_deferred_request_is_the_request_of_its_lines() -> None:
    calls = []

    def later() -> list[str]:
        calls.append(1)
        return ["c", "d"]

    request = Request.deferred(1, (["a", "b"], later, ()), 1, 100)
    assert calls == []  # nothing is made until the lines are read
    assert request == Request(1, ("a", "b", "c", "d"), 1, 100)
    assert request.lines == ("a", "b", "c", "d") and calls == [1]
    assert hash(request) == hash(Request(1, ["a", "b", "c", "d"], 1, 100))
    assert request != Request(1, ("a", "b", "c"), 1, 100)
    with pytest.raises(AttributeError):
        request.player = 0  # type: ignore[misc]


def test_a_request_of_one_part_is_the_request_of_its_lines() -> None:
    made = Request.deferred(0, (lambda: ["x", "y"],), 1, 50)
    given = Request.deferred(0, (["x", "y"],), 1, 50)
    assert made.lines == given.lines == ("x", "y")
    assert made == given == Request(0, ["x", "y"], 1, 50)
    assert Request.deferred(0, (), 0, 50).lines == ()


def test_frame_reports_carry_the_phase_of_games_that_have_one() -> None:
    spring = referee.create("spring2021", 1)
    phases = []
    for _ in range(5):
        phases.append(spring.apply(dict.fromkeys(spring.players_to_act(), "WAIT")).phase)
    assert phases == ["GATHERING", "ACTIONS", "SUN_MOVE", "GATHERING", "ACTIONS"]
    fall = referee.create("fall2020", 1)
    assert fall.apply(dict.fromkeys(fall.players_to_act(), "WAIT")).phase is None

    class Phased(Fall2020Referee):
        def _phase(self) -> str | None:
            return f"turn {self.turn}"

    phased = Phased(1)
    assert phased.apply(dict.fromkeys(phased.players_to_act(), "WAIT")).phase == "turn 1"
