"""What a BOT argument means (``arena.match.launch.botspec``): one meaning for a Python bot in play,
tournament, bundle and verify; bots named on the command line; commands and their errors."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.launch import botspec
from arena.match.launch.botspec import BotSpecError, resolve, split_name
from bundler.graph import locate_entry
from bundler.verify import source_bot
from cli.arena import main
from tests.helpers.spring_text_bots import spring_bot_text

# A Spring 2021 bot that answers WAIT; its answer comes from a sibling module through a relative
# import: it only runs as a package.
READ_AND_WAIT = spring_bot_text("ANSWER", imports="from .answer import ANSWER\n")


def make_package(root: Path, name: str = "mybot") -> Path:
    pkg = root / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "answer.py").write_text('ANSWER = "WAIT"\n')
    (pkg / "__main__.py").write_text(READ_AND_WAIT)
    return pkg


def test_a_package_bot_with_relative_imports_plays_from_any_directory(tmp_path, monkeypatch):
    """Point 1: a directory with __init__.py and __main__.py runs as ``python -m pkg`` from its
    parent; run as ``python DIR`` (the old meaning) its relative import crashes."""
    pkg = make_package(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["play", "spring2021", str(pkg), "wait", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert [p["status"] for p in data["players"]] == ["ok", "ok"]
    assert data["end_reason"] == "max_rounds"


@pytest.mark.parametrize("layout", ["script", "package", "main_only", "nested", "module_relative", "module_absolute"])
def test_the_arena_runs_a_python_bot_as_the_bundler_reads_it(tmp_path, layout):
    """Point 1: play/tournament (botspec) and bundle/verify (bundler) agree on every layout."""
    if layout == "script":
        target = tmp_path / "bot.py"
        target.write_text("print('WAIT')\n")
    elif layout == "package":
        target = make_package(tmp_path)
    elif layout == "main_only":
        target = tmp_path / "loose"
        target.mkdir()
        (target / "__main__.py").write_text("print('WAIT')\n")
    elif layout == "nested":
        outer = tmp_path / "outer"
        outer.mkdir()
        (outer / "__init__.py").write_text("")
        target = make_package(outer, "inner")
    else:
        pkg = make_package(tmp_path)
        target = pkg / "main.py"
        relative = layout == "module_relative"
        target.write_text("from .answer import ANSWER\n" if relative else "ANSWER = 'WAIT'\n")
    spec = resolve(str(target), "spring2021")
    bundled = source_bot(locate_entry(target))
    assert spec.argv == bundled.argv
    if spec.cwd is not None:  # a -m bot runs from the directory above its outermost package
        assert spec.cwd == bundled.cwd
    expected_module = {"package": "mybot", "nested": "outer.inner", "module_relative": "mybot.main"}
    if layout in expected_module:
        assert spec.argv[-2:] == ("-m", expected_module[layout])
        assert spec.cwd == str(tmp_path)
    else:
        assert "-m" not in spec.argv


@pytest.mark.parametrize(
    "text,expected",
    [
        ("old=bot.py", ("old", "bot.py")),
        ("new=bot.py --depth 3", ("new", "bot.py --depth 3")),
        ("greedy#2=greedy", ("greedy#2", "greedy")),
        ("bot.py --x=1", (None, "bot.py --x=1")),  # '=' after a space: an argument
        ("./a=b.py", (None, "./a=b.py")),  # a path, not a name
        ("greedy", (None, "greedy")),
    ],
)
def test_a_bot_can_be_named_on_the_command_line(text, expected):
    assert split_name(text) == expected


def test_a_file_whose_name_has_an_equals_sign_stays_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a=b.py").write_text("")
    assert split_name("a=b.py") == (None, "a=b.py")


def test_a_relative_py_path_with_arguments_needs_no_dot_slash(tmp_path, monkeypatch):
    """Point 3: ``"bot.py --x 1"`` runs bot.py with this interpreter."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("")
    spec = resolve("bot.py --x 1", "spring2021")
    assert spec.argv == (sys.executable, "-u", str(tmp_path / "bot.py"), "--x", "1")


def test_a_shipped_name_takes_extra_arguments():
    plain = resolve("beam", "spring2021")
    spec = resolve("beam --width 5", "spring2021")
    assert spec.argv == plain.argv + ("--width", "5")
    assert spec.name == "beam"


@pytest.mark.parametrize(
    "text,message",
    [
        ("./script.sh --x 1", "not executable: chmod +x"),
        ("./script.sh", "not executable: chmod +x"),
        ("missing.py --x 1", "missing.py: no such file or directory"),
        ("./missing --x", "./missing: no such file or directory"),
        ("no-such-program-xyz --x", "is not a file, a directory, a command on PATH or a shipped"),
    ],
)
def test_a_command_that_cannot_run_is_refused_before_the_match(tmp_path, monkeypatch, text, message):
    """Point 3: a non-executable command fails when it is resolved, with one message."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "script.sh").write_text("echo WAIT\n")
    with pytest.raises(BotSpecError, match=None) as info:
        resolve(text, "spring2021")
    assert message in str(info.value)
    result = CliRunner().invoke(main, ["play", "spring2021", text, "wait", "--seed", "1"])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_a_bot_that_fails_to_start_makes_play_fail(tmp_path):
    """Point 3: a bot that cannot be started is an error of the command (exit 1), not a game."""
    script = tmp_path / "bot"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    result = CliRunner().invoke(main, ["play", "spring2021", str(script), "wait", "--seed", "1"])
    assert result.exit_code == 1
    assert "failed to start" in result.output


def test_relative_paths_are_taken_from_the_base_directory(tmp_path, monkeypatch):
    """Point 13: a config's bots are found from the config's directory, whatever the cwd."""
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "bot.py").write_text("")
    monkeypatch.chdir(tmp_path)
    spec = resolve("bot.py --x 1", "spring2021", base=tmp_path / "conf")
    assert spec.argv[2] == str(tmp_path / "conf" / "bot.py")
    with pytest.raises(BotSpecError):
        resolve("bot.py", "spring2021")  # not in the current directory
    command = resolve(f"{Path(sys.executable).name} bot.py", "spring2021", base=tmp_path / "conf")
    assert command.cwd == str(tmp_path / "conf")  # a command runs where its relative paths point


def test_every_shipped_bot_resolves():
    for game in ("spring2021", "fall2020"):
        for name in botspec.shipped_bots(game):
            spec = resolve(name, game)
            assert spec.argv[0] == sys.executable and os.path.exists(spec.argv[0])
