"""``arena new GAME NAME`` (issue #34, point 17): a starter bot package, playable and bundleable
at once, with a test of its reader against a recorded input; never written over a folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.arena import main
from cli.bundle import main as bundle_main

EXPECTED_FILES = {
    "__init__.py",
    "__main__.py",
    "reader.py",
    "strategy.py",
    "test_reader.py",
    "recorded_input.txt",
    "README.md",
}


@pytest.mark.parametrize("game", ["spring2021", "fall2020"])
def test_a_new_bot_plays_passes_its_test_and_bundles(tmp_path: Path, game: str) -> None:
    """The acceptance test: arena new, then arena play and bundle --verify on what it wrote."""
    where = tmp_path / "work"
    made = CliRunner().invoke(main, ["new", game, "mybot", "--dir", str(where)])
    assert made.exit_code == 0, made.output
    bot = where / "mybot"
    assert {p.name for p in bot.iterdir()} == EXPECTED_FILES
    readme = (bot / "README.md").read_text()
    for command in (
        f"arena play {game} mybot greedy",
        f"arena tournament {game} mybot greedy",
        f"bundle mybot -o mybot.cg.py --verify {game}",
    ):
        assert command in readme, command
    assert f"arena play {game} {bot} greedy" in made.output
    # it plays whole games, every action legal
    for opponent, seed in (("greedy", "1"), ("random", "2")):
        args = ["play", game, str(bot), opponent, "--seed", seed, "--json", "--sandbox", "off"]
        played = CliRunner().invoke(main, args)
        assert played.exit_code == 0, played.output
        result = json.loads(played.stdout.strip().splitlines()[-1])
        mine = result["players"][0]
        assert (mine["name"], mine["status"], mine["refused"]) == ("mybot", "ok", 0), (opponent, mine)
        assert result["end_reason"] != "player_deactivated"
        assert mine["answers"] > 20
    # it bundles, and the bundle plays as the source does
    bundled = CliRunner().invoke(bundle_main, [str(bot), "--verify", game, "-o", str(tmp_path / "mybot.cg.py")])
    assert bundled.exit_code == 0, bundled.output
    assert "answers identical to the source bot" in bundled.output
    # its own test passes, run as the README says (from the folder that holds it)
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "mybot"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "passed" in tested.stdout and "failed" not in tested.stdout


@pytest.mark.parametrize("game", ["spring2021", "fall2020"])
def test_the_recorded_input_is_what_the_referee_sends(tmp_path: Path, game: str) -> None:
    """The starter's recorded input is a real input of the toolkit's referee: the first lines
    player 0 read in `arena play GAME greedy greedy --seed 7` (Spring: the board and three turns,
    Fall: two turns)."""
    made = CliRunner().invoke(main, ["new", game, "sbot", "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    replay = tmp_path / "game.json"
    args = ["play", game, "greedy", "greedy", "--seed", "7", "--replay", str(replay), "--sandbox", "off"]
    assert CliRunner().invoke(main, args).exit_code == 0
    frames = json.loads(replay.read_text())["frames"]
    sent = [line for f in frames for e in f["executions"] if e["player"] == 0 for line in e["input"]]
    recorded = (tmp_path / "sbot" / "recorded_input.txt").read_text().splitlines()
    assert len(recorded) > 40
    assert sent[: len(recorded)] == recorded


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "mybot").mkdir()
    (tmp_path / "mybot" / "mine.py").write_text("print('my work')\n")
    result = CliRunner().invoke(main, ["new", "fall2020", "mybot", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"Error: {tmp_path / 'mybot'} already exists: arena new never overwrites, pick another NAME or --dir"
    ]
    assert [p.name for p in (tmp_path / "mybot").iterdir()] == ["mine.py"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mybot"]  # no temporary folder left


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "spring2021", "my-bot"], "'my-bot' is not a Python package name"),
        (["new", "spring2021", "3bots"], "'3bots' is not a Python package name"),
        (["new", "spring2021", "random"], "'random' is the name of a module the bot or the toolkit imports"),
        (["new", "chess", "mybot"], "unknown game 'chess'"),
    ],
)
def test_mistakes_are_one_line_and_write_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, [*args, "--dir", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output
    assert not (tmp_path / "out").exists()
