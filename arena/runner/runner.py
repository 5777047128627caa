"""The one batch runner: the games a scheduler asks for, played on an executor, stored game by game.

A tournament and a ladder differ only in which games they play next; everything else is here,
once: the run lock (:mod:`arena.store.runlock`: one run of a tournament or ladder at a time), the
executor (worker processes here, or a Dask cluster), the games handed to it as plain
:class:`arena.runner.task.GameTask` s, each finished game stored in its own transaction with its
kept replay (:meth:`arena.store.results.Store.record_game`), the bots' failures (reported at their
first, and a bot failing too often early on stops the run), Ctrl-C (the games in progress are
dropped, the run marked interrupted, exit without a traceback) and the database or the disk
failing (:class:`StorageFailure`: the games stored before are kept, the run is marked interrupted
where that can still be written).

A :class:`Scheduler` says what to play: :meth:`Scheduler.open` finds or makes its stored run (a
tournament row), :meth:`Scheduler.begin` takes the games stored before, :meth:`Scheduler.next_games`
answers "which games next?" whenever the executor has free slots, and :meth:`Scheduler.collected`
hears of every stored game (an SPRT decision, a ranking fitted again). :class:`Runner` never
prints: it reports through ``on_event`` (:class:`Started`, :class:`GameDone`, :class:`BotFailed`,
and the scheduler's own events), and the command layer draws the progress.
"""

from __future__ import annotations

import dataclasses
import math
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import paths
from ..errors import ArenaError
from ..match.launch.botspec import BotSpec
from ..match.loop import MatchOptions
from ..match.process.shield import shielded
from ..match.replay import write_text_atomic
from ..store.records import GameRecord, RunnerRow, TournamentStatus
from ..store.results import Store, StoreError, explain
from ..store.runlock import RunLock
from .executor import Executor, ExecutorError, LocalExecutor
from .failures import Failure, FailureWatch
from .task import GameTask, ReplayPolicy, ScheduledGame

__all__ = [
    "FAILURE_WINDOW",
    "RunError",
    "RunBusy",
    "StorageFailure",
    "Started",
    "GameDone",
    "BotFailed",
    "RunResult",
    "Plan",
    "Scheduler",
    "RunSetup",
    "Runner",
    "cores_warning",
]

FAILURE_WINDOW = 20
"""A bot that fails in more than ``max_failures`` of its first this many games stops the run."""


class RunError(ArenaError):
    """A run cannot go on as asked (the message says why and what to do)."""


class RunBusy(RunError):
    """Another run is playing this tournament or ladder now (see :mod:`arena.store.runlock`)."""

    def __init__(self, kind: str, run_id: int, runner: RunnerRow | None) -> None:
        who = "another process"
        if runner is not None:
            since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(runner.since))
            who = f"process {runner.pid} on {runner.host} (since {since})"
        super().__init__(
            f"{kind} {run_id} is already being played by {who}; let that run finish (or stop it), then run "
            "this command again to resume it"
        )


class StorageFailure(RunError):
    """The results database, or the disk, failed: the run stopped. The games stored before are
    kept (each was committed on its own) and the run is marked interrupted where that could
    still be written. Its text is one line; the command line adds how to resume."""

    def __init__(
        self,
        error: StoreError,
        kind: str = "tournament",
        run_id: int | None = None,
        stored: int | None = None,
        marked: bool = False,
    ) -> None:
        text = error.problem
        if run_id is not None:
            if stored is None:  # it failed before the games were counted
                kept = f"{kind} {run_id} stopped"
            else:
                verb = "is" if stored == 1 else "are"
                kept = f"{stored} game{'' if stored == 1 else 's'} of {kind} {run_id} {verb} stored"
            status = "it is marked interrupted" if marked else "its status could not be updated"
            text += f"; {kept} and {status}"
        if error.advice:
            text += f"; {error.advice}"
        super().__init__(text)
        self.error = error
        self.run_id = run_id


