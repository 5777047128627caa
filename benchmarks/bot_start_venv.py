"""A Python bot's start in a virtual environment crowded with ``.pth`` import hooks (issue #38,
goal 4): the bare interpreter, the normal start and the arena's fast start, and which path the
fast start took.

    python benchmarks/bot_start_venv.py [--packages N] [--starts S] [--quick]

A fresh virtual environment (``venv``, sharing this interpreter's site-packages) gets ``N``
packages (50 by default) and ``N`` ``.pth`` files whose ``import`` line installs a finder on
``sys.meta_path``, as editable installs do, and one ``.pth`` file of each kind released
packages and tools ship (:data:`KINDS`: coverage's ``a1_coverage.pth``, setuptools' ``distutils-precedence.pth``,
virtualenv's ``_virtualenv.pth``, a namespace package's ``-nspkg.pth``, a helper appending a
folder as cmeel's does, old setuptools' ``easy-install.pth``). For each kind alone in a crowded
venv, prints the start path the arena plans and why. In the venv holding them all, a trivial
bot (``import sys``, prints ``WAIT``) is started ``S`` times each way, the cases alternating:
``python -S -c pass`` (bare), ``python -u bot.py`` (normal) and the command
:func:`arena.match.launch.pystart.launch_argv` makes (fast). Prints the median CPU time (user + system
of the child) of each and the fast start's cost over the bare one (goal: at most 5 ms), and
the path taken and why (:func:`arena.match.launch.pystart.start_plan`).

A finder of an unknown kind put before the path's (``unknown-ahead``) is shown too: it is the
one kind that still gets the normal start, with its reason.
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

KINDS: dict[str, dict[str, str]] = {
    "a1_coverage": {
        "a1_cgcov.pth": "import sys; exec('import os\\nif os.getenv(\"CGBENCH_COV\"):\\n    import cgcov\\n')\n",
    },
    "distutils-precedence": {
        "_cgdhack.py": (
            "import sys\n\n\nclass DistutilsMetaFinder:\n    def find_spec(self, fullname, path, target=None):\n"
            "        return None\n\n    def spec_for_distutils(self):\n        return None\n\n"
            "    def spec_for_pip(self):\n        return None\n\n\ndef add_shim():\n"
            "    sys.meta_path.insert(0, DistutilsMetaFinder())\n"
        ),
        "distutils-precedence.pth": (
            "import os; enabled = os.environ.get('SETUPTOOLS_USE_DISTUTILS', 'local') == 'local'; "
            "enabled and __import__('_cgdhack').add_shim(); \n"
        ),
    },
    "_virtualenv": {
        "_virtualenv.py": (
            'import sys\n\n_DISTUTILS_PATCH = "distutils.dist", "setuptools.dist"\n\n\nclass _Finder:\n'
            "    def find_spec(self, fullname, path, target=None):\n        return None\n\n\n"
            "sys.meta_path.insert(0, _Finder())\n"
        ),
        "_virtualenv.pth": "import _virtualenv\n",
    },
    "nspkg": {
        "cgns/part/__init__.py": "",
        "cgns_part-1.0-nspkg.pth": (
            "import sys, types, os;p = os.path.join(sys._getframe(1).f_locals['sitedir'], *('cgns',));"
            "importlib = __import__('importlib.util');__import__('importlib.machinery');"
            "m = sys.modules.setdefault('cgns', importlib.util.module_from_spec("
            "importlib.machinery.PathFinder.find_spec('cgns', [os.path.dirname(p)])));"
            "mp = m.__dict__.setdefault('__path__',[]);(p not in mp) and mp.append(p)\n"
        ),
    },
    "path-adding": {
        "cgadd.prefix/cgadded.py": "",
        "cgadd_pth.py": "import os, sys\nsys.path.append(os.path.join(os.path.dirname(__file__), 'cgadd.prefix'))\n",
        "cgadd.pth": "import cgadd_pth\n",
    },
    "easy-install": {
        "cgegg/cgeggmod.py": "",
        "easy-install.pth": (
            "import sys; sys.__plen = len(sys.path)\n{site}/cgegg\nimport sys; new = sys.path[sys.__plen:]; "
            "del sys.path[sys.__plen:]; p = getattr(sys, '__egginsert', 0); sys.path[p:p] = new; "
            "sys.__egginsert = p + len(new)\n"
        ),
    },
}
"""Files (relative to site-packages; ``{site}``: its path) of each real-world kind of ``.pth`` file."""

UNKNOWN_AHEAD = {
    "cgmystery.py": "import sys\n\n\nclass Mystery:\n    def find_spec(self, *args):\n        return None\n\n\n"
    "sys.meta_path.insert(0, Mystery())\n",
    "cgmystery.pth": "import cgmystery\n",
}

PROBE = """
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("pystart", {pystart!r})  # stdlib only: any interpreter
pystart = sys.modules["pystart"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pystart)
plan = pystart.start_plan([sys.executable, "-u", {bot!r}], {cwd!r}, dict(os.environ))
print(json.dumps([list(plan.argv), plan.describe()]))
"""


def crowded_venv(folder: Path, packages: int, kinds: dict[str, str] | None = None) -> Path:
    """A virtual environment with ``packages`` packages and as many ``.pth`` hooks, and the files
    ``kinds`` (:data:`KINDS`); its python."""
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
    for name, text in (kinds or {}).items():
        (site_packages / name).parent.mkdir(parents=True, exist_ok=True)
        (site_packages / name).write_text(text.replace("{site}", str(site_packages)))
    return python


def plan_in(python: Path, bot: Path, folder: Path) -> tuple[list[str], str]:
    """The command the arena run by ``python`` starts ``bot`` with, and the path taken and why."""
    probe = PROBE.format(pystart=str(ROOT / "arena" / "match" / "pystart.py"), bot=str(bot), cwd=str(folder))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=env, check=True)
    argv, why = json.loads(out.stdout.strip().splitlines()[-1])
    return argv, why


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
        bot = folder / "bot.py"
        bot.write_text("import sys\nprint('WAIT')\n")
        print(f"each kind of .pth file alone in a venv with {args.packages} packages and .pth hooks:")
        for index, (kind, files) in enumerate([*KINDS.items(), ("unknown-ahead", UNKNOWN_AHEAD)]):
            one = crowded_venv(folder / f"kind{index}", args.packages, files)
            print(f"  {kind:22} {plan_in(one, bot, folder)[1]}")
        every = {name: text for files in KINDS.values() for name, text in files.items()}
        python = crowded_venv(folder / "venv", args.packages, every)
        fast, took = plan_in(python, bot, folder)
        cases = {
            "bare (python -S -c pass)": [str(python), "-S", "-c", "pass"],
            "normal (python -u bot.py)": [str(python), "-u", str(bot)],
            "fast (the arena's start)": fast,
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(starts):
            for name, argv in cases.items():
                times[name].append(cpu_ms(argv, folder))
        print(f"a venv with {args.packages} packages and .pth hooks and every kind above; {starts} starts of each")
        for name, values in times.items():
            print(f"  {name:28} median CPU {statistics.median(values):6.1f} ms")
        extra = statistics.median(times["fast (the arena's start)"]) - statistics.median(
            times["bare (python -S -c pass)"]
        )
        print(f"  path taken: {took}; fast over bare: {extra:+.1f} ms (issue #38 goal 4: at most +5 ms)")


if __name__ == "__main__":
    main()
