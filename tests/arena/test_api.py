"""``arena.play_recorded``: the arena's public entry point for other tools (the bundler)."""

from __future__ import annotations

import sys

import pytest

from arena import ArenaError, Bot, play_recorded
from tests.helpers.paths import FIXTURES

WAIT_BOT = FIXTURES / "store_v1" / "bots" / "wait_bot.py"


def test_every_seat_gets_its_answers() -> None:
    quitter = WAIT_BOT.with_name("quitter_bot.py")
    seats = play_recorded("fall2020", 5, [Bot((sys.executable, "-u", str(WAIT_BOT)), name="w"), str(quitter)])
    wait, quit_ = seats
    # The quitter answers WAIT five times, then exits: disqualified on turn 6, game over.
    assert quit_.answers == tuple((turn, ("WAIT",)) for turn in range(1, 6)) + ((6, None),)
    assert quit_.status == "crash" and "exited with code 3" in quit_.message
    assert wait.answers == tuple((turn, ("WAIT",)) for turn in range(1, 7))
    assert wait.status == "ok" and wait.name == "w" and wait.turns == quit_.turns == 6
    assert wait.ok and not quit_.ok


def test_shipped_names_are_accepted() -> None:
    seats = play_recorded("spring2021", 3, ["wait", "wait"])
    assert {answer for seat in seats for _, answer in seat.answers} == {("WAIT",)}
    assert [s.status for s in seats] == ["ok", "ok"]


@pytest.mark.parametrize(
    ("game", "bots", "message"),
    [
        ("chess", ["wait", "wait"], "unknown game"),
        ("spring2021", ["wait"], "spring2021 is played by 2 bots, got 1"),
        ("spring2021", ["wait", "no_such_bot_anywhere"], "no_such_bot_anywhere"),
    ],
)
def test_bad_requests_fail_before_playing(game: str, bots: list[str], message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        play_recorded(game, 1, bots)
