"""The fault catalogue: each faulty bot plays a normal bot; the verdict is right, the normal bot
wins unaffected, the match ends within the time limit plus one second, nothing is left running."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from arena.match import MatchOptions, Verdict, play_match
from arena.match.botspec import REPO_ROOT, BotSpec

FAULTY = Path(__file__).with_name("fault_bots") / "faulty.py"
GREEDY = REPO_ROOT / "bots" / "spring2021" / "greedy_bot.py"
SEED = 12345
FIRST_TURN_S, TURN_S = 1.0, 0.1


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] != b"Z" or _is_our_zombie(pid)


def _is_our_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        ppid = int(stat[stat.rfind(b")") + 2 :].split()[1])
    except OSError:
        return False
    return ppid == os.getpid()  # a zombie we failed to reap


def run(tmp_path: Path, mode: str, at: int = 3, **options):
    pids_file = tmp_path / "pids"
    env = {"FAULT_PIDS": str(pids_file)}
    faulty = BotSpec("faulty", (sys.executable, "-u", str(FAULTY), mode, str(at)), env=env)
    greedy = BotSpec("greedy", (sys.executable, "-u", str(GREEDY)))
    start = time.monotonic()
    result = play_match("spring2021", SEED, [faulty, greedy], MatchOptions(**options))
    elapsed = time.monotonic() - start
    pids = [int(x) for x in pids_file.read_text().split()] if pids_file.exists() else []
    return result, elapsed, pids


# Faults that are not about timing run with limits scaled by LOOSE, so that a loaded machine
# (where a healthy Python bot can miss a 100 ms turn) cannot turn a crash into a timeout.
LOOSE = 3.0
# mode, answer at which it misbehaves, expected verdict, longest limit it may have used (unscaled)
CATALOGUE = [
    pytest.param("crash", 1, Verdict.CRASH, FIRST_TURN_S, id="crash-before-first-answer"),
    pytest.param("crash", 3, Verdict.CRASH, TURN_S, id="crash-mid-game"),
    pytest.param("hang", 3, Verdict.TIMEOUT, TURN_S, id="hangs-forever"),
    pytest.param("hang", 1, Verdict.TIMEOUT, FIRST_TURN_S, id="hangs-on-first-turn"),
    pytest.param("sleep160", 3, Verdict.TIMEOUT, TURN_S, id="answers-after-the-limit"),
    pytest.param("garbage", 3, Verdict.INVALID, TURN_S, id="prints-garbage"),
    pytest.param("empty", 3, Verdict.INVALID, TURN_S, id="prints-an-empty-line"),
    pytest.param("partial", 3, Verdict.TIMEOUT, TURN_S, id="partial-line-then-hangs"),
    pytest.param("hugeline", 3, Verdict.INVALID, TURN_S, id="prints-a-10MB-line"),
    pytest.param("child", 3, Verdict.CRASH, TURN_S, id="child-keeps-stdout-open-then-exits"),
    pytest.param("closeout", 3, Verdict.CRASH, TURN_S, id="closes-stdout-keeps-running"),
    pytest.param("memory", 3, Verdict.CRASH, TURN_S, id="allocates-past-the-memory-limit"),
]


TIMING = {"sleep160"}  # the limit itself is under test: real limits
SLOW = {"memory": 10.0}
"""Faults that take long to show on a loaded machine: filling 256 MB (and Python's traceback
for the MemoryError) took over 300 ms with the other core busy, turning the crash into a
timeout."""


@pytest.mark.parametrize("mode,at,verdict,limit_s", CATALOGUE)
def test_fault(tmp_path, mode, at, verdict, limit_s):
    scale = 1.0 if mode in TIMING else SLOW.get(mode, LOOSE)
    result, elapsed, pids = run(tmp_path, mode, at, memory_limit_mb=256, time_scale=scale)
    limit_s *= scale
    faulty, greedy = result.players
    assert faulty.verdict is verdict, faulty.message
    assert greedy.verdict is Verdict.OK and greedy.message == ""
    assert result.outcome is not None and result.outcome.winner == 1
    assert result.outcome.scores[0] == -1 and result.outcome.scores[1] >= 0
    assert elapsed < limit_s + 1.0 + 0.5 * (at - 1), f"match took {elapsed:.2f}s"
    assert pids, "the faulty bot did not start"
    assert not [p for p in pids if alive(p)], "processes of the match are still running"


def test_answer_just_before_the_limit_is_ok(tmp_path):
    result, _, pids = run(tmp_path, "sleep40", 3)
    assert result.players[0].verdict is Verdict.OK
    assert result.outcome.end_reason.value == "max_rounds"
    assert not [p for p in pids if alive(p)]


def test_stderr_flood_neither_stalls_nor_exhausts_memory(tmp_path):
    result, _elapsed, pids = run(tmp_path, "flood", 1, time_scale=LOOSE)
    faulty = result.players[0]
    assert faulty.verdict is Verdict.OK
    assert faulty.stderr_bytes == 100 * (1 << 20)
    assert len(faulty.stderr_tail) <= 64 * 1024
    assert not [p for p in pids if alive(p)]


def test_a_bot_ignoring_sigterm_is_killed(tmp_path):
    result, _elapsed, pids = run(tmp_path, "noterm", 10_000, time_scale=LOOSE)
    assert result.players[0].verdict is Verdict.OK
    assert not [p for p in pids if alive(p)]


def test_two_lines_in_one_turn_feed_the_next_turn(tmp_path):
    result, _, pids = run(tmp_path, "twolines", 2, record=True, time_scale=LOOSE)
    answers = [e.output for f in result.frames for e in f.executions
               if e.player == 0 and e.expected_lines]
    assert answers[1] == ("WAIT first",)
    assert answers[2] == ("WAIT second",)
    assert result.players[0].verdict is Verdict.OK
    assert not [p for p in pids if alive(p)]


def test_an_answer_near_the_limit_is_ok_and_counted(tmp_path):
    # limits x2: 200 ms per turn; the 3rd answer takes 170 ms (85%), the others are instant
    result, _, _pids = run(tmp_path, "sleep170", 3, time_scale=2.0)
    faulty = result.players[0]
    assert faulty.verdict is Verdict.OK, faulty.message
    assert faulty.near_limit == 1
    assert result.players[1].near_limit == 0
