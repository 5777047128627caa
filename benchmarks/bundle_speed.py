"""Bundler speed: milliseconds to bundle each shipped bot, each corpus bot and each test fixture
(flat and modules mode), median of several runs, with the size the bundle adds to the sources.

    python benchmarks/bundle_speed.py [--runs R] [--quick]

A bundle is rebuilt on every save under ``--watch``, so this should stay well under a second for
bots of CodinGame size (the limit is 100,000 characters). The first build also starts one
interpreter to learn which modules Python loads at start-up; that one-off cost is reported apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bundler.build import BuildOptions, build  # noqa: E402
from bundler.errors import BundleError  # noqa: E402
from bundler.graph import build_graph  # noqa: E402
from bundler.stdlib import _startup_modules  # noqa: E402


def entries() -> list[tuple[str, Path, tuple[Path, ...]]]:
    fixtures = ROOT / "tests" / "bundler" / "fixtures"
    found: list[tuple[str, Path, tuple[Path, ...]]] = []
    for game, bots in yaml.safe_load((ROOT / "bots" / "shipped.yaml").read_text()).items():
        for name, spec in bots.items():
            if "module" in spec:
                found.append((f"shipped {game} {name}", ROOT.joinpath(*spec["module"].split(".")), ()))
            elif "path" in spec:
                found.append((f"shipped {game} {name}", ROOT / spec["path"], ()))
    corpus = ROOT / "tests" / "bundler" / "corpus"
    for bot in sorted(p for p in corpus.iterdir() if p.is_dir()):
        main = bot / "main.py"
        if not main.is_file():
            main = next(d for d in bot.iterdir() if (d / "__main__.py").is_file())
        found.append((f"corpus {bot.name}", main, ()))
    for case in sorted(p for p in fixtures.iterdir() if p.is_dir()):
        if (case / "main.py").is_file():
            found.append((f"fixture {case.name}", case / "main.py", ()))
    lib = fixtures / "shared_lib"
    found.append(("fixture shared_lib/bot_a", lib / "bot_a" / "main.py", (lib / "lib",)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 runs")
    args = parser.parse_args()
    if args.quick:
        args.runs = 3
    t = time.perf_counter()
    _startup_modules()
    print(f"start-up module list (once per process): {1000 * (time.perf_counter() - t):.0f} ms")
    print(f"{'entry':<40} {'mode':<8} {'chars':>8} {'size':>9} {'median ms':>9}")
    print("(size: characters added to the sources, the header aside; median of the runs)")
    for name, entry, libs in entries():
        for mode in ("flat", "modules"):
            times = []
            try:
                for _ in range(args.runs):
                    t = time.perf_counter()
                    bundle = build(BuildOptions(entry, libs, mode))
                    times.append(time.perf_counter() - t)
            except BundleError as exc:  # a fixture that cannot be flattened
                print(f"{name:<40} {mode:<8} {'-':>8} {'-':>8}  ({type(exc).__name__})")
                continue
            source = sum(len(m.source) for m in build_graph(entry, list(libs)).modules.values())
            header = sum(len(line) for line in bundle.text.splitlines(keepends=True)[:3] if line.startswith("# "))
            overhead = 100 * (len(bundle.text) - header - source) / source
            print(
                f"{name:<40} {mode:<8} {bundle.size.total:>8,} {overhead:>+8.1f}% "
                f"{1000 * statistics.median(times):>8.1f}"
            )


if __name__ == "__main__":
    main()
