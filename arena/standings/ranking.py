"""The ranking of bots and their cross-table, from stored games: one model for a ladder
(``arena ladder show``) and a tournament (``arena results``) alike.

Two-player games are fitted at once, all of them, by :func:`arena.stats.ladder.fit_ladder`
(a maximum-likelihood Bradley-Terry fit on the Elo scale, made for bots that do not learn: the
order the games were played in does not matter), with a 95% interval per bot and the probability
that each bot is above the next. N-player games (plugin games with more seats) are rated with
openskill (:func:`arena.stats.leaderboard.leaderboard`, Plackett-Luce, the games in the order they
were stored, or for a tournament in the order of its schedule): the rating is ``mu``, the
interval ``mu +- 1.96 sigma``, and the probability that a bot is above the next one
``Phi((mu_a - mu_b) / sqrt(sigma_a^2 + sigma_b^2))``.

Which games count: those the caller gives (a tournament leaves out those played after an SPRT
decision) whose players are all ranked (active or retired: a removed bot's games are left out,
with the games of its opponents against it), and, with ``where`` (:mod:`arena.store.where`),
those whose start matches every condition.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..stats.elo import Z95, finite, normal_cdf
from ..stats.ladder import LadderFit, MapResult, fit_ladder
from ..stats.leaderboard import GameResult, leaderboard
from ..stats.matchmaking import confident
from ..store.records import GameRecord
from ..store.where import Condition, matches

__all__ = ["Played", "RankedBot", "Ranking", "rank", "map_results"]


@dataclass(frozen=True)
class Played:
    """What the ranking needs of a stored game: where it belongs, who sat where and how they
    ranked (0 first, equal ranks share a place), its facts."""

    comparison: int
    pair: int
    leg: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    meta: Mapping[str, int | str] | None = None
    id: int | None = None

    @classmethod
    def of(cls, record: GameRecord) -> Played:
        return cls(record.comparison, record.pair, record.leg, record.seats, record.ranks, record.meta, record.id)

    def score(self, bot: str, other: str) -> float:
        """``bot``'s score against ``other`` in this game: 1 above it, 1/2 level, 0 below."""
        mine, theirs = self.ranks[self.seats.index(bot)], self.ranks[self.seats.index(other)]
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


@dataclass(frozen=True)
class RankedBot:
    """One line of the ranking."""

    name: str
    rank: int
    """1 for the best."""
    rating: float
    """Elo (mean 0 over the ranked bots) for two-player games, openskill ``mu`` otherwise."""
    low: float
    high: float
    """The 95% interval."""
    games: int
    score: float | None
    """Mean score over its counted games (1 a win, 1/2 a draw; in N-player games, against each
    other player); ``None`` without games."""
    above_next: float | None
    """P(this bot is above the bot ranked next); ``None`` for the last."""
    state: str = "active"


@dataclass(frozen=True)
class Ranking:
    """The ranking (best first), the cross-table, and the model behind them."""

    bots: tuple[RankedBot, ...]
    cross: Mapping[tuple[str, str], tuple[float, int]]
    """``(row, column) -> (row's mean score against column, games)``, for every two ranked bots
    that met."""
    games: int
    """Games counted."""
    model: str
    fit: LadderFit | None = field(default=None, repr=False, compare=False)
    """The two-player fit (for matchmaking); ``None`` for N-player games."""
    _above: Mapping[tuple[str, str], float] = field(default_factory=dict, repr=False, compare=False)

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    def prob_above(self, a: str, b: str) -> float:
        """P(``a`` is above ``b``)."""
        if self.fit is not None:
            return self.fit.prob_above(a, b)
        return self._above.get((a, b), 0.5)

    def least_certain(self, among: Iterable[str] | None = None) -> tuple[str, str, float] | None:
        """The two bots adjacent in the ranking (of ``among``, default all) whose order is the
        least sure: (upper, lower, P(upper above lower)); ``None`` with fewer than two."""
        keep = None if among is None else set(among)
        names = [n for n in self.order if keep is None or n in keep]
        pairs = [(a, b, self.prob_above(a, b)) for a, b in itertools.pairwise(names)]
        return min(pairs, key=lambda t: t[2]) if pairs else None

    def confident(self, among: Iterable[str] | None = None, threshold: float = 0.95) -> bool:
        """Whether every two bots adjacent in the ranking (of ``among``) are ordered with
        probability at least ``threshold`` (at least two bots needed)."""
        names = list(self.order if among is None else among)
        if len(names) < 2:
            return False
        if self.fit is not None:
            return confident(self.fit, threshold, names)
        worst = self.least_certain(names)
        return worst is not None and worst[2] >= threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "games": self.games,
            "ranking": [
                {
                    "rank": b.rank,
                    "bot": b.name,
                    "state": b.state,
                    "rating": finite(b.rating),
                    "low": finite(b.low),
                    "high": finite(b.high),
                    "games": b.games,
                    "score": b.score,
                    "above_next": b.above_next,
                }
                for b in self.bots
            ],
            "cross": [
                {"bot": row, "against": col, "score": score, "games": n}
                for (row, col), (score, n) in sorted(self.cross.items(), key=lambda kv: self._place(kv[0]))
            ],
        }

    def _place(self, key: tuple[str, str]) -> tuple[int, int]:
        order = {name: i for i, name in enumerate(self.order)}
        return order.get(key[0], len(order)), order.get(key[1], len(order))


