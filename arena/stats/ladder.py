"""The ladder's ranking model: one maximum-likelihood fit of fixed-strength bots over all their games.

Bots on a ladder do not learn, so their strength is a constant to estimate from every stored
game at once, not a rating updated game by game (as Elo or openskill do, which depend on the order
of the games). :func:`fit_ladder` gives each bot an Elo-scaled rating with a 95% interval, ranks
them, and gives the probability that each bot is truly above the next one in the ranking.

Model (Bradley-Terry on the Elo scale, draws counted as half wins)
    Bot ``i`` has a rating ``r_i`` (Elo). A game of ``i`` against ``j`` scores 1, 1/2 or 0 for
    ``i`` with expected score ``p_ij = L(r_i - r_j) = 1 / (1 + 10^(-(r_i - r_j)/400))``, the
    logistic curve of the rest of :mod:`arena.stats`. The ratings maximise::

        log posterior = l(r) / phi - sum_i r_i^2 / (2 sigma^2)
        l(r) = sum over games of [s log p_ij + (1 - s) log(1 - p_ij)]     (s: i's score)

    ``l`` is the binomial log-likelihood with a draw counted as half a win and half a loss (a
    quasi-likelihood: the score's mean is modelled, not the draw rate). So a rating difference
    means what a head-to-head Elo means (``400 log10(mu / (1 - mu))`` for two bots alone, up to
    the prior's pull), no draw parameter is needed (Davidson's model ties the draw rate to the
    ratings in a way bots need not follow), and the fit depends only on each pair of bots' game
    count and total score: not on the order of the games. Pairs of games enter through the
    variance only (a dispersion, below), not as a five-outcome model per pair, which would need
    four more parameters for every two bots; a seat advantage cancels out of a pair's mean.
    Solved by Newton's method with step halving (the objective is strictly concave); the bots are
    sorted by name and the counts summed first, so the same games in any order give the same
    fit, bit for bit.

Prior (what makes every case finite)
    Each rating has a Gaussian prior N(0, sigma^2), ``sigma = prior_sd`` (default 400 Elo: as much
    information as 0.75 of one even game against a bot of known rating, so it is weak): a maximum
    a posteriori fit. A bot that won or lost every game gets a finite rating (10 wins out of 10
    between two bots: about 600 Elo), a bot with no games 0 with a wide interval (up to +-784
    Elo), and groups of bots that no game links are each placed around 0, their relative order a
    coin flip. Pass a larger ``prior_sd`` for a ladder whose bots span well over 1000 Elo.

Anchoring
    The ratings have mean 0 over the fitted bots (every bot in ``bots`` or in the results): the
    likelihood only sees differences and the prior's gradient along (1, ..., 1) is
    ``-sum r_i / sigma^2``. The intervals are those of ``r_i - mean(r)``.

Pairs of games and the dispersion ``phi``
    The two games of a pair (one map, the seats swapped) are not independent: a seat advantage
    makes their scores negatively correlated, a map that suits one bot in both seats positively;
    draws also make a game's score vary less than ``p (1 - p)``. So the information is scaled by
    ``phi``, the variance of a unit's mean score (a pair, or a game with no pair) over its
    binomial variance, ``Var(y) = phi p (1 - p) / m``, estimated by moments at the first fit
    (``phi = 1``), each unit weighted by its binomial variance (lopsided pairs count little)::

        phi = (sum_u m_u (y_u - p_u)^2 + K0 / 4) / ((df / U) sum_u p_u (1 - p_u) + K0 / 4)

    over the ``U`` units (``m_u`` games of mean score ``y_u``), ``df = U -`` the free ratings
    (bots with games minus the groups the games connect), ``K0 = 10`` pseudo-units of even games
    at ``phi = 1`` (they keep ``phi`` near 1 while few close games are known). ``phi`` is pooled
    over all pairs of bots, and the ratings refitted with it.

Intervals and above-next probabilities (Laplace approximation)
    The covariance of the ratings is the inverse of the negative Hessian of the log posterior at
    its maximum, ``C = (F / phi + I / sigma^2)^-1`` with ``F`` the Fisher information
    (``F_ij = -n_ij p_ij (1 - p_ij) k^2`` for i != j, rows summing to 0, ``k = ln 10 / 400``,
    ``n_ij`` games between i and j), centred on the anchor: ``C' = J C J``, ``J = I - 11^T / n``.
    The 95% interval of a bot is ``r_i +- z sqrt(C'_ii)``, ``z = Phi^-1(0.975)``, and::

        P(a above b) = Phi((r_a - r_b) / sqrt(C_aa + C_bb - 2 C_ab))

    (two bots measured mostly against each other have strongly correlated ratings: their
    difference is known better than their two intervals suggest). ``above_next`` is that
    probability for each bot and the one ranked just below it. These normal (Wald) intervals are
    symmetric in Elo; their coverage on synthetic bots is in ``benchmarks/README.md``
    (``ladder_model``): 95-96% for a fixed schedule, about 92% when read where the ladder's
    matchmaking stops.

Ranking: by rating, highest first; equal ratings (to 1e-9 Elo) by name.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .elo import Z95, normal_cdf

__all__ = [
    "ELO_PER_NATURAL_UNIT",
    "PRIOR_SD",
    "DISPERSION_PRIOR_UNITS",
    "MapResult",
    "PairCounts",
    "BotRating",
    "LadderFit",
    "fit_ladder",
]

ELO_PER_NATURAL_UNIT: float = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of odds (173.7...): ``L(d) = 1 / (1 + exp(-d / this))``."""
PRIOR_SD: float = 400.0
"""Default standard deviation (Elo) of each rating's Gaussian prior around 0."""
DISPERSION_PRIOR_UNITS: float = 10.0
"""``K0``: pseudo-units of even games at dispersion 1 in the estimate of ``phi``."""

