"""Statistics of bot-versus-bot comparisons (score, Elo, interval, LOS, SPRT); formulas: docs/statistics.md."""

from __future__ import annotations

from .elo import (
    Z95,
    elo_from_score,
    elo_pentanomial,
    elo_trinomial,
    estimate,
    expected_score,
    normal_cdf,
    normal_quantile,
)
from .headtohead import PAIR_BINS, ComparisonStats, HeadToHead
from .sprt import (
    SprtParams,
    SprtState,
    llr_logistic,
    llr_logistic_many,
    llr_pentanomial,
    llr_trinomial,
    sprt_test,
)
from .sweep import rank_sweep, sweep_points

__all__ = [
    "Z95",
    "PAIR_BINS",
    "normal_cdf",
    "normal_quantile",
    "expected_score",
    "elo_from_score",
    "estimate",
    "elo_trinomial",
    "elo_pentanomial",
    "llr_logistic",
    "llr_logistic_many",
    "llr_trinomial",
    "llr_pentanomial",
    "SprtState",
    "SprtParams",
    "sprt_test",
    "ComparisonStats",
    "HeadToHead",
    "sweep_points",
    "rank_sweep",
]
