"""The ``bundle`` command's options, the header, sizes, fallbacks and verification."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena import Bot
from bundler import __version__
from bundler.build import BuildOptions, build
from bundler.errors import VerifyError
from bundler.size import utf16_units
from bundler.verify import verify
from cli.bundle import main
from tests.helpers.bundling import FIXTURES, run_bundle, run_python
from tests.helpers.escapes import EVIL, SHOWN, assert_shown_escaped
from tests.helpers.paths import SHIPPED_BOTS

BOTS = SHIPPED_BOTS
BUNDLE = [sys.executable, "-c", "import sys; from cli.bundle import main; sys.exit(main())"]


def write(base: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return base


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner(env=env).invoke(main, list(args))


# -- output, header, determinism ----------------------------------------------------------------


def test_prints_the_bundle_without_output_path():
    result = invoke(str(FIXTURES / "name_clash" / "main.py"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# CodinGame bundle of ")
    compile(result.stdout, "bundle", "exec")


def test_header_and_byte_identical_rebuilds(tmp_path):
    entry = FIXTURES / "registry" / "main.py"
    first = build(BuildOptions(entry)).text
    second = build(BuildOptions(entry)).text
    assert first == second
    header = first.splitlines()[:3]
    assert "registry/main.py" in header[0] and __version__ in header[0] and "flat mode" in header[0]
    assert header[1].startswith("# source commit ")  # the fixtures are in this git repository
    body = "".join(first.splitlines(keepends=True)[3:])
    assert header[2] == f"# content sha256 {hashlib.sha256(body.encode()).hexdigest()[:16]}"
    out_a, out_b = tmp_path / "a.py", tmp_path / "b.py"
    assert invoke(str(entry), "-o", str(out_a)).exit_code == 0
    assert invoke(str(entry), "-o", str(out_b)).exit_code == 0
    assert out_a.read_bytes() == out_b.read_bytes() == first.encode()


def test_no_commit_line_outside_git(tmp_path):
    write(tmp_path, {"main.py": "print(1)\n"})
    text = build(BuildOptions(tmp_path / "main.py")).text
    assert "source commit" not in text and text.startswith("# CodinGame bundle of main.py")


def test_crlf_bom_and_latin1_sources(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.py").write_bytes(
        b"\xef\xbb\xbfimport legacy\r\nTEXT = '''a\r\n  b'''\r\nprint(repr(TEXT), legacy.WORD)\r\n"
    )
    (src / "legacy.py").write_bytes(b"# -*- coding: latin-1 -*-\nWORD = '\xe9t\xe9'\n")
    bundle = build(BuildOptions(src / "main.py"))
    assert "\r" not in bundle.text and "\ufeff" not in bundle.text
    assert run_bundle(bundle.text, tmp_path) == run_python(["main.py"], cwd=src)


# -- sizes --------------------------------------------------------------------------------------


def test_utf16_units_count_like_codingame():
    assert utf16_units("abc") == 3
    assert utf16_units("é€") == 2
    assert utf16_units("🌳") == 2  # outside the BMP: a surrogate pair
    assert utf16_units("\n") == 1


def test_check_reports_each_module(tmp_path):
    result = invoke(str(FIXTURES / "registry" / "main.py"), "--check")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for name in ("main.py", "strategies/registry.py", "strategies/greedy.py"):
        assert any(line.startswith(name + " ") for line in lines), result.stdout
    assert lines[-1].startswith("total") and "of 100,000" in lines[-1]
    assert "# CodinGame" not in result.stdout  # --check alone does not print the bundle


def test_warning_close_to_the_limit(tmp_path):
    write(tmp_path, {"main.py": "T = '" + "🌳" * 46_000 + "'\nprint(len(T))\n"})
    result = invoke(str(tmp_path / "main.py"), "-o", str(tmp_path / "out.py"))
    assert result.exit_code == 0
    assert "warning" in result.stderr and "close to" in result.stderr
    assert utf16_units((tmp_path / "out.py").read_text(encoding="utf-8")) > 90_000


# -- fallbacks ----------------------------------------------------------------------------------


def test_fallback_reason_is_printed():
    result = invoke(str(FIXTURES / "cycle" / "main.py"), "-o", os.devnull)
    assert result.exit_code == 0
    assert "modules mode" in result.stderr and "import cycle ping -> pong -> ping" in result.stderr


@pytest.mark.parametrize(
    "code,reason",
    [
        (
            "import importlib\nmod = importlib.import_module('plugins.' + 'fast')\nprint(mod.NAME)\n",
            "importlib.import_module",
        ),
        ("import plugins.fast\nprint(globals()['plugins'].fast.NAME)\n", "globals()"),
        ("import plugins.fast\nprint(plugins.fast.NAME, __file__ != '')\n", "__file__"),
        ("def f():\n    from plugins import noisy\n    return noisy.NAME\nprint(f())\n", "inside a function"),
        (
            "from __future__ import annotations\nfrom plugins.typed import g\nprint(g(3), g.__annotations__)\n",
            "uses 'from __future__ import annotations'",
        ),
    ],
)
def test_unsafe_code_falls_back_and_still_runs(tmp_path, code, reason):
    write(
        tmp_path / "src",
        {
            "main.py": code,
            "plugins/__init__.py": "",
            "plugins/fast.py": "NAME = 'fast plugin'\n",
            "plugins/noisy.py": "print('noisy imported')\nNAME = 'noisy'\n",
            "plugins/typed.py": "def g(x: int) -> str:\n    return str(x)\n",
        },
    )
    bundle = build(BuildOptions(tmp_path / "src" / "main.py"))
    assert bundle.mode == "modules"
    assert any(reason in r for r in bundle.fallback_reasons), bundle.fallback_reasons
    assert run_bundle(bundle.text, tmp_path) == run_python(["main.py"], cwd=tmp_path / "src")


def test_modules_mode_traceback_names_the_original_file_and_line(tmp_path):
    write(
        tmp_path / "src",
        {
            "main.py": "from game import model\nmodel.explode(3)\n",
            "game/__init__.py": "",
            "game/model.py": "def explode(n):\n    if n:\n        raise ValueError(f'boom {n}')\n",
        },
    )
    bundle = build(BuildOptions(tmp_path / "src" / "main.py", mode="modules"))
    run = run_bundle(bundle.text, tmp_path)
    assert run.returncode == 1
    assert 'File "game/model.py", line 3, in explode' in run.stderr
    assert "raise ValueError(f'boom {n}')" in run.stderr
    assert 'File "main.py", line 2, in <module>' in run.stderr
    assert run.stderr.strip().endswith("ValueError: boom 3")


# -- stripping ----------------------------------------------------------------------------------


def test_strip_comments_and_docstrings_keep_behaviour(tmp_path):
    entry = FIXTURES / "triple_quoted" / "main.py"
    full = build(BuildOptions(entry)).text
    stripped = build(BuildOptions(entry, strip_comments=True, strip_docstrings=True)).text
    assert "A class docstring" in full and "A class docstring" not in stripped
    assert len(stripped) < len(full)
    body = stripped.split("\n", 3)[3]
    assert not any(line.lstrip().startswith("# ") and "----" not in line for line in body.splitlines())
    original = run_python(["main.py"], cwd=entry.parent)
    ran = run_bundle(stripped, tmp_path)
    # Only the line printing the stripped class docstring may differ.
    assert ran.stdout.splitlines()[:2] == original.stdout.splitlines()[:2]
    assert ran.stdout.splitlines()[2].startswith("None ")
    assert ran.stdout.splitlines()[3] == original.stdout.splitlines()[3]


# -- clipboard ----------------------------------------------------------------------------------


def test_copy_without_a_clipboard_tool_fails_before_any_work(tmp_path):
    """#13 point 16: no clipboard tool is an error (it used to exit 0, copying nothing)."""
    out = tmp_path / "out.py"
    result = invoke(str(FIXTURES / "star_all" / "main.py"), "--copy", "-o", str(out), env={"PATH": str(tmp_path)})
    assert result.exit_code == 2
    assert "--copy: no clipboard tool found (install one of wl-copy, xclip, xsel, pbcopy)" in result.stderr
    assert not out.exists()