_MAX_NEWTON = 100
_PENTA_BINS = 5
_TRI_BINS = 3


@dataclass(frozen=True)
class MapResult:
    """The games of two bots on one map, scores from ``a``'s side (0, 1/2 or 1 each): two scores
    for a pair (both seats played), one for a game whose pair is missing."""

    a: str
    b: str
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a bot does not play itself: {self.a!r}")
        if len(self.scores) not in (1, 2):
            raise ValueError(f"a map result has 1 game or a pair of 2, not {len(self.scores)}")
        for s in self.scores:
            if s not in (0, 0.5, 1):
                raise ValueError(f"a game score is 0, 0.5 or 1, not {s!r}")


@dataclass(frozen=True)
class PairCounts:
    """Games of ``a`` against ``b`` already counted, from ``a``'s side, lowest score first (the
    orders of :mod:`arena.stats`): ``penta`` counts pairs by pair score 0, 1/4, 1/2, 3/4, 1 (LL,
    LD, WL+DD, WD, WW), ``singles`` the games without a pair as (losses, draws, wins)."""

    a: str
    b: str
    penta: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    singles: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a bot does not play itself: {self.a!r}")
        if len(self.penta) != _PENTA_BINS or len(self.singles) != _TRI_BINS:
            raise ValueError("penta has 5 counts and singles 3")
        if any(int(c) != c or c < 0 for c in (*self.penta, *self.singles)):
            raise ValueError(f"counts are non-negative integers: {self.penta}, {self.singles}")


@dataclass(frozen=True)
class BotRating:
    """One bot's line of the ladder."""

    name: str
    rank: int
    """1 for the best."""
    elo: float
    """Rating (Elo); the bots' mean is 0."""
    se: float
    """Standard error of the rating (Elo), ``sqrt(C'_ii)``."""
    elo_lo: float
    """``elo - z se``: the 95% interval's low end."""
    elo_hi: float
    games: int
    score: float | None
    """Mean score over its games; ``None`` with no games."""
    above_next: float | None
    """P(this bot is above the bot ranked next); ``None`` for the last one."""


