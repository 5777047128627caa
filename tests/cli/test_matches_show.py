"""Issue #34, point 13: ``arena matches show`` shows each bot's stderr tail, not only a failed
bot's, and its command to play the game again names a bot only when the name differs from it."""

from __future__ import annotations

import shlex
from pathlib import Path

from click.testing import CliRunner

from arena.tournament.entries import BotEntry
from cli.arena import main
from cli.repro import bot_argument
from tests.helpers.spring_text_bots import spring_bot_text

TALKER = "import sys\nprint('thinking hard', file=sys.stderr, flush=True)\n"


def test_show_gives_every_bots_stderr_and_no_greedy_equals_greedy(tmp_path: Path) -> None:
    talker = tmp_path / "talker.py"
    talker.write_text(spring_bot_text('"WAIT"', imports=TALKER))  # plays every turn, writes on stderr once
    db = str(tmp_path / "r.sqlite")
    ran = CliRunner().invoke(
        main,
        ["tournament", "spring2021", str(talker), "greedy", "--games", "2", "--db", db, "--workers", "1"]
        + ["--param", "MAX_ROUNDS=3", "--no-progress", "--max-failures", "1"],
    )
    assert ran.exit_code == 0, ran.output
    shown = CliRunner().invoke(main, ["matches", "show", "1", "--db", db])
    assert shown.exit_code == 0, shown.output
    text = shown.output
    players = text.split("\nplayer ")[1:]
    talking = next(p for p in players if p.split(":", 1)[1].startswith(" talker,"))
    assert ", ok" in talking.splitlines()[0]  # it played normally, and its stderr is kept all the same
    assert "  stderr (tail):\n    | thinking hard" in talking
    other = next(p for p in players if p.split(":", 1)[1].startswith(" greedy,"))
    assert "  stderr (tail):" in other or "  stderr: none kept" in other
    command = text.split("play it again with: ", 1)[1].strip()
    words = shlex.split(command)
    assert "greedy" in words and "greedy=greedy" not in words


def test_a_bot_is_named_in_the_command_only_when_its_name_differs() -> None:
    assert bot_argument(BotEntry(name="greedy", bot="greedy")) == "greedy"
    assert bot_argument(BotEntry(name="old", bot="greedy")) == "old=greedy"
    assert bot_argument(BotEntry(name="greedy#2", bot="greedy")) == "greedy#2=greedy"
    assert bot_argument(BotEntry(name="beam", bot="beam", args=("--width", "5"))) == "beam=beam --width 5"


def test_the_command_to_play_again_keeps_the_time_margin(tmp_path: Path) -> None:
    """#34 point 1: a game played with --time-margin is played again with it."""
    db = str(tmp_path / "r.sqlite")
    ran = CliRunner().invoke(
        main,
        ["tournament", "spring2021", "greedy", "wait", "--games", "2", "--db", db, "--workers", "1"]
        + ["--param", "MAX_ROUNDS=3", "--no-progress", "--time-margin", "15"],
    )
    assert ran.exit_code == 0, ran.output
    shown = CliRunner().invoke(main, ["matches", "show", "1", "--db", db])
    words = shlex.split(shown.output.split("play it again with: ", 1)[1].strip())
    assert words[words.index("--time-margin") + 1] == "15"
    played = CliRunner().invoke(main, ["play", "greedy", "wait", "--seed", "3", "--time-margin", "7.5"])
    assert played.exit_code == 0, played.output
    again = shlex.split(played.output.split("replay this match with: ", 1)[1].splitlines()[0])
    assert again[again.index("--time-margin") + 1] == "7.5"
