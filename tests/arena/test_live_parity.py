"""Live parity: the parity test bots, run as processes by the arena, receive exactly the input the
official referee sent them (``stdin_streams``) and end with the recorded scores."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arena.botspec import BotSpec
from arena.match import MatchOptions, play_match
from tests.conftest import PARITY, in_ci
from tests.referee.test_parity import collect, traces_root

BOTS_DIR = PARITY / "bots"


def bot_specs(trace: dict) -> list[BotSpec]:
    script = BOTS_DIR / f"{trace['game']}_bot.py"
    return [
        BotSpec(f"p{i}", (sys.executable, str(script), *map(str, args)))
        for i, args in enumerate(trace["bot_args"])
    ]


@pytest.mark.parity
@pytest.mark.parametrize("game,path", collect())
def test_bots_receive_the_official_input_and_reach_the_official_scores(game, path: Path | None):
    if path is None or not BOTS_DIR.is_dir():
        message = f"no {game} traces or bots under {traces_root()}"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    trace = json.loads(path.read_text())
    # generous limits: the check is about the protocol, not about this machine's speed
    result = play_match(game, int(trace["seed"]), bot_specs(trace), MatchOptions(record=True, time_scale=5))
    streams: list[list[str]] = [[], []]
    for frame in result.frames:
        for execution in frame.executions:
            streams[execution.player] += execution.input
    for player in (0, 1):
        want = trace["stdin_streams"][player]
        got = streams[player]
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
        assert first is None, f"player {player} input line {first}: {got[first]!r} != {want[first]!r}"
        assert len(got) == len(want), f"player {player}: {len(got)} input lines, want {len(want)}"
    assert result.scores == trace["final_scores"]
    assert result.outcome.end_reason.value == trace["end_reason"]
