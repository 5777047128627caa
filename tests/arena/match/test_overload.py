"""Timeouts the machine caused: the scheduling lag of an answer window (a seam, and a real machine
made busy by CPU hogs), the time margin, and the limit a replay records at a time scale."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import REPO_ROOT, BotSpec
from arena.match.protocol.schedlag import LagWindow, MachineLoad, machine_load
from arena.match.replay import read_replay
from cli.arena import main
from tests.helpers.paths import FAULTY, FIXTURES

GREEDY = REPO_ROOT / "bots" / "spring2021" / "greedy_bot.py"
SEED = 12345
HOGS_PER_CORE = 3
"""Busy-loop processes per core: the bot gets at most a third of a core, whatever the machine."""


@dataclass
class FixedLag:
    """A probe that reports the lag it is given, on a machine of load 6.2 on 2 cores."""

    lag_ms: float

    def open(self, pids: Sequence[int]) -> LagWindow:
        return self

    def close(self, late_ms: float) -> MachineLoad:
        return MachineLoad(self.lag_ms, 6.2, 2)


def faulty_against_greedy(mode: str, at: int, **options: object):
    faulty = BotSpec("faulty", (sys.executable, "-u", str(FAULTY), mode, str(at)))
    greedy = BotSpec("greedy", (sys.executable, "-u", str(GREEDY)))
    return play_match("spring2021", SEED, [faulty, greedy], MatchOptions(**options))  # type: ignore[arg-type]


def test_a_timeout_in_an_overloaded_window_names_the_lag_and_the_load() -> None:
    # limit 100 ms x 3 = 300 ms; 10% of it is 30 ms: a lag of 37 ms makes the window overloaded
    result = faulty_against_greedy("hang", 3, time_scale=3.0, lag_probe=FixedLag(37))
    bot = result.players[0]
    assert bot.verdict is Verdict.TIMEOUT and bot.overloaded
    assert bot.message == (
        "timeout in an overloaded window (scheduling lag 37 ms, load 6.2 on 2 cores): "
        "run fewer workers or use --time-scale"
    )
    assert bot.to_dict()["overloaded"] is True


def test_a_timeout_with_a_small_lag_is_the_bots() -> None:
    result = faulty_against_greedy("hang", 3, time_scale=3.0, lag_probe=FixedLag(25))  # 25 < 30 ms
    bot = result.players[0]
    assert bot.verdict is Verdict.TIMEOUT and not bot.overloaded
    assert bot.message == "no answer within the time limit (scheduling lag 25 ms, load 6.2 on 2 cores)"


@pytest.fixture()
def hogs() -> Iterator[int]:
    """Every core busy :data:`HOGS_PER_CORE` times over, each hog in a session of its own (so that
    the scheduler's per-session groups do not shelter the bot from them); all killed after."""
    cores = machine_load()[1]
    procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(HOGS_PER_CORE * cores)
    ]
    try:
        yield cores
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def test_on_a_machine_busy_with_cpu_hogs_a_timeout_names_the_load(hogs: int) -> None:
    # The bot busy-loops from its 2nd turn (100 ms): on a core shared four ways or more it waits
    # for the CPU most of its window, far more than 10% of the limit.
    result = faulty_against_greedy("busy", 2)
    bot = result.players[0]
    assert bot.verdict is Verdict.TIMEOUT, bot.message
    assert bot.load is not None
    core = "core" if hogs == 1 else "cores"
    assert f"load {bot.load.load:.1f} on {hogs} {core})" in bot.message
    if not Path("/proc/self/schedstat").exists():  # no run-queue wait to read: only the arena's lateness
        return
    assert bot.load.lag_ms > 10 and bot.overloaded
    assert bot.message.startswith("timeout in an overloaded window (scheduling lag ")
    assert bot.message.endswith("): run fewer workers or use --time-scale")


def test_an_answer_within_the_margin_is_taken_and_counted() -> None:
    # 150 ms of a 100 ms limit: taken with a 1000 ms margin, past the limit by about half of it.
    # The clock starts when the write returns: the bot, on another core, may have read its input
    # and begun its sleep some microseconds before (1.4998 seen), so 1.49, not 1.5
    taken = faulty_against_greedy("sleep150", 3, time_margin_ms=1000.0).players[0]
    assert taken.verdict is Verdict.OK, taken.message
    use = taken.limit_use
    assert use.past_limit >= 1 and use.closest is not None and use.closest >= 1.49
    late = faulty_against_greedy("sleep150", 3, time_scale=1.0).players[0]
    assert late.verdict is Verdict.TIMEOUT


def test_a_replay_at_a_time_scale_records_the_limit_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fall 2020: 1000 ms for the first turn, 50 ms after (the statement); at --time-scale 2: 2000, 100
    bots = FIXTURES / "replay_v1" / "bots"
    monkeypatch.chdir(tmp_path)
    args = ["play", "fall2020", f"{bots}/fall_random.py --seed 1", f"{bots}/fall_quitter.py", "--seed", "42"]
    result = CliRunner().invoke(main, [*args, "--time-scale", "2", "--replay", "r.json"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert doc["time_scale"] == 2 and '"time_scale":2,' in text and doc["time_margin_ms"] == 0
    limits = [e["time_limit_ms"] for f in doc["frames"] for e in f["executions"] if e["expected_lines"]]
    assert limits[:2] == [2000, 2000] and set(limits[2:]) == {100}


def test_an_old_replay_has_the_scale_1() -> None:
    old = read_replay(FIXTURES / "replay_v1" / "fall2020.json")
    assert "time_scale" not in old


def test_the_time_margin_is_checked_before_anything(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--time-margin", "-5"])
    assert result.exit_code == 2 and "--time-margin" in result.output and "Traceback" not in result.output


def test_play_takes_a_time_margin_and_says_how_close_each_bot_came(tmp_path: Path) -> None:
    faulty = "faulty=" + shlex.join([sys.executable, str(FAULTY), "sleep150", "3"])
    args = ["play", "spring2021", faulty, "greedy", "--seed", "1", "--time-margin", "1000"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("  player 0 "))
    assert line.startswith("  player 0 faulty") and ": ok;" in line, line
    closest = re.search(r"closest call (\d+)% of the limit, (\d+) past it$", line)
    assert closest is not None and int(closest[1]) >= 150 and int(closest[2]) >= 1, line
