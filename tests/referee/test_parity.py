"""Replay every trace recorded by the official referees and require an exact match.

For each trace: create the game from its seed; at every engine turn compare each execution the
referee asks for (player, input lines, expected output lines, time limit) with the recorded one;
feed the recorded output (or no answer for a timeout); at the end compare scores, end reason and
disqualifications.

Each trace is played at its league level with the game parameters it was played with. The traces
are in the repository (``tests/fixtures/parity``, see :mod:`tests.helpers.parity`); a folder in
the same layout named by ``PARITY_TRACES`` is checked too: new traces need no code change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from tests.helpers.environment import in_ci
from tests.helpers.parity import GAMES, collect, load, params_of, roots

# Games whose summary lines (the text under the replay) are also compared, frame by frame.
SUMMARY_CHECKED = set(GAMES)


def replay(game: str, trace: dict, check_summary: bool = False) -> None:
    ref = referee.create(game, int(trace["seed"]), params_of(trace))
    for turn in trace["turns"]:
        assert not ref.is_over, f"game ended before turn {turn['turn']}"
        assert ref.turn == turn["turn"]
        requests = ref.requests()
        got = [(r.player, list(r.lines), r.expected_lines, r.time_limit_ms) for r in requests]
        want = [(e["player"], e["input"], e["expected_output_lines"], e["timeout_ms"]) for e in turn["executions"]]
        for i, (g, w) in enumerate(zip(got, want)):
            assert g[0] == w[0], f"turn {turn['turn']} execution {i}: player"
            if g[1] != w[1]:
                first = next(
                    (k for k, (a, b) in enumerate(zip(g[1], w[1])) if a != b),
                    min(len(g[1]), len(w[1])),
                )
                pytest.fail(
                    f"turn {turn['turn']} player {w[0]}: input line {first} differs: "
                    f"got {g[1][first : first + 3]!r}, want {w[1][first : first + 3]!r}"
                )
            assert g == w, f"turn {turn['turn']} execution {i}"
        assert len(got) == len(want), f"turn {turn['turn']}: number of executions"
        outputs: dict[int, str | None] = {}
        for e in turn["executions"]:
            if e["expected_output_lines"] == 0:
                continue
            out = e.get("output")
            outputs[e["player"]] = None if out is None or e.get("timed_out") else out[0]
        report = ref.apply(outputs)
        if check_summary:
            assert list(report.summary) == turn["summary"], f"turn {turn['turn']}: summary"
    outcome = ref.outcome()
    assert outcome is not None, "the trace is over but the game is not"
    assert list(outcome.scores) == trace["final_scores"]
    assert outcome.end_reason.value == trace["end_reason"]
    assert outcome.turns == trace["engine_turns"]
    got_deacts = [
        {"player": d.player, "turn": d.turn, "cause": d.cause.value, "reason": d.reason} for d in outcome.deactivations
    ]
    assert got_deacts == trace["deactivations"]
    assert outcome.winner == trace["winner"]
    if check_summary:
        assert list(outcome.texts) == (trace["end_screen"][2] or [])


@pytest.mark.parity
@pytest.mark.parametrize("game,path", collect())
def test_trace_replays_exactly(game: str, path: Path | None) -> None:
    if path is None:
        message = f"no {game} traces under {', '.join(str(r) for r in roots())}"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    trace = load(path)
    assert trace["game"] == game
    replay(game, trace)


@pytest.mark.parity
@pytest.mark.parametrize("game,path", [p for p in collect() if p.values[0] in SUMMARY_CHECKED])
def test_trace_summary_and_end_screen_match(game: str, path: Path | None) -> None:
    """Stricter: the game summary of every frame and the end-screen texts match too."""
    if path is None:
        pytest.skip(f"no {game} traces")
    replay(game, load(path), check_summary=True)
