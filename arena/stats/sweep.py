"""Sweeps: the variants of one bot against a baseline, as points with intervals, ranked."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .headtohead import ComparisonStats

__all__ = ["SweepPoint", "sweep_points", "rank_sweep"]


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
        points.append(
            SweepPoint(
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
            )
        )
    return points


def rank_sweep(points: Iterable[SweepPoint]) -> list[SweepPoint]:
    """Best first: by score rate, then by the interval's lower end; variants without games last.
    Stable for ties (input order)."""

    def key(p: SweepPoint) -> tuple[int, float, float]:
        if p.score is None:
            return (1, 0.0, 0.0)
        return (0, -p.score, -(p.score_lo if p.score_lo is not None else p.score))

    return sorted(points, key=key)
