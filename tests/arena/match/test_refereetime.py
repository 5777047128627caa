"""A referee never hangs the arena: game parameters it cannot handle are refused before any bot
starts, a map that cannot be set up on one seed ends that game in one line, and a referee past its
CPU time ends the match with a referee error, its bots killed."""

from __future__ import annotations

import sys
import time

import pytest
from click.testing import CliRunner

from arena.match import MatchOptions, play_match
from arena.match.launch.botspec import BotSpec
from arena.match.limits import refereetime
from arena.match.limits.refereetime import RefereeFailure
from cli.arena import main
from referee.spring2021.referee import Spring2021Referee
from tests.helpers.paths import SHIPPED_BOTS
from tests.helpers.sandboxing import gone, marker

UNPLACEABLE_SEED = 13
"""With MAX_EMPTY_CELLS=37 (every cell of the 37 may become a hole), the map of seed 13 leaves no
room for the starting trees; seed 0's does (found by creating the games)."""


def wait_bot(mark: str) -> BotSpec:
    return BotSpec("wait", (sys.executable, "-u", str(SHIPPED_BOTS / "spring2021" / "wait_bot.py"), mark))


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_more_holes_than_cells_is_refused_at_once(command: str, tmp_path, monkeypatch) -> None:
    """The map generator looks for holes until it has as many as it drew: more than the cells, it
    looked forever (play and tournament hung until Ctrl-C)."""
    monkeypatch.chdir(tmp_path)
    args = [command, "spring2021", "wait", "wait", "--param", "MAX_EMPTY_CELLS=100", "--seed", "1"]
    started = time.monotonic()
    result = CliRunner().invoke(main, args)
    assert time.monotonic() - started < 10
    assert result.exit_code == 2, result.output
    assert "MAX_EMPTY_CELLS must be at most 37: the map of MAP_RING_COUNT 3 has 37 cells" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_seed_whose_map_cannot_be_set_up_stops_the_tournament_in_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "spring2021", "wait", "wait#2=wait", "--param", "MAX_EMPTY_CELLS=37"]
    result = CliRunner().invoke(main, [*args, "--seeds", str(UNPLACEABLE_SEED), "--workers", "1", "--no-progress"])
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith(f"Error: game (0, 0, 0) (seed {UNPLACEABLE_SEED}): spring2021 cannot be set up on seed")
    assert "no room for the starting trees" in last and "Traceback" not in result.output


def spin_after_two_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spring's referee loops forever from its third turn on (a bug of the game, say)."""
    original = Spring2021Referee._begin_turn

    def begin_turn(self: Spring2021Referee) -> list[int]:
        if self.turn >= 2:
            while True:
                pass
        return original(self)

    monkeypatch.setattr(Spring2021Referee, "_begin_turn", begin_turn)
    monkeypatch.setattr(refereetime, "REFEREE_BUDGET_S", 0.3)


def test_a_referee_past_its_time_ends_the_match_and_its_bots(monkeypatch) -> None:
    spin_after_two_turns(monkeypatch)
    mark = marker()
    started = time.monotonic()
    with pytest.raises(RefereeFailure, match=r"the spring2021 referee took more than 0.3 s of CPU time to play turn"):
        play_match("spring2021", 1, [wait_bot(mark), wait_bot(mark)], MatchOptions(time_scale=1.0))
    assert time.monotonic() - started < 0.3 * 5 + 3  # a margin of 5 on the budget, plus the bots' start
    assert gone(mark), "the bots outlived the match"


def test_arena_play_says_so_in_one_line(monkeypatch) -> None:
    spin_after_two_turns(monkeypatch)
    result = CliRunner().invoke(main, ["play", "spring2021", "wait", "wait", "--seed", "1"])
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: the spring2021 referee took more than 0.3 s of CPU time to play turn")
    assert "Traceback" not in result.output


def test_without_time_limits_the_referee_is_not_timed(monkeypatch) -> None:
    """--no-timeout is for debugging: the arena may wait forever, the referee is not timed."""
    calls = []
    monkeypatch.setattr(refereetime.signal, "setitimer", lambda *a: calls.append(a))
    play_match("spring2021", 1, [wait_bot(marker()), wait_bot(marker())], MatchOptions(no_timeout=True))
    assert calls == []
    play_match("spring2021", 1, [wait_bot(marker()), wait_bot(marker())], MatchOptions())
    assert calls  # and it is, with limits


def test_the_budget_is_per_turn_not_per_match(monkeypatch) -> None:
    """One timer bounds every turn of a match: turns that each stay under the budget never end
    the match, however much CPU they spend together; a turn alone over it does (the turn
    counts from its start, not from the timer's last signal)."""
    monkeypatch.setattr(refereetime, "REFEREE_BUDGET_S", 0.2)
    original = Spring2021Referee._begin_turn

    def busy(seconds: float) -> None:  # in user mode, which the timer counts (reading the clock is a system call)
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(20_000):
                pass

    def begin_turn(self: Spring2021Referee) -> list[int]:
        busy(0.12 if self.turn <= 6 else 0.0)  # six turns of 0.12 s: 0.72 s, each under 0.2 s
        if self.turn == 7:
            busy(0.5)
        return original(self)

    monkeypatch.setattr(Spring2021Referee, "_begin_turn", begin_turn)
    with pytest.raises(RefereeFailure, match=r"took more than 0.2 s of CPU time to play turn 7\b"):
        play_match("spring2021", 1, [wait_bot(marker()), wait_bot(marker())], MatchOptions())
