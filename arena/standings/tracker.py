"""A comparison's games as they arrive, and its sequential test, independent of arrival order.

Two-player comparisons (:class:`ComparisonTracker`) are scored from the first bot's side and can
be stopped by an SPRT; tables of an N-player game (:class:`TableTracker`) count ranks. A
comparison's SPRT is fed its pairs in pair order, over the longest run of complete pairs from
pair 0; once decided at pair ``k``, its figures are those of pairs ``0..k-1`` (games that were
already running are stored but left out). So a resumed run, or one with other workers, reaches the
same numbers as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..stats import ComparisonStats, HeadToHead
from ..stats.sprt import SprtParams, SprtState
from ..store.records import GameRecord

__all__ = ["score_of_a", "Tracker", "ComparisonTracker", "TableTracker", "make_tracker"]


def score_of_a(record: GameRecord) -> float:
    """The comparison's first bot's score in this game: 1, 1/2 or 0 (both disqualified: 1/2)."""
    seat_a = record.leg  # leg 0: a is player 0; leg 1: a is player 1
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner == seat_a else 0.0


class Tracker(Protocol):
    """What the scheduler needs of a comparison's tracker."""

    index: int
    bots: tuple[str, ...]
    decided_at: int | None
    """The number of pairs an SPRT decision was made on (no game from that pair on is played)."""
    decision: SprtState | None

    def add(self, record: GameRecord) -> bool:
        """Count a game; True when it decided the comparison."""
        ...


class ComparisonTracker:
    """The games of one two-bot comparison, and its sequential test, independent of arrival
    order."""

    def __init__(self, index: int, a: str, b: str, sprt: SprtParams | None) -> None:
        self.index = index
        self.bots: tuple[str, ...] = (a, b)
        self.sprt = sprt
        self.legs: dict[int, dict[int, float]] = {}
        self.prefix = 0
        """Pairs 0..prefix-1 are complete and were fed to the test."""
        self._prefix_stats = HeadToHead(a, b)
        self.decision: SprtState | None = None
        self.decided_at: int | None = None
        """The number of pairs the decision was made on."""

    def add(self, record: GameRecord) -> bool:
        """Count a game. Returns True when this game decided the comparison."""
        self.legs.setdefault(record.pair, {})[record.leg] = score_of_a(record)
        if self.decision is not None:
            return False
        while len(self.legs.get(self.prefix, {})) == 2:
            legs = self.legs[self.prefix]
            self._prefix_stats.add_pair(legs[0], legs[1])
            self.prefix += 1
            if self.sprt is not None:
                state = self._prefix_stats.sprt(self.sprt).state
                if state.decided:
                    self.decision = state
                    self.decided_at = self.prefix
                    return True
        return False

    def counted(self) -> HeadToHead:
        """The games the figures count: pairs before the decision, or every game so far."""
        comp = HeadToHead(self.bots[0], self.bots[1])
        for pair in sorted(self.legs):
            if self.decided_at is not None and pair >= self.decided_at:
                continue
            legs = self.legs[pair]
            if len(legs) == 2:
                comp.add_pair(legs[0], legs[1])
            else:
                for score in legs.values():
                    comp.add_single(score)
        return comp

    def stats(self) -> ComparisonStats:
        """:class:`arena.stats.ComparisonStats`; the SPRT part is over the complete pairs in
        order (the ones the test has seen)."""
        st = self.counted().stats(None)
        if self.sprt is not None:
            st = replace(st, sprt=self._prefix_stats.sprt(self.sprt))
        return st


@dataclass(frozen=True)
class TableStanding:
    """One bot's results at a table of an N-player game."""

    bot: str
    games: int
    firsts: int
    """Games it ranked first in (alone or tied)."""
    mean_rank: float | None
    """Average rank, 1 = first (``None`` before any game)."""
    mean_score: float | None


class TableTracker:
    """The games of one table of an N-player game: ranks and scores per bot (no SPRT: the
    sequential test is a two-bot statistic)."""

    def __init__(self, index: int, bots: Sequence[str]) -> None:
        self.index = index
        self.bots = tuple(bots)
        self.decided_at: int | None = None
        self.decision: SprtState | None = None
        self.games: dict[tuple[int, int], GameRecord] = {}

    def add(self, record: GameRecord) -> bool:
        self.games[(record.pair, record.leg)] = record
        return False

    def standings(self) -> list[TableStanding]:
        """Each bot of the table, in the table's order."""
        out = []
        for bot in self.bots:
            ranks = [p.rank + 1 for g in self.games.values() for p in g.players if p.bot == bot]
            scores = [p.score for g in self.games.values() for p in g.players if p.bot == bot]
            out.append(
                TableStanding(
                    bot=bot,
                    games=len(ranks),
                    firsts=sum(r == 1 for r in ranks),
                    mean_rank=sum(ranks) / len(ranks) if ranks else None,
                    mean_score=sum(scores) / len(scores) if scores else None,
                )
            )
        return out


def make_tracker(index: int, bots: Sequence[str], sprt: SprtParams | None) -> ComparisonTracker | TableTracker:
    """The tracker for a comparison of ``bots``: head to head for two, a table for more."""
    if len(bots) == 2:
        return ComparisonTracker(index, bots[0], bots[1], sprt)
    return TableTracker(index, bots)
