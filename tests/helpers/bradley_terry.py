"""A second, plain-Python Bradley-Terry fit, to check the ranking of :mod:`arena.stats.ladder`
(what ``arena results``, ``arena tournament`` and ``arena ladder show`` rank with) against
figures found another way.

It follows the model as ``arena/stats/ladder.py``'s docstring states it, written again from those
formulas with none of its code: ratings on the Elo scale, draws as half wins, a Gaussian prior
N(0, prior_sd^2) on each rating, the maximum a posteriori found by coordinate ascent (each rating
in turn set where its own gradient is 0, by a safeguarded one-dimensional Newton's method; the
library solves all ratings at once by Newton's method on the whole Hessian), the dispersion
``phi`` estimated once by moments at the ``phi = 1`` fit (pairs of games and single games as its
units, ``K0 = 10`` even pseudo-units), the ratings refitted with it, and the Laplace covariance
(the inverse of the negative Hessian, by Gauss-Jordan elimination, centred on the mean) for the
95% intervals and the probability that each bot is above the next one. Games come from plain
rows, (first bot, second bot, the first bot's scores on one map), not from the library's records.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import pytest

ELO = 400.0 / math.log(10.0)
"""Elo points per natural unit of log-odds."""
Z = NormalDist().inv_cdf(0.975)
K0 = 10.0
Cross = dict[tuple[str, str], tuple[float, int]]
"""``(bot, against) -> (bot's mean score against it, games)``."""


@dataclass(frozen=True)
class Rated:
    """One bot's line: what ``arena results --format json`` gives in its ``leaderboard``."""

    rank: int
    bot: str
    rating: float
    low: float
    high: float
    games: int
    score: float | None
    above_next: float | None


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def _solve_one(
    i: int, theta: list[float], games: list[list[float]], score: list[list[float]], phi: float, tau: float
) -> float:
    """The rating of bot ``i`` (natural units) where its gradient is 0, the others held: the
    gradient falls strictly with it, so a bracket holds the root and Newton's steps stay in it."""

    def gradient(x: float) -> tuple[float, float]:
        g, h = -x / (tau * tau), 1.0 / (tau * tau)
        for j, n in enumerate(games[i]):
            if j != i and n:
                p = _logistic(x - theta[j])
                g += (score[i][j] - n * p) / phi
                h += n * p * (1.0 - p) / phi
        return g, h

    lo, hi = -60.0, 60.0
    x = theta[i]
    for _ in range(200):
        g, h = gradient(x)
        if g > 0:
            lo = x
        elif g < 0:
            hi = x
        else:
            return x
        step = x + g / h
        if abs(step - x) <= 1e-15 * max(1.0, abs(x)):
            return step
        x = step if lo < step < hi else (lo + hi) / 2.0
        if hi - lo <= 1e-15 * max(1.0, abs(x)):
            return x
    raise AssertionError("the one-dimensional search did not converge")


def _maximum(games: list[list[float]], score: list[list[float]], phi: float, tau: float) -> list[float]:
    theta = [0.0] * len(games)
    for _ in range(100_000):
        moved = 0.0
        for i in range(len(theta)):
            new = _solve_one(i, theta, games, score, phi, tau)
            moved = max(moved, abs(new - theta[i]))
            theta[i] = new
        if moved < 1e-12:
            return theta
    raise AssertionError("the coordinate ascent did not converge")


def _groups(games: list[list[float]]) -> int:
    """Ratings the games pin down: bots with games minus the groups of bots linked by games."""
    playing = [i for i, row in enumerate(games) if sum(row) > 0]
    seen: set[int] = set()
    groups = 0
    for start in playing:
        if start in seen:
            continue
        groups += 1
        todo = [start]
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                todo.extend(j for j, n in enumerate(games[i]) if n and j not in seen)
    return len(playing) - groups


def _dispersion(units: list[tuple[int, int, list[float]]], theta: list[float], free: int) -> float:
    if not units:
        return 1.0
    squares = expected = 0.0
    for a, b, scores in units:
        p = _logistic(theta[a] - theta[b])
        y = sum(scores) / len(scores)
        squares += len(scores) * (y - p) ** 2
        expected += p * (1.0 - p)
    df = max(len(units) - free, 0)
    return (squares + K0 / 4.0) / (expected * df / len(units) + K0 / 4.0)


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [v / lead for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col])]
    return [row[n:] for row in a]


def fit(
    results: Iterable[tuple[str, str, Sequence[float]]], bots: Iterable[str] = (), prior_sd: float = 400.0
) -> list[Rated]:
    """The ranking of ``bots`` (and every bot of ``results``) over ``results``: (a, b, a's scores
    on one map: a pair of games or a lone game), best first."""
    results = list(results)
    names = sorted({*bots, *(r[0] for r in results), *(r[1] for r in results)})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    games = [[0.0] * n for _ in range(n)]
    score = [[0.0] * n for _ in range(n)]
    units = []
    for a, b, scores in results:
        i, j = index[a], index[b]
        for s in scores:
            games[i][j] += 1
            games[j][i] += 1
            score[i][j] += s
            score[j][i] += 1 - s
        units.append((i, j, list(scores)))
    tau = prior_sd / ELO
    theta = _maximum(games, score, 1.0, tau)
    phi = _dispersion(units, theta, _groups(games))
    theta = _maximum(games, score, phi, tau)
    precision = [[0.0] * n for _ in range(n)]
    for i in range(n):
        precision[i][i] = 1.0 / (tau * tau)
        for j in range(n):
            if i != j and games[i][j]:
                w = games[i][j] * _logistic(theta[i] - theta[j]) * _logistic(theta[j] - theta[i]) / phi
                precision[i][i] += w
                precision[i][j] -= w
    c = _inverse(precision)
    mean_row = [sum(c[i][j] for i in range(n)) / n for j in range(n)]
    mean_all = sum(mean_row) / n
    centred = [[(c[i][j] - mean_row[i] - mean_row[j] + mean_all) * ELO * ELO for j in range(n)] for i in range(n)]
    elo = [t * ELO for t in theta]
    order = sorted(range(n), key=lambda i: (-round(elo[i], 9), names[i]))
    out = []
    for rank, i in enumerate(order, start=1):
        se = math.sqrt(max(centred[i][i], 0.0))
        above = None
        if rank < n:
            j = order[rank]
            spread = math.sqrt(centred[i][i] + centred[j][j] - 2 * centred[i][j])
            above = NormalDist().cdf((elo[i] - elo[j]) / spread)
        played = int(sum(games[i]))
        mean = sum(score[i]) / played if played else None
        out.append(Rated(rank, names[i], elo[i], elo[i] - Z * se, elo[i] + Z * se, played, mean, above))
    return out


