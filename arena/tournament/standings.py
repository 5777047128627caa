"""The standings of a tournament, from its database alone (finished or still running).

:func:`standings` gives one JSON-ready dict: the settings, per comparison the statistics (from
the first bot's side, with the SPRT state; for the tables of an N-player game each bot's first
places and mean rank), per bot its health (timeouts, crashes, answers near
the time limit, latency percentiles) so a weak bot can be told from a starved one, an openskill
leaderboard, for sweeps the variants ranked with their intervals, and for games played on Dask
workers the same health figures per worker, so that a starved or slow worker shows.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..match.loop import Verdict
from ..stats import rank_sweep, sweep_points
from ..stats.leaderboard import GameResult, leaderboard
from ..stats.sprt import SprtModel, SprtParams
from .records import GameRecord, TournamentRow
from .store import Store, StoreError
from .tracker import ComparisonTracker, TableTracker, make_tracker

__all__ = ["standings", "find_tournament", "worker_health", "SLOWER", "PACE_ANSWERS"]

SLOWER = 1.5
"""A worker on which some bot answers this many times slower than on all workers is marked slow."""
PACE_ANSWERS = 20
"""A bot's latencies on a worker count for its pace from this many answers on."""


def find_tournament(store: Store, tid: int | None) -> TournamentRow:
    """The tournament ``tid``, or the latest one."""
    row = store.latest() if tid is None else store.tournament(tid)
    if row is None:
        if tid is None:
            raise StoreError(f"{store.path}: no tournament in this database yet")
        known = ", ".join(str(t.id) for t in store.tournaments()) or "none"
        raise StoreError(f"{store.path}: no tournament {tid} (tournaments: {known})")
    return row


def _sprt(settings: dict[str, Any]) -> SprtParams | None:
    s = settings.get("sprt")
    if not s:
        return None
    return SprtParams(
        float(s["elo0"]),
        float(s["elo1"]),
        float(s["alpha"]),
        float(s["beta"]),
        str(s.get("model", SprtModel.PENTANOMIAL.value)),
    )


def _bot_health(name: str, games: list[GameRecord], source_hash: str, players: int) -> dict[str, Any]:
    latencies: list[float] = []
    counts = {
        "games": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "timeouts": 0,
        "crashes": 0,
        "invalid": 0,
        "refused": 0,
        "near_limit": 0,
    }
    if players > 2:
        counts["eliminated"] = 0
    ranks: list[int] = []
    unknown_refused = False
    for g in games:
        for p in g.players:
            if p.bot != name:
                continue
            counts["games"] += 1
            shared = sum(1 for other in g.players if other.rank == p.rank)
            if p.rank > 0:
                counts["losses"] += 1
            elif shared > 1:
                counts["draws"] += 1
            else:
                counts["wins"] += 1
            counts["timeouts"] += p.status == Verdict.TIMEOUT
            counts["crashes"] += p.status in (Verdict.CRASH, Verdict.MEMORY)  # memory: a crash CodinGame names
            counts["invalid"] += p.status == Verdict.INVALID
            if p.refused is None:
                unknown_refused = True
            else:
                counts["refused"] += p.refused
            if players > 2:
                counts["eliminated"] += p.status == Verdict.ELIMINATED
            counts["near_limit"] += p.near_limit
            latencies += p.latencies_ms
            ranks.append(p.rank + 1)
    out: dict[str, Any] = {"name": name, **counts, "answers": len(latencies)}
    if unknown_refused:  # some games were stored by a release that did not count refused actions
        out["refused"] = None
    if players > 2:
        out["mean_rank"] = round(sum(ranks) / len(ranks), 4) if ranks else None
    if latencies:
        arr = np.asarray(latencies, dtype=float)
        out["latency_ms"] = {
            "median": round(float(np.median(arr)), 3),
            "p99": round(float(np.percentile(arr, 99)), 3),
            "max": round(float(arr.max()), 3),
        }
    else:
        out["latency_ms"] = {"median": None, "p99": None, "max": None}
    out["source_hash"] = source_hash
    return out


def _median(values: list[float]) -> float:
    return float(np.median(np.asarray(values, dtype=float)))


