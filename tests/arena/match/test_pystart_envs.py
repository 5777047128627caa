"""The fast start (arena.match.launch.pystart) in the Python environments of the real world (issue #38,
goal 4): each test builds a virtual environment whose ``.pth`` files are of one kind found in
released packages or tools, starts a bot through the process layer of an arena run by that
environment's interpreter, and compares what the bot prints with its plain command's output.
Each kind made the arena start every bot the normal way before (``site`` unknown), or the bot
saw another ``sys.path``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from arena.match.launch import pystart
from tests.helpers.paths import REPO_ROOT

# What the bot sees: its path, the flag that tells its start, and what it is asked to show.
BOT = textwrap.dedent("""\
    import json, sys
    {imports}
    print(json.dumps({{"path": sys.path, "no_site": sys.flags.no_site, "shown": {shown}}}), flush=True)
""")

# Run by the environment's interpreter: the plan of the start and the bot's first line.
DRIVER = textwrap.dedent("""\
    import json, sys
    from arena.match.launch import pystart
    from arena.match.process.botprocess import BotProcess
    argv, cwd, wrapper = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
    plan = pystart.start_plan(argv, cwd, None if wrapper else dict(__import__("os").environ))
    process = BotProcess(argv, cwd=cwd, wrapper=wrapper).start()
    try:
        line = process.read_line(60).line
    finally:
        process.kill_tree()
    print(json.dumps({"reason": plan.reason.name, "detail": plan.detail, "line": line}))
""")

# A finder as virtualenv's (and older uv's) ``_virtualenv.pth`` installs it: an instance put
# first on sys.meta_path, acting on the modules named in its module's _DISTUTILS_PATCH only.
VIRTUALENV_PATCH = textwrap.dedent("""\
    import sys
    _DISTUTILS_PATCH = "distutils.dist", "setuptools.dist"

    class _Finder:
        def find_spec(self, fullname, path, target=None):
            return None

    sys.meta_path.insert(0, _Finder())
""")

# A .pth helper that appends a folder of its own to sys.path, as cmeel's cmeel_pth does.
PATH_ADDER = textwrap.dedent("""\
    import os, sys
    sys.path.append(os.path.join(os.path.dirname(__file__), "added.prefix"))
