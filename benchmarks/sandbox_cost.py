"""What the sandbox costs: per bot start, per game, and in tournament throughput.

    python benchmarks/sandbox_cost.py [--starts N] [--games N] [--tournament-games N] [--runs R] [--quick]

1. Bot start: start a bot, send it one line and read its answer, then kill it, with and without
   the sandbox (``cat``, so that the bot itself costs next to nothing, and a Python script); the
   sandbox's cost per start is the median of the paired differences (goal: under 10 ms).
2. Game: the same Spring games (shipped greedy against random) with and without the sandbox:
   median wall time and CPU per game (the bots', the sandbox's and the arena's: the process
   tree's, from a ``cpuacct`` cgroup, else the machine's).
3. Tournament: games per second of a 2-worker tournament with and without the sandbox.

Modes alternate within each round, so load on the machine hits both alike. Prints medians and the
ratios measured in this run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _tree_cpu import open_tree_cpu  # noqa: E402  (this folder)

from arena.match import MatchOptions, play_match, sandbox  # noqa: E402
from arena.match.launch.botspec import resolve  # noqa: E402
from arena.match.limits.enforcement import enforcement  # noqa: E402
from arena.match.process.botprocess import BotProcess  # noqa: E402
from arena.store.results import Store  # noqa: E402
from arena.tournament import run_tournament  # noqa: E402
from arena.tournament.config import config_from_mapping  # noqa: E402

MODES = ("off", "on")
PY_ECHO = "print(input(), flush=True)\n"
"""The Python bot: a script (as bots are, so it takes the arena's fast start; a ``-c`` program
takes the normal one)."""


_TICK = os.sysconf("SC_CLK_TCK")


def machine_cpu() -> float:
    """CPU seconds the whole machine has been busy (``/proc/stat``). A sandboxed bot's processes
    are reaped inside its PID namespace, so this process's ``RUSAGE_CHILDREN`` never sees them,
    and the kernel's work for namespaces (tearing down a network namespace) happens in kernel
    threads: the machine's total is what counts both. Keep the machine otherwise idle."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / _TICK


def one_start(argv: tuple[str, ...], mode: str, clock: Callable[[], float]) -> tuple[float, float]:
    """(ms from start to the echoed line, CPU ms by ``clock`` from start to end)."""
    c0 = clock()
    t0 = time.perf_counter()
    wrapper: list[str] = []
    if mode == "on":
        wrapper = sandbox.confine(argv, None, {}, own=sandbox.bot_files(argv, None), tmp_mb=768)
    proc = BotProcess(argv, wrapper=wrapper).start()
    proc.send(["ping"])
    line = proc.read_line(10.0)
    elapsed = (time.perf_counter() - t0) * 1000
    proc.kill_tree()
    assert line.line == "ping", line
    return elapsed, (clock() - c0) * 1000


def starts(argv: tuple[str, ...], n: int, clock: Callable[[], float]) -> tuple[dict[str, tuple[float, float]], float]:
    """Per mode: (median wall ms to the first answer, mean CPU ms per start by ``clock``); and
    the median of the paired differences of wall time (sandboxed minus not, in the same round:
    the machine's drift between rounds cancels out). The machine's CPU is counted in clock ticks
    of 10 ms, so its mean over all starts, not a median, says anything."""
    times: dict[str, list[float]] = {m: [] for m in MODES}
    cpus: dict[str, list[float]] = {m: [] for m in MODES}
    for i in range(n):
        for mode in MODES if i % 2 == 0 else reversed(MODES):
            wall, cpu = one_start(argv, mode, clock)
            times[mode].append(wall)
            cpus[mode].append(cpu)
    paired = statistics.median(on - off for on, off in zip(times["on"], times["off"], strict=True))
    return {m: (statistics.median(times[m]), statistics.fmean(cpus[m])) for m in MODES}, paired