def replay_failure(folder: Path, exc: OSError) -> StoreError:
    """The one line for a kept replay that could not be written into ``folder``."""
    if paths.exists(folder) and not paths.is_dir(folder):
        return StoreError(
            f"{folder}: the replays folder was replaced by a file, so no replay can be kept",
            "move that file away (or pass another --replays)",
        )
    if not paths.exists(folder):
        return StoreError(
            f"{folder}: the replays folder was removed, so no replay can be kept (a resume makes it again)"
        )
    return explain(folder, exc)


# -- what the run reports ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    """The run has its tournament or ladder, and knows what it will play."""

    kind: str
    """``tournament`` or ``ladder``."""
    run_id: int
    resumed: bool
    stored: int
    """Games of the tournament or ladder already stored."""
    done: int
    total: int | None
    """Where the progress starts, and the count it goes to (``None``: open-ended)."""
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """What is worth knowing but wrong with nothing."""
    detail: object = None
    """What the scheduler adds (:attr:`Plan.detail`)."""


@dataclass(frozen=True)
class GameDone:
    """A game was stored."""

    record: GameRecord
    played: int
    """Games this run has stored."""
    stored: int
    """Games of the tournament or ladder stored."""
    done: int
    total: int | None
    """The progress (:class:`Started`), the total lowered as decisions come."""
    standing: object = None
    """What the scheduler says of where things stand (:meth:`Scheduler.standing`)."""


@dataclass(frozen=True)
class BotFailed:
    """A bot crashed, timed out or answered an invalid line (its first failure when
    ``failure.first``)."""

    failure: Failure


@dataclass
class RunResult:
    """What :meth:`Runner.run` returns."""

    run_id: int
    played: int = 0
    """Games played and stored by this run."""
    interrupted: bool = False
    stopped: str | None = None
    """Why the run stopped early (a bot failing too often), or ``None``."""
    ended: str = ""
    """Why the run ended, in words (from the scheduler: ``the 200 games asked for are played``...)."""


