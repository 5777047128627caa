"""The vocabulary of a sequential probability ratio test: its models, settings, states and
result (no maths beyond the bounds: the log-likelihood ratios are in :mod:`arena.stats`)."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any

__all__ = ["SprtModel", "SprtState", "SprtParams", "SprtResult", "sprt_state"]


class SprtModel(str, enum.Enum):
    """What the sequential test counts (the value is what configs, flags and storage use)."""

    PENTANOMIAL = "pentanomial"
    """Seat-swapped pairs (the default)."""
    TRINOMIAL = "trinomial"
    """Single games."""


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
