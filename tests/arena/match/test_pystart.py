"""The fast start of Python bots (arena.match.launch.pystart): a bot started through the process layer
sees what it sees when its plain command (``python -u FILE``, ``python -u -m MODULE``) is run
directly, except ``sys.flags.no_site``, which tells which start it got; a bot that needs a module
only an import hook of a ``.pth`` file provides still gets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from arena.match import sandbox
from arena.match.launch import pystart
from arena.match.process.botprocess import BotProcess
from tests.helpers.paths import REPO_ROOT
from tests.helpers.sandboxing import require_sandbox

# What a bot sees of its start, as one JSON line (``state`` is defined in the bot's __main__).
STATE = textwrap.dedent("""\
    import builtins, json, sys

    def state(**extra):
        main = sys.modules["__main__"]
        import numpy
        return json.dumps({
            "path": sys.path, "argv": sys.argv, "file": getattr(main, "__file__", None),
            "name": main.__name__, "package": main.__package__,
            "spec": getattr(main.__spec__, "name", None), "globals": sorted(vars(main)),
            "loader": type(main.__loader__).__name__, "doc": main.__doc__,
            "exit": repr(builtins.exit), "quit": repr(builtins.quit), "help": repr(builtins.help),
            "numpy": numpy.__file__, "no_site": sys.flags.no_site, **extra})
""")


def _fast_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pystart.ENV_SWITCH, raising=False)


def _through_arena(
    argv: list[str], cwd: str | None = None, wrapper: list[str] | None = None, env: dict[str, str] | None = None
) -> tuple[str | None, BotProcess]:
    """The first line of the bot started by the process layer, and the (ended) process."""
    process = BotProcess(argv, cwd=cwd, env=env, wrapper=wrapper or []).start()
    try:
        result = process.read_line(30)
        process.wait_exit(10)
    finally:
        process.kill_tree()
    return result.line, process


def _plain(
    argv: list[str], cwd: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False
    )


def _state(line: str | None) -> dict[str, Any]:
    assert line is not None, "the bot printed nothing"
    found: dict[str, Any] = json.loads(line)
    return found


def _same_but_site_flag(fast: dict[str, Any], plain: dict[str, Any]) -> None:
    assert (fast.pop("no_site"), plain.pop("no_site")) == (1, 0)  # each got the start it should
    plain["path"] = [p for p in plain["path"] if "__editable__" not in p]  # placed by import hooks
    assert fast == plain


def test_a_script_bot_sees_what_its_plain_command_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_on(monkeypatch)
    real = tmp_path / "real"
    real.mkdir()
    (real / "bot.py").write_text(STATE + "print(state(), flush=True)\n")
    (tmp_path / "link.py").symlink_to(real / "bot.py")  # sys.path[0] is the real file's folder
    for script in (real / "bot.py", tmp_path / "link.py"):
        argv = [sys.executable, "-u", str(script), "--depth", "3 4"]
        line, _ = _through_arena(argv, cwd=str(tmp_path))
        plain = _plain(argv, cwd=str(tmp_path))
        assert plain.returncode == 0, plain.stderr
        _same_but_site_flag(_state(line), _state(plain.stdout))


def test_a_package_bot_with_relative_imports_runs_as_with_dash_m(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fast_on(monkeypatch)
    package = tmp_path / "mybot"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "helper.py").write_text("ANSWER = 42\n")
    (package / "__main__.py").write_text(
        STATE + "from .sub.helper import ANSWER\nprint(state(answer=ANSWER), flush=True)\n"
    )
    (package / "play.py").write_text(
        STATE + "from .sub import helper\nprint(state(answer=helper.ANSWER), flush=True)\n"
    )
    for module in ("mybot", "mybot.play"):
        argv = [sys.executable, "-u", "-m", module, "x"]
        line, _ = _through_arena(argv, cwd=str(tmp_path))
        plain = _plain(argv, cwd=str(tmp_path))
        assert plain.returncode == 0, plain.stderr
        fast = _state(line)
        assert fast["answer"] == 42 and fast["name"] == "__main__" and fast["argv"][1:] == ["x"]
        _same_but_site_flag(fast, _state(plain.stdout))


@pytest.mark.parametrize("call, code", [("exit(3)", 3), ("quit()", 0), ("exit('bye')", 1)])
def test_exit_and_quit_work_as_site_defines_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str, code: int
) -> None:
    _fast_on(monkeypatch)
    bot = tmp_path / "bot.py"
    bot.write_text(f"import sys\nprint(sys.flags.no_site, flush=True)\n{call}\nprint('after')\n")
    argv = [sys.executable, "-u", str(bot)]
    line, process = _through_arena(argv)
    plain = _plain(argv)
    assert (line, process.poll().returncode) == ("1", plain.returncode)
    assert plain.returncode == code and plain.stdout == "0\n"
    assert process.stderr_tail() == plain.stderr


def test_a_crash_shows_the_same_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_on(monkeypatch)
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nprint(sys.flags.no_site, flush=True)\ndef f():\n    raise ValueError('boom')\nf()\n")
    broken = tmp_path / "broken.py"
    broken.write_text("print(1, flush=True)\nx = (\n")
    for script, first in ((bot, "1"), (broken, None)):
        argv = [sys.executable, "-u", str(script)]
        line, process = _through_arena(argv)
        plain = _plain(argv)
        assert line == first  # a syntax error: nothing runs, either way
        assert process.poll().returncode == plain.returncode == 1
        assert process.stderr_tail() == plain.stderr
        assert ("Traceback" if first else "SyntaxError") in plain.stderr


def test_a_sandboxed_bot_sees_what_its_plain_command_shows_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_sandbox()
    bot = tmp_path / "bot.py"
    bot.write_text(STATE + "print(state(), flush=True)\n")
    argv = [sys.executable, "-u", str(bot), "arg"]
    own = sandbox.bot_files(argv, None)
    states = []
    for switch in ("1", "0"):
        monkeypatch.setenv(pystart.ENV_SWITCH, switch)
        line, _ = _through_arena(argv, wrapper=sandbox.confine(argv, None, {}, own=own))
        states.append(_state(line))
    _same_but_site_flag(*states)


def test_a_different_environment_in_a_wrapper_gets_the_plain_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wrapper changes PYTHONPATH, which the arena cannot see: the bootstrap notices."""
    _fast_on(monkeypatch)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    extra = tmp_path / "extra"
    extra.mkdir()
    bot = tmp_path / "bot.py"
    bot.write_text(STATE + "print(state(), flush=True)\n")
    argv = [sys.executable, "-u", str(bot)]
    line, _ = _through_arena(argv, wrapper=["env", f"PYTHONPATH={extra}"])
    plain = _plain(argv, env={**os.environ, "PYTHONPATH": str(extra)})
    fast = _state(line)
    assert str(extra) in fast["path"]
    assert fast == _state(plain.stdout)  # no_site 0: it started the normal way


