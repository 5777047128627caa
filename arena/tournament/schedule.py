"""Which games a tournament plays: comparisons (groups of bots), seed pairs, seats.

Everything follows from the master seed (or from a fixed list of seeds, to replay chosen maps).
A comparison is as many bots as the game has seats: two bots compared head to head, or a table
of N bots in an N-player game. Pair ``k`` uses the same game seed in every comparison, so all
bots meet the same maps; each seed is played once per seat with the bots rotated (``leg`` ``j``:
the comparison's first bot is player ``j``, the others follow in order), so every bot sits in
every seat once per seed. In a two-player game that is the classic pair of games with the seats
swapped. Games are listed pair by pair, comparisons interleaved, so that partial results are
balanced across comparisons.

Pairing is a few overridable methods (:meth:`Schedule.comparisons`, :meth:`Schedule.seed`,
:meth:`Schedule.games`), as in cutechess's tournament classes.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..runner.task import ScheduledGame

__all__ = [
    "Format",
    "Comparison",
    "ScheduledGame",
    "Schedule",
    "GauntletSchedule",
    "RoundRobinSchedule",
    "make_schedule",
    "pair_seed",
]


class Format(str, enum.Enum):
    """How a tournament pairs its bots (the value is what configs, flags and storage use)."""

    GAUNTLET = "gauntlet"
    """Every bot against one baseline."""
    ROUND_ROBIN = "round-robin"
    """Every bot against every other bot (every group of N bots in an N-player game)."""


@dataclass(frozen=True)
class Comparison:
    """Bots that play each other on the same seeds: two compared from ``a``'s side, or the N of
    a table in an N-player game."""

    index: int
    bots: tuple[str, ...]

    @property
    def a(self) -> str:
        return self.bots[0]

    @property
    def b(self) -> str:
        return self.bots[1]

    def seats(self, leg: int) -> tuple[str, ...]:
        """Who sits where in leg ``leg``: the first bot is player ``leg``, the others follow."""
        n = len(self.bots)
        return tuple(self.bots[(seat - leg) % n] for seat in range(n))


def pair_seed(master_seed: int, pair: int) -> int:
    """The game seed of pair ``pair``: a Java long derived from the master seed (BLAKE2b of both,
    so it is the same on every machine and Python version)."""
    digest = hashlib.blake2b(f"cgarena/{master_seed}/{pair}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Schedule:
    """Base schedule: subclasses say which comparisons are played."""

    def __init__(
        self, bots: Sequence[str], master_seed: int, pairs: int, players: int = 2, seeds: Sequence[int] | None = None
    ) -> None:
        if players < 2:
            raise ValueError(f"a game needs at least 2 players, not {players}")
        if len(bots) < players:
            raise ValueError(f"{players}-player games need at least {players} bots, got {len(bots)}")
        self.bots = list(bots)
        self.master_seed = master_seed
        self.pairs = pairs
        """Seeds per comparison (each played once per seat: a pair of games with two players)."""
        self.players = players
        self.seeds = None if seeds is None else tuple(seeds)
        """A fixed list of game seeds, one per pair, instead of seeds derived from the master seed."""
        if self.seeds is not None and len(self.seeds) < pairs:
            raise ValueError(f"{pairs} pairs need {pairs} seeds, got {len(self.seeds)}")

    def comparisons(self) -> list[Comparison]:
        raise NotImplementedError

    def seed(self, pair: int) -> int:
        if self.seeds is not None:
            return self.seeds[pair]
        return pair_seed(self.master_seed, pair)

    def games(self, first_pair: int = 0) -> Iterator[ScheduledGame]:
        """Every game from pair ``first_pair`` on, in playing order."""
        comparisons = self.comparisons()
        for pair in range(first_pair, self.pairs):
            seed = self.seed(pair)
            for c in comparisons:
                for leg in range(self.players):
                    yield ScheduledGame(c.index, pair, leg, seed, c.seats(leg))


class GauntletSchedule(Schedule):
    """Every other bot against the baseline (from the other bot's side: the candidate is ``a``)."""

    def __init__(
        self,
        bots: Sequence[str],
        master_seed: int,
        pairs: int,
        baseline: str,
        players: int = 2,
        seeds: Sequence[int] | None = None,
    ) -> None:
        if players != 2:
            raise ValueError(f"a gauntlet compares two bots at a time: use round-robin for {players}-player games")
        super().__init__(bots, master_seed, pairs, players, seeds)
        if baseline not in self.bots:
            raise ValueError(f"baseline {baseline!r} is not one of the bots")
        self.baseline = baseline

    def comparisons(self) -> list[Comparison]:
        others = [b for b in self.bots if b != self.baseline]
        return [Comparison(i, (b, self.baseline)) for i, b in enumerate(others)]


class RoundRobinSchedule(Schedule):
    """Every group of ``players`` bots (every two bots in a two-player game) once per pair, in
    the order of :func:`itertools.combinations`."""

    def comparisons(self) -> list[Comparison]:
        groups = itertools.combinations(self.bots, self.players)
        return [Comparison(i, group) for i, group in enumerate(groups)]


def make_schedule(
    fmt: str,
    bots: Sequence[str],
    master_seed: int,
    pairs: int,
    baseline: str | None = None,
    players: int = 2,
    seeds: Sequence[int] | None = None,
) -> Schedule:
    if fmt == Format.GAUNTLET:
        return GauntletSchedule(bots, master_seed, pairs, baseline or bots[-1], players, seeds)
    if fmt == Format.ROUND_ROBIN:
        return RoundRobinSchedule(bots, master_seed, pairs, players, seeds)
    raise ValueError(f"unknown format {fmt!r}")
