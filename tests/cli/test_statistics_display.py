"""Issue #34, point 12: every figure shown for a sample agrees with the others, from real counts
through the stats to the table, the progress line and the sweep plot; values worked by hand."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from arena.standings.tournament import PairStanding, SweepRanking, SweepVariant
from arena.stats import HeadToHead, sweep_points
from cli.plot import plot_sweep, sweep_series
from cli.progress import describe_leader
from cli.report import comparison_table

Z = 1.959963984540054  # Phi^-1(0.975)
PERFECT_LO = 5 / (5 + Z * Z)  # Wilson's lower end after 5 pairs all won: 0.565518
PERFECT_ELO = -400 * math.log10(1 / PERFECT_LO - 1)  # +45.79


def won(pairs: int) -> HeadToHead:
    h = HeadToHead("greedy", "random")
    for _ in range(pairs):
        h.add_pair(1.0, 1.0)
    return h


def test_ten_nil_shows_a_bound_and_an_exact_los() -> None:
    """10-0-0 in 5 pairs: Elo > +45.8 (not +inf ±inf), LOS 1 - 2^-6 = 98.4% (not n/a)."""
    st = won(5).stats()
    pair = PairStanding(index=0, stats=st, decision=None, decided_at_pair=None, games_stored=10)
    line = comparison_table([pair])[1]
    assert "> +45.8" in line and "98.4%" in line
    assert "inf" not in line and line.count("n/a") == 1  # the interval cell: the bound is the Elo cell
    assert describe_leader(st) == "greedy vs random 10-0-0 (W-D-L), score 100.0%, Elo > +46"
    assert round(PERFECT_ELO, 2) == 45.79


def test_four_one_in_progress_is_no_infinite_elo_beside_a_finite_score() -> None:
    """4-0-1 with two WW pairs and a lost single: score 80% of 5 games; the Elo of the 2 pairs is
    bounded below by Elo(2 / (2 + z^2)) = -113.4 and says which sample it counts."""
    h = won(2)
    h.add_single(0.0)
    text = describe_leader(h.stats())
    assert text == "greedy vs random 4-0-1 (W-D-L), score 80.0%, Elo > -113 over 2 pairs"


def sweep_of(stats: list[tuple[str, HeadToHead]]) -> SweepRanking:
    points = sweep_points((f"g[d={d}]", d, h.stats()) for d, h in stats)
    ranking = tuple(SweepVariant(i + 1, {"d": p.value}, p) for i, p in enumerate(points))
    return SweepRanking(bot="g", grid={"d": [d for d, _ in stats]}, parameter="d", baseline="b", ranking=ranking)


def test_a_perfect_ten_game_sweep_point_has_an_error_bar() -> None:
    even = HeadToHead("g", "b")
    for _ in range(5):
        even.add_pair(1.0, 0.0)  # every pair split: a score of 1/2 with no spread
    series = sweep_of([("1", won(5)), ("2", even)])
    ((_, score1, lo1, hi1), (_, score2, lo2, hi2)) = series_points = sweep_series(series)["variants"]
    assert [p[0] for p in series_points] == [1.0, 2.0]
    assert score1 == 1.0 and hi1 == 1.0 and lo1 == pytest.approx(PERFECT_LO)
    half = Z / (2 * math.sqrt(5 + Z * Z))  # Wilson at 1/2 over 5 pairs: 0.5 -+ 0.306
    assert score2 == 0.5 and (lo2, hi2) == pytest.approx((0.5 - half, 0.5 + half))


def test_the_plot_draws_every_error_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    drawn: list[Any] = []
    original = Axes.errorbar

    def errorbar(self: Axes, *args: Any, **kwargs: Any) -> Any:
        drawn.append(kwargs["yerr"])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "errorbar", errorbar)
    plot_sweep(sweep_of([("1", won(5))]), tmp_path / "sweep.png")
    assert (tmp_path / "sweep.png").stat().st_size > 0
    ((below,), (above,)) = drawn[0]
    assert below == pytest.approx(100 * (1 - PERFECT_LO)) and above == 0.0
