"""A Python bot's start in a virtual environment crowded with ``.pth`` import hooks (issue #38,
goal 4): the bare interpreter, the normal start and the arena's fast start, and which path the
fast start took.

    python benchmarks/bot_start_venv.py [--packages N] [--starts S] [--quick]

A fresh virtual environment (``venv``, sharing this interpreter's site-packages) gets ``N``
packages (50 by default) and ``N`` ``.pth`` files whose ``import`` line installs a finder on
``sys.meta_path``, as editable installs and namespace-package ``.pth`` files do. In it, a trivial
bot (``import sys``, prints ``WAIT``) is started ``S`` times each way, the cases alternating:
``python -S -c pass`` (bare), ``python -u bot.py`` (normal) and the command
:func:`arena.match.pystart.launch_argv` makes (fast). Prints the median CPU time (user + system
of the child) of each and the fast start's cost over the bare one (goal: at most 5 ms), and
whether the fast start was taken or the bot started the normal way.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HOOK = (
    "import sys\n\n\nclass Finder:\n    def find_spec(self, name, path=None, target=None):\n        return None\n\n\n"
    "sys.meta_path.append(Finder())\n"
)

PROBE = """
import json, os, sys
sys.path.insert(0, {root!r})
from arena.match import pystart
argv = [sys.executable, "-u", {bot!r}]
print(json.dumps(pystart.launch_argv(argv, {cwd!r}, dict(os.environ))))
"""


def crowded_venv(folder: Path, packages: int) -> Path:
    """A virtual environment with ``packages`` packages and as many ``.pth`` hooks; its python."""
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(folder)
    python = folder / "bin" / "python"
    out = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True,
        text=True,
        check=True,
    )
    site_packages = Path(out.stdout.strip())
    for i in range(packages):
        (site_packages / f"cgbench_pkg{i}").mkdir()
        (site_packages / f"cgbench_pkg{i}" / "__init__.py").write_text(f"VALUE = {i}\n")
        (site_packages / f"cgbench_hook{i}").mkdir()
        (site_packages / f"cgbench_hook{i}" / "__init__.py").write_text(HOOK)
        (site_packages / f"zz_cgbench_hook{i}.pth").write_text(f"import cgbench_hook{i}\n")
    return python


def cpu_ms(argv: list[str], cwd: Path) -> float:
    """CPU time (ms) of one start of ``argv``, run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{argv[:3]} failed with status {done.returncode}")
    return 1000 * (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--packages", type=int, default=50, help="packages with a .pth hook each")
    parser.add_argument("--starts", type=int, default=30, help="starts of each kind")
    parser.add_argument("--quick", action="store_true", help="10 starts of each kind")
    args = parser.parse_args()
    starts = 10 if args.quick else args.starts
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        python = crowded_venv(folder / "venv", args.packages)
        bot = folder / "bot.py"
        bot.write_text("import sys\nprint('WAIT')\n")
        probe = PROBE.format(root=str(ROOT), bot=str(bot), cwd=str(folder))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=env, check=True)
        fast = json.loads(out.stdout.strip().splitlines()[-1])
        cases = {
            "bare (python -S -c pass)": [str(python), "-S", "-c", "pass"],
            "normal (python -u bot.py)": [str(python), "-u", str(bot)],
            "fast (the arena's start)": fast,
        }
        took = "fast start" if fast != cases["normal (python -u bot.py)"] else "normal start (no rewrite)"
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(starts):
            for name, argv in cases.items():
                times[name].append(cpu_ms(argv, folder))
        print(f"a venv with {args.packages} packages and {args.packages} .pth hooks; {starts} starts of each")
        for name, values in times.items():
            print(f"  {name:28} median CPU {statistics.median(values):6.1f} ms")
        extra = statistics.median(times["fast (the arena's start)"]) - statistics.median(
            times["bare (python -S -c pass)"]
        )
        print(f"  path taken: {took}; fast over bare: {extra:+.1f} ms (issue #38 goal 4: at most +5 ms)")


if __name__ == "__main__":
    main()
