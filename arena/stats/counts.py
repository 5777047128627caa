"""Outcome counts and the two ways of counting them: per game (trinomial: losses, draws, wins) or
per seat-swapped pair (pentanomial: the five pair scores), always lowest score first."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence

__all__ = ["SprtModel", "count_values"]


class SprtModel(str, enum.Enum):
    """How games are counted, by the estimates and the sequential test (the value is what configs,
    flags and storage use)."""

    PENTANOMIAL = "pentanomial"
    """Seat-swapped pairs (the default)."""
    TRINOMIAL = "trinomial"
    """Single games."""


def count_values(counts: Sequence[float]) -> list[float]:
    """The counts as floats, checked: at least two outcomes, each finite and non-negative."""
    values = [float(c) for c in counts]
    if len(values) < 2:
        raise ValueError(f"need counts for at least two outcomes, got {len(values)}")
    for c in values:
        if not (c >= 0.0 and math.isfinite(c)):
            raise ValueError(f"counts must be finite and non-negative, got {list(counts)!r}")
    return values