def worker_health(games: list[GameRecord]) -> list[dict[str, Any]]:
    """Per Dask worker (games played on this machine are left out): the games it played, its
    bots' timeouts, crashes and answers near the limit, their latency percentiles, and its pace:
    the largest, over the bots that answered :data:`PACE_ANSWERS` times or more there, of the
    bot's median latency on this worker over its median on all workers (a bot that searches to a
    fixed depth answers slower on a slower CPU; one that stops on the clock does not, but comes
    near the limit more often). ``slow`` when the pace is :data:`SLOWER` or more."""
    everywhere: dict[str, list[float]] = {}
    per: dict[str, dict[str, list[float]]] = {}
    rows: dict[str, dict[str, Any]] = {}
    for g in games:
        if g.worker is None:
            continue
        row = rows.setdefault(
            g.worker, {"worker": g.worker, "games": 0, "timeouts": 0, "crashes": 0, "near_limit": 0, "answers": 0}
        )
        row["games"] += 1
        for p in g.players:
            row["timeouts"] += p.status == Verdict.TIMEOUT
            row["crashes"] += p.status in (Verdict.CRASH, Verdict.MEMORY)
            row["near_limit"] += p.near_limit
            row["answers"] += len(p.latencies_ms)
            everywhere.setdefault(p.bot, []).extend(p.latencies_ms)
            per.setdefault(g.worker, {}).setdefault(p.bot, []).extend(p.latencies_ms)
    out = []
    for worker in sorted(rows):
        row = rows[worker]
        mine = [x for values in per.get(worker, {}).values() for x in values]
        if mine:
            arr = np.asarray(mine, dtype=float)
            row["latency_ms"] = {
                "median": round(float(np.median(arr)), 3),
                "p99": round(float(np.percentile(arr, 99)), 3),
            }
        else:
            row["latency_ms"] = {"median": None, "p99": None}
        ratios = [
            _median(values) / _median(everywhere[bot])
            for bot, values in per.get(worker, {}).items()
            if len(values) >= PACE_ANSWERS and _median(everywhere[bot]) > 0
        ]
        row["pace"] = round(max(ratios), 3) if ratios else None
        row["slow"] = bool(ratios) and max(ratios) >= SLOWER
        out.append(row)
    return out


def _comparison(t: ComparisonTracker | TableTracker) -> dict[str, Any]:
    if isinstance(t, TableTracker):
        return {
            "index": t.index,
            "bots": list(t.bots),
            "games_stored": len(t.games),
            "standings": [
                {
                    "bot": s.bot,
                    "games": s.games,
                    "firsts": s.firsts,
                    "mean_rank": None if s.mean_rank is None else round(s.mean_rank, 4),
                    "mean_score": None if s.mean_score is None else round(s.mean_score, 4),
                }
                for s in t.standings()
            ],
        }
    d = t.stats().to_dict()
    d["index"] = t.index
    d["decision"] = t.decision.value if t.decision is not None else None
    d["decided_at_pair"] = t.decided_at
    d["games_stored"] = sum(len(legs) for legs in t.legs.values())
    return d


def standings(store: Store, row: TournamentRow) -> dict[str, Any]:
    settings = row.settings
    sprt = _sprt(settings)
    games = store.games(row.id)
    trackers = [make_tracker(c.index, c.bots, sprt) for c in store.comparisons(row.id)]
    for g in games:
        if g.comparison < len(trackers):
            trackers[g.comparison].add(g)
    comp_out = [_comparison(t) for t in trackers]
    players = max((len(t.bots) for t in trackers), default=2)
    bot_rows = store.bots(row.id)
    bots = [_bot_health(b.name, games, b.source_hash, players) for b in bot_rows]
    out: dict[str, Any] = {
        "tournament": {
            "id": row.id,
            "status": row.status,
            "game": settings.get("game"),
            "format": settings.get("format"),
            "games_stored": len(games),
            "games_target": row.games_target,
            "referee_version": row.referee_version,
            "created": row.created,
            "updated": row.updated,
            "settings": settings,
        },
        "comparisons": comp_out,
        "bots": bots,
        "leaderboard": _leaderboard([g for g in games if _counted(g, trackers)]),
    }
    if players > 2:
        out["tournament"]["players"] = players
    workers = worker_health(games)
    if workers:
        out["workers"] = workers
    sweep = settings.get("sweep")
    if sweep:
        points_of = {b["name"]: b.get("sweep_point") for b in settings.get("bots", [])}
        first_param = next(iter(sweep["grid"]))
        variants = []
        for t in trackers:
            point = points_of.get(t.bots[0])
            if not point or not isinstance(t, ComparisonTracker):
                continue
            variants.append((t.bots[0], _number(point[first_param]), t.stats()))
        ranked = rank_sweep(sweep_points(variants))
        out["sweep"] = {
            "bot": sweep["bot"],
            "grid": sweep["grid"],
            "parameter": first_param,
            "baseline": settings.get("baseline"),
            "ranking": [
                {
                    "rank": i + 1,
                    "variant": p.label,
                    "point": points_of.get(p.label),
                    "games": p.games,
                    "score": p.score,
                    "score_lo": p.score_lo,
                    "score_hi": p.score_hi,
                    "elo": _finite(p.elo),
                    "elo_ci95": _finite(p.elo_ci95),
                    "los": p.los,
                    "sprt": p.sprt_state,
                }
                for i, p in enumerate(ranked)
            ],
        }
    return out


def _finite(x: float | None) -> float | None:
    """A float for strict JSON: infinities become ``None``, as in the comparisons' figures."""
    return x if x is None or math.isfinite(x) else None


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


def _leaderboard(games: list[GameRecord]) -> list[dict[str, Any]]:
    """openskill ratings over the counted games, in schedule order (pair, comparison, leg), so
    the same games always give the same leaderboard whatever order they finished in."""
    ordered = sorted(games, key=lambda g: (g.pair, g.comparison, g.leg))
    results = [GameResult(players=g.seats, scores=g.scores) for g in ordered]
    return [entry.to_dict() for entry in leaderboard(results)]
