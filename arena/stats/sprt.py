"""The sequential probability ratio test: its models, settings, states and result, and the
generalized log-likelihood ratio of the logistic Elo model (the formulas are in
:mod:`arena.stats`)."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .counts import SprtModel, count_values
from .elo import expected_score

__all__ = [
    "SprtModel",
    "SprtState",
    "SprtParams",
    "SprtResult",
    "sprt_state",
    "REGULARIZATION",
    "llr_logistic",
    "llr_logistic_many",
    "llr_trinomial",
    "llr_pentanomial",
    "sprt_test",
]

REGULARIZATION: float = 1e-3
"""Count given to empty bins before an LLR is computed (as fishtest does)."""


class SprtState(str, enum.Enum):
    """Where a sequential test stands."""

    CONTINUE = "continue"
    H0 = "H0"
    """H0 accepted (Elo = elo0 more likely: the change is not the hoped-for gain)."""
    H1 = "H1"
    """H1 accepted (Elo = elo1 more likely)."""

    @property
    def decided(self) -> bool:
        return self is not SprtState.CONTINUE

    def describe(self) -> str:
        """The state in words, the one wording of every report and message: ``"continue"`` (the
        value stored and exported too), ``"H0 accepted"``, ``"H1 accepted"``."""
        return {"continue": "continue", "H0": "H0 accepted", "H1": "H1 accepted"}[self.value]


@dataclass(frozen=True)
class SprtParams:
    """Settings of a sequential probability ratio test (H0: Elo = elo0, H1: Elo = elo1)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    """Probability of accepting H1 when Elo = elo0 (false positive)."""
    beta: float = 0.05
    """Probability of accepting H0 when Elo = elo1 (false negative)."""
    model: str = SprtModel.PENTANOMIAL.value
    """``"pentanomial"`` (pairs; the default) or ``"trinomial"`` (games)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)) or self.elo0 >= self.elo1:
            raise ValueError(f"SPRT needs finite elo0 < elo1, got {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"SPRT {name} must lie in (0, 1), got {value}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError("SPRT needs alpha + beta < 1")
        if self.model not in tuple(SprtModel):
            raise ValueError(f"SPRT model is 'pentanomial' or 'trinomial', not {self.model!r}")

    @property
    def lower_bound(self) -> float:
        """ln(beta / (1 - alpha)): at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """ln((1 - beta) / alpha): at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)


@dataclass(frozen=True)
class SprtResult:
    """The LLR of some counts and the test's state."""

    llr: float
    lower_bound: float
    upper_bound: float
    state: SprtState
    params: SprtParams
    samples: int
    """Games or pairs the LLR was computed from."""

    def to_dict(self) -> dict[str, Any]:
        p = self.params
        return {
            "llr": self.llr,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "state": self.state.value,
            "elo0": p.elo0,
            "elo1": p.elo1,
            "alpha": p.alpha,
            "beta": p.beta,
            "model": p.model,
            "samples": self.samples,
        }


def sprt_state(llr: float, params: SprtParams) -> SprtState:
    """H1 when ``llr >= upper_bound``, H0 when ``llr <= lower_bound``, else continue."""
    if llr >= params.upper_bound:
        return SprtState.H1
    if llr <= params.lower_bound:
        return SprtState.H0
    return SprtState.CONTINUE


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
    values = count_values(counts)
    return float(llr_logistic_many(np.asarray([values]), elo0, elo1)[0])


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """:func:`llr_logistic` on per-game counts."""
    return llr_logistic((losses, draws, wins), elo0, elo1)


def llr_pentanomial(penta: Sequence[int], elo0: float, elo1: float) -> float:
    """:func:`llr_logistic` on pair counts (LL, LD, WL+DD, WD, WW)."""
    if len(penta) != 5:
        raise ValueError(f"pentanomial counts have 5 bins, got {len(penta)}")
    return llr_logistic(penta, elo0, elo1)


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
