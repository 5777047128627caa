"""#34 point 3: ``--lib DIR`` and ``--env NAME=VALUE`` reach a sandboxed bot, in ``arena play``,
``arena tournament`` (and its config's ``lib:`` and ``env:``) and ``bundle --verify`` (which
takes ``--sandbox`` too). The README's example: a bot package importing a module from a library
folder beside the bot's folder, which the sandbox used to hide (``ModuleNotFoundError``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match import sandbox
from arena.tournament.config import load_config
from cli.arena import main
from cli.bundle import main as bundle_main
from tests.helpers.sandboxing import require_sandbox
from tests.helpers.spring_text_bots import spring_bot_text


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``cglib/cgutil.py`` and ``work/mybot2/`` (a package whose ``__main__`` imports ``cgutil``);
    the current directory is ``work``, as in docs/how-to/bundling.md's ``bundle mybot/ --lib ../cglib``."""
    require_sandbox()
    (tmp_path / "cglib").mkdir()
    (tmp_path / "cglib" / "cgutil.py").write_text('ANSWER = "WAIT"\n')
    pkg = tmp_path / "work" / "mybot2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text(spring_bot_text("ANSWER", imports="from cgutil import ANSWER\n"))
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path


def _play(*args: str) -> tuple[int, str, dict[str, object] | None]:
    result = CliRunner().invoke(
        main, ["play", "spring2021", "mybot2/", "wait", "--seed", "1", "--sandbox", "on", *args]
    )
    lines = result.stdout.strip().splitlines()
    data = json.loads(lines[-1]) if "--json" in args and result.exit_code == 0 else None
    return result.exit_code, result.output, data


def test_the_readme_bundle_example_verifies_in_the_sandbox(project):
    result = CliRunner().invoke(
        bundle_main,
        ["mybot2/", "--lib", "../cglib", "-o", str(project / "out.py"), "--check", "--verify", "spring2021"]
        + ["--sandbox", "on"],
    )
    assert result.exit_code == 0, result.output
    assert "verified on spring2021: 2 games" in result.output
    assert "ModuleNotFoundError" not in result.output


def test_play_with_lib_in_the_sandbox(project):
    code, output, _ = _play()
    assert code == 1 and "No module named 'cgutil'" in output  # the library is not on its path
    code, output, data = _play("--lib", "../cglib", "--json")
    assert code == 0, output
    assert data is not None and [p["status"] for p in data["players"]] == ["ok", "ok"]  # type: ignore[attr-defined]
    again = (
        f"replay this match with: arena play spring2021 mybot2/ wait --seed 1 --sandbox on --lib {project / 'cglib'}"
    )
    assert again in output  # the folder made absolute: the command works from anywhere


def test_pythonpath_given_with_env_reaches_the_sandboxed_bot(project):
    code, output, data = _play("--env", f"PYTHONPATH={project / 'cglib'}", "--json")
    assert code == 0, output
    assert data is not None and [p["status"] for p in data["players"]] == ["ok", "ok"]  # type: ignore[attr-defined]


def test_env_reaches_the_sandboxed_bot(tmp_path, monkeypatch):
    require_sandbox()
    (tmp_path / "bot.py").write_text(spring_bot_text('__import__("os").environ["MOVE"]'))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MOVE", "WAIT")  # the sandbox clears the caller's environment: only --env passes
    args = ["play", "spring2021", "bot.py", "wait", "--seed", "1", "--sandbox", "on"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "KeyError: 'MOVE'" in result.output
    result = CliRunner().invoke(main, [*args, "--env", "MOVE=WAIT"])
    assert result.exit_code == 0, result.output
    assert "player 0 bot: ok" in result.output


def test_a_tournament_takes_lib_and_env(project):
    """From the flags (relative to the current folder) and from a config (relative to its folder)."""
    result = CliRunner().invoke(
        main,
        ["tournament", "spring2021", "mybot2/", "wait", "--games", "2", "--sandbox", "on", "--lib", "../cglib"]
        + ["--no-progress", "--db", str(project / "t.sqlite"), "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert '"name": "mybot2", "games": 2' in last and re.findall(r'"crashes": (\d+)', last) == ["0", "0"]
    config = project / "conf" / "t.yaml"
    config.parent.mkdir()
    config.write_text("game: spring2021\nbots: [greedy, wait]\nlib: [../cglib]\nenv: {DEBUG: '1'}\n")
    loaded = load_config(config)
    assert [dict(b.env) for b in loaded.bots] == [{"DEBUG": "1", "PYTHONPATH": str(project / "cglib")}] * 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--env", "1X=2"], "'1X=2': expected NAME=VALUE"),
        (["--env", "NOVALUE"], "'NOVALUE': expected NAME=VALUE"),
        (["--lib", "no/such/dir"], "--lib: no/such/dir: no such file or directory"),
    ],
)
def test_a_wrong_lib_or_env_is_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "spring2021", "wait", "wait", "--seed", "1", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_bundle_verify_sandbox_on_where_it_cannot_is_one_line(tmp_path, monkeypatch):
    """``bundle --verify --sandbox on`` without bubblewrap: a usage error before any work."""
    (tmp_path / "bot.py").write_text(spring_bot_text('"WAIT"'))
    monkeypatch.setenv("ARENA_BWRAP", "")  # no bubblewrap
    sandbox.support.cache_clear()
    try:
        result = CliRunner().invoke(
            bundle_main, [str(tmp_path / "bot.py"), "--verify", "spring2021", "--sandbox", "on"]
        )
    finally:
        sandbox.support.cache_clear()
    assert result.exit_code == 2
    assert "--sandbox on: cannot sandbox bots here: bubblewrap (bwrap) is not installed" in result.output
    assert "verified" not in result.output and "Traceback" not in result.output