def test_copy_with_a_clipboard_tool(tmp_path):
    tool = tmp_path / "wl-copy"
    sink = tmp_path / "clipboard.txt"
    tool.write_text(f"#!/bin/sh\ncat > {sink}\n")
    tool.chmod(0o755)
    result = invoke(
        str(FIXTURES / "star_all" / "main.py"), "--copy", env={"PATH": f"{tmp_path}{os.pathsep}/usr/bin:/bin"}
    )
    assert result.exit_code == 0, result.stderr
    assert "copied to the clipboard with wl-copy" in result.stderr
    assert sink.read_text(encoding="utf-8") == build(BuildOptions(FIXTURES / "star_all" / "main.py")).text


# -- watch --------------------------------------------------------------------------------------


def test_watch_rebuilds_on_change_and_stops_cleanly_on_ctrl_c(tmp_path):
    write(
        tmp_path,
        {"main.py": "from helper import greet\nprint(greet())\n", "helper.py": "def greet():\n    return 'hello'\n"},
    )
    out = tmp_path / "out.py"
    code = "import sys; from cli.bundle import main; sys.argv[0] = 'bundle'; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "main.py", "-o", str(out), "--watch"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while not (out.exists() and "'hello'" in out.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "'hello'" in out.read_text()
        time.sleep(0.05)
        (tmp_path / "helper.py").write_text("def greet():\n    return 'changed'\n")
        while "'changed'" not in out.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "'changed'" in out.read_text()
        (tmp_path / "helper.py").write_text("def greet(:\n")  # an error keeps watching
        time.sleep(0.8)
        assert "'changed'" in out.read_text()
    finally:
        proc.send_signal(signal.SIGINT)
        _stdout, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert "syntax error" in stderr and "stopped" in stderr


