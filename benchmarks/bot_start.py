"""What a Python bot's start costs, the normal way and with the fast start (arena.match.launch.pystart).

    python benchmarks/bot_start.py [--starts N] [--quick]

Each start runs a process to its end: the interpreter alone (``python -S -c pass``: bare; ``-I``:
isolated, no site-packages; ``python -c pass``: with the venv's ``site``), then a trivial bot
(``import sys``) as a script and as a package module (``-m``), started as the arena started it
before (``python -u FILE``: plain) and as it starts it now (fast), and the same for a bot that
imports numpy; "fast" is the command the arena runs, with the start path it took and why
(:func:`arena.match.launch.pystart.start_plan`). Wall time and CPU time (user + system of the child,
``RUSAGE_CHILDREN``) per start.
The cases alternate within each round, so load on the machine hits them alike. Prints medians,
each fast start against its plain start, and against the bare start (goal: at most 5 ms more).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match.launch import pystart  # noqa: E402


def one(argv: list[str], cwd: str) -> tuple[float, float]:
    """(wall ms, CPU ms) of one start of ``argv``, run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed: {done.stderr.decode(errors='replace').strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def cases(folder: Path, numpy: bool) -> tuple[dict[str, tuple[list[str], str]], dict[str, str]]:
    """The commands timed, and for each bot the start path the arena takes and why."""
    exe = sys.executable
    (folder / "bot.py").write_text("import sys\n")
    package = folder / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text("import sys\nfrom . import helper\n")
    (package / "helper.py").write_text("X = 1\n")
    (folder / "numpy_bot.py").write_text("import numpy\n")
    here = str(folder)
    found: dict[str, tuple[list[str], str]] = {
        "bare (-S -c pass)": ([exe, "-S", "-c", "pass"], here),
        "isolated (-I -c pass)": ([exe, "-I", "-c", "pass"], here),
        "site (-c pass)": ([exe, "-c", "pass"], here),
    }
    bots = {"script": [exe, "-u", str(folder / "bot.py")], "-m": [exe, "-u", "-m", "pkg"]}
    if numpy:
        bots["numpy"] = [exe, "-u", str(folder / "numpy_bot.py")]
    paths: dict[str, str] = {}
    for name, argv in bots.items():
        plan = pystart.start_plan(argv, here, os.environ)
        paths[name] = plan.describe()
        found[f"{name} plain"] = (argv, here)
        found[f"{name} fast"] = (list(plan.argv), here)
    return found, paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=100, help="starts of each case (default 100)")
    parser.add_argument("--quick", action="store_true", help="20 starts of each case, numpy bot left out")
    args = parser.parse_args()
    starts = 20 if args.quick else args.starts
    with tempfile.TemporaryDirectory(prefix="bot-start-") as tmp:
        table, paths = cases(Path(tmp), numpy=not args.quick)
        walls: dict[str, list[float]] = {name: [] for name in table}
        cpus: dict[str, list[float]] = {name: [] for name in table}
        for argv, cwd in table.values():  # warm the page cache and the fast start's plans
            one(argv, cwd)
        for _ in range(starts):
            for name, (argv, cwd) in table.items():
                wall, cpu = one(argv, cwd)
                walls[name].append(wall)
                cpus[name].append(cpu)
    wall = {name: statistics.median(v) for name, v in walls.items()}
    cpu = {name: statistics.median(v) for name, v in cpus.items()}
    print(f"{sys.executable}, {starts} starts of each case, medians")
    for name, path in paths.items():
        print(f"  {name} bot: {path}")
    print(f"{'case':24} {'wall ms':>8} {'cpu ms':>8}")
    for name in table:
        print(f"{name:24} {wall[name]:8.1f} {cpu[name]:8.1f}")
    bare = "bare (-S -c pass)"
    print()
    for name in table:
        if name.endswith(" fast"):
            plain = name[:-5] + " plain"
            print(
                f"{name:24} plain/fast wall {wall[plain] / wall[name]:.2f}x, cpu {cpu[plain] / cpu[name]:.2f}x; "
                f"fast - bare: wall {wall[name] - wall[bare]:+.1f} ms, cpu {cpu[name] - cpu[bare]:+.1f} ms"
            )


if __name__ == "__main__":
    main()
