"""What to play next: the pull side of a tournament.

The tournament asks :meth:`Dispatcher.next_game` whenever its executor has a free slot, and tells
:meth:`Dispatcher.finished` about every result; the dispatcher answers from the fixed schedule
(:mod:`arena.tournament.schedule`: seeds, seats and pairings, fixed in advance) and the results so
far, so adaptive formats fit here: SPRT stopping is the one today (a comparison decided at pair ``k`` plays no pair from
``k`` on), and a format such as knockout or Swiss would be another dispatcher.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..runner.task import ScheduledGame
from ..standings.tracker import Tracker
from ..store.records import GameRecord
from .schedule import Schedule

__all__ = ["Dispatcher"]


class Dispatcher:
    """The schedule's games in order, less those stored (``done``) and those past an SPRT
    decision; ``trackers`` (one per comparison, already fed the stored games) are updated here."""

    def __init__(self, schedule: Schedule, trackers: Sequence[Tracker], done: set[tuple[int, int, int]]) -> None:
        self.schedule = schedule
        self.trackers = trackers
        self.done = done
        self._queue = self._wanted()

    def _wanted(self) -> Iterator[ScheduledGame]:
        """The wanted games in schedule order, made one at a time as they are asked for (a game's
        seed is computed only for a game that is handed out)."""
        schedule = self.schedule
        comparisons = schedule.comparisons()
        for pair in range(schedule.pairs):
            seed: int | None = None
            going_on = [c for c in comparisons if (d := self.trackers[c.index].decided_at) is None or pair < d]
            if not going_on:
                return  # every comparison is decided: no later pair is played
            for c in going_on:
                for leg in range(schedule.players):
                    if (c.index, pair, leg) in self.done:
                        continue
                    if seed is None:
                        seed = schedule.seed(pair)
                    yield ScheduledGame(c.index, pair, leg, seed, c.seats(leg))

    def next_game(self) -> ScheduledGame | None:
        """The next game to start, or ``None`` when every wanted game has been handed out."""
        for game in self._queue:  # a decision may have come while it waited
            decided_at = self.trackers[game.comparison].decided_at
            if game.key not in self.done and (decided_at is None or game.pair < decided_at):
                return game
        return None

    def finished(self, record: GameRecord) -> Tracker | None:
        """Count a finished game; returns its comparison's tracker when this game decided it."""
        self.done.add(record.key)
        tracker = self.trackers[record.comparison]
        return tracker if tracker.add(record) else None

    def remaining(self) -> int:
        """Games still wanted, counting those being played: counted from the schedule's size, the
        decisions and the games done (never by listing the games, so a schedule of millions of
        games starts at once)."""
        schedule = self.schedule
        limits = {}
        for c in schedule.comparisons():
            decided_at = self.trackers[c.index].decided_at
            limits[c.index] = schedule.pairs if decided_at is None else min(schedule.pairs, decided_at)
        wanted = schedule.players * sum(limits.values())
        done = sum(1 for c, pair, leg in self.done if pair < limits.get(c, 0) and 0 <= leg < schedule.players)
        return wanted - done