def scores_of(ranks: Sequence[int]) -> tuple[float, float]:
    """Seat 0's and seat 1's scores in a game from their ranks (0 first; equal ranks: a draw)."""
    if ranks[0] == ranks[1]:
        return 0.5, 0.5
    return (1.0, 0.0) if ranks[0] < ranks[1] else (0.0, 1.0)


def map_results(
    games: Iterable[tuple[int, int, int, str, str, int, int]], first: dict[int, str]
) -> list[tuple[str, str, tuple[float, ...]]]:
    """Games as rows (comparison, pair, leg, seat 0's bot, seat 1's bot, their ranks) grouped
    into map results: each pair of games on one map (two legs) or a lone game, scored from the
    side of its comparison's first bot (``first[comparison]``)."""
    maps: dict[tuple[int, int], list[tuple[int, str, str, int, int]]] = {}
    for comparison, pair, leg, bot0, bot1, rank0, rank1 in games:
        maps.setdefault((comparison, pair), []).append((leg, bot0, bot1, rank0, rank1))
    out = []
    for (comparison, _), legs in sorted(maps.items()):
        a = first[comparison]
        b = next(bot for _, bot0, bot1, _, _ in legs for bot in (bot0, bot1) if bot != a)
        scores = []
        for _, bot0, _, rank0, rank1 in sorted(legs):
            s0, s1 = scores_of((rank0, rank1))
            scores.append(s0 if bot0 == a else s1)
        for start in range(0, len(scores), 2):
            out.append((a, b, tuple(scores[start : start + 2])))
    return out


def cross(results: Iterable[tuple[str, str, Sequence[float]]]) -> Cross:
    """Each bot's mean score against each other bot it met, with their games."""
    totals: dict[tuple[str, str], list[float]] = {}
    for a, b, scores in results:
        for s in scores:
            for key, value in (((a, b), s), ((b, a), 1 - s)):
                total = totals.setdefault(key, [0.0, 0])
                total[0] += value
                total[1] += 1
    return {key: (s / n, int(n)) for key, (s, n) in totals.items()}


def check_json(doc: dict[str, Any], want: Sequence[Rated], games: int, met: Cross) -> None:
    """``doc`` (the ``leaderboard`` of ``arena results --format json``) is the ranking ``want``
    of a two-player tournament over ``games`` counted games, with the cross-table ``met``."""
    assert doc["model"] == "bradley-terry (maximum likelihood, Elo scale)" and doc["games"] == games
    rows = doc["ranking"]
    assert [(r["rank"], r["bot"], r["state"], r["games"]) for r in rows] == [
        (w.rank, w.bot, "active", w.games) for w in want
    ]
    for r, w in zip(rows, want, strict=True):
        assert (r["rating"], r["low"], r["high"]) == pytest.approx((w.rating, w.low, w.high), abs=1e-6), w.bot
        assert r["score"] == pytest.approx(w.score, abs=1e-12), w.bot
        assert r["above_next"] == pytest.approx(w.above_next, abs=1e-9), w.bot
    got = {(c["bot"], c["against"]): (c["score"], c["games"]) for c in doc["cross"]}
    assert got.keys() == met.keys() and len(doc["cross"]) == len(met)
    for key, (score, n) in met.items():
        assert got[key] == (pytest.approx(score, abs=1e-12), n), key


def section(want: Sequence[Rated]) -> str:
    """The ranking's section of the report of a two-player tournament whose games all count."""
    return "ranking (Bradley-Terry, Elo scale):\n" + "".join(line + "\n" for line in ranking_lines(want))


def ranking_lines(rows: Sequence[Rated]) -> list[str]:
    """The table ``arena results`` prints for a two-player game, laid out here by hand: rank
    right-aligned, bot left, rating (whole Elo, signed) right, its interval left, games, score
    and P(above next) right, two blanks between columns, no trailing blanks (and no ``-0``)."""

    def signed(x: float) -> str:  # a rating of -0.3 Elo is +0, not -0
        return "+0" if f"{x:+.0f}" == "-0" else f"{x:+.0f}"

    header = ["rank", "bot", "rating", "95% interval", "games", "score", "P(above next)"]
    table = [header] + [
        [
            str(r.rank),
            r.bot,
            signed(r.rating),
            f"[{signed(r.low)}, {signed(r.high)}]",
            str(r.games),
            "" if r.score is None else f"{100 * r.score:.1f}%",
            "" if r.above_next is None else f"{r.above_next:.2f}",
        ]
        for r in rows
    ]
    wide = [max(len(row[k]) for row in table) for k in range(len(header))]
    left = {1, 3}
    return [
        "  ".join(cell.ljust(w) if k in left else cell.rjust(w) for k, (cell, w) in enumerate(zip(row, wide))).rstrip()
        for row in table
    ]