def games(n: int, clock: Callable[[], float]) -> dict[str, tuple[float, float]]:
    specs = [resolve("greedy", "spring2021"), resolve("random", "spring2021")]
    walls: dict[str, list[float]] = {m: [] for m in MODES}
    cpus: dict[str, list[float]] = {m: [] for m in MODES}
    for seed in range(1, n + 1):
        for mode in MODES:
            c0, t0 = clock(), time.perf_counter()
            result = play_match("spring2021", seed, specs, MatchOptions(sandbox=sandbox.SandboxMode(mode)))
            walls[mode].append(time.perf_counter() - t0)
            cpus[mode].append(clock() - c0)
            assert result.sandboxed == (mode == "on") and result.outcome is not None
    return {m: (statistics.median(walls[m]), statistics.fmean(cpus[m])) for m in MODES}


def tournament(n: int, mode: str) -> float:
    """Games per second of a 2-worker tournament of ``n`` games."""
    with tempfile.TemporaryDirectory() as tmp:
        config = config_from_mapping(
            {
                "game": "spring2021",
                "bots": ["greedy", "random"],
                "games": n,
                "workers": 2,
                "seed": 5,
                "sandbox": mode,
                "db": str(Path(tmp) / "t.sqlite"),
            },
            base=Path(tmp),
        )
        store = Store(config.db)
        try:
            start = time.perf_counter()
            run = run_tournament(config, store)
            wall = time.perf_counter() - start
        finally:
            store.close()
    assert run.played == n, run.played
    return n / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--tournament-games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3, help="tournament runs per mode")
    parser.add_argument("--quick", action="store_true", help="20 starts, 4 games, 1 tournament run of 10 games")
    args = parser.parse_args()
    if args.quick:
        args.starts, args.games, args.tournament_games, args.runs = 20, 4, 10, 1
    found = sandbox.support()
    if not found.works:
        raise SystemExit(f"cannot measure the sandbox here: {found.reason}")
    print(f"sandbox: {found.bwrap}; limits enforced by: {enforcement()}")
    tree = open_tree_cpu()
    clock = tree.seconds if tree is not None else machine_cpu
    what = "the process tree's (a cpuacct cgroup)" if tree is not None else "the machine's"
    try:
        measure(args, clock, what)
    finally:
        if tree is not None:
            tree.close()


def measure(args: argparse.Namespace, clock: Callable[[], float], what: str) -> None:
    print(f"\n1. bot start to first answer, median of {args.starts} (ms wall; ms of {what} CPU per start, mean)")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "echo.py"
        script.write_text(PY_ECHO)
        for label, argv in (("cat", ("cat",)), ("python", (sys.executable, "-u", str(script)))):
            got, paired = starts(argv, args.starts, clock)
            (off_w, off_c), (on_w, on_c) = got["off"], got["on"]
            print(
                f"  {label:7} off {off_w:7.2f} ms ({off_c:5.1f} CPU)   on {on_w:7.2f} ms ({on_c:5.1f} CPU)   "
                f"sandbox cost {paired:+6.2f} ms wall (paired), {on_c - off_c:+5.1f} ms CPU  "
                f"ratio {on_w / off_w:.2f}"
            )

    print(f"\n2. one game, spring2021 greedy vs random, median of {args.games} (s wall; s of {what} CPU, mean)")
    got = games(args.games, clock)
    (off_w, off_c), (on_w, on_c) = got["off"], got["on"]
    print(
        f"  off {off_w:.3f} s ({off_c:.3f} CPU)   on {on_w:.3f} s ({on_c:.3f} CPU)   "
        f"per game {1000 * (on_w - off_w):+.1f} ms wall, {1000 * (on_c - off_c):+.1f} ms CPU  "
        f"ratio {on_w / off_w:.3f}"
    )

    print(f"\n3. tournament, {args.tournament_games} games on 2 workers, median of {args.runs} runs (games/s)")
    rates: dict[str, list[float]] = {m: [] for m in MODES}
    for _ in range(args.runs):
        for mode in MODES:
            rates[mode].append(tournament(args.tournament_games, mode))
    off, on = statistics.median(rates["off"]), statistics.median(rates["on"])
    print(f"  off {off:.2f} games/s   on {on:.2f} games/s   ratio on/off {on / off:.3f}")


if __name__ == "__main__":
    main()
