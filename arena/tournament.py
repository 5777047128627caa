"""A tournament: the schedule's games played by worker processes, stored game by game, resumable.

:class:`Tournament` never prints: it reports through an ``on_event`` callback (the CLI draws the
progress bar). The one game loop is :func:`arena.match.play_match`, run in worker processes.

Determinism. Game ``(comparison, pair, leg)`` always gets the same seed and seats, and the
statistics never depend on the order in which games finished: a comparison's SPRT is run on its
pairs in pair order, over the longest run of complete pairs from pair 0, and when it is decided at
pair ``k`` the comparison's figures are those of pairs ``0..k-1`` (games that were already running
are stored but left out). So a resumed run, or a run with another number of workers, reaches the
same numbers as an uninterrupted one, as long as the bots themselves play deterministically.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import botspec
from .botspec import BotSpec
from .config import BotEntry, TournamentConfig
from .match import MatchOptions, MatchResult, play_match
from .provenance import bot_sources, legacy_source_hash, referee_version, same_rules, source_hash
from .schedule import Schedule, ScheduledGame, make_schedule
from .stats import Comparison, SprtParams, SprtState
from .store import BotRow, GameRecord, Store, TournamentRow

__all__ = [
    "TournamentError",
    "Tournament",
    "Started",
    "GameDone",
    "Decided",
    "score_of_a",
    "ComparisonTracker",
    "bot_spec",
]

STDERR_KEEP = 4096
"""Bytes of stderr kept per failed bot per game."""


class TournamentError(RuntimeError):
    """The tournament cannot run as asked (the message says why and what to do)."""


# -- games in worker processes -------------------------------------------------------------------

@dataclass(frozen=True)
class GameTask:
    game: ScheduledGame
    game_name: str
    specs: tuple[BotSpec, BotSpec]
    options: MatchOptions
    referee_version: str


_in_match = False
_stopping = False


def _on_stop_signal(signum: int, frame: Any) -> None:
    """SIGINT (Ctrl-C reaches the whole process group) or SIGTERM (from the main process): stop
    the game in progress once; later signals must not interrupt the bots' clean-up."""
    global _stopping
    if _stopping:
        return
    _stopping = True
    if _in_match:
        raise KeyboardInterrupt
    os._exit(0)  # idle: nothing to clean up


def _worker_main(conn: multiprocessing.connection.Connection[GameRecord | None, GameTask | None]) -> None:
    """A worker: play each task received, send back its :class:`GameRecord` (None if stopped)."""
    global _in_match
    signal.signal(signal.SIGINT, _on_stop_signal)
    signal.signal(signal.SIGTERM, _on_stop_signal)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        _in_match = True
        try:
            result = play_match(task.game_name, task.game.seed, list(task.specs), task.options)
        except KeyboardInterrupt:  # stopped before the match had started its bots
            return
        finally:
            _in_match = False
        record = None if result.interrupted else _record(task, result)
        try:
            conn.send(record)
        except (BrokenPipeError, OSError):
            return
        if result.interrupted:
            return


def _record(task: GameTask, result: MatchResult) -> GameRecord:
    assert result.outcome is not None
    players = result.players
    return GameRecord(
        comparison=task.game.comparison,
        pair=task.game.pair,
        leg=task.game.leg,
        seed=task.game.seed,
        seats=task.game.seats,
        scores=(int(result.outcome.scores[0]), int(result.outcome.scores[1])),
        winner=result.outcome.winner,
        statuses=(players[0].verdict.value, players[1].verdict.value),
        messages=(players[0].message, players[1].message),
        end_reason=result.outcome.end_reason.value,
        turns=result.outcome.turns,
        duration_s=round(result.wall_s, 4),
        latencies_ms=(players[0].latencies_ms, players[1].latencies_ms),
        near_limit=(players[0].near_limit, players[1].near_limit),
        stderr=tuple(  # type: ignore[arg-type]
            p.stderr_tail[-STDERR_KEEP:] if p.verdict.value != "ok" else "" for p in players
        ),
        referee_version=task.referee_version,
    )


class _Worker:
    def __init__(self, ctx: multiprocessing.context.SpawnContext) -> None:
        self.conn: multiprocessing.connection.Connection[GameTask | None, GameRecord | None]
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.task: GameTask | None = None