@dataclass(frozen=True)
class LadderFit:
    """The fitted ladder: :attr:`ranking` (best first) and the joint estimate behind it."""

    ranking: tuple[BotRating, ...]
    dispersion: float
    """``phi`` (1 for independent win/loss games; below 1 with draws or seat advantage)."""
    prior_sd: float
    units: int
    """Pairs plus unpaired games, the samples ``phi`` was estimated from."""
    names: tuple[str, ...] = field(repr=False)
    """The bots in the order of :attr:`covariance`'s rows (sorted by name)."""
    covariance: np.ndarray = field(repr=False, compare=False)
    """``C'`` (Elo^2), rows and columns in :attr:`names` order."""
    pair_games: np.ndarray = field(repr=False, compare=False)
    """Games between each two bots, in :attr:`names` order."""

    @property
    def order(self) -> tuple[str, ...]:
        """The bots' names, best first."""
        return tuple(b.name for b in self.ranking)

    def _index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"bot {name!r} is not in the ladder's fit") from None

    def rating(self, name: str) -> BotRating:
        for bot in self.ranking:
            if bot.name == name:
                return bot
        raise KeyError(f"bot {name!r} is not in the ladder's fit")

    def games_between(self, a: str, b: str) -> int:
        return int(self.pair_games[self._index(a), self._index(b)])

    def diff_variance(self, a: str, b: str) -> float:
        """Var(r_a - r_b) = C_aa + C_bb - 2 C_ab (Elo^2)."""
        i, j = self._index(a), self._index(b)
        c = self.covariance
        return float(c[i, i] + c[j, j] - 2.0 * c[i, j])

    def prob_above(self, a: str, b: str) -> float:
        """P(r_a > r_b) = Phi((r_a - r_b) / sqrt(Var(r_a - r_b))) from the joint estimate."""
        if a == b:
            return 0.5
        diff = self.rating(a).elo - self.rating(b).elo
        return normal_cdf(diff / math.sqrt(self.diff_variance(a, b)))


@dataclass
class _Counts:
    """Aggregated input over bots sorted by name: pair bins and single-game bins per ordered pair
    (``penta[i, j]`` from i's side; ``penta[j, i]`` is its mirror)."""

    names: tuple[str, ...]
    penta: np.ndarray  # (n, n, 5)
    singles: np.ndarray  # (n, n, 3)

    @property
    def games(self) -> np.ndarray:
        total: np.ndarray = 2.0 * self.penta.sum(axis=2) + self.singles.sum(axis=2)
        return total

    @property
    def score(self) -> np.ndarray:
        """Total score of i against j (each bin k scores k / 2 points: pairs and singles alike)."""
        total: np.ndarray = self.penta @ (np.arange(_PENTA_BINS) / 2.0) + self.singles @ (np.arange(_TRI_BINS) / 2.0)
        return total


def _aggregate(results: Iterable[MapResult | PairCounts], bots: Iterable[str]) -> _Counts:
    items: list[tuple[str, str, tuple[int, ...], tuple[int, ...]]] = []
    for r in results:
        if isinstance(r, MapResult):
            penta, singles = [0] * _PENTA_BINS, [0] * _TRI_BINS
            halves = [round(2 * s) for s in r.scores]
            if len(halves) == 2:
                penta[halves[0] + halves[1]] += 1
            else:
                singles[halves[0]] += 1
            items.append((r.a, r.b, tuple(penta), tuple(singles)))
        elif isinstance(r, PairCounts):
            items.append((r.a, r.b, tuple(int(c) for c in r.penta), tuple(int(c) for c in r.singles)))
        else:
            raise TypeError(f"a ladder result is a MapResult or PairCounts, not {type(r).__name__}")
    names = tuple(sorted({*bots, *(a for a, _, _, _ in items), *(b for _, b, _, _ in items)}))
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    penta_arr = np.zeros((n, n, _PENTA_BINS))
    singles_arr = np.zeros((n, n, _TRI_BINS))
    for a, b, penta_t, singles_t in items:
        i, j = index[a], index[b]
        penta_arr[i, j] += penta_t
        penta_arr[j, i] += penta_t[::-1]
        singles_arr[i, j] += singles_t
        singles_arr[j, i] += singles_t[::-1]
    return _Counts(names, penta_arr, singles_arr)


def _objective(theta: np.ndarray, score: np.ndarray, phi: float, tau: float) -> float:
    diff = theta[:, None] - theta[None, :]
    loglik = -float(np.sum(score * np.logaddexp(0.0, -diff)))  # sum over ordered (i, j) of S_ij log L(d_ij)
    return loglik / phi - float(theta @ theta) / (2.0 * tau * tau)


