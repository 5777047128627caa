"""Score rates and Elo: the logistic Elo curve, and estimates with a 95% interval and LOS from
outcome counts (the formulas are in :mod:`arena.stats`)."""

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
]

_NORMAL = NormalDist()

Z95: float = _NORMAL.inv_cdf(0.975)
"""Phi^-1(0.975) = 1.959963984540054..., the two-sided 95% normal quantile."""


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
    power: float = 10.0**x  # a positive base: always a float (typeshed types float ** float as Any)
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
