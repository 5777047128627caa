"""In-process referee speed: random legal games per second and microseconds per frame.

    python benchmarks/referees.py [GAME ...] [--games N] [--runs R] [--baseline DIR]

Each run plays N random legal games (both seats choose uniformly among the legal actions) on one
core and reports games per second and microseconds per engine turn, after one untimed game that
pays the one-time costs (imports, compiling, cached tables). Several runs are made and the
median is printed, since shared machines are noisy. The time includes the referee's whole work
(shuffles, parsing the answers, resolving) and the random choice of the actions; the input lines
are built only when asked for, as an in-process playout never reads them, so a second figure
reads every request's lines as the arena does (``with lines``).

``--baseline DIR`` compares with another checkout of the project (e.g. an old commit in a
temporary ``git worktree``): each run plays the same games with the baseline's referees and with
this tree's, one after the other in fresh processes, and the ratio this/baseline is taken run by
run (so a machine whose speed drifts still gives a fair ratio); the median ratio is printed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run(game: str, games: int, seed0: int, read_lines: bool = False) -> dict[str, float]:
    """Play ``games`` games with the ``referee`` package first on ``sys.path``; return seconds,
    engine turns, answers read, and the seconds the random players spent choosing."""
    referee = importlib.import_module("referee")
    frames = answers = 0
    policy = 0.0
    clock = time.perf_counter
    start = 0.0
    # Game -1 is played untimed: importing and compiling the game's modules (a tree without
    # byte-code caches compiles them on every run) and its cached tables are paid once, not per game.
    for i in range(-1, games):
        if i == 0:
            frames = answers = 0
            policy = 0.0
            start = clock()
        ref = referee.create(game, seed0 + i)
        rng = random.Random(seed0 + i)
        while not ref.is_over:
            outputs = {}
            for r in ref.requests():
                if read_lines:
                    r.lines  # noqa: B018 - the arena reads them
                if r.expected_lines:
                    t = clock()
                    outputs[r.player] = rng.choice(ref.legal_actions(r.player))
                    policy += clock() - t
            answers += len(outputs)
            ref.apply(outputs)
            frames += 1
    return {"seconds": clock() - start, "frames": frames, "answers": answers, "policy": policy}


def run_in(tree: Path, game: str, games: int, seed0: int, read_lines: bool) -> dict[str, float]:
    """:func:`run` in a fresh interpreter whose ``referee`` package is the one in ``tree``."""
    argv = [sys.executable, __file__, "--child", str(tree), game, "--games", str(games), "--seed", str(seed0)]
    if read_lines:
        argv.append("--read-lines")
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tree, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the run in {tree} failed:\n{done.stderr.strip()}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _rates(r: dict[str, float], games: int) -> tuple[float, float]:
    return games / r["seconds"], games / (r["seconds"] - r["policy"])


def report(name: str, games: int, rows: list[dict[str, float]], label: str = "") -> float:
    rates = [_rates(r, games)[0] for r in rows]
    referee_only = [_rates(r, games)[1] for r in rows]
    per_frame = [r["seconds"] / r["frames"] * 1e6 for r in rows]
    last = rows[-1]
    print(
        f"{name:12}{label} {statistics.median(rates):8.1f} games/s  "
        f"({statistics.median(referee_only):.1f} without the players' move choice)  "
        f"{statistics.median(per_frame):7.1f} us/turn  "
        f"(median of {len(rows)} runs of {games} games; "
        f"{last['frames'] / games:.0f} turns and {last['answers'] / games:.0f} answers per game; "
        f"runs: {', '.join(f'{x:.0f}' for x in rates)} games/s)"
    )
    return statistics.median(rates)


def compare(name: str, baseline: Path, games: int, runs: int, read_lines: bool) -> None:
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for r in range(runs):
        seed0 = 1000 * r
        # Alternate which side goes first, so a drift in the machine's speed is shared.
        order = [(theirs, baseline), (ours, ROOT)] if r % 2 == 0 else [(ours, ROOT), (theirs, baseline)]
        for rows, tree in order:
            rows.append(run_in(tree, name, games, seed0, read_lines))
    suffix = " with lines" if read_lines else ""
    report(name, games, theirs, f" baseline{suffix}")
    report(name, games, ours, f" this tree{suffix}")
    ratios = [_rates(a, games)[0] / _rates(b, games)[0] for a, b in zip(ours, theirs)]
    bare = [_rates(a, games)[1] / _rates(b, games)[1] for a, b in zip(ours, theirs)]
    print(
        f"{name:12} this tree / baseline{suffix}: {statistics.median(ratios):.2f}x games/s "
        f"({statistics.median(bare):.2f}x without the move choice); run by run: "
        f"{', '.join(f'{x:.2f}' for x in ratios)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument(
        "--baseline", type=Path, metavar="DIR", help="another checkout of the project to compare with, run by run"
    )
    parser.add_argument(
        "--read-lines", action="store_true", help="only the figure that reads every request's input lines"
    )
    parser.add_argument("--quick", action="store_true", help="30 games, 3 runs")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.runs = 30, 3
    if args.child is not None:
        sys.path.insert(0, str(args.child))
        print(json.dumps(run(args.games_to_run[0], args.games, args.seed, args.read_lines)))
        return 0
    if args.baseline is not None and not (args.baseline / "referee" / "__init__.py").is_file():
        print(
            f"error: {args.baseline} is not a checkout of this project (no referee/ package); "
            "make one with: git worktree add DIR COMMIT",
            file=sys.stderr,
        )
        return 2
    sys.path.insert(0, str(ROOT))
    referee: Any = importlib.import_module("referee")
    names = args.games_to_run or referee.names()
    modes = [True] if args.read_lines else [False, True]
    for name in names:
        for read_lines in modes:
            if args.baseline is not None:
                compare(name, args.baseline.resolve(), args.games, args.runs, read_lines)
            else:
                rows = [run(name, args.games, 1000 * r, read_lines) for r in range(args.runs)]
                report(name, args.games, rows, " with lines" if read_lines else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
