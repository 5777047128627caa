"""The one batch runner (:mod:`arena.runner.runner`) under both of its schedulers, a tournament's
and a ladder's: the same paths for storing and resuming, Ctrl-C, a failing database, a second run,
kept replays and failing bots. The games are made up by an executor that plays nothing (the
alphabetically first bot wins, a bot named in ``crash`` crashes), so what is checked is the
runner's bookkeeping, counted by hand."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.ladder.commands import add_bot, init_ladder, spec_of
from arena.ladder.scheduler import LadderScheduler
from arena.ladder.stored import find_ladder
from arena.runner.executor import Executor
from arena.runner.runner import (
    BotFailed,
    GameDone,
    RunBusy,
    Runner,
    RunResult,
    RunSetup,
    Scheduler,
    Started,
    StorageFailure,
)
from arena.runner.task import GameTask, ReplayPolicy
from arena.store.records import GameRecord, PlayerRecord
from arena.store.results import Store, StoreError
from arena.store.runlock import RunLock
from arena.tournament.config import config_from_mapping
from arena.tournament.scheduler import TournamentScheduler, tournament_setup

KINDS = ("tournament", "ladder")


@dataclass
class FakeExecutor:
    """An executor that plays nothing: each game is decided at once (see the module docstring);
    ``interrupt_after`` games, it raises ``KeyboardInterrupt`` as Ctrl-C would."""

    size: int
    crash: tuple[str, ...] = ()
    interrupt_after: int | None = None
    queue: list[GameTask] = field(default_factory=list)
    done: int = 0
    stopped: bool = False

    def free_slots(self) -> int:
        return self.size - len(self.queue)

    def running(self) -> int:
        return len(self.queue)

    def submit(self, task: GameTask) -> None:
        assert self.free_slots() > 0
        self.queue.append(task)

    def results(self, timeout: float | None) -> Iterator[tuple[GameTask, GameRecord | None]]:
        while self.queue:
            if self.interrupt_after is not None and self.done >= self.interrupt_after:
                raise KeyboardInterrupt
            task = self.queue.pop(0)
            self.done += 1
            yield task, self.record(task)

    def record(self, task: GameTask) -> GameRecord:
        seats = task.game.seats
        failed = [name in self.crash for name in seats]
        winner = failed.index(False) if any(failed) else (0 if seats[0] < seats[1] else 1)
        players = tuple(
            PlayerRecord(i, name, int(i == winner), int(i != winner), "crash" if failed[i] else "ok")
            for i, name in enumerate(seats)
        )
        g = task.game
        record = GameRecord(g.comparison, g.pair, g.leg, g.seed, players, winner, "turns", 1, 0.0, task.referee_version)
        if task.replays is not None and task.replays.wants(g, record, len(seats)):
            record = GameRecord(**{**record.__dict__, "replay_text": json.dumps({"seed": g.seed, "seats": seats})})
        return record

    def cancel(self, comparison: int, from_pair: int) -> None:
        pass

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        self.stopped = True


@dataclass
class Run:
    """One kind of run on a database: how to make its scheduler and its setup."""

    kind: str
    db: Path
    scheduler: Callable[[Store, int], Scheduler]
    setup: Callable[[Scheduler, Store, Callable[[int], Executor], ReplayPolicy | None], RunSetup]

    def play(
        self,
        games: int,
        executor: FakeExecutor,
        *,
        replays: ReplayPolicy | None = None,
        events: list[object] | None = None,
        store: Store | None = None,
    ) -> tuple[RunResult, Store]:
        own = store or Store(self.db)
        scheduler = self.scheduler(own, games)
        setup = self.setup(scheduler, own, lambda n: executor, replays)
        try:
            return Runner(scheduler, own, setup, (events if events is not None else []).append).run(), own
        finally:
            if store is None:
                own.close()


def _tournament(tmp_path: Path) -> Run:
    db = tmp_path / "t.sqlite"

    def scheduler(store: Store, games: int) -> Scheduler:
        config = config_from_mapping(
            {"game": "spring2021", "bots": ["greedy", "random"], "games": games, "workers": 1, "sandbox": "off",
             "db": str(db), "max_failures": 0.25}
        )  # fmt: skip
        return TournamentScheduler(config)

    def setup(
        s: Scheduler, store: Store, executor: Callable[[int], Executor], replays: ReplayPolicy | None
    ) -> RunSetup:
        assert isinstance(s, TournamentScheduler)
        base = tournament_setup(s, store, executor)
        return RunSetup(base.game, base.options, base.referee_version, 1, replays, base.max_failures, executor)

    return Run("tournament", db, scheduler, setup)


def _ladder(tmp_path: Path) -> Run:
    db = tmp_path / "l.sqlite"
    init_ladder(db, "spring2021", {"sandbox": "off"})
    for name in ("greedy", "random"):
        add_bot(db, name, name, smoke=False)

    def scheduler(store: Store, games: int) -> Scheduler:
        return LadderScheduler(find_ladder(store), spec_of(db), games=games)

    def setup(
        s: Scheduler, store: Store, executor: Callable[[int], Executor], replays: ReplayPolicy | None
    ) -> RunSetup:
        assert isinstance(s, LadderScheduler)
        options = s.ladder.settings.match_options((str(db),))
        return RunSetup("spring2021", options, s.ladder.row.referee_version, 1, replays, 0.25, executor)

    return Run("ladder", db, scheduler, setup)


@pytest.fixture(params=KINDS)
def run(request: pytest.FixtureRequest, tmp_path: Path) -> Run:
    return (_tournament if request.param == "tournament" else _ladder)(tmp_path)


def _keys(db: Path) -> list[tuple[int, int, int]]:
    with Store(db, read_only=True) as store:
        (row,) = store.tournaments()
        return [g.key for g in store.games(row.id)]


def _status(db: Path) -> str:
    with Store(db, read_only=True) as store:
        (row,) = store.tournaments()
        return row.status


def test_it_plays_and_stores_every_game_once(run: Run) -> None:
    events: list[object] = []
    result, _ = run.play(6, FakeExecutor(1), events=events)
    keys = _keys(run.db)
    assert result.played == 6 and not result.interrupted and len(keys) == len(set(keys)) == 6
    started = [e for e in events if isinstance(e, Started)]
    done = [e for e in events if isinstance(e, GameDone)]
    assert len(started) == 1 and started[0].kind == run.kind and len(done) == 6
    assert [e.played for e in done] == [1, 2, 3, 4, 5, 6]
    assert _status(run.db) == "finished"


def test_ctrl_c_stops_the_executor_keeps_the_games_and_a_resume_plays_none_twice(run: Run) -> None:
    pool = FakeExecutor(1, interrupt_after=2)
    result, _ = run.play(6, pool)
    assert result.interrupted and result.played == 2 and pool.stopped
    assert len(_keys(run.db)) == 2 and _status(run.db) == "interrupted"
    again, _ = run.play(6 if run.kind == "tournament" else 4, FakeExecutor(1))
    keys = _keys(run.db)
    assert not again.interrupted and len(keys) == len(set(keys)) == 6


class FailingStore(Store):
    """A database that fails to store the third game (a full disk, say)."""

    stored = 0

    def record_game(self, tid: int, g: GameRecord, keep_replay=None):  # type: ignore[no-untyped-def]
        if self.stored == 2:
            raise StoreError(f"{self.path}: the disk is full (no space)", "free some space on it")
        self.stored += 1
        return super().record_game(tid, g, keep_replay)


def test_a_failing_database_stops_the_run_in_one_line_and_keeps_what_was_stored(run: Run) -> None:
    store = FailingStore(run.db)
    with pytest.raises(StorageFailure) as caught:
        run.play(6, FakeExecutor(1), store=store)
    store.close()
    text = str(caught.value)
    assert "\n" not in text and "the disk is full" in text
    assert f"2 games of {run.kind} 1 are stored and it is marked interrupted; free some space on it" in text
    assert len(_keys(run.db)) == 2 and _status(run.db) == "interrupted"


def test_a_second_run_is_refused_while_one_plays(run: Run) -> None:
    run.play(2, FakeExecutor(1))  # the tournament or ladder exists: id 1
    with RunLock(run.db) as lock:
        assert lock.acquire(1)
        with pytest.raises(RunBusy, match=f"^{run.kind} 1 is already being played by "):
            run.play(4, FakeExecutor(1))
    assert len(_keys(run.db)) == 2


def test_kept_replays_are_named_by_game_id_and_seed_in_the_replays_folder(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    run.play(4, FakeExecutor(1), replays=ReplayPolicy(str(folder), "all"))
    with Store(run.db, read_only=True) as store:
        games = store.games(1)
    assert len(games) == 4
    for g in games:
        path = folder / f"game{g.id}-seed{g.seed}.json"
        assert g.replay == str(path) and json.loads(path.read_text())["seats"] == list(g.seats)
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"game{g.id}-seed{g.seed}.json" for g in games)


def test_a_failing_bot_is_reported_at_its_first_failure_and_stops_the_run_past_the_share(run: Run) -> None:
    events: list[object] = []
    result, _ = run.play(20, FakeExecutor(1, crash=("random",)), events=events)
    first = [e for e in events if isinstance(e, BotFailed) and e.failure.first]
    assert [e.failure.player.bot for e in first] == ["random"]
    # 0.25 of the first 20 games is 5 failures: the sixth stops the run
    assert result.played == 6 and result.stopped is not None and "bot 'random' failed in 6" in result.stopped
    assert _status(run.db) == "interrupted"
