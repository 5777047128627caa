"""How each bot and each Dask worker fared in a tournament's games: timeouts (those in an overloaded
window apart, see :mod:`arena.match.protocol.schedlag`), crashes, invalid and refused answers, how close
the answers came to their limits (:mod:`arena.match.protocol.latency`), latency percentiles, so a weak bot
can be told from a starved one, and a slow worker from a slow bot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..match.protocol.latency import LimitUse
from ..match.result import Verdict
from ..store.records import GameRecord, PlayerRecord

__all__ = ["Latency", "BotHealth", "WorkerHealth", "bot_health", "worker_health", "SLOWER", "PACE_ANSWERS"]

SLOWER = 1.5
"""A worker on which some bot answers this many times slower than on all workers is marked slow."""
PACE_ANSWERS = 20
"""A bot's latencies on a worker count for its pace from this many answers on."""

_FAILED_CRASH = (Verdict.CRASH, Verdict.MEMORY)  # memory: a crash as CodinGame names it


def _figures(players: Sequence[PlayerRecord]) -> dict[str, Any]:
    """What a bot's and a worker's health count alike of these players: timeouts (those in an
    overloaded window apart), crashes, answers and how close they came to their limits
    (``limit_use`` is ``None`` when a game was stored without it)."""
    timed_out = [p for p in players if p.status == Verdict.TIMEOUT]
    overloaded = sum(p.overloaded for p in timed_out)
    uses = [p.limit_use for p in players]
    return {
        "timeouts": len(timed_out) - overloaded,
        "overloaded_timeouts": overloaded,
        "crashes": sum(p.status in _FAILED_CRASH for p in players),
        "limit_use": None if any(u is None for u in uses) else LimitUse.merge(u for u in uses if u is not None),
        "near_limit": sum(p.near_limit for p in players),
        "answers": sum(len(p.latencies_ms) for p in players),
    }


@dataclass(frozen=True)
class Latency:
    """Answer times in ms (``None`` without answers), rounded to the microsecond."""

    median: float | None
    p99: float | None
    max: float | None = None

    @classmethod
    def of(cls, values: Sequence[float], with_max: bool = True) -> Latency:
        if not values:
            return cls(None, None, None)
        arr = np.asarray(values, dtype=float)
        top = round(float(arr.max()), 3) if with_max else None
        return cls(round(float(np.median(arr)), 3), round(float(np.percentile(arr, 99)), 3), top)

    def to_dict(self, with_max: bool = True) -> dict[str, float | None]:
        out = {"median": self.median, "p99": self.p99}
        if with_max:
            out["max"] = self.max
        return out


