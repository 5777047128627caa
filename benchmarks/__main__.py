"""Run every benchmark, one after another, and sum them up.

    python -m benchmarks [--quick] [--only NAME[,NAME...]] [--list]

Run from the repository root. Each ``benchmarks/NAME.py`` (every script of this folder) runs as
a subprocess of this interpreter (``python -u benchmarks/NAME.py [--quick]``), never two at a
time since the timings need the machine; its output is streamed under a header line with its
name. Then a table gives each one's exit status and seconds taken, and for a benchmark that failed
(a missing prerequisite included: the parity traces, bubblewrap, Dask) the last line it printed,
its own reason. Exit status 1 if any failed.
"""

from __future__ import annotations

import argparse
import ast
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

ORDER = (
    "bundle_speed",
    "fall2020_bots",
    "ladder_model",
    "dashboard",
    "arena_overhead",
    "arena_costs",
    "referees",
    "bot_start",
    "spring2021_bots",
    "answer_times",
    "fall2020_bfs",
    "sandbox_cost",
    "dask_overhead",
    "tournament",
)
"""The order they run in (fast ones first); a script not named here runs after these, by name."""


def discover() -> list[str]:
    """The benchmarks: every script of this folder but the package's own files and the helpers
    the scripts share (``_NAME.py``), in run order."""
    names = [p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_")]
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(names, key=lambda n: (rank.get(n, len(ORDER)), n))


def summary(name: str) -> str:
    """The first paragraph of the script's docstring, on one line (read, not imported)."""
    doc = ast.get_docstring(ast.parse((HERE / f"{name}.py").read_text())) or ""
    return " ".join(doc.split("\n\n")[0].split())


def run(name: str, quick: bool) -> tuple[int, float, str]:
    """(exit status, seconds, last line printed) of one benchmark, its output streamed."""
    argv = [sys.executable, "-u", f"benchmarks/{name}.py"] + (["--quick"] if quick else [])
    print(f"=== {name}: {' '.join(['python', *argv[1:]])}", flush=True)
    last = ""
    start = time.perf_counter()
    with subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    ) as proc:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                sys.stdout.write(line)
                sys.stdout.flush()
                if line.strip():
                    last = line.strip()
        except KeyboardInterrupt:  # the benchmark cleans up (its bots, its workers), then stops
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            raise
        status = proc.wait()
    seconds = time.perf_counter() - start
    print(flush=True)
    return status, seconds, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="pass --quick to each benchmark (fewer games and runs)")
    parser.add_argument("--only", metavar="NAME[,NAME...]", help="run only these benchmarks")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and what each measures")
    args = parser.parse_args(argv)
    names = discover()
    if args.only:
        wanted = [n.strip().removesuffix(".py") for n in args.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            parser.error(f"no benchmark named {', '.join(unknown)} (there are: {', '.join(names)})")
        names = [n for n in names if n in wanted]
    if args.list:
        width = max(map(len, names))
        for name in names:
            print(f"{name:{width}}  {summary(name)}")
        return 0
    results: list[tuple[str, int, float, str]] = []
    try:
        for name in names:
            results.append((name, *run(name, args.quick)))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
    width = max(len("benchmark"), *map(len, names))
    print(f"{'benchmark':{width}}  {'status':12} {'seconds':>8}")
    for name, status, seconds, last in results:
        state = "ok" if status == 0 else f"failed ({status})"
        reason = f"  {last}" if status != 0 and last else ""
        print(f"{name:{width}}  {state:12} {seconds:8.1f}{reason}")
    for i, name in enumerate(names[len(results) :]):
        print(f"{name:{width}}  {'interrupted' if i == 0 else 'not run'}")
    failed = len(results) < len(names) or any(status != 0 for _, status, _, _ in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