# -- the scheduler's side ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a scheduler starts a run with: the progress it counts (games ``done`` of ``total``,
    ``None`` when open-ended), what to warn about and note, and its own detail for the start."""

    done: int
    total: int | None
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    detail: object = None


class Scheduler(Protocol):
    """Which games next: what a tournament or a ladder gives the :class:`Runner`."""

    kind: str
    """``tournament`` or ``ladder`` (how the runner's messages name it)."""

    def open(self, store: Store) -> tuple[int, bool]:
        """Find the tournament or ladder to play, or make it (called holding the run lock's
        choosing byte): its id, and whether it is resumed."""

    def begin(self, store: Store, run_id: int, stored: Sequence[GameRecord]) -> Plan:
        """Take the games stored before; what the run starts with."""

    def spec(self, name: str) -> BotSpec:
        """How the bot ``name`` starts."""

    def next_games(self, free: int, running: int) -> list[ScheduledGame] | None:
        """The games to start now, at most ``free`` (``running`` are being played): an empty
        list to wait for results, ``None`` when nothing more will be played."""

    def collected(self, record: GameRecord, pool: Executor) -> None:
        """A game was stored (``record.id`` set): count it (it may ask ``pool`` to drop games no
        longer wanted, and report events of its own)."""

    def progress(self, stored: int, played: int) -> tuple[int, int | None]:
        """The progress after a game: games done of the total (see :class:`Plan`)."""

    def standing(self) -> object:
        """Where things stand, for the progress display."""

    def ended(self) -> str:
        """Why the run ended, in words."""


@dataclass(frozen=True)
class RunSetup:
    """How a run plays its games (what it plays is the scheduler's): the game, the options of
    every match (limits, sandbox, files hidden from the bots), the referee's version stored with
    each game, games at once, the replays kept, the failures allowed and where games are played
    (given the number of games at once: worker processes here by default)."""

    game: str
    options: MatchOptions
    referee_version: str
    workers: int
    replays: ReplayPolicy | None = None
    max_failures: float = 1.0
    """A bot failing in more than this share of its first :data:`FAILURE_WINDOW` games stops the
    run (1 never stops)."""
    executor: Callable[[int], Executor] = LocalExecutor


def cores_warning(workers: int) -> list[str]:
    """A warning when more games are played at once than the machine has cores."""
    cores = os.cpu_count() or 1
    if workers <= cores:
        return []
    return [
        f"{workers} workers on {cores} cores: bots are timed in wall-clock time and will be starved (timeouts, "
        f"slow turns); use --workers {cores} or fewer"
    ]


# -- the runner -------------------------------------------------------------------------------------


class Runner:
    """Plays what ``scheduler`` asks for into ``store``, as ``setup`` says (see the module
    docstring); ``on_event`` hears every event."""

    def __init__(
        self,
        scheduler: Scheduler,
        store: Store,
        setup: RunSetup,
        on_event: Callable[[object], None] | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.store = store
        self.setup = setup
        self.on_event = on_event or (lambda event: None)
        self._stored: int | None = None
        """Games of the run in the database, once known (for :class:`StorageFailure`)."""
        self._result: RunResult  # set by _begin, with the failures watched
        self._watch: FailureWatch

    def run(self) -> RunResult:
        """Take the run lock, open the tournament or ladder and play. Raises :class:`RunBusy`
        when another run plays it, :class:`StorageFailure` when the database or the disk fails,
        and the scheduler's errors (:class:`arena.errors.ArenaError`) when it cannot be played."""
        try:
            lock = RunLock(self.store.path)
        except OSError as exc:
            raise StorageFailure(explain(self.store.path, exc), self.scheduler.kind) from None
        with lock:
            try:
                with lock.choosing():
                    run_id, resumed = self.scheduler.open(self.store)
                    self._claim(lock, run_id)
            except StoreError as exc:
                raise StorageFailure(exc, self.scheduler.kind) from None
            try:
                return self._play(run_id, resumed)
            except (StoreError, OSError) as exc:
                raise self._failure(run_id, exc) from None
            finally:
                try:
                    self.store.set_runner(run_id, None)
                except StoreError:
                    pass

    def _claim(self, lock: RunLock, run_id: int) -> None:
        """Take ``run_id``'s run lock and note this process as its runner."""
        if not lock.acquire(run_id):
            raise RunBusy(self.scheduler.kind, run_id, self.store.runner(run_id))
        self.store.set_runner(run_id, RunnerRow(pid=os.getpid(), host=socket.gethostname(), since=time.time()))

    def _failure(self, run_id: int, exc: StoreError | OSError) -> StorageFailure:
        """What to raise when the database or the system failed while ``run_id`` was played: it
        is marked interrupted if that can still be written."""
        if isinstance(exc, StoreError):
            error = exc
        elif exc.filename is not None:
            error = explain(self.store.path, exc)
        else:
            error = StoreError(f"the {self.scheduler.kind} stopped: {exc.strerror or exc}")
        try:
            self.store.update_tournament(run_id, status=TournamentStatus.INTERRUPTED)
            marked = True
        except StoreError:
            marked = False
        return StorageFailure(error, self.scheduler.kind, run_id, self._stored, marked)

    def _begin(self, run_id: int, resumed: bool) -> int:
        """Start from the games stored (read once), the failures among them and the plan: how many
        games the run has at most to play (for the executor's size)."""
        setup = self.setup
        if setup.replays is not None:
            Path(setup.replays.folder).mkdir(exist_ok=True)
        stored = self.store.games(run_id)
        if resumed:
            self._refuse_failed(run_id, stored)
        self.store.update_tournament(run_id, status=TournamentStatus.RUNNING)
        plan = self.scheduler.begin(self.store, run_id, stored)
        self._stored = len(stored)
        warnings = (*plan.warnings, *cores_warning(setup.workers))
        kind = self.scheduler.kind
        self.on_event(
            Started(kind, run_id, resumed, len(stored), plan.done, plan.total, warnings, plan.notes, plan.detail)
        )
        self._result = RunResult(run_id)
        self._watch = FailureWatch(setup.max_failures, FAILURE_WINDOW, stored)
        return setup.workers if plan.total is None else plan.total - plan.done

    def _refuse_failed(self, run_id: int, stored: Sequence[GameRecord]) -> None:
        """Refuse to resume a run whose stored games already have a bot failing in more than
        ``max_failures`` of its first games: it would only stop again at once."""
        watch = FailureWatch(self.setup.max_failures, FAILURE_WINDOW)
        reason = None
        for record in stored:
            watch.add(record)
            reason = reason or watch.stop_reason
        if reason is None:
            return
        self.store.update_tournament(run_id, status=TournamentStatus.INTERRUPTED)
        needed = math.ceil(max(watch.early_failures.values()) * 100 / FAILURE_WINDOW) / 100
        kind = self.scheduler.kind
        raise RunError(
            f"{kind} {run_id} was stopped: {reason}. Fix the bot and start a new {kind} with --new, or resume "
            f"this one allowing more failures with --max-failures {needed:g} or more (now "
            f"{self.setup.max_failures:g}; 1 never stops)"
        )

    def _task(self, game: ScheduledGame) -> GameTask:
        setup = self.setup
        specs = tuple(self.scheduler.spec(name) for name in game.seats)
        return GameTask(game, setup.game, specs, setup.options, setup.referee_version, setup.replays)

    def _keep_replay(self, game_id: int, record: GameRecord) -> str:
        """Write a kept replay under its final name, by game id and seed (inside the transaction
        that stores the game: :meth:`Store.record_game`)."""
        replays = self.setup.replays
        assert replays is not None and record.replay_text is not None
        path = replays.path(game_id, record.seed)
        try:
            write_text_atomic(path, record.replay_text)
        except OSError as exc:
            raise replay_failure(Path(replays.folder), exc) from None
        return str(path)

    def _collect(self, pool: Executor, record: GameRecord) -> None:
        """Store a finished game and count it: failures, the scheduler's hook, the progress."""
        result, scheduler = self._result, self.scheduler
        game_id = self.store.record_game(result.run_id, record, self._keep_replay)
        record = dataclasses.replace(record, replay_text=None, id=game_id)  # no replay text kept in memory
        if game_id is None:  # stored already (never by this run: it plays each game once)
            return
        assert self._stored is not None
        result.played += 1
        self._stored += 1
        for failure in self._watch.add(record):
            self.on_event(BotFailed(failure))
        scheduler.collected(record, pool)
        done, total = scheduler.progress(self._stored, result.played)
        self.on_event(GameDone(record, result.played, self._stored, done, total, scheduler.standing()))
        result.stopped = self._watch.stop_reason

    def _play(self, run_id: int, resumed: bool) -> RunResult:
        todo = self._begin(run_id, resumed)
        result = self._result
        pool: Executor | None = None
        try:
            if todo > 0:
                pool = self.setup.executor(min(max(1, self.setup.workers), todo))
                self._loop(pool)
            if result.stopped is not None and pool is not None:
                pool.stop(interrupt=True)
                pool = None
            result.ended = result.stopped or self.scheduler.ended()
            status = TournamentStatus.INTERRUPTED if result.stopped is not None else TournamentStatus.FINISHED
            self.store.update_tournament(run_id, status=status)
        except ExecutorError as exc:
            raise RunError(str(exc)) from None
        except KeyboardInterrupt:
            result.interrupted = True
            result.ended = "interrupted"
            with shielded(redeliver=False):  # more Ctrl-C or SIGTERM must not cut the clean-up short
                if pool is not None:
                    pool.stop(interrupt=True)
                    pool = None
                self.store.update_tournament(run_id, status=TournamentStatus.INTERRUPTED)
        finally:
            if pool is not None:
                with shielded():
                    pool.stop(interrupt=True)
        return result

    def _loop(self, pool: Executor) -> None:
        """Start what the scheduler asks for and collect the results, until nothing is started
        and nothing runs, or a bot failing too often stops the run."""
        while self._result.stopped is None:
            for game in self.scheduler.next_games(pool.free_slots(), pool.running()) or ():
                pool.submit(self._task(game))
            if pool.running() == 0:
                return
            for _task, record in pool.results(timeout=1.0):
                if record is not None:
                    self._collect(pool, record)
                    if self._result.stopped is not None:
                        return
