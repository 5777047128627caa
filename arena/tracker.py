"""A comparison's games as they arrive, and its sequential test, independent of arrival order.

A comparison's SPRT is fed its pairs in pair order, over the longest run of complete pairs from
pair 0; once decided at pair ``k``, its figures are those of pairs ``0..k-1`` (games that were
already running are stored but left out). So a resumed run, or one with other workers, reaches the
same numbers as an uninterrupted one.
"""

from __future__ import annotations

from dataclasses import replace

from .sprt import SprtParams, SprtState
from .stats import Comparison, ComparisonStats
from .store import GameRecord

__all__ = ["score_of_a", "ComparisonTracker"]


def score_of_a(record: GameRecord) -> float:
    """The comparison's first bot's score in this game: 1, 1/2 or 0 (both disqualified: 1/2)."""
    seat_a = record.leg  # leg 0: a is player 0; leg 1: a is player 1
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner == seat_a else 0.0


class ComparisonTracker:
    """The games of one comparison, and its sequential test, independent of arrival order."""

    def __init__(self, index: int, a: str, b: str, sprt: SprtParams | None) -> None:
        self.index = index
        self.bots = (a, b)
        self.sprt = sprt
        self.legs: dict[int, dict[int, float]] = {}
        self.prefix = 0
        """Pairs 0..prefix-1 are complete and were fed to the test."""
        self._prefix_stats = Comparison(a, b)
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

    def counted(self) -> Comparison:
        """The games the figures count: pairs before the decision, or every game so far."""
        comp = Comparison(*self.bots)
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
