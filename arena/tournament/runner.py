"""A tournament: the schedule's games played on an executor, stored game by game, resumable.

:class:`Tournament` never prints: it reports through an ``on_event`` callback (the CLI draws the
progress bar). It pulls the next game to play from the schedule and the results so far, hands
it to an executor (:mod:`arena.runner.executor`: worker processes by default) as a plain
:class:`arena.runner.task.GameTask`, stores each result (:mod:`arena.store.results`) and counts it
(:mod:`arena.standings.tracker`); provenance checks are in :mod:`arena.versions.provenance`.

Determinism. Game ``(comparison, pair, leg)`` always gets the same seed and seats, and the
statistics never depend on the order in which games finished: a comparison's SPRT is run on its
pairs in pair order, over the longest run of complete pairs from pair 0, and when it is decided at
pair ``k`` the comparison's figures are those of pairs ``0..k-1`` (games that were already running
are stored but left out). So a resumed run, or a run with another number of workers, reaches the
same numbers as an uninterrupted one, as long as the bots themselves play deterministically.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import referee

from .. import paths
from ..match import sandbox
from ..match.launch import botspec
from ..match.launch.botspec import BotSpec
from ..match.limits import TreeLimits, enforcement
from ..match.loop import MatchOptions
from ..match.process.shield import shielded
from ..match.replay import write_text_atomic
from ..match.sandbox import SandboxMode
from ..runner.executor import Executor, ExecutorError, LocalExecutor
from ..runner.failures import Failure, FailureWatch
from ..runner.task import GameTask
from ..standings.tracker import ComparisonTracker, TableTracker, make_tracker
from ..stats import ComparisonStats
from ..stats.sprt import SprtState
from ..store.records import BotRow, GameRecord, RunnerRow, TournamentRow, TournamentStatus
from ..store.results import Store, StoreError, explain
from ..store.runlock import RunLock
from ..versions.provenance import ArenaFiles, identity, referee_version, same_bot, same_rules
from .config import FAILURE_WINDOW, TournamentConfig
from .dispatcher import Dispatcher
from .entries import BotEntry
from .errors import StorageFailure, TournamentBusy, TournamentError, replay_failure
from .resume import SettingsChange, settings_change, stopped_by_failures
from .schedule import Schedule, make_schedule

__all__ = [
    "TournamentError",
    "TournamentBusy",
    "StorageFailure",
    "Tournament",
    "Started",
    "GameDone",
    "Decided",
    "BotFailed",
    "bot_spec",
]


# -- the tournament --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    tournament_id: int
    resumed: bool
    done: int
    """Games already stored."""
    total: int
    """Games stored plus games still to play (SPRT decisions lower it as they come)."""
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """What is worth knowing but wrong with nothing (what a resume does not check)."""


@dataclass(frozen=True)
class GameDone:
    record: GameRecord
    done: int
    total: int
    leader: ComparisonStats | None
    """Stats of the two-bot comparison with the most games (for the progress bar); ``None`` in
    an N-player game."""


@dataclass(frozen=True)
class Decided:
    comparison: int
    bots: tuple[str, ...]
    state: SprtState
    pairs: int


@dataclass(frozen=True)
class BotFailed:
    """A bot crashed, timed out or answered an invalid line (its first failure when
    ``failure.first``)."""

    failure: Failure


@dataclass
class TournamentRun:
    """What :meth:`Tournament.run` returns."""

    tournament_id: int
    interrupted: bool
    played: int
    """Games played and stored by this run."""
    trackers: list[ComparisonTracker | TableTracker] = field(default_factory=list)
    stopped: str | None = None
    """Why the run stopped early (a bot failing too often), or ``None``."""


def _leader(trackers: list[ComparisonTracker | TableTracker]) -> ComparisonStats | None:
    pairs = [t for t in trackers if isinstance(t, ComparisonTracker)]
    return max(pairs, key=lambda t: len(t.legs)).stats() if pairs else None


def bot_spec(entry: BotEntry, game: str) -> BotSpec:
    """How to start a tournament bot: its BOT resolved as ``arena play`` does, plus its
    arguments and environment."""
    try:
        spec = botspec.resolve(entry.bot, game, base=None if entry.base is None else Path(entry.base))
    except botspec.BotSpecError as exc:
        raise TournamentError(f"bot {entry.name!r}: {exc}") from None
    env = dict(spec.env)
    env.update(entry.env)
    data = tuple(str(p) for p in paths.data_paths(entry.data, entry.base))  # absolute: whatever the bot's cwd
    return BotSpec(
        name=entry.name, argv=spec.argv + entry.args, cwd=spec.cwd, env=env, data=data, source=spec.source,
        leagues=spec.leagues,
    )  # fmt: skip


def settings_key(config: TournamentConfig) -> str:
    return hashlib.sha256(json.dumps(config.schedule_key(), sort_keys=True).encode()).hexdigest()[:16]


def _executor_of(config: TournamentConfig) -> Callable[[int], Executor]:
    """The executor the config asks for: local worker processes, or a Dask cluster (whose size
    its workers' cores decide, not ``workers``)."""
    if config.executor == "dask":
        from ..runner.dask_executor import DaskExecutor

        return lambda _n: DaskExecutor.connect(config.scheduler, config.local_cluster)
    return LocalExecutor


class Tournament:
    """Plays ``config`` into ``store``. ``new=True`` starts a fresh tournament even when one with
    the same settings exists; otherwise that one is resumed (or extended to more games).
    ``executor`` makes the place where games are played, given the number of games to play at
    once (default: what ``config.executor`` says: :class:`arena.runner.executor.LocalExecutor`,
    worker processes on this machine, or :class:`arena.runner.dask_executor.DaskExecutor`)."""

    def __init__(
        self,
        config: TournamentConfig,
        store: Store,
        *,
        new: bool = False,
        on_event: Callable[[object], None] | None = None,
        executor: Callable[[int], Executor] | None = None,
    ) -> None:
        self.config = config
        self.executor = executor or _executor_of(config)
        self.store = store
        self.new = new
        self.on_event = on_event or (lambda event: None)
        self.specs = {b.name: bot_spec(b, config.game) for b in config.bots}
        self.schedule: Schedule = make_schedule(
            config.format,
            [b.name for b in config.bots],
            config.seed,
            config.pairs,
            config.baseline,
            config.players,
            config.seeds,
        )
        self.sprt = config.sprt
        self.referee_version = referee_version(config.game)
        self._left_out: list[str] = []
        """Files of the bots' code or data left out of their hashes, in words (:meth:`warnings`)."""
        self._unchecked: list[str] = []
        """Per bot, its arguments that name files (:meth:`notes`)."""
        try:
            self.sandboxed, self.sandbox_note = sandbox.decide(config.sandbox)
        except sandbox.SandboxUnavailable as exc:
            raise TournamentError(str(exc)) from None
        self.limits_note = enforcement.limits_note(TreeLimits(config.memory_limit_mb))
        self.change: SettingsChange | None = None
        """How a new tournament's settings differ from the latest one of the same bots."""

    def arena_files(self) -> ArenaFiles:
        """The files no bot's hash may open: the database, its side files, the replays."""
        replays = None if self.config.replays is None else self.config.replays.folder
        return ArenaFiles.of(self.store.path, replays)

    def bot_rows(self) -> list[BotRow]:
        """The bots as stored (their hashes), noting what the hashes leave out (:meth:`warnings`,
        :meth:`notes`)."""
        avoid = self.arena_files()
        rows: list[BotRow] = []
        self._left_out, self._unchecked = [], []
        for name, spec in self.specs.items():
            found = identity(spec, avoid)
            rows.append(found.row)
            self._left_out += [f"bot {name!r}: {item} is left out of its source hash" for item in found.skipped]
            self._unchecked += [f"{name}: {', '.join(found.unchecked)}"] if found.unchecked else []
        return rows

    def open(self, lock: RunLock | None = None) -> tuple[TournamentRow, bool]:
        """Find the tournament to resume, or create it. Returns (row, resumed). With ``lock``
        (held in its :meth:`RunLock.choosing` state by the caller), also take the tournament's run
        lock: :class:`TournamentBusy` when another run is playing it."""
        key = settings_key(self.config)
        rows = self.bot_rows()
        existing = None if self.new else self.store.latest(key)
        if existing is not None:
            stored = {b.name: b for b in self.store.bots(existing.id)}
            for row in rows:
                old = stored.get(row.name)
                if old is not None and not same_bot(old, row, self.specs[row.name], self.arena_files()):
                    raise TournamentError(
                        f"bot {row.name!r} changed since tournament {existing.id} started (source hash "
                        f"{old.source_hash} -> {row.source_hash}: its code, or the data its config lists "
                        "under data:); restore it, or pass --new to start a new tournament"
                    )
            stored_league, league = existing.settings.get("league"), self.config.league
            if stored_league != league:
                rules = referee.get(self.config.game)
                raise TournamentError(
                    f"tournament {existing.id} is played at {rules.league_label(stored_league or rules.top_league)}, "
                    f"this run asks for {rules.league_label(league or rules.top_league)}; run it at that league to "
                    "resume it, or pass --new to start a new tournament"
                )
            if not same_rules(existing.referee_version, self.config.game):
                raise TournamentError(
                    f"the {self.config.game} referee changed since tournament {existing.id} started "
                    f"({existing.referee_version} -> {self.referee_version}); pass --new to start a new one"
                )
            self._claim(lock, existing.id)
            self.store.update_tournament(
                existing.id,
                status=TournamentStatus.RUNNING,
                games_target=self.config.games,
                settings=self.config.to_dict(),
            )
            return self.store.tournament(existing.id) or existing, True
        self.change = None if self.new else settings_change(self.config, self.store.tournaments())
        comparisons = [(c.index, c.bots) for c in self.schedule.comparisons()]
        tid = self.store.create_tournament(
            key, self.config.to_dict(), self.config.games, self.referee_version, rows, comparisons
        )
        self._claim(lock, tid)
        created = self.store.tournament(tid)
        assert created is not None
        return created, False

    def _claim(self, lock: RunLock | None, tid: int) -> None:
        """Take tournament ``tid``'s run lock and note this process as its runner."""
        if lock is None:
            return
        if not lock.acquire(tid):
            raise TournamentBusy(tid, self.store.runner(tid))
        self.store.set_runner(tid, RunnerRow(pid=os.getpid(), host=socket.gethostname(), since=time.time()))

    def warnings(self) -> list[str]:
        cores = os.cpu_count() or 1
        out = []
        if self.config.workers > cores:
            out.append(
                f"{self.config.workers} workers on {cores} cores: bots are timed in wall-clock time and "
                "will be starved (timeouts, slow turns); use --workers "
                f"{cores} or fewer"
            )
        if self.sandbox_note:
            out.append(self.sandbox_note)
        if self.limits_note:
            out.append(self.limits_note)
        return out + self._left_out + ([self.change.describe()] if self.change is not None else [])

    def notes(self, resumed: bool) -> list[str]:
        """What a resume checks of the bots (their code and declared data), and the files named
        on their command lines, which it does not."""
        named = f" ({'; '.join(self._unchecked)})" if self._unchecked else ""
        if resumed:
            return [
                "resumed with the bots' code and declared data (data:) unchanged; other files they read are not "
                f"checked{named}: list those under data: in a config to have a change refused"
            ]
        if named:
            return [
                f"files named on the bots' command lines are not part of their hashes{named}: a change to them "
                "will not stop a resume; list those a bot reads under data: in a config to have them checked"
            ]
        return []

    def _keep_replay(self, game_id: int, record: GameRecord) -> str:
        """Write a kept replay under its final name, by game id and seed (inside the transaction
        that stores the game: :meth:`Store.record_game`)."""
        assert self.config.replays is not None and record.replay_text is not None
        path = self.config.replays.path(game_id, record.seed)
        try:
            write_text_atomic(path, record.replay_text)
        except OSError as exc:
            raise replay_failure(Path(self.config.replays.folder), exc) from None
        return str(path)

    def trackers(self, stored: list[GameRecord]) -> list[ComparisonTracker | TableTracker]:
        trackers = [make_tracker(c.index, c.bots, self.sprt) for c in self.schedule.comparisons()]
        for record in stored:
            if record.comparison < len(trackers):
                trackers[record.comparison].add(record)
        return trackers

    def run(self) -> TournamentRun:
        """Play the games left (taking the tournament's run lock first, see
        :mod:`arena.store.runlock`). Raises :class:`TournamentError`:
        :class:`TournamentBusy` when another run is playing this tournament,
        :class:`StorageFailure` when the database or the disk fails (the run stops, the tournament
        is marked interrupted where that can still be written)."""
        self._stored: int | None = None
        """Games of the tournament in the database, once known (for :class:`StorageFailure`)."""
        try:
            lock = RunLock(self.store.path)
        except OSError as exc:
            raise StorageFailure(explain(self.store.path, exc)) from None
        with lock:
            try:
                with lock.choosing():
                    row, resumed = self.open(lock)
            except StoreError as exc:
                raise StorageFailure(exc) from None
            try:
                return self._play(row, resumed)
            except (StoreError, OSError) as exc:
                raise self._failure(row.id, exc) from None
            finally:
                try:
                    self.store.set_runner(row.id, None)
                except StoreError:
                    pass

    def _failure(self, tid: int, exc: StoreError | OSError) -> StorageFailure:
        """What to raise when the database or the system failed while tournament ``tid`` was
        played: it is marked interrupted if that can still be written."""
        if isinstance(exc, StoreError):
            error = exc
        elif exc.filename is not None:
            error = explain(self.store.path, exc)
        else:
            error = StoreError(f"the tournament stopped: {exc.strerror or exc}")
        try:
            self.store.update_tournament(tid, status=TournamentStatus.INTERRUPTED)
            marked = True
        except StoreError:
            marked = False
        return StorageFailure(error, tid, self._stored, marked)

    def _begin(self, row: TournamentRow, resumed: bool) -> _Progress:
        """What the run starts from: the games stored, the decisions they make, what is left."""
        tid = row.id
        if self.config.replays is not None:
            Path(self.config.replays.folder).mkdir(exist_ok=True)
        stored = self.store.games(tid)  # read once: the trackers and the failure watch count them
        if resumed:  # a bot already failed too often: resuming would stop again at once
            try:
                stopped_by_failures(self.config, stored, tid)
            except TournamentError:
                self.store.update_tournament(tid, status=TournamentStatus.INTERRUPTED)
                raise
        trackers = self.trackers(stored)
        for t in trackers:
            if t.decision is not None:
                self.store.set_decision(tid, t.index, t.decision.value, t.decided_at or 0)
        dispatcher = Dispatcher(self.schedule, trackers, self.store.game_keys(tid))
        watch = FailureWatch(self.config.max_failures, FAILURE_WINDOW, stored)
        done = len(dispatcher.done)
        self._stored = done
        run = TournamentRun(tournament_id=tid, interrupted=False, played=0, trackers=trackers)
        state = _Progress(run, dispatcher, watch, done, done + dispatcher.remaining())
        self.on_event(Started(tid, resumed, done, state.total, tuple(self.warnings()), tuple(self.notes(resumed))))
        return state

    def _options(self) -> MatchOptions:
        """How every game is played: the limits, the sandbox, the files hidden from the bots."""
        hidden = [str(self.store.path.resolve()), f"{self.store.path.resolve()}.lock"]
        if self.config.replays is not None:
            hidden.append(self.config.replays.folder)
        return MatchOptions(
            time_scale=self.config.time_scale,
            time_margin_ms=self.config.time_margin_ms,
            memory_limit_mb=self.config.memory_limit_mb,
            params=self.config.game_params() or None,
            sandbox=SandboxMode.ON if self.sandboxed else SandboxMode.OFF,
            hide=tuple(hidden),
        )

    def _submit(self, pool: Executor, state: _Progress, options: MatchOptions) -> bool:
        """Fill the executor's free slots with the next games; whether the schedule is exhausted."""
        for _ in range(pool.free_slots()):
            game = state.dispatcher.next_game()
            if game is None:
                return True
            specs = tuple(self.specs[name] for name in game.seats)
            pool.submit(GameTask(game, self.config.game, specs, options, self.referee_version, self.config.replays))
        return False

    def _collect(self, pool: Executor, state: _Progress, record: GameRecord) -> None:
        """Store a finished game and count it: failures, an SPRT decision, the progress."""
        tid = state.run.tournament_id
        game_id = self.store.record_game(tid, record, self._keep_replay)
        # what is kept in memory from here on does not carry the replay's text
        record = dataclasses.replace(record, replay_text=None, id=game_id)
        if game_id is not None:
            state.run.played += 1
            state.done += 1
            self._stored = state.done
            for failure in state.watch.add(record):
                self.on_event(BotFailed(failure))
        decided = state.dispatcher.finished(record)
        if decided is not None:
            assert decided.decision is not None and decided.decided_at is not None
            self.store.set_decision(tid, decided.index, decided.decision.value, decided.decided_at)
            pool.cancel(decided.index, decided.decided_at)  # its later pairs: not counted, not wanted
            self.on_event(Decided(decided.index, decided.bots, decided.decision, decided.decided_at))
            state.total = max(state.done, state.done + state.dispatcher.remaining())
        state.total = max(state.total, state.done)
        self.on_event(GameDone(record, state.done, state.total, _leader(state.run.trackers)))
        if state.watch.stop_reason is not None:
            state.run.stopped = state.watch.stop_reason

    def _play(self, row: TournamentRow, resumed: bool) -> TournamentRun:
        state = self._begin(row, resumed)
        run, tid, options = state.run, row.id, self._options()
        todo = state.total - state.done
        pool = self.executor(min(self.config.workers, max(1, todo))) if todo > 0 else None
        try:
            while pool is not None and run.stopped is None:
                exhausted = self._submit(pool, state, options)
                if exhausted and pool.running() == 0:
                    break
                for _task, record in pool.results(timeout=1.0):
                    if record is not None:
                        self._collect(pool, state, record)
                        if run.stopped is not None:
                            break
            if run.stopped is not None and pool is not None:
                pool.stop(interrupt=True)
                pool = None
            done = TournamentStatus.INTERRUPTED if run.stopped is not None else TournamentStatus.FINISHED
            self.store.update_tournament(tid, status=done)
        except ExecutorError as exc:
            raise TournamentError(str(exc)) from None
        except KeyboardInterrupt:
            run.interrupted = True
            with shielded(redeliver=False):  # more Ctrl-C or SIGTERM must not cut the clean-up short
                if pool is not None:
                    pool.stop(interrupt=True)
                    pool = None
                self.store.update_tournament(tid, status=TournamentStatus.INTERRUPTED)
        finally:
            if pool is not None:
                with shielded():
                    pool.stop(interrupt=True)
        return run


@dataclass
class _Progress:
    """Where a run stands: its result so far, what to play next, the failures seen, the games
    stored and the games the tournament will have."""

    run: TournamentRun
    dispatcher: Dispatcher
    watch: FailureWatch
    done: int
    total: int