""")

# Old setuptools' easy-install.pth: the folders listed between its two import lines go first.
EASY_INSTALL = (
    "import sys; sys.__plen = len(sys.path)\n"
    "{egg}\n"
    "import sys; new = sys.path[sys.__plen:]; del sys.path[sys.__plen:]; "
    "p = getattr(sys, '__egginsert', 0); sys.path[p:p] = new; sys.__egginsert = p + len(new)\n"
)

# A namespace package's *-nspkg.pth line, as setuptools wrote them (sphinxcontrib's, google's).
NSPKG = (
    "import sys, types, os;p = os.path.join(sys._getframe(1).f_locals['sitedir'], *('nsdemo',));"
    "importlib = __import__('importlib.util');__import__('importlib.machinery');"
    "m = sys.modules.setdefault('nsdemo', importlib.util.module_from_spec("
    "importlib.machinery.PathFinder.find_spec('nsdemo', [os.path.dirname(p)])));"
    "mp = m.__dict__.setdefault('__path__',[]);(p not in mp) and mp.append(p)\n"
)

# A finder of an unknown kind put before the path's: what it may take over cannot be told.
UNKNOWN_AHEAD = (
    "import sys\nclass Mystery:\n    def find_spec(self, *a):\n        return None\n"
    "sys.meta_path.insert(0, Mystery())\n"
)


def _site_packages(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


def make_venv(root: Path, system_site: bool = False) -> tuple[Path, Path]:
    """A venv of this interpreter (its python, its site-packages) that reaches the project and
    its dependencies by a path ``.pth`` file."""
    options = ["--system-site-packages"] if system_site else []
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", *options, str(root)], check=True, timeout=120)
    python = root / "bin" / "python"
    site_packages = _site_packages(python)
    ours = [p for p in sys.path if p.endswith("site-packages")]
    (site_packages / "deps.pth").write_text("".join(f"{p}\n" for p in [*ours, str(REPO_ROOT)]))
    return python, site_packages


def run_both(
    python: Path,
    bot: Path,
    env: dict[str, str] | None = None,
    wrapper: list[str] | None = None,
    cwd: Path | None = None,
    arena_cwd: Path | None = None,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(the plan and line through the arena, what the bot printed so, what it prints plain); the
    arena runs from ``arena_cwd`` (the bot's folder's parent), the bot from its folder (``cwd``)."""
    argv = [str(python), "-u", str(bot)]
    where = str(cwd or bot.parent)
    given = env if env is not None else {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env = {k: v for k, v in given.items() if k != pystart.ENV_SWITCH}
    driven = subprocess.run(
        [str(python), "-c", DRIVER, json.dumps(argv), where, json.dumps(wrapper or [])],
        env=env,
        cwd=arena_cwd or bot.parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert driven.returncode == 0, driven.stderr
    result = json.loads(driven.stdout.strip().splitlines()[-1])
    plain = subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert plain.returncode == 0, plain.stderr
    assert result["line"] is not None, "the bot printed nothing through the arena"
    return result, json.loads(result["line"]), json.loads(plain.stdout)


def write_bot(folder: Path, imports: str = "", shown: str = "None") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / "bot.py"
    bot.write_text(BOT.format(imports=imports, shown=shown))
    return bot


def assert_fast_and_same(result: dict[str, Any], fast: dict[str, Any], plain: dict[str, Any]) -> None:
    assert (result["reason"], result["detail"]) == ("FAST", "")
    assert (fast.pop("no_site"), plain.pop("no_site")) == (1, 0)
    assert fast == plain


def test_virtualenvs_distutils_patch_finder_keeps_the_fast_start(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    (site / "_virtualenv.py").write_text(VIRTUALENV_PATCH)
    (site / "_virtualenv.pth").write_text("import _virtualenv\n")
    result, fast, plain = run_both(python, write_bot(tmp_path / "bot", "import json"))
    assert_fast_and_same(result, fast, plain)
    # a bot importing what the finder patches starts the normal way, and says why
    other = write_bot(tmp_path / "other", "import distutils")
    plan = run_both_plan(python, other)
    assert (plan["reason"], plan["detail"]) == ("IMPORT_NEEDS_HOOK", "distutils")


def run_both_plan(python: Path, bot: Path) -> dict[str, Any]:
    """The plan only (the bot may not run: a module it imports may not exist)."""
    code = (
        "import json, sys\nfrom arena.match.launch import pystart\n"
        "plan = pystart.start_plan([sys.executable, '-u', sys.argv[1]], None, dict(__import__('os').environ))\n"
        "print('PLAN', json.dumps({'reason': plan.reason.name, 'detail': plan.detail}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in (pystart.ENV_SWITCH, "PYTHONPATH")}
    out = subprocess.run([str(python), "-c", code, str(bot)], env=env, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(next(x for x in out.stdout.splitlines() if x.startswith("PLAN "))[5:])
    return found


def test_a_hook_that_appends_a_folder_keeps_the_fast_start(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    (site / "added.prefix").mkdir()
    (site / "added.prefix" / "addedmod.py").write_text("VALUE = 'added'\n")
    (site / "adder_pth.py").write_text(PATH_ADDER)
    (site / "adder.pth").write_text("import adder_pth\n")
    bot = write_bot(tmp_path / "bot", "import addedmod", "addedmod.VALUE")
    result, fast, plain = run_both(python, bot)
    added = plain["path"].index(str(site / "added.prefix"))
    assert plain["shown"] == "added" and added < plain["path"].index(str(REPO_ROOT))  # deps.pth comes after
    assert_fast_and_same(result, fast, plain)


def test_easy_install_eggs_go_first_as_at_a_normal_start(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    egg = tmp_path / "egg"
    egg.mkdir()
    (egg / "eggmod.py").write_text("VALUE = 'egg'\n")
    (site / "easy-install.pth").write_text(EASY_INSTALL.format(egg=egg))
    bot = write_bot(tmp_path / "bot", "import eggmod", "eggmod.VALUE")
    result, fast, plain = run_both(python, bot)
    assert plain["shown"] == "egg" and plain["path"][:2] == [str(bot.parent), str(egg)]
    assert_fast_and_same(result, fast, plain)


def test_a_namespace_package_of_an_nspkg_line_imports_the_same(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    (site / "nsdemo" / "part").mkdir(parents=True)
    (site / "nsdemo" / "part" / "__init__.py").write_text("VALUE = 'part'\n")
    (site / "nsdemo_part-1.0-nspkg.pth").write_text(NSPKG)
    bot = write_bot(tmp_path / "bot", "import nsdemo.part", "[nsdemo.part.VALUE, list(nsdemo.__path__)]")
    result, fast, plain = run_both(python, bot)
    assert plain["shown"] == ["part", [str(site / "nsdemo")]]
    assert_fast_and_same(result, fast, plain)


def test_a_finder_of_an_unknown_kind_ahead_of_the_path_gives_the_normal_start_and_says_so(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    (site / "mystery.py").write_text(UNKNOWN_AHEAD)
    (site / "mystery.pth").write_text("import mystery\n")
    plan = run_both_plan(python, write_bot(tmp_path / "bot"))
    assert plan["reason"] == "SITE_UNKNOWN" and "mystery.Mystery" in plan["detail"]


def test_the_user_site_under_a_wrapper_keeps_the_fast_start(tmp_path: Path) -> None:
    """A venv with the system's site-packages enables the user site, which depends on HOME: a
    wrapper hides the bot's environment, and the bootstrap checks HOME."""
    python, _ = make_venv(tmp_path / "venv", system_site=True)
    home = tmp_path / "home"
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    user_site = home / ".local" / "lib" / version / "site-packages"
    user_site.mkdir(parents=True)
    (user_site / "usermod.py").write_text("VALUE = 'user'\n")
    env = {**os.environ, "HOME": str(home)}
    env.pop("PYTHONUSERBASE", None)
    env.pop("PYTHONNOUSERSITE", None)
    bot = write_bot(tmp_path / "bot", "import usermod", "usermod.VALUE")
    result, fast, plain = run_both(python, bot, env=env, wrapper=["env"])
    assert plain["shown"] == "user" and result["reason"] == "FAST"
    assert (fast.pop("no_site"), plain.pop("no_site")) == (1, 0)
    assert fast == plain


def test_a_pythonpath_target_folder_and_a_relative_entry_give_the_same_path(tmp_path: Path) -> None:
    """``pip install --target DIR`` then ``PYTHONPATH=DIR:.``, the arena run from a project that a
    path ``.pth`` file lists (an editable install): the ``.pth`` files of DIR are not processed,
    by either start, and ``.`` is the bot's folder, not the arena's, which stays on its path."""
    python, site = make_venv(tmp_path / "venv")
    target = tmp_path / "target"
    target.mkdir()
    (target / "targetmod.py").write_text("VALUE = 'target'\n")
    (target / "marker.pth").write_text("import sys; sys.pth_ran = True\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "projmod.py").write_text("VALUE = 'project'\n")
    (site / "project.pth").write_text(f"{project}\n")
    shown = "[targetmod.VALUE, projmod.VALUE, hasattr(sys, 'pth_ran')]"
    bot = write_bot(tmp_path / "bot", "import targetmod, projmod", shown)
    env = {**os.environ, "PYTHONPATH": f"{target}{os.pathsep}."}
    result, fast, plain = run_both(python, bot, env=env, arena_cwd=project)
    assert plain["shown"] == ["target", "project", False] and plain["path"][:3] == [
        str(bot.parent),
        str(target),
        str(bot.parent),
    ]
    assert_fast_and_same(result, fast, plain)


def test_hooks_run_as_often_as_at_a_normal_start(tmp_path: Path) -> None:
    """site processes a venv's site-packages twice (its .pth lines run twice): the probe records
    each line twice, and the bootstrap runs them as often when a bot needs them."""
    python, site = make_venv(tmp_path / "venv")
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "hookonly.py").write_text("VALUE = 'hooked'\n")
    (site / "_counting.py").write_text(
        "import sys\nfrom importlib.machinery import PathFinder\n"
        f"MAPPING = {{'hookonly': {str(hidden)!r}}}\n"
        "class Finder:\n    @classmethod\n    def find_spec(cls, name, path=None, target=None):\n"
        "        return PathFinder.find_spec(name, [MAPPING[name]]) if name in MAPPING else None\n"
        "def install():\n    sys.runs = getattr(sys, 'runs', 0) + 1\n"
        "    if Finder not in sys.meta_path:\n        sys.meta_path.append(Finder)\n"
    )
    (site / "counting.pth").write_text("import _counting; _counting.install()\n")
    bot = write_bot(tmp_path / "bot", "import importlib", "[importlib.import_module('hook' + 'only').VALUE, sys.runs]")
    result, fast, plain = run_both(python, bot)
    assert fast["shown"] == plain["shown"]
    assert_fast_and_same(result, fast, plain)


def test_a_hook_that_prints_and_leaves_an_exit_handler_keeps_the_fast_start(tmp_path: Path) -> None:
    """The probe's own line of output is found among what the import lines print."""
    python, site = make_venv(tmp_path / "venv")
    (site / "chatty.py").write_text("import atexit\nprint('hello')\natexit.register(print, 'bye')\n")
    (site / "chatty.pth").write_text("import chatty\n")
    plan = run_both_plan(python, write_bot(tmp_path / "bot"))
    assert (plan["reason"], plan["detail"]) == ("FAST", "")


def test_many_long_import_lines_keep_the_command_short(tmp_path: Path) -> None:
    """150 namespace packages' lines (about 100 kB, read twice in a venv) made a command argument
    over the kernel's limit for one (128 kB): the bootstrap now reads the files itself."""
    python, site = make_venv(tmp_path / "venv")
    for i in range(150):
        (site / f"nsdemo{i}" / "part").mkdir(parents=True)
        (site / f"nsdemo{i}" / "part" / "__init__.py").write_text(f"VALUE = {i}\n")
        (site / f"nsdemo{i}_part-1.0-nspkg.pth").write_text(NSPKG.replace("nsdemo", f"nsdemo{i}"))
    bot = write_bot(tmp_path / "bot", "import nsdemo149.part", "nsdemo149.part.VALUE")
    result, fast, plain = run_both(python, bot)
    assert plain["shown"] == 149
    assert_fast_and_same(result, fast, plain)
