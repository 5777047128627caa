"""The pull-based dispatcher: which game comes next, given what is stored and decided.

Expected sequences are worked out by hand from the schedule's order (pairs in order; within a
pair each comparison's leg 0 then leg 1).
"""

from __future__ import annotations

from arena.standings.tracker import ComparisonTracker
from arena.stats.sprt import SprtParams
from arena.store.records import GameRecord, PlayerRecord
from arena.tournament.dispatcher import Dispatcher
from arena.tournament.schedule import GauntletSchedule

SPRT = SprtParams(elo0=0, elo1=400, alpha=0.3, beta=0.3)  # decides after a couple of pairs


def make(done: set[tuple[int, int, int]], sprt: SprtParams | None = None) -> Dispatcher:
    schedule = GauntletSchedule(["a", "b", "base"], master_seed=1, pairs=3, baseline="base")
    trackers = [ComparisonTracker(c.index, c.a, c.b, sprt) for c in schedule.comparisons()]
    return Dispatcher(schedule, trackers, done)


def keys(dispatcher: Dispatcher) -> list[tuple[int, int, int]]:
    out = []
    while (game := dispatcher.next_game()) is not None:
        out.append((game.comparison, game.pair, game.leg))
    return out


def win(comparison: int, pair: int, leg: int) -> GameRecord:
    """A game the comparison's first bot won (it sits in seat ``leg``)."""
    players = (
        PlayerRecord(0, "x", int(leg == 0), int(leg != 0), "ok"),
        PlayerRecord(1, "y", int(leg == 1), int(leg != 1), "ok"),
    )
    return GameRecord(
        comparison=comparison,
        pair=pair,
        leg=leg,
        seed=0,
        players=players,
        winner=leg,
        end_reason="max_rounds",
        turns=1,
        duration_s=0.0,
    )


def test_games_come_in_schedule_order_without_the_stored_ones() -> None:
    dispatcher = make({(0, 0, 0), (1, 1, 1)})
    assert dispatcher.remaining() == 10
    assert keys(dispatcher) == [
        (0, 0, 1),
        (1, 0, 0),
        (1, 0, 1),
        (0, 1, 0),
        (0, 1, 1),
        (1, 1, 0),
        (0, 2, 0),
        (0, 2, 1),
        (1, 2, 0),
        (1, 2, 1),
    ]
    assert dispatcher.next_game() is None


def test_a_decided_comparison_stops_being_scheduled() -> None:
    dispatcher = make(set(), SPRT)
    handed = [dispatcher.next_game() for _ in range(4)]  # pair 0 of both comparisons
    assert [(g.comparison, g.pair, g.leg) for g in handed if g] == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]
    decided = None
    for pair in (0, 1, 2):
        for leg in (0, 1):
            decided = decided or dispatcher.finished(win(0, pair, leg))
        if decided:
            break
    assert decided is not None and decided.index == 0 and decided.decided_at is not None
    assert decided.decided_at < 3  # decided before the schedule ran out
    rest = keys(dispatcher)
    assert [k for k in rest if k[0] == 0] == []  # pairs before the cut are finished, after it skipped
    assert [(c, p, leg) for c, p, leg in rest if c == 1] == [(1, 1, 0), (1, 1, 1), (1, 2, 0), (1, 2, 1)]