def map_results(games: Iterable[Played], bots_of: Mapping[int, tuple[str, ...]]) -> list[MapResult]:
    """Two-player games as map results: each pair of games on one map (both seats), or a lone
    game, scored from the side of its comparison's first bot (``bots_of[comparison]``)."""
    maps: dict[tuple[int, int], list[Played]] = {}
    for g in games:
        maps.setdefault((g.comparison, g.pair), []).append(g)
    out = []
    for (comparison, _pair), legs in sorted(maps.items()):
        a, b = bots_of.get(comparison) or legs[0].seats
        for chunk in (legs[i : i + 2] for i in range(0, len(legs), 2)):
            out.append(MapResult(a, b, tuple(g.score(a, b) for g in sorted(chunk, key=lambda g: g.leg))))
    return out


def _cross(games: Iterable[Played]) -> dict[tuple[str, str], tuple[float, int]]:
    totals: dict[tuple[str, str], list[float]] = {}
    for g in games:
        for a in g.seats:
            for b in g.seats:
                if a != b:
                    t = totals.setdefault((a, b), [0.0, 0])
                    t[0] += g.score(a, b)
                    t[1] += 1
    return {k: (s / n, int(n)) for k, (s, n) in totals.items()}


def rank(
    games: Iterable[Played],
    bots: Sequence[tuple[str, str]],
    *,
    players: int = 2,
    bots_of: Mapping[int, tuple[str, ...]] | None = None,
    where: Sequence[Condition] = (),
    schedule_order: bool = False,
) -> Ranking:
    """The ranking of ``bots`` ((name, state) of every ranked bot: active and retired) over the
    ``games`` that count (see the module docstring). N-player games are rated in the order they
    were stored (their ids), or with ``schedule_order`` in the order of a tournament's schedule
    (pair, comparison, leg), which does not depend on the order they finished in."""
    names = [n for n, _ in bots]
    state = dict(bots)
    used = [g for g in games if all(s in state for s in g.seats) and (not where or matches(where, g.meta))]
    cross = _cross(used)
    if players == 2:
        fit = fit_ladder(map_results(used, bots_of or {}), names)
        rows = tuple(
            RankedBot(r.name, r.rank, r.elo, r.elo_lo, r.elo_hi, r.games, r.score, r.above_next, state[r.name])
            for r in fit.ranking
        )
        return Ranking(rows, cross, len(used), "bradley-terry (maximum likelihood, Elo scale)", fit)
    if schedule_order:
        return _openskill(sorted(used, key=lambda g: (g.pair, g.comparison, g.leg)), names, state, cross, "schedule")
    ordered = sorted(used, key=lambda g: (g.id is None, g.id or 0, g.comparison, g.pair, g.leg))
    return _openskill(ordered, names, state, cross, "stored")


def _openskill(ordered: list[Played], names: list[str], state: Mapping[str, str], cross: Any, order: str) -> Ranking:
    """openskill ratings over the games ``ordered`` in the order to rate them (``order`` names it)."""
    board = {e.name: e for e in leaderboard(GameResult(g.seats, ranks=g.ranks) for g in ordered)}
    default_sigma = 25.0 / 3.0
    entries = [(n, board[n].mu if n in board else 25.0, board[n].sigma if n in board else default_sigma) for n in names]
    entries.sort(key=lambda e: (-e[1], e[0]))
    games = {n: sum(1 for g in ordered if n in g.seats) for n in names}
    above: dict[tuple[str, str], float] = {}
    for a, mu_a, s_a in entries:
        for b, mu_b, s_b in entries:
            if a != b:
                above[a, b] = normal_cdf((mu_a - mu_b) / math.sqrt(s_a**2 + s_b**2))
    rows = []
    for i, (name, mu, sigma) in enumerate(entries):
        scores = [(s, n) for (a, _b), (s, n) in cross.items() if a == name]
        total = sum(n for _, n in scores)
        rows.append(
            RankedBot(
                name,
                i + 1,
                mu,
                mu - Z95 * sigma,
                mu + Z95 * sigma,
                games[name],
                sum(s * n for s, n in scores) / total if total else None,
                above[name, entries[i + 1][0]] if i + 1 < len(entries) else None,
                state[name],
            )
        )
    return Ranking(tuple(rows), cross, len(ordered), f"openskill (Plackett-Luce, games in {order} order)", None, above)
