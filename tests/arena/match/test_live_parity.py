"""Live parity, as a user runs it: ``arena play GAME "python3 BOT ARGS" "..." --seed S --json``.

The parity test bots run as processes under the arena. Each is wrapped so that every line it
actually reads from stdin is recorded; that must be exactly the trace's ``stdin_streams`` (the
input the official referee sent), and the JSON result must report the trace's final scores.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.arena import main
from tests.helpers.parity import collect, load, params_of
from tests.helpers.paths import FAULT_BOTS, PARITY

BOTS_DIR = PARITY / "bots"
TEE = FAULT_BOTS / "tee_stdin.py"


def player_argv(trace: dict, player: int) -> list[str] | None:
    """How to run the bot that played ``player`` of ``trace`` here: the first set's test bot, or
    a shipped bot (``players[].bot`` ``shipped/NAME``) run from the repository as the trace ran
    it; ``None`` for a bot that is not in the repository."""
    info = trace["players"][player]
    command = [str(w) for w in info.get("command", [])]
    script = f"bots/{trace['game']}_bot.py"
    if script in command:
        return [str(BOTS_DIR / f"{trace['game']}_bot.py"), *[str(a) for a in trace["bot_args"][player]]]
    if str(info.get("bot", "")).startswith("shipped/") and "-m" in command:
        return command[command.index("-m") :]
    return None


def live_traces() -> list:
    """The traces whose two bots are in the repository (the others are replayed, not re-run)."""
    out = []
    for param in collect():
        path = param.values[1]
        if path is not None and all(player_argv(load(path), p) is not None for p in (0, 1)):
            out.append(param)
    return out


def bot_command(trace: dict, player: int, record: Path) -> str:
    argv = player_argv(trace, player)
    assert argv is not None
    return shlex.join([sys.executable, "-u", str(TEE), str(record), *argv])


@pytest.mark.parity
@pytest.mark.parametrize("game,path", live_traces())
def test_arena_play_sends_the_official_input_and_reports_the_official_scores(game: str, path: Path, tmp_path: Path):
    trace = load(path)
    records = [tmp_path / "p0.txt", tmp_path / "p1.txt"]
    params = [f"--param={k}={v}" for k, v in params_of(trace).items()]
    argv = [
        "play",
        game,
        bot_command(trace, 0, records[0]),
        bot_command(trace, 1, records[1]),
        "--seed",
        str(trace["seed"]),
        "--json",
        *params,
        # generous limits: the check is about the protocol, not about this machine's speed
        "--time-scale",
        "5",
        # the recording wrapper writes what the bot reads into the test's folder: no sandbox
        "--sandbox",
        "off",
    ]
    run = CliRunner().invoke(main, argv)
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout.strip().splitlines()[-1])
    for player in (0, 1):
        want = trace["stdin_streams"][player]
        got = records[player].read_text().splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
        assert first is None, f"player {player} input line {first}: {got[first]!r} != {want[first]!r}"
        assert len(got) == len(want), f"player {player} read {len(got)} lines, want {len(want)}"
    assert data["scores"] == trace["final_scores"]
    assert data["end_reason"] == trace["end_reason"]
    assert data["winner"] == trace["winner"]
