"""``cli.progress.RunView``: what a run (a ladder's here, the tournament's in test_tournament)
prints while it plays off a terminal: its start, a line every ten seconds with the top of the
ranking and the least certain pair, one at the end; a bot's first failure on its own line.
Figures worked by hand."""

from __future__ import annotations

import io

from arena.ladder.scheduler import LadderStanding, LadderStart
from arena.runner.failures import Failure
from arena.runner.runner import BotFailed, GameDone, Started
from arena.standings.ranking import RankedBot, Ranking
from arena.store.records import GameRecord, PlayerRecord
from cli.progress import RunView, describe_ranking


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


def view(stream: io.StringIO, clock: FakeClock | None = None, quiet: bool = False) -> RunView:
    return RunView(
        lambda e: f"ladder {e.run_id}: {e.stored} games stored",
        lambda r: f"game {r.id} (details: arena matches show {r.id})",
        quiet=quiet,
        stream=stream,
        clock=clock or FakeClock(),
    )


def test_the_status_shows_the_first_five_and_the_least_certain_pair() -> None:
    text = describe_ranking(LadderStanding(1, ranking(7), ("b3", "b4", 0.614)))
    assert text == (
        "top: b1 +100 ±25, b2 +90 ±25, b3 +80 ±25, b4 +70 ±25, b5 +60 ±25; least certain: b3 above b4, P 0.61"
    )
    assert describe_ranking(LadderStanding(1, Ranking((), {}, 0, "test"), None)) == "no bot ranked yet"


def test_off_a_terminal_a_line_every_ten_seconds_and_the_last_one_at_the_end() -> None:
    stream, clock = io.StringIO(), FakeClock()
    shown = view(stream, clock)
    start = LadderStart(("b1", "b2"), 0, None)
    shown.on_event(Started("ladder", 1, True, 40, 0, None, ("one warning",), (), start))
    standing = LadderStanding(1, ranking(2), ("b1", "b2", 0.6))
    for played, now in ((1, 101.0), (2, 111.0), (3, 112.0), (4, 125.0), (5, 126.0)):
        clock.now = now
        shown.on_event(GameDone(record(), played, 40 + played, played, None, standing))
    shown.close()
    top = "top: b1 +100 ±25, b2 +90 ±25; least certain: b1 above b2, P 0.60"
    assert stream.getvalue().splitlines() == [
        "warning: one warning",
        "ladder 1: 40 games stored",
        f"progress: 2 games, {top}, 0.18 games/s",  # 11 s after the start: 2 / 11
        f"progress: 4 games, {top}, 0.16 games/s",  # 25 s: 4 / 25
        f"progress: 5 games, {top}, 0.19 games/s",  # the last state, at close: 5 / 26
    ]


def test_a_run_to_a_count_ends_with_its_last_line_and_the_time_it_took() -> None:
    stream, clock = io.StringIO(), FakeClock()
    shown = view(stream, clock)
    shown.on_event(Started("ladder", 1, True, 0, 0, 4, (), (), LadderStart(("b1", "b2"), 0, 4)))
    standing = LadderStanding(1, ranking(2), None)
    clock.now = 104.0
    shown.on_event(GameDone(record(), 4, 4, 4, 4, standing))
    shown.close()
    assert (
        stream.getvalue().splitlines()[-1]
        == "progress: 4/4 games (100%), top: b1 +100 ±25, b2 +90 ±25, 1.0 games/s, took 4s"
    )


def test_a_bot_s_first_failure_is_said_once_with_the_game_to_look_at() -> None:
    stream = io.StringIO()
    shown = view(stream, quiet=True)
    failed = record(status="timeout", game_id=12)
    shown.on_event(BotFailed(Failure(failed, failed.players[1], first=True)))
    shown.on_event(BotFailed(Failure(failed, failed.players[1], first=False)))
    assert stream.getvalue().splitlines() == [
        "warning: bot 'b2' failed for the first time: timeout (no answer); game 12 (details: arena matches show 12)"
    ]


def test_an_overloaded_timeout_is_said_to_be_the_machines() -> None:
    """#34 point 1: a timeout in an overloaded window is not called a failure of the bot."""
    stream = io.StringIO()
    shown = view(stream, quiet=True)
    failed = record(status="timeout", game_id=12)
    shown.on_event(BotFailed(Failure(failed, failed.players[1], first=True, overloaded=True)))
    assert stream.getvalue().splitlines() == [
        "warning: bot 'b2' timed out for the first time, not counted as a failure: no answer; game 12 "
        "(details: arena matches show 12)"
    ]
