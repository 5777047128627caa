"""The standings of a tournament, from its database alone (finished or still running), as typed
records: :func:`standings` (or :func:`load_standings`, from a database file) gives a
:class:`Standings`. Its :meth:`Standings.to_dict` is the JSON of ``arena results --format json``.

It holds the settings; per comparison the statistics (from the first bot's side, with the SPRT
state; for the tables of an N-player game each bot's first places and mean rank); per bot its
health (:mod:`arena.standings.health`); the ranking of the bots (:func:`arena.standings.ranking.rank`,
as a ladder's: a Bradley-Terry fit for two-player games, openskill with more seats) over the
counted games; for sweeps the variants ranked with their intervals; and for games played on Dask
workers the same health figures per worker.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..stats import ComparisonStats, rank_sweep, sweep_points
from ..stats.elo import finite
from ..stats.sprt import SprtModel, SprtParams
from ..stats.sweep import SweepPoint
from ..store.browse import find_tournament
from ..store.records import GameRecord, TournamentRow
from ..store.results import Store
from .health import BotHealth, WorkerHealth, bot_health, worker_health
from .ranking import Played, Ranking, rank
from .tracker import ComparisonTracker, TableStanding, TableTracker, make_tracker

__all__ = [
    "TournamentInfo",
    "PairStanding",
    "TableStandings",
    "SweepVariant",
    "SweepRanking",
    "Standings",
    "standings",
    "load_standings",
]


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as the report heads it."""

    id: int
    status: str
    game: str | None
    format: str | None
    games_stored: int
    games_target: int
    referee_version: str
    created: float
    updated: float
    settings: dict[str, Any]
    players: int = 2

    def to_dict(self) -> dict[str, Any]:
        """Its fields, ``players`` only for an N-player game."""
        out = dataclasses.asdict(self)
        if self.players <= 2:
            del out["players"]
        return out


@dataclass(frozen=True)
class PairStanding:
    """A two-bot comparison: its figures (from the first bot's side) and its SPRT decision."""

    index: int
    stats: ComparisonStats
    decision: str | None
    """The SPRT state it was decided with, if it was."""
    decided_at_pair: int | None
    games_stored: int
    """Games stored, counted or not (those played after a decision are not)."""

    @property
    def bots(self) -> tuple[str, str]:
        return self.stats.bots

    @property
    def sprt_pairs(self) -> int:
        """The pairs the SPRT has seen: those it was decided on, or the complete pairs from the
        first one (its samples are pairs, or two games per pair with the trinomial model)."""
        if self.decided_at_pair is not None:
            return self.decided_at_pair
        sprt = self.stats.sprt
        if sprt is None:
            return 0
        return sprt.samples if sprt.params.model == SprtModel.PENTANOMIAL else sprt.samples // 2

    def to_dict(self) -> dict[str, Any]:
        out = self.stats.to_dict()
        out.update(
            index=self.index,
            decision=self.decision,
            decided_at_pair=self.decided_at_pair,
            games_stored=self.games_stored,
        )
        return out


@dataclass(frozen=True)
class TableStandings:
    """A table of an N-player game: each of its bots' results."""

    index: int
    bots: tuple[str, ...]
    games_stored: int
    rows: tuple[TableStanding, ...]
    """Mean ranks and scores rounded to 4 decimals."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "bots": list(self.bots),
            "games_stored": self.games_stored,
            "standings": [dataclasses.asdict(s) for s in self.rows],
        }


@dataclass(frozen=True)
class SweepVariant:
    """One variant of a sweep, ranked: its place, the parameter values it was made with, and its
    figures against the baseline (infinite Elo figures are kept as floats there)."""

    rank: int
    point: dict[str, str] | None
    figures: SweepPoint

    def to_dict(self) -> dict[str, Any]:
        f = self.figures
        return {
            "rank": self.rank,
            "variant": f.label,
            "point": self.point,
            "games": f.games,
            "score": f.score,
            "score_lo": f.score_lo,
            "score_hi": f.score_hi,
            "elo": finite(f.elo),
            "elo_ci95": finite(f.elo_ci95),
            "los": f.los,
            "sprt": f.sprt_state,
        }


@dataclass(frozen=True)
class SweepRanking:
    """A sweep's variants against the baseline, best first."""

    bot: str
    grid: dict[str, list[str]]
    parameter: str
    """The first grid parameter: the plot's x axis."""
    baseline: str | None
    ranking: tuple[SweepVariant, ...]
    plot: str | None = None
    """Where its plot was drawn, once it was (the command line draws it)."""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "bot": self.bot,
            "grid": self.grid,
            "parameter": self.parameter,
            "baseline": self.baseline,
            "ranking": [v.to_dict() for v in self.ranking],
        }
        if self.plot is not None:
            out["plot"] = self.plot
        return out


