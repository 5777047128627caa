"""``cli.ladder_progress``: what ``arena ladder run`` prints off a terminal (a line every ten
seconds and one at the end: games, rate, the top five, the least certain pair), figures worked by
hand; a bot's first failure on its own line."""

from __future__ import annotations

import io

from arena.ladder.runner import LadderGameDone, LadderStarted
from arena.runner.failures import Failure
from arena.standings.ranking import RankedBot, Ranking
from arena.store.records import GameRecord, PlayerRecord
from arena.tournament.runner import BotFailed
from cli.ladder_progress import LadderProgress, status_line


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def ranking(n: int) -> Ranking:
    """``n`` bots b1..bn rated 100, 90, ... with intervals of +-25."""
    bots = tuple(
        RankedBot(f"b{i}", i, 110.0 - 10 * i, 85.0 - 10 * i, 135.0 - 10 * i, 10, 0.5, 0.6 if i < n else None)
        for i in range(1, n + 1)
    )
    return Ranking(bots, {}, 5 * n, "test")


def record(seed: int = 7, status: str = "ok", game_id: int = 3) -> GameRecord:
    players = (
        PlayerRecord(0, "b1", 5, 0, "ok"),
        PlayerRecord(1, "b2", 0, 1, status, "no answer" if status != "ok" else ""),
    )
    return GameRecord(0, 0, 0, seed, players, 0, "turns", 24, 0.1, id=game_id)


def test_the_status_shows_the_first_five_and_the_least_certain_pair() -> None:
    text = status_line(ranking(7), ("b3", "b4", 0.614))
    assert text == (
        "top: b1 +100 ±25, b2 +90 ±25, b3 +80 ±25, b4 +70 ±25, b5 +60 ±25; least certain: b3 above b4, P 0.61"
    )
    assert status_line(Ranking((), {}, 0, "test"), None) == "no bot ranked yet"


def test_off_a_terminal_a_line_every_ten_seconds_and_the_last_one_at_the_end() -> None:
    stream, clock = io.StringIO(), FakeClock()
    view = LadderProgress(False, stream, clock)
    view.on_event(LadderStarted(1, 40, ("b1", "b2"), 0, 6))
    rank = ranking(2)
    for played, now in ((1, 101.0), (2, 111.0), (3, 112.0), (4, 125.0), (5, 126.0)):
        clock.now = now
        view.on_event(LadderGameDone(record(), played, 40 + played, 6, rank, ("b1", "b2", 0.6)))
    view.close()
    got = stream.getvalue().splitlines()
    top = "top: b1 +100 ±25, b2 +90 ±25; least certain: b1 above b2, P 0.60"
    assert got == [
        f"ladder 1: 42 games stored (+2 this run), 0.18 games/s; {top}",  # 11 s after the start: 2 / 11
        f"ladder 1: 44 games stored (+4 this run), 0.16 games/s; {top}",  # 25 s: 4 / 25
        f"ladder 1: 45 games stored (+5 this run), 0.19 games/s; {top}",  # the last state, at close: 5 / 26
    ]


def test_a_bot_s_first_failure_is_said_once_with_the_game_to_look_at() -> None:
    stream = io.StringIO()
    view = LadderProgress(True, stream)
    failed = record(status="timeout", game_id=12)
    view.on_event(BotFailed(Failure(failed, failed.players[1], first=True)))
    view.on_event(BotFailed(Failure(failed, failed.players[1], first=False)))
    assert stream.getvalue().splitlines() == [
        "warning: bot 'b2' failed for the first time: timeout (no answer); game 12, seed 7 "
        "(details: arena matches show 12)"
    ]


def test_an_overloaded_timeout_is_said_to_be_the_machines() -> None:
    """#34 point 1: a timeout in an overloaded window is not called a failure of the bot."""
    stream = io.StringIO()
    view = LadderProgress(True, stream)
    failed = record(status="timeout", game_id=12)
    view.on_event(BotFailed(Failure(failed, failed.players[1], first=True, overloaded=True)))
    assert stream.getvalue().splitlines() == [
        "warning: bot 'b2' timed out for the first time, not counted as a failure: no answer; game 12, seed 7 "
        "(details: arena matches show 12)"
    ]
