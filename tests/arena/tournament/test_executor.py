"""The executor seam: a tournament plays the same games on any executor.

A serial executor written here (it plays each task in this process with ``play_task``, one at a
time) and the default worker-process executor must store the same games: same seeds, seats,
scores, statuses and end reasons. The tasks it receives must also survive pickling, as they would
on their way to another machine.
"""

from __future__ import annotations

import pickle
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.runner.task import GameTask, play_task
from arena.store.records import GameRecord
from arena.store.results import Store
from arena.tournament import run_tournament
from arena.tournament.config import config_from_mapping
from tests.helpers.paths import FIXTURES

FIXTURE_BOTS = FIXTURES / "store_v1" / "bots"


class SerialExecutor:
    """Plays one task at a time, in this process, when its results are asked for."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.queue: list[GameTask] = []
        self.seen: list[GameTask] = []

    def free_slots(self) -> int:
        return 0 if self.queue else 1

    def running(self) -> int:
        return len(self.queue)

    def submit(self, task: GameTask) -> None:
        task = pickle.loads(pickle.dumps(task))
        self.queue.append(task)
        self.seen.append(task)

    def results(self, timeout: float | None) -> Iterator[tuple[GameTask, GameRecord | None]]:
        while self.queue:
            task = self.queue.pop(0)
            yield task, play_task(task)

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        self.queue.clear()


def stored(db: Path) -> list[tuple]:
    with Store(db) as store:
        latest = store.latest()
        assert latest is not None
        return sorted(
            (
                g.key,
                g.seed,
                g.seats,
                [p.score for p in g.players],
                g.winner,
                [p.status for p in g.players],
                g.end_reason,
                g.turns,
            )
            for g in store.games(latest.id)
        )


def test_a_tournament_stores_the_same_games_on_any_executor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURE_BOTS, tmp_path / "bots")
    monkeypatch.chdir(tmp_path)
    settings = {
        "game": "fall2020",
        "bots": [
            {"name": "random", "bot": "bots/random_bot.py"},
            {"name": "quitter", "bot": "bots/quitter_bot.py"},
            {"name": "wait", "bot": "bots/wait_bot.py"},
        ],
        "format": "round-robin",
        "games": 4,
        "seed": 11,
        "workers": 2,
        "max_failures": 1,  # the quitter fails every game on purpose
        "time_scale": 10,  # Fall's 50 ms: a busy machine must not turn a bot's answer into a timeout
    }
    serial: list[SerialExecutor] = []

    def make(size: int) -> SerialExecutor:
        serial.append(SerialExecutor(size))
        return serial[-1]

    with Store(tmp_path / "serial.sqlite") as store:
        run = run_tournament(config_from_mapping(settings), store, executor=make)
        assert run.played == 12 and not run.interrupted
    with Store(tmp_path / "local.sqlite") as store:
        assert run_tournament(config_from_mapping(settings), store).played == 12
    assert len(serial) == 1 and serial[0].size == 2 and len(serial[0].seen) == 12
    assert stored(tmp_path / "serial.sqlite") == stored(tmp_path / "local.sqlite")
    games = stored(tmp_path / "serial.sqlite")
    assert {g[6] for g in games} >= {"player_deactivated"}  # the quitter's games


def test_a_child_of_the_caller_in_a_session_of_its_own_outlives_the_tournament(tmp_path: Path) -> None:
    # The tournament's main process kills what dead workers left to it (bots in sessions of their
    # own); a server the calling program started before, in a session of its own, is not that.
    import os
    import subprocess

    server = subprocess.Popen(["sleep", "300"], start_new_session=True)
    try:
        config = config_from_mapping(
            {
                "game": "spring2021",
                "bots": ["greedy", "random"],
                "games": 2,
                "workers": 2,
                "seed": 3,
                "sandbox": "off",
                "db": str(tmp_path / "t.sqlite"),
            },
            base=tmp_path,
        )
        store = Store(config.db)
        try:
            assert run_tournament(config, store).played == 2
        finally:
            store.close()
        assert server.poll() is None, "the caller's own child was killed"
        assert os.getsid(server.pid) == server.pid
    finally:
        server.kill()
        server.wait()
