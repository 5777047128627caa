"""Statistics of bot-versus-bot comparisons (score, Elo, interval, LOS, SPRT); formulas: docs/statistics.md."""

from __future__ import annotations

from .elo import (
    Z95,
    EloEstimate,
    elo_from_score,
    elo_pentanomial,
    elo_trinomial,
    estimate,
    expected_score,
    normal_cdf,
    normal_quantile,
    wilson_interval,
)
from .headtohead import PAIR_BINS, ComparisonStats, HeadToHead
from .sprt import (
    SprtModel,
    SprtParams,
    SprtResult,
    SprtState,
    llr_logistic,
    llr_logistic_many,
    llr_pentanomial,
    llr_trinomial,
    sprt_state,
    sprt_test,
)
from .sweep import SweepPoint, rank_sweep, sweep_points

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
    "wilson_interval",
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