# -- verification -------------------------------------------------------------------------------


def _script(path: Path) -> Bot:
    return Bot(argv=(sys.executable, "-u", str(path)), name=path.stem)


def test_verify_catches_a_different_bot():
    greedy, random_bot = BOTS / "spring2021" / "greedy_bot.py", BOTS / "spring2021" / "random_bot.py"
    with pytest.raises(VerifyError, match=r"seed 1, seat 0: the bundle differs from the source bot at turn"):
        verify("spring2021", _script(greedy), _script(random_bot), _script(greedy), seeds=[1])


def test_verify_recognises_a_nondeterministic_bot(tmp_path):
    bot = tmp_path / "noisy.py"
    text = (BOTS / "fall2020" / "random_bot.py").read_text()
    bot.write_text(text.replace("seed = 0", "seed = int.from_bytes(__import__('os').urandom(8), 'big')"))
    with pytest.raises(VerifyError, match="not deterministic"):
        verify("fall2020", _script(bot), _script(bot), _script(BOTS / "fall2020" / "random_bot.py"), seeds=[3])


def test_verify_unknown_game():
    result = invoke(str(BOTS / "spring2021" / "random_bot.py"), "--verify", "chess")
    assert result.exit_code == 1 and "unknown game" in result.stderr


def test_verify_a_package_bot_with_a_lib(tmp_path):
    """A package entry (run as ``python -m``) using a --lib library, verified end to end."""
    write(
        tmp_path,
        {
            "lib/cgutil/__init__.py": "from .pick import first\n",
            "lib/cgutil/pick.py": "def first(actions):\n    return sorted(actions)[0]\n",
            "mybot/__init__.py": "",
            "mybot/__main__.py": ("from .loop import run\n\nrun()\n"),
            "mybot/loop.py": (
                "from cgutil import first\n\n\ndef run():\n    for _ in range(int(input())):\n"
                "        input()\n    while True:\n        try:\n            input()\n"
                "        except EOFError:\n            return\n        for _ in range(3):\n            input()\n"
                "        for _ in range(int(input())):\n            input()\n"
                "        actions = [input() for _ in range(int(input()))]\n"
                "        print(first(actions), flush=True)\n"
            ),
        },
    )
    result = invoke(
        str(tmp_path / "mybot"),
        "--lib",
        str(tmp_path / "lib"),
        "-o",
        str(tmp_path / "b.py"),
        "--verify",
        "spring2021",
        "--seeds",
        "5",
    )
    assert result.exit_code == 0, result.stderr
    assert "verified on spring2021: 1 game (seeds 5)" in result.stderr
    assert "flat mode" in result.stderr


def test_verify_passes_bot_args_to_the_source_and_the_bundle(tmp_path):
    """A bot that plays at random unless given ``--seed``: verification fails as not
    deterministic without ``--bot-args`` and passes with it (both runs receive the arguments)."""
    bot = tmp_path / "seeded.py"
    text = (BOTS / "fall2020" / "random_bot.py").read_text()
    bot.write_text(text.replace("    seed = 0\n", "    seed = int.from_bytes(__import__('os').urandom(8), 'big')\n"))
    common = [
        str(bot),
        "-o",
        str(tmp_path / "b.py"),
        "--verify",
        "fall2020",
        "--seeds",
        "4",
        "--opponent",
        str(BOTS / "fall2020" / "random_bot.py"),
    ]
    without = invoke(*common)
    assert without.exit_code == 1 and "not deterministic" in without.stderr
    with_args = invoke(*common, "--bot-args", "--seed 12")
    assert with_args.exit_code == 0, with_args.stderr
    assert "verified on fall2020: 1 game (seeds 4)" in with_args.stderr


def test_bot_args_without_verify_is_refused(tmp_path):
    result = invoke(str(BOTS / "spring2021" / "random_bot.py"), "-o", str(tmp_path / "b.py"), "--bot-args", "--seed 1")
    assert result.exit_code == 2 and "--bot-args is only used with --verify" in result.output
    assert not (tmp_path / "b.py").exists()


def test_a_failing_bots_escape_sequences_are_printed_escaped(tmp_path):
    """Issue #31, point 8: --verify quotes the source bot's failure, its last stderr line with
    it; a real bot's escape sequences there reach the terminal escaped."""
    bot = write(tmp_path, {"evil.py": f"import sys\nsys.stdin.readline()\nsys.exit({'boom ' + EVIL!r})\n"}) / "evil.py"
    ran = subprocess.run(
        [*BUNDLE, str(bot), "-o", str(tmp_path / "out.py"), "--verify", "spring2021"],
        capture_output=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(SHIPPED_BOTS.parent)},
    )
    assert ran.returncode == 1, ran.stderr
    text = assert_shown_escaped(ran.stdout + ran.stderr)
    assert f"the source bot itself failed (crash: no answer: the bot exited with code 1 (boom {SHOWN}))" in text
