"""Harness overhead of ``arena play``: the arena's cost against the bots' own cost.

    python benchmarks/arena_overhead.py [--games N] [--runs R] [--sandbox auto|on|off] [--quick]

For each parity trace (the official test bots with their recorded arguments):

1. play the match with the arena (bots as processes, official time limits, the sandbox as
   ``arena play`` has it), measuring its wall time and the arena's own CPU time (the referee,
   the bots' pipes and limits, starting and stopping them);
2. run each bot alone, one after the other, fed at once the whole input the arena sent it,
   measuring its CPU and wall: started as the arena starts it (:mod:`arena.match.launch.pystart`) and as
   a user runs it (``python bot.py``).

Prints per game the medians and the ratios harness CPU / bots' CPU and match wall / bots-alone
wall (issue #18 asks at most 8% and 1.05x), against both starts of the bots.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match import MatchOptions, play_match  # noqa: E402
from arena.match.launch import pystart  # noqa: E402
from arena.match.launch.botspec import BotSpec  # noqa: E402
from arena.match.sandbox import SandboxMode  # noqa: E402

PARITY = ROOT / "tests" / "fixtures" / "parity"
"""The official traces (gzipped) and the test bots that played the first set, in the repository."""


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def alone(argvs: list[list[str]], streams: list[list[str]]) -> tuple[float, float]:
    """(CPU s, wall s) of the bots run one after the other, each fed its whole input at once."""
    cpu = wall = 0.0
    for argv, lines in zip(argvs, streams):
        data = ("\n".join(lines) + "\n").encode()
        c0, w0 = cpu_children(), time.perf_counter()
        subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall += time.perf_counter() - w0
        cpu += cpu_children() - c0
    return cpu, wall


def measure(trace: dict, sandbox: SandboxMode) -> dict[str, float]:
    script = PARITY / "bots" / f"{trace['game']}_bot.py"
    argvs = [[sys.executable, "-u", str(script), *map(str, a)] for a in trace["bot_args"]]
    specs = [BotSpec(f"p{i}", tuple(argv)) for i, argv in enumerate(argvs)]
    s0, w0 = cpu_self(), time.perf_counter()
    result = play_match(trace["game"], int(trace["seed"]), specs, MatchOptions(sandbox=sandbox))
    wall = time.perf_counter() - w0
    arena_cpu = cpu_self() - s0
    scores = list(result.outcome.scores) if result.outcome else None
    assert scores == trace["final_scores"], (trace["name"], scores)
    # The bots' input, as the official referee sent it (the live parity test checks the arena
    # sends exactly this): the bots as a user runs them, and as the arena starts them.
    streams = trace["stdin_streams"]
    plain_cpu, plain_wall = alone(argvs, streams)
    fast_cpu, fast_wall = alone([pystart.launch_argv(a, None, os.environ) for a in argvs], streams)
    return {
        "wall": wall,
        "arena_cpu": arena_cpu,
        "plain_cpu": plain_cpu,
        "plain_wall": plain_wall,
        "fast_cpu": fast_cpu,
        "fast_wall": fast_wall,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="traces per game (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="runs per trace (default 3)")
    parser.add_argument("--quick", action="store_true", help="2 traces per game, 2 runs")
    parser.add_argument(
        "--sandbox",
        choices=("auto", "on", "off"),
        default="auto",
        help="the bots' sandbox in the match (default auto, as arena play)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.runs = 2, 2
    sandbox = SandboxMode(args.sandbox)
    for game in ("spring2021", "fall2020"):
        files = sorted((PARITY / "traces" / game).glob(f"{game}_*clean*.json.gz"))[: args.games]
        rows = []
        for f in files:
            trace = json.loads(gzip.decompress(f.read_bytes()))
            for _ in range(args.runs):
                rows.append(measure(trace, sandbox))
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}

        def ratio(a: str, b: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(r[a] / r[b] for r in rows)

        print(
            f"{game:11} match wall {med['wall']:.3f} s, arena CPU {med['arena_cpu'] * 1000:.1f} ms "
            f"(sandbox {args.sandbox}); bots alone as the arena starts them: CPU "
            f"{med['fast_cpu'] * 1000:.1f} ms, wall {med['fast_wall']:.3f} s; as a user runs them "
            f"(python bot.py): CPU {med['plain_cpu'] * 1000:.1f} ms, wall {med['plain_wall']:.3f} s"
        )
        print(
            f"{'':11} harness CPU / bots' CPU: {ratio('arena_cpu', 'fast_cpu'):.1%} "
            f"({ratio('arena_cpu', 'plain_cpu'):.1%} against the plain start); match wall / bots-"
            f"alone wall: {ratio('wall', 'fast_wall'):.2f} ({ratio('wall', 'plain_wall'):.2f} against "
            f"the plain start)  ({len(files)} traces x {args.runs} runs, medians)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