class WorkerPool:
    """``size`` worker processes, one game each at a time; a worker that dies is replaced and
    its game played again (at most ``retries`` times)."""

    def __init__(self, size: int, retries: int = 2) -> None:
        self._ctx = multiprocessing.get_context("spawn")
        self._workers = [_Worker(self._ctx) for _ in range(size)]
        self._retries = retries
        self._failures: dict[tuple[int, int, int], int] = {}

    def idle(self) -> list[_Worker]:
        return [w for w in self._workers if w.task is None]

    def busy(self) -> int:
        return sum(1 for w in self._workers if w.task is not None)

    def submit(self, worker: _Worker, task: GameTask) -> None:
        worker.task = task
        worker.conn.send(task)

    def results(self, timeout: float | None) -> Iterator[tuple[GameTask, GameRecord | None]]:
        """Finished games (blocks up to ``timeout`` for the first one)."""
        busy = {w.conn: w for w in self._workers if w.task is not None}
        if not busy:
            return
        for conn in multiprocessing.connection.wait(list(busy), timeout):
            assert isinstance(conn, multiprocessing.connection.Connection)  # one of the pipes given
            worker = busy[conn]
            task = worker.task
            assert task is not None
            try:
                record = conn.recv()
            except (EOFError, OSError):
                self._replace(worker)
                key = (task.game.comparison, task.game.pair, task.game.leg)
                self._failures[key] = self._failures.get(key, 0) + 1
                if self._failures[key] > self._retries:
                    raise TournamentError(
                        f"a worker process died {self._failures[key]} times playing game "
                        f"{key} (seed {task.game.seed}); see the bots' stderr"
                    ) from None
                self.submit(self.idle()[0], task)
                continue
            worker.task = None
            yield task, record

    def _replace(self, worker: _Worker) -> None:
        index = self._workers.index(worker)
        try:
            worker.conn.close()
        except OSError:
            pass
        worker.process.join(1)
        self._workers[index] = _Worker(self._ctx)

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        """Stop every worker; with ``interrupt``, games in progress are stopped (bots killed)."""
        for w in self._workers:
            if w.process.is_alive():
                if interrupt and w.task is not None:
                    pid = w.process.pid
                    assert pid is not None  # started in _Worker.__init__
                    os.kill(pid, signal.SIGTERM)
                elif w.task is None:
                    try:
                        w.conn.send(None)
                    except (BrokenPipeError, OSError):
                        pass
        end = time.monotonic() + timeout
        for w in self._workers:
            w.process.join(max(0.0, end - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(1)
            w.conn.close()


# -- statistics as games arrive --------------------------------------------------------------------

def score_of_a(record: GameRecord) -> float:
    """The comparison's first bot's score in this game: 1, 1/2 or 0 (both disqualified: 1/2)."""
    seat_a = record.leg  # leg 0: a is player 0; leg 1: a is player 1
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner == seat_a else 0.0


class ComparisonTracker:
    """The games of one comparison, and its sequential test, independent of arrival order."""

    def __init__(self, index: int, a: str, b: str, sprt: SprtParams | None) -> None:
        self.index = index
        self.bots = (a, b)
        self.sprt = sprt
        self.legs: dict[int, dict[int, float]] = {}
        self.prefix = 0
        """Pairs 0..prefix-1 are complete and were fed to the test."""
        self._prefix_stats = Comparison(a, b)
        self.decision: SprtState | None = None
        self.decided_at: int | None = None
        """The number of pairs the decision was made on."""

    def add(self, record: GameRecord) -> bool:
        """Count a game. Returns True when this game decided the comparison."""
        self.legs.setdefault(record.pair, {})[record.leg] = score_of_a(record)
        if self.decision is not None:
            return False
        while len(self.legs.get(self.prefix, {})) == 2:
            legs = self.legs[self.prefix]
            self._prefix_stats.add_pair(legs[0], legs[1])
            self.prefix += 1
            if self.sprt is not None:
                state = self._prefix_stats.sprt(self.sprt).state
                if state.decided:
                    self.decision = state
                    self.decided_at = self.prefix
                    return True
        return False

    def counted(self) -> Comparison:
        """The games the figures count: pairs before the decision, or every game so far."""
        comp = Comparison(*self.bots)
        for pair in sorted(self.legs):
            if self.decided_at is not None and pair >= self.decided_at:
                continue
            legs = self.legs[pair]
            if len(legs) == 2:
                comp.add_pair(legs[0], legs[1])
            else:
                for score in legs.values():
                    comp.add_single(score)
        return comp

    def stats(self) -> Any:
        """:class:`arena.stats.ComparisonStats`; the SPRT part is over the complete pairs in
        order (the ones the test has seen)."""
        st = self.counted().stats(None)
        if self.sprt is not None:
            st = replace(st, sprt=self._prefix_stats.sprt(self.sprt))
        return st


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


@dataclass(frozen=True)
class GameDone:
    record: GameRecord
    done: int
    total: int
    leader: Any
    """Stats of the comparison with the most games (for the progress bar)."""


@dataclass(frozen=True)
class Decided:
    comparison: int
    bots: tuple[str, str]
    state: SprtState
    pairs: int


@dataclass
class TournamentRun:
    """What :meth:`Tournament.run` returns."""

    tournament_id: int
    interrupted: bool
    played: int
    """Games played and stored by this run."""
    trackers: list[ComparisonTracker] = field(default_factory=list)


def bot_spec(entry: BotEntry, game: str) -> BotSpec:
    """How to start a tournament bot: its BOT resolved as ``arena play`` does, plus its
    arguments and environment."""
    try:
        spec = botspec.resolve(entry.bot, game)
    except botspec.BotSpecError as exc:
        raise TournamentError(f"bot {entry.name!r}: {exc}") from None
    env = dict(spec.env)
    env.update(entry.env)
    return BotSpec(name=entry.name, argv=spec.argv + entry.args, cwd=spec.cwd, env=env)


def _same_sources(old: BotRow, new: BotRow) -> bool:
    """Whether a stored bot runs the same files as today's (by the formula it was stored with)."""
    if old.hash_scheme == 1:
        return legacy_source_hash(old.files, [Path(f) for f in new.files]) == old.source_hash
    return old.source_hash == new.source_hash


def settings_key(config: TournamentConfig) -> str:
    return hashlib.sha256(json.dumps(config.schedule_key(), sort_keys=True).encode()).hexdigest()[:16]


class Tournament:
    """Plays ``config`` into ``store``. ``new=True`` starts a fresh tournament even when one with
    the same settings exists; otherwise that one is resumed (or extended to more games)."""

    def __init__(self, config: TournamentConfig, store: Store, *, new: bool = False,
                 on_event: Callable[[object], None] | None = None) -> None:
        self.config = config
        self.store = store
        self.new = new
        self.on_event = on_event or (lambda event: None)
        self.specs = {b.name: bot_spec(b, config.game) for b in config.bots}
        self.schedule: Schedule = make_schedule(
            config.format, [b.name for b in config.bots], config.seed, config.pairs, config.baseline
        )
        self.sprt = config.sprt
        self.referee_version = referee_version(config.game)

    def bot_rows(self) -> list[BotRow]:
        rows = []
        for name, spec in self.specs.items():
            files = bot_sources(spec)
            rows.append(BotRow(name=name, command=spec.argv, env=dict(spec.env),
                               source_hash=source_hash(files), files=tuple(str(f) for f in files)))
        return rows

    def open(self) -> tuple[TournamentRow, bool]:
        """Find the tournament to resume, or create it. Returns (row, resumed)."""
        key = settings_key(self.config)
        rows = self.bot_rows()
        existing = None if self.new else self.store.latest(key)
        if existing is not None:
            stored = {b.name: b for b in self.store.bots(existing.id)}
            for row in rows:
                old = stored.get(row.name)
                if old is not None and not _same_sources(old, row):
                    raise TournamentError(
                        f"bot {row.name!r} changed since tournament {existing.id} started (source hash "
                        f"{old.source_hash} -> {row.source_hash}); restore it, or pass --new to start "
                        "a new tournament"
                    )
            if not same_rules(existing.referee_version, self.config.game):
                raise TournamentError(
                    f"the {self.config.game} referee changed since tournament {existing.id} started "
                    f"({existing.referee_version} -> {self.referee_version}); pass --new to start a new one"
                )
            self.store.update_tournament(existing.id, status="running", games_target=self.config.games,
                                         settings=self.config.to_dict())
            return self.store.tournament(existing.id) or existing, True
        comparisons = [(c.index, c.a, c.b) for c in self.schedule.comparisons()]
        tid = self.store.create_tournament(
            key, self.config.to_dict(), self.config.games, self.referee_version, rows, comparisons
        )
        created = self.store.tournament(tid)
        assert created is not None
        return created, False

    def warnings(self) -> list[str]:
        cores = os.cpu_count() or 1
        out = []
        if self.config.workers > cores:
            out.append(
                f"{self.config.workers} workers on {cores} cores: bots are timed in wall-clock time and "
                "will be starved (timeouts, slow turns); use --workers "
                f"{cores} or fewer"
            )
        return out

    def trackers(self, tid: int) -> list[ComparisonTracker]:
        trackers = [ComparisonTracker(c.index, c.a, c.b, self.sprt) for c in self.schedule.comparisons()]
        for record in self.store.games(tid):
            if record.comparison < len(trackers):
                trackers[record.comparison].add(record)
        return trackers

    def run(self) -> TournamentRun:
        row, resumed = self.open()
        tid = row.id
        trackers = self.trackers(tid)
        for t in trackers:
            if t.decision is not None:
                self.store.set_decision(tid, t.index, t.decision.value, t.decided_at or 0)
        done_keys = self.store.game_keys(tid)

        def pending() -> Iterator[ScheduledGame]:
            for g in self.schedule.games():
                if (g.comparison, g.pair, g.leg) in done_keys:
                    continue
                tracker = trackers[g.comparison]
                if tracker.decided_at is not None and g.pair >= tracker.decided_at:
                    continue
                yield g

        done = len(done_keys)
        total = done + sum(1 for _ in pending())
        self.on_event(Started(tid, resumed, done, total, tuple(self.warnings())))
        run = TournamentRun(tournament_id=tid, interrupted=False, played=0, trackers=trackers)
        options = MatchOptions(time_scale=self.config.time_scale, memory_limit_mb=self.config.memory_limit_mb,
                               params=dict(self.config.params) or None)
        queue = pending()
        exhausted = False
        pool = WorkerPool(min(self.config.workers, max(1, total - done))) if total > done else None
        try:
            while pool is not None:
                for worker in pool.idle():
                    game = self._next(queue, trackers)
                    if game is None:
                        exhausted = True
                        break
                    specs = (self.specs[game.seats[0]], self.specs[game.seats[1]])
                    pool.submit(worker, GameTask(game, self.config.game, specs, options, self.referee_version))
                if exhausted and pool.busy() == 0:
                    break
                for _task, record in pool.results(timeout=1.0):
                    if record is None:
                        continue
                    if self.store.record_game(tid, record):
                        run.played += 1
                        done += 1
                    done_keys.add(record.key)
                    tracker = trackers[record.comparison]
                    if tracker.add(record):
                        assert tracker.decision is not None and tracker.decided_at is not None
                        self.store.set_decision(tid, tracker.index, tracker.decision.value, tracker.decided_at)
                        self.on_event(Decided(tracker.index, tracker.bots, tracker.decision, tracker.decided_at))
                        total = max(done, done + sum(1 for _ in pending()))
                    leader = max(trackers, key=lambda t: len(t.legs)).stats()
                    total = max(total, done)
                    self.on_event(GameDone(record, done, total, leader))
            self.store.update_tournament(tid, status="finished")
        except KeyboardInterrupt:
            run.interrupted = True
            if pool is not None:
                pool.stop(interrupt=True)
                pool = None
            self.store.update_tournament(tid, status="interrupted")
        finally:
            if pool is not None:
                pool.stop(interrupt=True)
        return run

    @staticmethod
    def _next(queue: Iterator[ScheduledGame], trackers: list[ComparisonTracker]) -> ScheduledGame | None:
        for game in queue:
            tracker = trackers[game.comparison]
            if tracker.decided_at is not None and game.pair >= tracker.decided_at:
                continue  # decided while earlier games were playing
            return game
        return None
