"""The ladder's ranking model and matchmaking on synthetic bots of known strength (issue #33).

    python benchmarks/ladder_model.py [--runs R] [--budget G] [--quick]

Six bots of true Elo 0, 40, 100, 150, 250, 320 play pairs of games (one map, both seats; seat
advantage 0.1 and 30% draws at even strength: ``tests/helpers/ladder_sim.py`` has the model).
Each run, seeded 0..R-1, plays up to a budget of G games twice: once choosing each pair with the
ladder's matchmaking (``next_pair`` on the fit of all games so far, every bot new at the start),
once with uniform random pairing (every pair of bots alike); the fit is checked after every pair.

(a) Coverage: at the ladder's stop (the first time ``confident(fit, 0.95)`` holds, or the budget),
does each bot's 95% interval contain its true rating (anchored as the fit is: mean 0)? Counted
per bot (R x 6 intervals; goal: at least 90%) and per run (all six at once).
(b) Games to the correct order: the games played when ``confident`` first holds with the fitted
order equal to the true order (a run whose first confident fit has the wrong order, or that is
never confident, counts as never: infinite); the ladder's median against uniform pairing's
(goal: at most 60%). Also printed: the games after which the fitted order is the true order at
every later check up to the budget ("settled"), a definition without the stopping rule.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.ladder_sim import TRUE_ELO, Run, Synthetic, simulate  # noqa: E402

GOAL_COVERAGE = 0.90
GOAL_RATIO = 0.60


def reached(run: Run) -> float:
    """Games until ``confident`` held with the true order (infinite if never, or wrong then)."""
    return float(run.confident_at) if run.confident_at is not None and run.confident_right else math.inf


def settled(run: Run) -> float:
    return float(run.settled_at) if run.settled_at is not None else math.inf


def spread(values: list[float]) -> str:
    finite = [v for v in values if math.isfinite(v)]
    never = len(values) - len(finite)
    text = f"median {statistics.median(values):7.0f}  range {min(finite):.0f}-{max(finite):.0f}" if finite else "never"
    return text + (f"  ({never} never)" if never else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="runs per scheme (default 20)")
    parser.add_argument("--budget", type=int, default=4000, help="games per run (default 4000)")
    parser.add_argument("--quick", action="store_true", help="5 runs, a budget of 3000 games")
    args = parser.parse_args(argv)
    runs, budget = (5, 3000) if args.quick else (args.runs, args.budget)
    bots = Synthetic(TRUE_ELO)
    print(
        f"6 synthetic bots, true Elo {', '.join(f'{r:g}' for r in TRUE_ELO)} (seat advantage {bots.delta}, "
        f"draws {bots.draw:.0%} at even strength); {runs} runs, budget {budget} games, confident at 0.95"
    )
    results: dict[str, list[Run]] = {"ladder": [], "uniform": []}
    seconds = dict.fromkeys(results, 0.0)
    for seed in range(runs):
        for scheme, found in results.items():
            start = time.perf_counter()
            found.append(simulate(bots, scheme, budget, seed))
            seconds[scheme] += time.perf_counter() - start
    ladder, uniform = results["ladder"], results["uniform"]
    covered = sum(sum(r.covered) for r in ladder)
    intervals = sum(len(r.covered) for r in ladder)
    met = "met" if covered >= GOAL_COVERAGE * intervals else "MISSED"
    print(
        f"(a) 95% intervals containing the truth at the ladder's stop: {covered}/{intervals} bots = "
        f"{covered / intervals:.1%} (goal >= {GOAL_COVERAGE:.0%}: {met}); "
        f"runs with all six covered: {sum(all(r.covered) for r in ladder)}/{runs}"
    )
    print("(b) games until confident with the true order:")
    for scheme, found in results.items():
        wrong = sum(r.confident_right is False for r in found)
        print(f"    {scheme:8} {spread([reached(r) for r in found])}  stopped in a wrong order: {wrong}/{runs}")
    ratio = statistics.median(map(reached, ladder)) / statistics.median(map(reached, uniform))
    met = "met" if ratio <= GOAL_RATIO else "MISSED"
    print(f"    ratio ladder / uniform (medians) {ratio:.2f} (goal <= {GOAL_RATIO:.2f}: {met})")
    print("    games until the order is right and stays right to the budget (settled):")
    for scheme, found in results.items():
        print(f"    {scheme:8} {spread([settled(r) for r in found])}")
    ratio_settled = statistics.median(map(settled, ladder)) / statistics.median(map(settled, uniform))
    print(f"    ratio ladder / uniform (medians) {ratio_settled:.2f}")
    phi = statistics.median(r.final.dispersion for r in ladder if r.final is not None)
    print(
        f"dispersion phi at the budget (ladder, median): {phi:.3f}; seconds per run: "
        + ", ".join(f"{scheme} {total / runs:.2f}" for scheme, total in seconds.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