@dataclass(frozen=True)
class BotHealth:
    """One bot over all its stored games."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    timeouts: int
    """Timeouts in windows that were not overloaded (the bot's own)."""
    crashes: int
    """Crashes, and deaths past the memory limit."""
    invalid: int
    refused: int | None
    """Illegal actions refused; ``None`` when some games were stored by a release that did not
    count them."""
    limit_use: LimitUse | None
    """How close its answers came to their limits; ``None`` when some games were stored by a
    release that did not keep it."""
    answers: int
    latency: Latency
    source_hash: str
    overloaded_timeouts: int = 0
    """Timeouts in an overloaded window: the machine's, never counted as failures."""
    near_limit: int = 0
    """Answers over 80% of their limit: earlier releases' figure, kept in the JSON for their
    readers (:attr:`limit_use` replaces it)."""
    eliminated: int | None = None
    """N-player games only: games where the rules eliminated it."""
    mean_rank: float | None = None
    """N-player games only: its average rank, 1 = first."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "timeouts": self.timeouts,
            "overloaded_timeouts": self.overloaded_timeouts,
            "crashes": self.crashes,
            "invalid": self.invalid,
            "refused": self.refused,
            "near_limit": self.near_limit,
            "limit_use": None if self.limit_use is None else self.limit_use.summary(),
        }
        if self.eliminated is not None:
            out["eliminated"] = self.eliminated
        out["answers"] = self.answers
        if self.eliminated is not None:  # an N-player game: the mean rank is always there
            out["mean_rank"] = self.mean_rank
        out["latency_ms"] = self.latency.to_dict()
        out["source_hash"] = self.source_hash
        return out


def bot_health(name: str, games: Sequence[GameRecord], source_hash: str, players: int) -> BotHealth:
    """How the bot ``name`` fared in ``games`` (of ``players`` seats)."""
    mine = [(g, p) for g in games for p in g.players if p.bot == name]
    wins = draws = losses = 0
    for g, p in mine:
        if p.rank > 0:
            losses += 1
        elif sum(1 for other in g.players if other.rank == p.rank) > 1:
            draws += 1
        else:
            wins += 1
    statuses = [p.status for _, p in mine]
    ranks = [p.rank + 1 for _, p in mine]
    latencies = [x for _, p in mine for x in p.latencies_ms]
    unknown_refused = any(p.refused is None for _, p in mine)
    many = players > 2
    return BotHealth(
        name=name,
        games=len(mine),
        wins=wins,
        draws=draws,
        losses=losses,
        invalid=sum(s == Verdict.INVALID for s in statuses),
        refused=None if unknown_refused else sum(p.refused or 0 for _, p in mine),
        latency=Latency.of(latencies),
        source_hash=source_hash,
        eliminated=sum(s == Verdict.ELIMINATED for s in statuses) if many else None,
        mean_rank=(round(sum(ranks) / len(ranks), 4) if ranks else None) if many else None,
        **_figures([p for _, p in mine]),
    )


@dataclass(frozen=True)
class WorkerHealth:
    """One Dask worker over the games it played."""

    worker: str
    games: int
    timeouts: int
    """Timeouts in windows that were not overloaded."""
    crashes: int
    limit_use: LimitUse | None
    """How close its bots' answers came to their limits (``None``: games stored without it)."""
    answers: int
    latency: Latency
    """Median and p99 of every answer given there (no max)."""
    pace: float | None
    """The largest, over the bots that answered :data:`PACE_ANSWERS` times or more there, of the
    bot's median latency there over its median on all workers."""
    slow: bool
    """The pace is :data:`SLOWER` or more."""
    overloaded_timeouts: int = 0
    """Timeouts in an overloaded window there."""
    near_limit: int = 0
    """Answers over 80% of their limit (earlier releases' figure, kept in the JSON)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "worker": self.worker,
            "games": self.games,
            "timeouts": self.timeouts,
            "overloaded_timeouts": self.overloaded_timeouts,
            "crashes": self.crashes,
            "near_limit": self.near_limit,
            "limit_use": None if self.limit_use is None else self.limit_use.summary(),
            "answers": self.answers,
            "latency_ms": self.latency.to_dict(with_max=False),
            "pace": self.pace,
            "slow": self.slow,
        }


def _median(values: list[float]) -> float:
    return float(np.median(np.asarray(values, dtype=float)))


def worker_health(games: Sequence[GameRecord]) -> list[WorkerHealth]:
    """Per Dask worker (games played on this machine are left out), in address order: the games
    it played, its bots' timeouts, crashes, closeness to their limits and latency percentiles, and
    its pace (see :class:`WorkerHealth`): a bot that searches to a fixed depth answers slower on a
    slower CPU; one that stops on the clock does not, but comes near the limit more often."""
    everywhere: dict[str, list[float]] = {}
    per: dict[str, dict[str, list[float]]] = {}
    played: dict[str, list[GameRecord]] = {}
    for g in games:
        if g.worker is None:
            continue
        played.setdefault(g.worker, []).append(g)
        for p in g.players:
            everywhere.setdefault(p.bot, []).extend(p.latencies_ms)
            per.setdefault(g.worker, {}).setdefault(p.bot, []).extend(p.latencies_ms)
    out = []
    for worker in sorted(played):
        players = [p for g in played[worker] for p in g.players]
        ratios = [
            _median(values) / _median(everywhere[bot])
            for bot, values in per.get(worker, {}).items()
            if len(values) >= PACE_ANSWERS and _median(everywhere[bot]) > 0
        ]
        out.append(
            WorkerHealth(
                worker=worker,
                games=len(played[worker]),
                latency=Latency.of([x for values in per.get(worker, {}).values() for x in values], with_max=False),
                pace=round(max(ratios), 3) if ratios else None,
                slow=bool(ratios) and max(ratios) >= SLOWER,
                **_figures(players),
            )
        )
    return out
