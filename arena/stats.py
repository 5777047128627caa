"""Statistics for bot-versus-bot comparisons: score, Elo with a 95% interval, LOS, and SPRT.

Pure maths (``math`` and ``numpy``, no I/O). Everything is seen from the first bot's side ("A").

Outcomes and counts
    A game scores 0 (loss), 1/2 (draw) or 1 (win) for A. A *pair* is one seed played twice with
    the seats swapped; its score is the mean of its two games, one of 0, 1/4, 1/2, 3/4, 1, so
    pairs fall into five bins (the *pentanomial* counts), lowest score first::

        LL, LD (or DL), WL+DD (and LW), WD (or DW), WW

    Trinomial counts are ``(losses, draws, wins)``, again lowest score first. Functions that take
    generic ``counts`` use this ascending order: ``counts[i]`` counts outcomes of score
    ``i / (len(counts) - 1)``.

Score, Elo, interval, LOS (the formulas fishtest uses)
    With outcome scores ``a_i`` and counts ``n_i`` (``N = sum n_i`` samples: games for the
    trinomial model, pairs for the pentanomial one)::

        mu  = sum n_i a_i / N                      (score rate)
        var = sum n_i (a_i - mu)^2 / N             (per-sample variance)
        SE  = sqrt(var / N)                        (standard error of mu)
        Elo = -400 log10(1/mu - 1)                 (logistic Elo; inverse of s = 1/(1 + 10^(-Elo/400)))
        interval: [Elo(mu - z SE), Elo(mu + z SE)] with z = Phi^-1(0.975) = 1.95996...
        elo_ci95  = (Elo(mu + z SE) - Elo(mu - z SE)) / 2     (half-width, as fishtest's "+-")
        LOS = Phi((mu - 1/2) / SE)                 (likelihood of superiority)

    The pentanomial model treats a pair as one sample, which removes the seed's (map's) advantage
    from the variance; it is the default whenever there are complete pairs.

Degenerate cases (documented return values, never an exception)
    * no samples: the estimate is ``None`` (and every derived field of :class:`ComparisonStats`);
    * ``mu = 1`` (all wins) / ``mu = 0``: ``elo`` is ``+inf`` / ``-inf``;
    * interval ends beyond [0, 1] are clamped to 0 or 1, so their Elo is infinite, and then
      ``elo_ci95`` is ``+inf`` (the data do not bound the Elo on that side);
    * ``SE = 0`` (e.g. all draws): the interval is the point itself (``elo_ci95 = 0``, or ``inf``
      if that point is infinite) and ``los`` is 1/2, 1 or 0 as ``mu`` equals, exceeds or falls
      short of 1/2.
    :meth:`ComparisonStats.to_dict` turns the non-finite floats into ``None`` for strict JSON.

SPRT (generalized SPRT with the logistic Elo model, as in fishtest)
    H0: Elo = elo0 against H1: Elo = elo1, i.e. expected score ``s0 = L(elo0)`` against
    ``s1 = L(elo1)`` with ``L(e) = 1 / (1 + 10^(-e/400))``. The nuisance parameters (the whole
    outcome distribution) are replaced by their maximum-likelihood estimates under each
    hypothesis: the distribution ``p`` maximising ``sum n_i log p_i`` subject to
    ``sum p_i a_i = s`` is ``p_i = phat_i / (1 + lam (a_i - s))`` where ``phat_i = n_i / N`` and
    ``lam`` is the root of ``sum phat_i (a_i - s) / (1 + lam (a_i - s)) = 0`` in the interval
    where every denominator is positive (Lagrange multipliers; the left side is decreasing in
    ``lam``). Then::

        LLR = sum n_i log(p1_i / p0_i) = sum n_i [log(1 + lam0 (a_i - s0)) - log(1 + lam1 (a_i - s1))]

    Wald's bounds: H0 is accepted when ``LLR <= ln(beta / (1 - alpha))``, H1 when
    ``LLR >= ln((1 - beta) / alpha)``; otherwise the test continues. As fishtest does, empty bins
    are given a count of 1e-3 before the LLR is computed (so that all-wins or no-draws data give a
    finite LLR); with no samples at all the LLR is 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from .sprt import SprtModel, SprtParams, SprtResult, SprtState, sprt_state

__all__ = [
    "SprtModel",
    "Z95",
    "PAIR_BINS",
    "normal_cdf",
    "normal_quantile",
    "expected_score",
    "elo_from_score",
    "EloEstimate",
    "estimate",
    "elo_trinomial",
    "elo_pentanomial",
    "llr_logistic",
    "llr_logistic_many",
    "llr_trinomial",
    "llr_pentanomial",
    "SprtState",
    "SprtParams",
    "SprtResult",
    "sprt_state",
    "sprt_test",
    "ComparisonStats",
    "HeadToHead",
    "SweepPoint",
    "sweep_points",
    "rank_sweep",
]


_NORMAL = NormalDist()

Z95: float = _NORMAL.inv_cdf(0.975)
"""Phi^-1(0.975) = 1.959963984540054..., the two-sided 95% normal quantile."""

PAIR_BINS: tuple[str, ...] = ("LL", "LD", "WL+DD", "WD", "WW")
"""Names of the pentanomial bins, lowest pair score first (pair scores 0, 1/4, 1/2, 3/4, 1)."""

REGULARIZATION: float = 1e-3
"""Count given to empty bins before an LLR is computed (as fishtest does)."""


# --------------------------------------------------------------------------- basic functions

def normal_cdf(x: float) -> float:
    """Phi(x), the standard normal distribution function: (1 + erf(x / sqrt 2)) / 2."""
    if math.isnan(x):
        return math.nan
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def normal_quantile(p: float) -> float:
    """Phi^-1(p) for 0 < p < 1 (``statistics.NormalDist.inv_cdf``, Wichura's AS241 algorithm)."""
    return _NORMAL.inv_cdf(p)


def expected_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger: s = 1 / (1 + 10^(-elo/400)).

    ``+inf`` gives 1 and ``-inf`` gives 0.
    """
    if math.isnan(elo):
        return math.nan
    x = -elo / 400.0
    if x > 300:  # 10**x would overflow
        return 0.0
    power: float = 10.0 ** x  # a positive base: always a float (typeshed types float ** float as Any)
    return 1.0 / (1.0 + power)


def elo_from_score(mu: float) -> float:
    """Logistic Elo difference of a score rate: -400 log10(1/mu - 1), the inverse of
    :func:`expected_score`.

    ``mu = 1`` gives ``+inf``, ``mu = 0`` gives ``-inf``; ``mu`` outside [0, 1] (or NaN) raises
    ``ValueError``.
    """
    if not 0.0 <= mu <= 1.0:
        raise ValueError(f"a score rate lies in [0, 1], not {mu!r}")
    if mu == 1.0:
        return math.inf
    if mu == 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / mu - 1.0)


# --------------------------------------------------------------------------- Elo estimates

@dataclass(frozen=True)
class EloEstimate:
    """Score rate, Elo, 95% interval and LOS of one model (see the module docstring)."""

    model: str
    """``"trinomial"`` (samples are games) or ``"pentanomial"`` (samples are seat-swapped pairs)."""
    samples: int
    """Games (trinomial) or pairs (pentanomial)."""
    score: float
    """mu, the mean score of a sample (a pair's score is the mean of its two games)."""
    variance: float
    """Per-sample variance of the score."""
    se: float
    """Standard error of ``score``: sqrt(variance / samples)."""
    score_lo: float
    """max(0, mu - z SE)."""
    score_hi: float
    """min(1, mu + z SE)."""
    elo: float
    elo_lo: float
    """Elo(score_lo); ``-inf`` when score_lo is 0."""
    elo_hi: float
    """Elo(score_hi); ``+inf`` when score_hi is 1."""
    elo_ci95: float
    """(elo_hi - elo_lo) / 2, fishtest's "+-"; ``inf`` when either end is infinite."""
    los: float
    """Phi((mu - 1/2) / SE)."""


def _float_counts(counts: Sequence[float]) -> list[float]:
    values = [float(c) for c in counts]
    if len(values) < 2:
        raise ValueError(f"need counts for at least two outcomes, got {len(values)}")
    for c in values:
        if not (c >= 0.0 and math.isfinite(c)):
            raise ValueError(f"counts must be finite and non-negative, got {list(counts)!r}")
    return values


def estimate(counts: Sequence[float], model: str = "") -> EloEstimate | None:
    """Score, Elo, 95% interval and LOS from ``counts`` in ascending score order (score of bin i
    is ``i / (len(counts) - 1)``). ``None`` when there are no samples.

    ``model`` only labels the result; it defaults to ``"trinomial"`` for 3 counts and
    ``"pentanomial"`` for 5.
    """
    n = _float_counts(counts)
    if not model:
        model = {3: SprtModel.TRINOMIAL.value, 5: SprtModel.PENTANOMIAL.value}.get(len(n), f"{len(n)}-nomial")
    total = sum(n)
    if total <= 0:
        return None
    k = len(n) - 1
    values = [i / k for i in range(k + 1)]
    mu = sum(c * a for c, a in zip(n, values)) / total
    mu = min(1.0, max(0.0, mu))
    var = sum(c * (a - mu) ** 2 for c, a in zip(n, values)) / total
    se = math.sqrt(var / total)
    score_lo = max(0.0, mu - Z95 * se)
    score_hi = min(1.0, mu + Z95 * se)
    elo = elo_from_score(mu)
    elo_lo = elo_from_score(score_lo)
    elo_hi = elo_from_score(score_hi)
    if math.isfinite(elo_lo) and math.isfinite(elo_hi):
        ci95 = (elo_hi - elo_lo) / 2.0
    else:
        ci95 = math.inf
    if se > 0.0:
        los = normal_cdf((mu - 0.5) / se)
    else:
        los = 0.5 if mu == 0.5 else (1.0 if mu > 0.5 else 0.0)
    return EloEstimate(
        model=model,
        samples=round(total),
        score=mu,
        variance=var,
        se=se,
        score_lo=score_lo,
        score_hi=score_hi,
        elo=elo,
        elo_lo=elo_lo,
        elo_hi=elo_hi,
        elo_ci95=ci95,
        los=los,
    )


def elo_trinomial(wins: int, draws: int, losses: int) -> EloEstimate | None:
    """Per-game (trinomial) estimate; ``None`` with no games."""
    return estimate((losses, draws, wins), SprtModel.TRINOMIAL.value)


def elo_pentanomial(penta: Sequence[int]) -> EloEstimate | None:
    """Per-pair (pentanomial) estimate from the counts (LL, LD, WL+DD, WD, WW); ``None`` with no
    pairs."""
    if len(penta) != 5:
        raise ValueError(f"pentanomial counts have 5 bins, got {len(penta)}")
    return estimate(penta, SprtModel.PENTANOMIAL.value)


# --------------------------------------------------------------------------- GSPRT log-likelihood ratio

def _solve_multipliers(phat: np.ndarray, d: np.ndarray) -> np.ndarray:
    """For each row of ``phat`` (shape (M, K), rows summing to 1, all entries > 0) the root
    ``lam`` of f(lam) = sum_i phat_i d_i / (1 + lam d_i), where ``min d < 0 < max d``.

    f decreases from +inf to -inf on the bracket (-1/max d, -1/min d). Newton's method is applied
    to the pole-free g(lam) = f(lam) (1 + lam max d) (1 + lam min d), which has the same root in
    the bracket, and safeguarded by bisection; rows leave the iteration once converged.
    """
    w, v = float(d.max()), float(d.min())
    m = phat.shape[0]
    result = np.zeros(m)
    rows = np.arange(m)
    lo = np.full(m, -1.0 / w)
    hi = np.full(m, -1.0 / v)
    lam = np.zeros(m)
    p = phat
    for _ in range(200):
        if rows.size == 0:
            break
        denom = 1.0 + lam[:, None] * d[None, :]
        t = p * d[None, :] / denom
        f = t.sum(axis=1)
        fprime = -(t * d[None, :] / denom).sum(axis=1)
        lo = np.where(f > 0.0, lam, lo)
        hi = np.where(f < 0.0, lam, hi)
        q = (1.0 + lam * w) * (1.0 + lam * v)
        qprime = w * (1.0 + lam * v) + v * (1.0 + lam * w)
        g = f * q
        gprime = fprime * q + f * qprime
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(gprime < 0.0, g / gprime, np.inf)
        done = (f == 0.0) | (np.abs(step) <= 1e-14 * (1.0 + np.abs(lam)))
        new = lam - step
        outside = ~((new > lo) & (new < hi))
        new = np.where(outside, 0.5 * (lo + hi), new)
        new = np.where(done, lam, new)
        result[rows] = new
        keep = ~done
        rows, lam, lo, hi, p = rows[keep], new[keep], lo[keep], hi[keep], p[keep]
    return result


def llr_logistic_many(counts: np.ndarray | Sequence[Sequence[float]], elo0: float, elo1: float) -> np.ndarray:
    """:func:`llr_logistic` for each row of a 2-D array of counts (vectorised; used to simulate
    many sequential tests at once). Returns a 1-D float array."""
    arr = np.asarray(counts, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 2:
        raise ValueError("counts must be a 2-D array with at least two outcome columns")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError("counts must be finite and non-negative")
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise ValueError("elo0 and elo1 must be finite")
    k = arr.shape[1] - 1
    a = np.arange(k + 1) / k
    empty = arr.sum(axis=1) <= 0
    reg = np.where(arr == 0.0, REGULARIZATION, arr)
    total = reg.sum(axis=1)
    phat = reg / total[:, None]
    llr = np.zeros(arr.shape[0])
    for s, sign in ((expected_score(elo0), -1.0), (expected_score(elo1), 1.0)):
        if not 0.0 < s < 1.0:
            raise ValueError("elo0 and elo1 must give expected scores strictly between 0 and 1")
        d = a - s
        lam = _solve_multipliers(phat, d)
        # log p_i = log phat_i - log(1 + lam d_i); the phat terms cancel in the difference.
        llr += -sign * (reg * np.log1p(lam[:, None] * d[None, :])).sum(axis=1)
    return np.where(empty, 0.0, llr)


def llr_logistic(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1: Elo = elo1 against H0: Elo = elo0 (logistic model)
    for ``counts`` in ascending score order (e.g. (L, D, W) or the five pair bins).

    See the module docstring for the formula; empty bins count 1e-3, no samples give 0.
    """
    values = _float_counts(counts)
    return float(llr_logistic_many(np.asarray([values]), elo0, elo1)[0])


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """:func:`llr_logistic` on per-game counts."""
    return llr_logistic((losses, draws, wins), elo0, elo1)


def llr_pentanomial(penta: Sequence[int], elo0: float, elo1: float) -> float:
    """:func:`llr_logistic` on pair counts (LL, LD, WL+DD, WD, WW)."""
    if len(penta) != 5:
        raise ValueError(f"pentanomial counts have 5 bins, got {len(penta)}")
    return llr_logistic(penta, elo0, elo1)


# --------------------------------------------------------------------------- SPRT

def sprt_test(counts: Sequence[float], params: SprtParams) -> SprtResult:
    """Run the SPRT on ``counts`` in ascending score order: (L, D, W) or the five pair bins.

    The counts' length must match ``params.model`` (3 for trinomial, 5 for pentanomial).
    """
    expected = 5 if params.model == SprtModel.PENTANOMIAL else 3
    if len(counts) != expected:
        raise ValueError(f"{params.model} SPRT needs {expected} counts, got {len(counts)}")
    llr = llr_logistic(counts, params.elo0, params.elo1)
    return SprtResult(
        llr=llr,
        lower_bound=params.lower_bound,
        upper_bound=params.upper_bound,
        state=sprt_state(llr, params),
        params=params,
        samples=round(sum(counts)),
    )


# --------------------------------------------------------------------------- comparisons

def _json_float(x: float | None) -> float | None:
    if x is None or not math.isfinite(x):
        return None
    return x


@dataclass(frozen=True)
class ComparisonStats:
    """Everything the results report needs about one comparison, from ``bots[0]``'s side.

    ``elo``, ``elo_ci95``, ``elo_lo``, ``elo_hi``, ``los``, ``score_se``, ``score_lo`` and
    ``score_hi`` come from the pentanomial model when there is at least one complete pair
    (``model == "pentanomial"``; unpaired games are then left out of them), from the trinomial
    model otherwise; both estimates are kept in ``trinomial`` and ``pentanomial``. They are
    ``None`` when there are no games. ``elo_ci95`` is the half-width of the 95% interval
    (``(elo_hi - elo_lo) / 2``, as fishtest reports it); the exact, asymmetric interval is
    ``[elo_lo, elo_hi]``.
    """

    bots: tuple[str, str]
    games: int
    wins: int
    draws: int
    losses: int
    score: float | None
    """(wins + draws / 2) / games over all games; ``None`` with no games."""
    draw_ratio: float | None
    """draws / games; ``None`` with no games."""
    pairs: int
    singles: int
    """Games not (yet) part of a complete pair; counted in the trinomial figures only."""
    penta: tuple[int, int, int, int, int]
    """Pair counts (LL, LD, WL+DD, WD, WW)."""
    model: str | None
    """``"pentanomial"``, ``"trinomial"`` or ``None`` (no games)."""
    elo: float | None
    elo_ci95: float | None
    elo_lo: float | None
    elo_hi: float | None
    los: float | None
    score_se: float | None
    score_lo: float | None
    score_hi: float | None
    trinomial: EloEstimate | None = field(repr=False)
    pentanomial: EloEstimate | None = field(repr=False)
    sprt: SprtResult | None = None

    @property
    def estimate(self) -> EloEstimate | None:
        """The estimate the headline figures come from."""
        return self.pentanomial if self.model == SprtModel.PENTANOMIAL else self.trinomial

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite floats such as an infinite Elo become ``None``)."""
        out: dict[str, Any] = {
            "bots": list(self.bots),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "draw_ratio": self.draw_ratio,
            "pairs": self.pairs,
            "singles": self.singles,
            "penta": list(self.penta),
            "model": self.model,
        }
        for name in ("elo", "elo_ci95", "elo_lo", "elo_hi", "los", "score_se", "score_lo", "score_hi"):
            out[name] = _json_float(getattr(self, name))
        if self.sprt is not None:
            sprt = self.sprt.to_dict()
            sprt["llr"] = _json_float(sprt["llr"])
            out["sprt"] = sprt
        return out


_SCORE_HALVES = {0.0: 0, 0.5: 1, 1.0: 2}


def _half_points(score: float) -> int:
    """0, 1 or 2 half-points for a game score of 0, 1/2 or 1."""
    try:
        return _SCORE_HALVES[float(score)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"a game score is 0, 0.5 or 1, not {score!r}") from None


class HeadToHead:
    """Accumulates the games of one comparison (``bots[0]`` against ``bots[1]``, scores from
    ``bots[0]``'s side) and summarises them with :meth:`stats`."""

    def __init__(self, bot_a: str = "A", bot_b: str = "B") -> None:
        self.bots: tuple[str, str] = (bot_a, bot_b)
        self._tri = [0, 0, 0]  # losses, draws, wins over all games
        self._penta = [0, 0, 0, 0, 0]
        self._singles = 0

    def add_pair(self, score_first: float, score_second: float) -> None:
        """A complete pair: the same seed played twice with the seats swapped (scores 0, 1/2, 1)."""
        h1, h2 = _half_points(score_first), _half_points(score_second)
        self._tri[h1] += 1
        self._tri[h2] += 1
        self._penta[h1 + h2] += 1

    def add_single(self, score: float) -> None:
        """A game whose pair is incomplete: counted in the trinomial figures only."""
        self._tri[_half_points(score)] += 1
        self._singles += 1

    @property
    def wins(self) -> int:
        return self._tri[2]

    @property
    def draws(self) -> int:
        return self._tri[1]

    @property
    def losses(self) -> int:
        return self._tri[0]

    @property
    def games(self) -> int:
        return sum(self._tri)

    @property
    def pairs(self) -> int:
        return sum(self._penta)

    @property
    def singles(self) -> int:
        return self._singles

    @property
    def penta(self) -> tuple[int, int, int, int, int]:
        p = self._penta
        return (p[0], p[1], p[2], p[3], p[4])

    @property
    def trinomial_counts(self) -> tuple[int, int, int]:
        """(losses, draws, wins)."""
        return (self._tri[0], self._tri[1], self._tri[2])

    def sprt(self, params: SprtParams) -> SprtResult:
        """The SPRT on the pair counts or the game counts, as ``params.model`` says."""
        counts: Sequence[int] = self.penta if params.model == SprtModel.PENTANOMIAL else self.trinomial_counts
        return sprt_test(counts, params)

    def stats(self, sprt: SprtParams | None = None) -> ComparisonStats:
        """The summary (see :class:`ComparisonStats`), with the SPRT when ``sprt`` is given."""
        tri = elo_trinomial(self.wins, self.draws, self.losses)
        pen = elo_pentanomial(self.penta)
        chosen = pen if pen is not None else tri
        games = self.games

        def pick(name: str) -> float | None:
            return None if chosen is None else getattr(chosen, name)

        return ComparisonStats(
            bots=self.bots,
            games=games,
            wins=self.wins,
            draws=self.draws,
            losses=self.losses,
            score=(self.wins + 0.5 * self.draws) / games if games else None,
            draw_ratio=self.draws / games if games else None,
            pairs=self.pairs,
            singles=self.singles,
            penta=self.penta,
            model=None if chosen is None else chosen.model,
            elo=pick("elo"),
            elo_ci95=pick("elo_ci95"),
            elo_lo=pick("elo_lo"),
            elo_hi=pick("elo_hi"),
            los=pick("los"),
            score_se=pick("se"),
            score_lo=pick("score_lo"),
            score_hi=pick("score_hi"),
            trinomial=tri,
            pentanomial=pen,
            sprt=None if sprt is None else self.sprt(sprt),
        )


# --------------------------------------------------------------------------- sweeps

@dataclass(frozen=True)
class SweepPoint:
    """One variant of a sweep against the baseline: score rate with its 95% interval."""

    label: str
    value: Any
    """The swept parameter's value (for the plot's x axis)."""
    games: int
    score: float | None
    """mu of the headline model (pair means when there are pairs)."""
    score_lo: float | None
    """max(0, mu - z SE)."""
    score_hi: float | None
    """min(1, mu + z SE)."""
    elo: float | None
    elo_ci95: float | None
    los: float | None
    sprt_state: str | None
    """The SPRT state's value when the comparison ran one."""


def sweep_points(variants: Iterable[tuple[str, Any, ComparisonStats]]) -> list[SweepPoint]:
    """One :class:`SweepPoint` per ``(label, parameter value, stats)``, in the given order."""
    points = []
    for label, value, st in variants:
        est = st.estimate
        points.append(SweepPoint(
            label=label,
            value=value,
            games=st.games,
            score=None if est is None else est.score,
            score_lo=st.score_lo,
            score_hi=st.score_hi,
            elo=st.elo,
            elo_ci95=st.elo_ci95,
            los=st.los,
            sprt_state=None if st.sprt is None else st.sprt.state.value,
        ))
    return points


def rank_sweep(points: Iterable[SweepPoint]) -> list[SweepPoint]:
    """Best first: by score rate, then by the interval's lower end; variants without games last.
    Stable for ties (input order)."""

    def key(p: SweepPoint) -> tuple[int, float, float]:
        if p.score is None:
            return (1, 0.0, 0.0)
        return (0, -p.score, -(p.score_lo if p.score_lo is not None else p.score))

    return sorted(points, key=key)

