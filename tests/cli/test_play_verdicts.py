"""``arena play`` as a newcomer reads it (issue #34): the referee's summaries with the players'
names (point 6), and one verdict for a crashed bot, with its last stderr lines (point 7)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.arena import main
from cli.play import summary_line
from tests.helpers.paths import FAULTY

CRASHES_ON_TURN_3 = """\
import sys
answers = 0
for _ in range(int(input())):  # the cells
    input()
while True:
    for _ in range(4):  # day; nutrients; my sun and score; the opponent's sun, score and waiting
        input()
    for _ in range(int(input())):  # the trees
        input()
    for _ in range(int(input())):  # the possible actions
        input()
    answers += 1
    if answers == 3:
        print("thinking about turn 3", file=sys.stderr, flush=True)
        {}["boom"]
    print("WAIT", flush=True)
"""
"""A Spring Challenge 2021 bot that reads its input per the statement and dies with
``KeyError: 'boom'`` instead of its third answer."""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("$0 is planting a seed on cell 10", "alice is planting a seed on cell 10"),
        ("$1 learnt spell 20", "bob learnt spell 20"),
        ("¤RED¤$1 has not provided an action in time.§RED§", "bob has not provided an action in time."),
        ("$0 and $1 and $2", "alice and bob and $2"),  # no third player: left as written, as the viewer does
        ("$10 wins", "$10 wins"),
    ],
)
def test_summary_lines_name_the_players_as_the_viewer_does(line, expected):
    assert summary_line(line, ["alice", "bob"]) == expected


@pytest.mark.parametrize(
    ("game", "bots", "expected"),
    [
        ("spring2021", ["alice=wait", "bob=wait"], ["alice is waiting", "bob is waiting"]),
        ("fall2020", ["alice=random", "bob=random"], ["alice ", "bob "]),
    ],
)
def test_verbose_play_prints_names_not_placeholders(game, bots, expected):
    """Point 6: ``-v`` prints the summaries of the referee with the players' names."""
    result = CliRunner().invoke(main, ["play", game, *bots, "--seed", "1", "-v", "--sandbox", "off"])
    assert result.exit_code == 0, result.output
    summaries = [line for line in result.output.splitlines() if line.startswith("  [")]
    assert summaries, result.output
    assert not [line for line in summaries if "$0" in line or "$1" in line or "¤" in line], result.output
    for name in expected:
        assert any(name in line for line in summaries), (name, result.output)


def test_a_crash_is_called_a_crash_on_the_turn_and_in_the_result_with_its_traceback(tmp_path: Path):
    """Point 7: the per-turn line gives the arena's verdict (crash, as the result does), and the
    crashed bot's last stderr lines are shown without --show-stderr; the official ``Timeout!`` stays
    where the official referee writes it: the replay's deactivation."""
    bot = tmp_path / "crash3.py"
    bot.write_text(CRASHES_ON_TURN_3)
    replay = tmp_path / "game.json"
    args = ["play", "spring2021", str(bot), "wait", "--seed", "1", "--sandbox", "off", "--replay", str(replay)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    turn = [line for line in lines if "disqualified" in line]
    assert len(turn) == 1, result.output
    assert "player 0 (crash3) disqualified: crash (" in turn[0] and "KeyError: 'boom'" in turn[0], turn
    assert "player 0 crash3: crash (" in result.output
    assert "Timeout!" not in result.output
    # its last stderr lines, by default: the traceback and what it wrote before
    for written in ("| thinking about turn 3", "| Traceback (most recent call last):", "| KeyError: 'boom'"):
        assert any(line.strip().startswith(written) for line in lines), (written, result.output)
    recorded = json.loads(replay.read_text())
    assert "Timeout!" in json.dumps(recorded)  # the referee's own wording, as recorded


def test_verbose_play_gives_the_referees_summary_and_the_arenas_verdict(tmp_path: Path):
    """Point 7 with -v: the referee's summary line (its wording, with the name) and the verdict."""
    bot = tmp_path / "crash3.py"
    bot.write_text(CRASHES_ON_TURN_3)
    result = CliRunner().invoke(main, ["play", "spring2021", str(bot), "wait", "--seed", "1", "-v", "--sandbox", "off"])
    assert result.exit_code == 0, result.output
    assert "crash3 has not provided an action in time." in result.output  # the official summary, named
    assert "player 0 (crash3) disqualified: crash (" in result.output
    assert "| KeyError: 'boom'" in result.output


def test_a_timeout_is_called_a_timeout_on_the_turn_and_in_the_result():
    """The per-turn line and the result agree for a bot that hangs too (no stderr tail: it did
    not crash)."""
    bot = f"{shlex.join([sys.executable, str(FAULTY)])} hang 3"
    result = CliRunner().invoke(main, ["play", "spring2021", bot, "wait", "--seed", "1", "--sandbox", "off"])
    assert result.exit_code == 0, result.output
    turn = [line for line in result.output.splitlines() if "disqualified" in line]
    # a busy machine makes it a timeout "in an overloaded window": a timeout all the same
    assert len(turn) == 1 and "disqualified: timeout (" in turn[0] and "scheduling lag" in turn[0], turn
    assert ": timeout (" in result.output.split("result: ", 1)[1]
    assert "Timeout!" not in result.output and "last stderr lines" not in result.output
