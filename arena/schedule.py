"""Which games a tournament plays: comparisons (pairs of bots), seed pairs, seats.

Everything follows from the master seed. Pair ``k`` uses the same game seed in every comparison,
so all bots meet the same maps; each seed is played twice with the seats swapped (``leg`` 0: the
comparison's first bot is player 0; leg 1: it is player 1). Games are listed pair by pair,
comparisons interleaved, so that partial results are balanced across comparisons.

Pairing is a few overridable methods (:meth:`Schedule.comparisons`, :meth:`Schedule.seed`,
:meth:`Schedule.games`), as in cutechess's tournament classes.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["Format", "Comparison", "ScheduledGame", "Schedule", "GauntletSchedule", "RoundRobinSchedule",
           "make_schedule", "pair_seed"]


class Format(str, enum.Enum):
    """How a tournament pairs its bots (the value is what configs, flags and storage use)."""

    GAUNTLET = "gauntlet"
    """Every bot against one baseline."""
    ROUND_ROBIN = "round-robin"
    """Every bot against every other bot."""


@dataclass(frozen=True)
class Comparison:
    """Two bots compared with each other, from ``a``'s side."""

    index: int
    a: str
    b: str


@dataclass(frozen=True)
class ScheduledGame:
    comparison: int
    pair: int
    leg: int
    """0: the comparison's first bot sits as player 0; 1: seats swapped."""
    seed: int
    seats: tuple[str, str]


def pair_seed(master_seed: int, pair: int) -> int:
    """The game seed of pair ``pair``: a Java long derived from the master seed (BLAKE2b of both,
    so it is the same on every machine and Python version)."""
    digest = hashlib.blake2b(f"cgarena/{master_seed}/{pair}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Schedule:
    """Base schedule: subclasses say which comparisons are played."""

    def __init__(self, bots: Sequence[str], master_seed: int, pairs: int) -> None:
        self.bots = list(bots)
        self.master_seed = master_seed
        self.pairs = pairs

    def comparisons(self) -> list[Comparison]:
        raise NotImplementedError

    def seed(self, pair: int) -> int:
        return pair_seed(self.master_seed, pair)

    def games(self, first_pair: int = 0) -> Iterator[ScheduledGame]:
        """Every game from pair ``first_pair`` on, in playing order."""
        comparisons = self.comparisons()
        for pair in range(first_pair, self.pairs):
            seed = self.seed(pair)
            for c in comparisons:
                yield ScheduledGame(c.index, pair, 0, seed, (c.a, c.b))
                yield ScheduledGame(c.index, pair, 1, seed, (c.b, c.a))

    def total_games(self) -> int:
        return 2 * self.pairs * len(self.comparisons())


class GauntletSchedule(Schedule):
    """Every other bot against the baseline (from the other bot's side: the candidate is ``a``)."""

    def __init__(self, bots: Sequence[str], master_seed: int, pairs: int, baseline: str) -> None:
        super().__init__(bots, master_seed, pairs)
        if baseline not in self.bots:
            raise ValueError(f"baseline {baseline!r} is not one of the bots")
        self.baseline = baseline

    def comparisons(self) -> list[Comparison]:
        others = [b for b in self.bots if b != self.baseline]
        return [Comparison(i, b, self.baseline) for i, b in enumerate(others)]


class RoundRobinSchedule(Schedule):
    """Every bot against every other bot once per pair."""

    def comparisons(self) -> list[Comparison]:
        return [Comparison(i, a, b) for i, (a, b) in enumerate(itertools.combinations(self.bots, 2))]


def make_schedule(fmt: str, bots: Sequence[str], master_seed: int, pairs: int,
                  baseline: str | None = None) -> Schedule:
    if fmt == Format.GAUNTLET:
        return GauntletSchedule(bots, master_seed, pairs, baseline or bots[-1])
    if fmt == Format.ROUND_ROBIN:
        return RoundRobinSchedule(bots, master_seed, pairs)
    raise ValueError(f"unknown format {fmt!r}")
