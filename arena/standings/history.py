"""How a tournament's figures moved as its games came in: for each two-bot comparison, the Elo
estimate with its 95% interval and the SPRT's log-likelihood ratio after each game (sampled to at
most ``points`` points), computed by the same trackers as the standings, so that the last point
is the figure ``arena results`` shows; and the maps (seeds) each bot loses most."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..stats.elo import finite
from ..stats.sprt import SprtParams
from ..store.browse import result_of
from ..store.records import GameRecord, TournamentRow
from ..store.results import Store
from .tournament import sprt_params
from .tracker import ComparisonTracker, make_tracker

__all__ = [
    "HistoryPoint",
    "ComparisonHistory",
    "SeedLosses",
    "TournamentHistory",
    "comparison_history",
    "losing_seeds",
    "tournament_history",
]


@dataclass(frozen=True)
class HistoryPoint:
    """The figures of a comparison once ``games`` of its games were stored (``None``: not yet
    defined)."""

    games: int
    elo: float | None
    elo_lo: float | None
    elo_hi: float | None
    llr: float | None


@dataclass(frozen=True)
class ComparisonHistory:
    """A comparison's figures over its games, and its SPRT bounds (``None`` without an SPRT)."""

    index: int
    bots: tuple[str, str]
    points: tuple[HistoryPoint, ...]
    lower_bound: float | None
    upper_bound: float | None


def _point(tracker: ComparisonTracker, games: int) -> HistoryPoint:
    s = tracker.stats()
    llr = s.sprt.llr if s.sprt is not None else None
    return HistoryPoint(games, finite(s.elo), finite(s.elo_lo), finite(s.elo_hi), finite(llr))


def comparison_history(
    index: int, bots: tuple[str, str], games: Sequence[GameRecord], sprt: SprtParams | None = None, points: int = 60
) -> ComparisonHistory:
    """The history of comparison ``index`` of ``bots`` over ``games`` (its games, in the order they
    were stored), with the SPRT ``sprt`` (:class:`arena.stats.sprt.SprtParams`, or ``None``)."""
    tracker = make_tracker(index, bots, sprt)
    assert isinstance(tracker, ComparisonTracker)
    ordered = sorted((g for g in games if g.comparison == index), key=lambda g: g.id or 0)
    step = max(1, math.ceil(len(ordered) / max(1, points)))
    out: list[HistoryPoint] = []
    for n, game in enumerate(ordered, start=1):
        tracker.add(game)
        if n % step == 0 or n == len(ordered):
            out.append(_point(tracker, n))
    stats = tracker.stats()
    lower = stats.sprt.lower_bound if stats.sprt is not None else None
    upper = stats.sprt.upper_bound if stats.sprt is not None else None
    return ComparisonHistory(index, bots, tuple(out), lower, upper)


@dataclass(frozen=True)
class SeedLosses:
    """A map on which a bot lost: its seed, the games lost and played on it, and the referee's
    facts about it (``None`` when they were not stored)."""

    seed: int
    lost: int
    played: int
    facts: dict[str, int | str] | None


def losing_seeds(bot: str, games: Sequence[GameRecord], top: int = 5) -> list[SeedLosses]:
    """The ``top`` seeds on which ``bot`` lost most games (then most often played, then lowest
    seed), among ``games``; seeds it never lost on are left out."""
    lost: dict[int, int] = {}
    played: dict[int, int] = {}
    facts: dict[int, dict[str, int | str] | None] = {}
    for g in games:
        for p in g.players:
            if p.bot != bot:
                continue
            played[g.seed] = played.get(g.seed, 0) + 1
            facts.setdefault(g.seed, g.meta)
            if result_of(g, p) == "loss":
                lost[g.seed] = lost.get(g.seed, 0) + 1
    ranked = sorted(lost, key=lambda s: (-lost[s], -played[s], s))[:top]
    return [SeedLosses(s, lost[s], played[s], facts[s]) for s in ranked]


@dataclass(frozen=True)
class TournamentHistory:
    """Every two-bot comparison's history, and each bot's most losing maps."""

    comparisons: tuple[ComparisonHistory, ...]
    losses: dict[str, list[SeedLosses]]


def tournament_history(
    store: Store, row: TournamentRow, games: Sequence[GameRecord], points: int = 60
) -> TournamentHistory:
    """The history of the stored tournament ``row`` over ``games`` (its games, as the caller read
    them from ``store`` for its standings too)."""
    ordered = sorted(games, key=lambda g: g.id or 0)
    sprt = sprt_params(row.settings)
    histories = tuple(
        comparison_history(c.index, (c.bots[0], c.bots[1]), ordered, sprt, points)
        for c in store.comparisons(row.id)
        if len(c.bots) == 2
    )
    return TournamentHistory(histories, {b.name: losing_seeds(b.name, ordered) for b in store.bots(row.id)})