@dataclass(frozen=True)
class Standings:
    """Everything the report of a tournament shows."""

    tournament: TournamentInfo
    comparisons: tuple[PairStanding | TableStandings, ...]
    bots: tuple[BotHealth, ...]
    ranking: Ranking
    """The bots ranked over the counted games (the JSON's ``leaderboard``)."""
    workers: tuple[WorkerHealth, ...] = ()
    sweep: SweepRanking | None = None

    @property
    def pairs(self) -> tuple[PairStanding, ...]:
        """The two-bot comparisons (none in an N-player game)."""
        return tuple(c for c in self.comparisons if isinstance(c, PairStanding))

    @property
    def counted(self) -> int:
        """Games the figures count: all stored games but those played after an SPRT decision."""
        if self.tournament.players > 2:
            return self.tournament.games_stored
        return sum(c.stats.games for c in self.pairs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tournament": self.tournament.to_dict(),
            "comparisons": [c.to_dict() for c in self.comparisons],
            "bots": [b.to_dict() for b in self.bots],
            "leaderboard": self.ranking.to_dict(),
        }
        if self.workers:
            out["workers"] = [w.to_dict() for w in self.workers]
        if self.sweep is not None:
            out["sweep"] = self.sweep.to_dict()
        return out


def load_standings(db: str | Path, tid: int | None = None) -> Standings:
    """The standings of tournament ``tid`` (default: the latest) of the database ``db``, opened
    read-only. Raises :class:`arena.store.results.StoreError` (one line) when it cannot be read."""
    with Store(db, read_only=True) as store:
        return standings(store, find_tournament(store, tid, ladders=False))


def sprt_params(settings: dict[str, Any]) -> SprtParams | None:
    s = settings.get("sprt")
    if not s:
        return None
    model = str(s.get("model", SprtModel.PENTANOMIAL.value))
    return SprtParams(float(s["elo0"]), float(s["elo1"]), float(s["alpha"]), float(s["beta"]), model)


def _comparison(t: ComparisonTracker | TableTracker) -> PairStanding | TableStandings:
    if isinstance(t, TableTracker):
        rows = tuple(
            dataclasses.replace(s, mean_rank=_round(s.mean_rank), mean_score=_round(s.mean_score))
            for s in t.standings()
        )
        return TableStandings(t.index, t.bots, len(t.games), rows)
    decision = t.decision.value if t.decision is not None else None
    stored = sum(len(legs) for legs in t.legs.values())
    return PairStanding(t.index, t.stats(), decision, t.decided_at, stored)


def standings(store: Store, row: TournamentRow, games: list[GameRecord] | None = None) -> Standings:
    """The standings of the stored tournament ``row`` (over ``games``, its games when the caller
    has read them already)."""
    settings = row.settings
    games = store.games(row.id) if games is None else games
    trackers = [make_tracker(c.index, c.bots, sprt_params(settings)) for c in store.comparisons(row.id)]
    bots = store.bots(row.id)
    for g in games:
        if g.comparison < len(trackers):
            trackers[g.comparison].add(g)
    players = max((len(t.bots) for t in trackers), default=2)
    info = TournamentInfo(
        id=row.id,
        status=row.status,
        game=settings.get("game"),
        format=settings.get("format"),
        games_stored=len(games),
        games_target=row.games_target,
        referee_version=row.referee_version,
        created=row.created,
        updated=row.updated,
        settings=settings,
        players=players,
    )
    return Standings(
        tournament=info,
        comparisons=tuple(_comparison(t) for t in trackers),
        bots=tuple(bot_health(b.name, games, b.source_hash, players) for b in bots),
        ranking=rank(  # with more than two seats, rated in schedule order: the same whatever order they finished in
            [Played.of(g) for g in games if _counted(g, trackers)],
            [(b.name, b.state) for b in bots],
            players=players,
            bots_of={t.index: t.bots for t in trackers},
            schedule_order=True,
        ),
        workers=tuple(worker_health(games)),
        sweep=_sweep(settings, trackers),
    )


def _sweep(settings: dict[str, Any], trackers: list[ComparisonTracker | TableTracker]) -> SweepRanking | None:
    sweep = settings.get("sweep")
    if not sweep:
        return None
    points_of = {b["name"]: b.get("sweep_point") for b in settings.get("bots", [])}
    first_param = next(iter(sweep["grid"]))
    variants = []
    for t in trackers:
        point = points_of.get(t.bots[0])
        if not point or not isinstance(t, ComparisonTracker):
            continue
        variants.append((t.bots[0], _number(point[first_param]), t.stats()))
    ranked = rank_sweep(sweep_points(variants))
    return SweepRanking(
        bot=sweep["bot"],
        grid=sweep["grid"],
        parameter=first_param,
        baseline=settings.get("baseline"),
        ranking=tuple(SweepVariant(i + 1, points_of.get(p.label), p) for i, p in enumerate(ranked)),
    )


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _number(text: Any) -> Any:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text
    return int(value) if value.is_integer() and "." not in str(text) else value


def _counted(g: GameRecord, trackers: list[ComparisonTracker | TableTracker]) -> bool:
    """Whether the comparison's figures count this game (not past its SPRT decision)."""
    if g.comparison >= len(trackers):
        return False
    decided_at = trackers[g.comparison].decided_at
    return decided_at is None or g.pair < decided_at
