"""Score rates and Elo: the logistic Elo curve, and estimates with a 95% interval and LOS from
outcome counts (the formulas, and the Wilson interval and exact LOS of the edge cases, are in
:mod:`arena.stats`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from .counts import SprtModel, count_values

__all__ = [
    "Z95",
    "normal_cdf",
    "normal_quantile",
    "expected_score",
    "elo_from_score",
    "EloEstimate",
    "estimate",
    "elo_trinomial",
    "elo_pentanomial",
    "wilson_interval",
    "exact_los",
    "finite",
]

_NORMAL = NormalDist()

Z95: float = _NORMAL.inv_cdf(0.975)
"""Phi^-1(0.975) = 1.959963984540054..., the two-sided 95% normal quantile."""


def normal_cdf(x: float) -> float:
    """Phi(x), the standard normal distribution function: (1 + erf(x / sqrt 2)) / 2."""
    if math.isnan(x):
        return math.nan
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def normal_quantile(p: float) -> float:
    """Phi^-1(p) for 0 < p < 1 (``statistics.NormalDist.inv_cdf``, Wichura's AS241 algorithm)."""
    return _NORMAL.inv_cdf(p)


def finite(x: float | None) -> float | None:
    """``x``, or ``None`` for ``None``, an infinity or NaN (strict JSON has no such floats)."""
    return x if x is not None and math.isfinite(x) else None


def expected_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger: s = 1 / (1 + 10^(-elo/400)).

    ``+inf`` gives 1 and ``-inf`` gives 0.

    >>> expected_score(0.0)
    0.5
    >>> round(expected_score(400.0), 4)  # 1 / (1 + 1/10)
    0.9091
    """
    if math.isnan(elo):
        return math.nan
    x = -elo / 400.0
    if x > 300:  # 10**x would overflow
        return 0.0
    power: float = 10.0**x  # a positive base: always a float (typeshed types float ** float as Any)
    return 1.0 / (1.0 + power)


def elo_from_score(mu: float) -> float:
    """Logistic Elo difference of a score rate: -400 log10(1/mu - 1), the inverse of
    :func:`expected_score`.

    ``mu = 1`` gives ``+inf``, ``mu = 0`` gives ``-inf``; ``mu`` outside [0, 1] (or NaN) raises
    ``ValueError``.

    >>> round(elo_from_score(0.75), 1)  # 400 log10(3)
    190.8
    >>> elo_from_score(1.0)
    inf
    """
    if not 0.0 <= mu <= 1.0:
        raise ValueError(f"a score rate lies in [0, 1], not {mu!r}")
    if mu == 1.0:
        return math.inf
    if mu == 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / mu - 1.0)


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
    """mu - z SE; the Wilson interval's lower end when the normal interval reaches 0 or 1 or has
    no width (see :func:`estimate`). 0 only when mu is 0."""
    score_hi: float
    """mu + z SE, or the Wilson interval's upper end (as ``score_lo``). 1 only when mu is 1."""
    elo: float
    elo_lo: float
    """Elo(score_lo); ``-inf`` only when mu is 0."""
    elo_hi: float
    """Elo(score_hi); ``+inf`` only when mu is 1."""
    elo_ci95: float
    """(elo_hi - elo_lo) / 2, fishtest's "+-"; ``inf`` when either end is infinite (mu 0 or 1)."""
    los: float
    """Phi((mu - 1/2) / SE); with SE = 0, the exact value of :func:`exact_los`."""
    wilson: bool = False
    """Whether the interval is Wilson's (the normal one reached 0 or 1, or had no width)."""


def wilson_interval(mu: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a mean ``mu`` of ``n`` samples in [0, 1]: the rates ``p`` with
    ``|mu - p| <= z sqrt(p (1 - p) / n)``. It lies in [0, 1] and is never empty; its lower end is 0
    only when mu is 0, its upper end 1 only when mu is 1 (at mu = 1 the lower end is
    n / (n + z^2)). ``p (1 - p)`` is the largest variance of a sample in [0, 1] with mean p, so
    the interval is conservative for draws and pair scores.

    >>> low, high = wilson_interval(1.0, 10)  # 10 won games: 10 / (10 + 1.95996^2)
    >>> round(low, 4), high
    (0.7225, 1.0)
    """
    z2 = z * z
    centre = (mu + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(mu * (1 - mu) / n + z2 / (4 * n * n))
    lo = 0.0 if mu <= 0.0 else max(0.0, centre - half)
    hi = 1.0 if mu >= 1.0 else min(1.0, centre + half)
    return lo, hi


def exact_los(mu: float, n: float) -> float:
    """The likelihood of superiority of ``n`` samples that all scored ``mu`` (no variance, so the
    normal approximation has none to offer): with a uniform prior on the chance that a sample
    scores above 1/2, after ``n`` such samples and none below (Beta(n + 1, 1)), the chance that
    it is above 1/2 is ``1 - 2^-(n + 1)``; ``2^-(n + 1)`` for samples all below 1/2, 1/2 for
    samples all at 1/2. 10 won games: 1 - 1/2048 = 0.99951."""
    if mu == 0.5:
        return 0.5
    tail: float = 0.5 ** (n + 1)
    return 1.0 - tail if mu > 0.5 else tail


def estimate(counts: Sequence[float], model: str = "") -> EloEstimate | None:
    """Score, Elo, 95% interval and LOS from ``counts`` in ascending score order (score of bin i
    is ``i / (len(counts) - 1)``). ``None`` when there are no samples.

    ``model`` only labels the result; it defaults to ``"trinomial"`` for 3 counts and
    ``"pentanomial"`` for 5.
    """
    n = count_values(counts)
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
    score_lo, score_hi = mu - Z95 * se, mu + Z95 * se
    wilson = se == 0.0 or score_lo <= 0.0 or score_hi >= 1.0
    if wilson:  # the normal interval says nothing there: an unbounded Elo, or a point
        score_lo, score_hi = wilson_interval(mu, total)
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
        los = exact_los(mu, total)
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
        wilson=wilson,
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
