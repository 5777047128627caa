"""Harness overhead of ``arena play``: the arena's cost against the bots' own cost.

    python benchmarks/arena_overhead.py [--games N] [--runs R] [--quick]

For each parity trace (the official test bots with their recorded arguments):

1. play the match with the arena (bots as processes, official time limits), measuring wall time,
   the arena's own CPU time and the bots' CPU time;
2. run each bot alone, fed at once the whole input the arena sent it, measuring its CPU and wall.

Prints per game: wall time of the match, the bots' CPU alone, the arena's CPU, and the ratios
harness CPU / bots' CPU and match wall / bots-alone wall. Medians over runs. The official referee,
run headless with the same bots, takes about 1.0 s wall / 1.7 s CPU per Spring game and
1.1 s / 2.0 s per Fall game on these machines (figures from the issue), printed for comparison.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match import MatchOptions, play_match  # noqa: E402
from arena.match.botspec import BotSpec  # noqa: E402

PARITY = ROOT.parent / "shared" / "parity"
OFFICIAL_WALL_S = {"spring2021": 1.0, "fall2020": 1.1}


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(trace: dict) -> dict[str, float]:
    script = PARITY / "bots" / f"{trace['game']}_bot.py"
    argvs = [(sys.executable, str(script), *map(str, a)) for a in trace["bot_args"]]
    specs = [BotSpec(f"p{i}", argv) for i, argv in enumerate(argvs)]
    c0, s0, w0 = cpu_children(), cpu_self(), time.perf_counter()
    result = play_match(trace["game"], int(trace["seed"]), specs, MatchOptions())
    wall = time.perf_counter() - w0
    arena_cpu = cpu_self() - s0
    bots_cpu_in_match = cpu_children() - c0
    assert result.scores == trace["final_scores"], (trace["name"], result.scores)
    # The bots' input, as the official referee sent it (the live parity test checks the arena
    # sends exactly this).
    streams = trace["stdin_streams"]
    alone_cpu = alone_wall = 0.0
    for argv, lines in zip(argvs, streams):
        data = ("\n".join(lines) + "\n").encode()
        c0, w0 = cpu_children(), time.perf_counter()
        subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        alone_wall += time.perf_counter() - w0
        alone_cpu += cpu_children() - c0
    return {
        "wall": wall,
        "arena_cpu": arena_cpu,
        "bots_cpu_in_match": bots_cpu_in_match,
        "alone_cpu": alone_cpu,
        "alone_wall": alone_wall,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="traces per game (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="runs per trace (default 3)")
    parser.add_argument("--quick", action="store_true", help="2 traces per game, 2 runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.runs = 2, 2
    if not PARITY.is_dir():
        print(f"error: {PARITY} not found (the parity traces and bots are needed)", file=sys.stderr)
        return 1
    for game in ("spring2021", "fall2020"):
        files = sorted((PARITY / "traces" / game).glob(f"{game}_*clean*.json"))[: args.games]
        rows = []
        for f in files:
            trace = json.loads(f.read_text())
            for _ in range(args.runs):
                rows.append(measure(trace))
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        cpu_ratio = statistics.median(r["arena_cpu"] / r["alone_cpu"] for r in rows)
        wall_ratio = statistics.median(r["wall"] / r["alone_wall"] for r in rows)
        print(
            f"{game:11} match wall {med['wall']:.3f} s (official {OFFICIAL_WALL_S[game]:.1f} s: "
            f"{OFFICIAL_WALL_S[game] / med['wall']:.1f}x less)  arena CPU {med['arena_cpu']:.3f} s  "
            f"bots CPU in match {med['bots_cpu_in_match']:.3f} s, alone {med['alone_cpu']:.3f} s  "
            f"harness CPU / bots CPU {cpu_ratio:.1%}  match wall / bots-alone wall {wall_ratio:.2f}"
            f"  ({len(files)} traces x {args.runs} runs, medians)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