def test_the_switch_turns_the_fast_start_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nprint(sys.flags.no_site, flush=True)\n")
    argv = [sys.executable, "-u", str(bot)]
    monkeypatch.setenv(pystart.ENV_SWITCH, "0")
    assert pystart.launch_argv(argv, None, os.environ) == argv
    assert _through_arena(argv)[0] == "0"
    monkeypatch.setenv(pystart.ENV_SWITCH, "1")
    assert _through_arena(argv)[0] == "1"


def test_other_commands_run_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_on(monkeypatch)
    bot = tmp_path / "bot.py"
    bot.write_text("print(1)\n")
    (tmp_path / "bot.txt").write_text("print(1)\n")
    for argv in (
        [sys.executable, str(bot)],
        ["python3", "-u", str(bot)],
        [sys.executable, "-u", "-c", "pass"],
        [sys.executable, "-u", "-O", str(bot)],
        [sys.executable, "-u", str(tmp_path / "bot.txt")],
        [sys.executable, "-u", str(tmp_path / "missing.py")],
        [sys.executable, "-u", "-m", "no-such.mod"],
        [sys.executable, "-u"],
    ):
        assert pystart.launch_argv(argv, str(tmp_path), os.environ) == argv
    assert pystart.launch_argv([sys.executable, "-u", str(bot)], str(tmp_path), os.environ)[:4] == [
        sys.executable,
        "-u",
        "-S",
        "-c",
    ]


# -- a module only an import hook provides ------------------------------------------------------------

HOOK = textwrap.dedent("""\
    import sys
    from importlib.machinery import PathFinder

    MAPPING = {"hookonly": %r}  # as setuptools' editable finders do

    class Finder:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            return PathFinder.find_spec(name, [MAPPING[name]]) if name in MAPPING else None

    def install():
        if Finder not in sys.meta_path:
            sys.meta_path.append(Finder)
""")

DRIVER = textwrap.dedent("""\
    import json, sys
    from arena.match.process.botprocess import BotProcess
    process = BotProcess(json.loads(sys.argv[1]), cwd=sys.argv[2]).start()
    try:
        print(process.read_line(60).line)
    finally:
        process.kill_tree()
""")