def _maximise(
    games: np.ndarray, score: np.ndarray, phi: float, tau: float, start: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The maximum of the log posterior in natural units (theta = r / ELO_PER_NATURAL_UNIT) and
    the negative Hessian there, by Newton's method with step halving from ``start`` (or 0)."""
    n = games.shape[0]
    theta = np.zeros(n) if start is None else start
    value = _objective(theta, score, phi, tau)
    for _ in range(_MAX_NEWTON):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (score - games * p).sum(axis=1) / phi - theta / (tau * tau)
        w = games * p * p.T
        precision = (np.diag(w.sum(axis=1)) - w) / phi + np.eye(n) / (tau * tau)
        step = np.linalg.solve(precision, grad)
        t = 1.0
        while True:
            candidate = theta + t * step
            new_value = _objective(candidate, score, phi, tau)
            if new_value >= value - 1e-12 * (1.0 + abs(value)) or t < 1e-8:
                break
            t /= 2.0
        theta, value = candidate, new_value
        if float(np.max(np.abs(t * step), initial=0.0)) < 1e-12:
            break
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    w = games * p * p.T
    precision = (np.diag(w.sum(axis=1)) - w) / phi + np.eye(n) / (tau * tau)
    return theta - (theta.mean() if n else 0.0), precision


def _free_ratings(games: np.ndarray) -> int:
    """Ratings the games determine: bots with games minus the groups the games connect."""
    n = games.shape[0]
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(games))):
        parent[root(int(i))] = root(int(j))
    playing = [i for i in range(n) if games[i].sum() > 0]
    return len(playing) - len({root(i) for i in playing})


def _dispersion(counts: _Counts, theta: np.ndarray) -> tuple[float, int]:
    """(phi, units): the weighted Pearson estimate at ``theta`` with K0 even pseudo-units."""
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    upper = np.triu(np.ones_like(p, dtype=bool), k=1)  # each unordered pair once, from i's side
    squares = 0.0
    for bins, m in ((counts.penta, 2), (counts.singles, 1)):
        k = bins.shape[2] - 1
        y = np.arange(k + 1) / k
        squares += float(np.sum((bins * (m * (y[None, None, :] - p[:, :, None]) ** 2))[upper]))
    per_pair = counts.penta.sum(axis=2) + counts.singles.sum(axis=2)
    units = int(per_pair[upper].sum())
    expected = float(np.sum((per_pair * p * (1.0 - p))[upper]))
    df = max(units - _free_ratings(counts.games), 0)
    pseudo = DISPERSION_PRIOR_UNITS / 4.0
    if units == 0:
        return 1.0, 0
    return (squares + pseudo) / (expected * df / units + pseudo), units


def fit_ladder(
    results: Iterable[MapResult | PairCounts],
    bots: Iterable[str] = (),
    *,
    prior_sd: float = PRIOR_SD,
) -> LadderFit:
    """Fit the ladder (see the module docstring) to ``results``: map results (a pair of games or a
    lone game) and/or counts already aggregated per pair of bots, in any order and mix. ``bots``
    adds bots that may have no game yet (they get rating 0 and a wide interval)."""
    if not (prior_sd > 0 and math.isfinite(prior_sd)):
        raise ValueError(f"prior_sd is a positive number of Elo, not {prior_sd!r}")
    counts = _aggregate(results, bots)
    games, score = counts.games, counts.score
    tau = prior_sd / ELO_PER_NATURAL_UNIT
    theta, _ = _maximise(games, score, 1.0, tau)
    phi, units = _dispersion(counts, theta)
    theta, precision = _maximise(games, score, phi, tau, start=theta)
    n = len(counts.names)
    centre = np.eye(n) - (np.full((n, n), 1.0 / n) if n else 0.0)
    cov = centre @ np.linalg.inv(precision) @ centre * ELO_PER_NATURAL_UNIT**2
    elo = theta * ELO_PER_NATURAL_UNIT
    ranked = sorted(range(n), key=lambda i: (-round(float(elo[i]), 9), counts.names[i]))
    played = games.sum(axis=1)
    rows = []
    for rank, i in enumerate(ranked, start=1):
        se = math.sqrt(max(float(cov[i, i]), 0.0))
        above = None
        if rank < n:
            j = ranked[rank]
            var = float(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
            above = normal_cdf(float(elo[i] - elo[j]) / math.sqrt(var))
        rows.append(
            BotRating(
                name=counts.names[i],
                rank=rank,
                elo=float(elo[i]),
                se=se,
                elo_lo=float(elo[i]) - Z95 * se,
                elo_hi=float(elo[i]) + Z95 * se,
                games=int(played[i]),
                score=float(score[i].sum() / played[i]) if played[i] else None,
                above_next=above,
            )
        )
    return LadderFit(tuple(rows), phi, prior_sd, units, counts.names, cov, games.astype(np.int64))
