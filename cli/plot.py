"""The sweep plot: each variant's score rate against the baseline (with its 95% interval) against
the swept parameter, saved as a PNG (matplotlib, no display needed)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.standings.tournament import SweepRanking

__all__ = ["PlotUnavailable", "plot_available", "plot_sweep", "sweep_series", "INSTALL_HINT"]

INSTALL_HINT = "matplotlib is not installed; install the plot extra: pip install 'cgarena[plot]'"


class PlotUnavailable(RuntimeError):
    """matplotlib, an optional dependency, is missing."""


def plot_available() -> bool:
    """Whether matplotlib can be imported (it is only needed for the sweep plot)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot_sweep(sweep: SweepRanking, path: str | Path, title: str = "") -> Path:
    """Draw a sweep's ranking to ``path`` (written atomically). Variants that share
    the other grid parameters form one series; the x axis is the first grid parameter. Raises
    :class:`PlotUnavailable` without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(INSTALL_HINT) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    param = sweep.parameter
    order = [str(v) for v in sweep.grid[param]]
    numeric = all(_is_number(v) for v in order)
    series = sweep_series(sweep)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    try:
        for label, pts in series.items():
            xs = [p[0] for p in pts]
            ys = [100 * p[1] for p in pts]
            err = [[100 * (p[1] - p[2]) for p in pts], [100 * (p[3] - p[1]) for p in pts]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4, label=label)
        ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel(param)
        ax.set_ylabel(f"score vs {sweep.baseline or 'baseline'} (%), 95% interval")
        if not numeric:
            ax.set_xticks(range(len(order)), order)
        ax.set_title(title or f"sweep of {sweep.bot}")
        if len(series) > 1:
            ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent)
        os.close(fd)
        try:
            fig.savefig(tmp, format="png")
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    finally:
        plt.close(fig)
    return path


def sweep_series(sweep: SweepRanking) -> dict[str, list[tuple[float, float, float, float]]]:
    """The plot's points, by series (the variants that share the other grid parameters): x (the
    first grid parameter's value, or its place among non-numeric values), the score and its 95%
    interval's ends, sorted by x. The interval always has a width (:mod:`arena.stats`: Wilson's
    where the normal one has none), so every point gets its error bar, a perfect score too."""
    param = sweep.parameter
    others = [k for k in sweep.grid if k != param]
    order = [str(v) for v in sweep.grid[param]]
    numeric = all(_is_number(v) for v in order)
    series: dict[str, list[tuple[float, float, float, float]]] = {}
    for entry in sweep.ranking:
        point, f = entry.point or {}, entry.figures
        if f.score is None or param not in point:
            continue
        label = ", ".join(f"{k}={point[k]}" for k in others) or "variants"
        x = float(point[param]) if numeric else order.index(str(point[param]))
        lo = f.score_lo if f.score_lo is not None else f.score
        hi = f.score_hi if f.score_hi is not None else f.score
        series.setdefault(label, []).append((x, f.score, lo, hi))
    return {label: sorted(pts) for label, pts in series.items()}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