@pytest.fixture(scope="module")
def hooked_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv's interpreter whose site-packages has a ``.pth`` import hook providing ``hookonly``
    (from a folder on no path), and reaches the project and its dependencies by path lines."""
    root = tmp_path_factory.mktemp("hooked")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site_packages = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    hidden = root / "hidden"
    hidden.mkdir()
    (hidden / "hookonly.py").write_text("VALUE = 'from the hook'\n")
    (site_packages / "_hookdemo.py").write_text(HOOK % str(hidden))
    (site_packages / "hookdemo.pth").write_text("import _hookdemo; _hookdemo.install()\n")
    ours = [p for p in sys.path if p.endswith("site-packages")]
    project = REPO_ROOT
    (site_packages / "deps.pth").write_text("".join(f"{p}\n" for p in [*ours, str(project)]))
    return python


def _hooked_run(python: Path, bot: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bot's state through the process layer of an arena run by ``python``, and plain."""
    argv = [str(python), "-u", str(bot)]
    env = {k: v for k, v in os.environ.items() if k != pystart.ENV_SWITCH}
    driven = subprocess.run(
        [str(python), "-c", DRIVER, json.dumps(argv), str(bot.parent)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert driven.returncode == 0, driven.stderr
    plain = _plain(argv, cwd=str(bot.parent), env=env)
    assert plain.returncode == 0, plain.stderr
    return _state(driven.stdout.strip().splitlines()[-1]), _state(plain.stdout)


def test_a_bot_importing_a_module_of_an_import_hook_starts_the_normal_way(hooked_python: Path, tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(STATE + "import hookonly\nprint(state(value=hookonly.VALUE), flush=True)\n")
    fast, plain = _hooked_run(hooked_python, bot)
    assert fast["value"] == "from the hook"
    assert fast == plain  # no_site 0 in both


def test_a_module_of_an_import_hook_imported_out_of_sight_still_imports(hooked_python: Path, tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(
        STATE
        + textwrap.dedent("""\
        import copy  # tries a module that does not exist: no reason to run the hooks
        hooked_early = "_hookdemo" in sys.modules
        import importlib
        value = importlib.import_module("hook" + "only").VALUE
        print(state(value=value, hooked_early=hooked_early), flush=True)
    """)
    )
    fast, plain = _hooked_run(hooked_python, bot)
    assert fast["value"] == plain["value"] == "from the hook"
    assert (fast.pop("hooked_early"), plain.pop("hooked_early")) == (False, True)
    _same_but_site_flag(fast, plain)


def test_a_module_python_cannot_run_gets_the_message_python_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fast_on(monkeypatch)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("import sys\nprint(sys.flags.no_site, flush=True)\n")
    argv = [sys.executable, "-u", "-m", "lib"]  # a package without __main__.py
    line, process = _through_arena(argv, cwd=str(tmp_path))
    plain = _plain(argv, cwd=str(tmp_path))
    assert (line, plain.stdout) == ("1", "0\n")
    assert process.poll().returncode == plain.returncode == 1
    assert process.stderr_tail() == plain.stderr and "cannot be directly executed" in plain.stderr


def test_the_plan_says_which_start_and_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_on(monkeypatch)
    (tmp_path / "bot.py").write_text("import sys\n")
    (tmp_path / "lost.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "broken.py").write_text("x = (\n")
    exe, here = sys.executable, str(tmp_path)
    cases = {
        (exe, "-u", "bot.py"): (pystart.Reason.FAST, ""),
        ("python3", "-u", "bot.py"): (pystart.Reason.NOT_PYTHON_FORM, ""),
        (exe, "-u", "-O", "bot.py"): (pystart.Reason.NOT_PYTHON_FORM, ""),
        (exe, "-u", "missing.py"): (pystart.Reason.NO_SUCH_FILE, "missing.py"),
        (exe, "-u", "lost.py"): (pystart.Reason.IMPORT_NOT_FOUND, "no_such_module_anywhere"),
        (exe, "-u", "broken.py"): (pystart.Reason.UNREADABLE, str(tmp_path / "broken.py")),
    }
    for argv, (reason, detail) in cases.items():
        plan = pystart.start_plan(argv, here, os.environ)
        assert (plan.reason, plan.detail) == (reason, detail), argv
        assert plan.fast == (reason is pystart.Reason.FAST)
        assert (list(plan.argv) == list(argv)) != plan.fast
    monkeypatch.setenv(pystart.ENV_SWITCH, "off")
    assert pystart.start_plan((exe, "-u", "bot.py"), here, os.environ).reason is pystart.Reason.SWITCHED_OFF
