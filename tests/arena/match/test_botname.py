"""#34 points 11 and 14: one naming rule for bots, the same in ``arena play`` and ``arena
tournament`` (never an interpreter's name); and a file that is not executable gets the hint of
its ``#!`` line or its extension."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.launch.botname import default_name
from arena.match.launch.botspec import BotSpecError, resolve
from arena.tournament.config import config_from_mapping
from cli.arena import main
from tests.helpers.spring_text_bots import spring_bot_text

PYTHON = Path(sys.executable).name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("crash3.py", "crash3"),
        ("crash3.py --depth 3", "crash3"),
        ("python3 -m mybot", "mybot"),
        ("python3 -u -m mybot.__main__ --x", "mybot"),
        ("python3 bots/crash3.py", "crash3"),
        ("node index.js", "index"),
        ("node --stack-size=5000 src/index.js 3", "index"),
        ("java -jar target/bot.jar", "bot"),
        ("env DEBUG=1 python3 bot.py", "bot"),
        ("./mybot --depth 3", "mybot"),
        ("mybot/", "mybot"),
        ("mybot/__main__.py", "mybot"),
        ("beam --width 5", "beam"),
        ("python3", "python3"),  # an interpreter alone is its own name: there is nothing else
    ],
)
def test_the_naming_rule(text, name):
    """Worked by hand from the rule in arena/match/launch/botname.py's docstring."""
    assert default_name(text) == name


def _tournament_names(bots: list[str], base: Path) -> list[str]:
    config = config_from_mapping({"game": "spring2021", "bots": bots, "games": 2}, base=base)
    return [b.name for b in config.bots]


def test_play_and_tournament_name_a_bot_the_same(tmp_path, monkeypatch):
    """``crash3.py`` is ``crash3`` and ``"python3 -m mybot"`` is ``mybot`` in both commands (play
    said ``crash3.py`` and ``python3``; tournament ``crash3`` and ``-m``)."""
    (tmp_path / "crash3.py").write_text(spring_bot_text('"WAIT"'))
    pkg = tmp_path / "mybot"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text(spring_bot_text('"WAIT"'))
    monkeypatch.chdir(tmp_path)
    bots = ["crash3.py", f"{PYTHON} -m mybot"]
    result = CliRunner().invoke(main, ["play", "spring2021", *bots, "--seed", "1", "--json", "--sandbox", "off"])
    assert result.exit_code == 0, result.output
    played = [p["name"] for p in json.loads(result.stdout.strip().splitlines()[-1])["players"]]
    assert played == ["crash3", "mybot"]
    assert _tournament_names(bots, tmp_path) == ["crash3", "mybot"]
    assert _tournament_names(["node index.js", "./mybot/"], tmp_path) == ["index", "mybot"]


@pytest.mark.parametrize(
    ("name", "text", "hint"),
    [
        ("notexec.sh", "#!/bin/bash\necho WAIT\n", '"bash {path}"'),
        ("notexec", "#!/usr/bin/env sh\necho WAIT\n", '"sh {path}"'),
        ("notexec.sh", "echo WAIT\n", '"sh {path}"'),
        ("notexec.bash", "echo WAIT\n", '"bash {path}"'),
        ("notexec.bin", "\x7fELF", "chmod +x {path} (it then runs as is)"),
    ],
)
def test_a_file_that_is_not_executable_gets_the_hint_of_its_interpreter(tmp_path, name, text, hint):
    """Its ``#!`` line first, then its extension; else only ``chmod +x``; never ``python3``."""
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(BotSpecError) as info:
        resolve(str(path), "spring2021")
    message = str(info.value)
    assert hint.format(path=path) in message and f"chmod +x {path}" in message
    assert "python3" not in message
    result = CliRunner().invoke(main, ["play", "spring2021", str(path), "wait", "--seed", "1"])
    assert result.exit_code == 2 and hint.format(path=path) in result.output
    assert "Traceback" not in result.output
