"""Executors: where tournament games are played. The tournament asks an executor how many games
it can start now, submits that many :class:`arena.runner.task.GameTask` s, and collects results as they
complete; it never touches processes itself.

:class:`Executor` is the seam for other backends (a cluster later); :class:`LocalExecutor` runs
worker processes on this machine. A worker plays one game at a time with :func:`arena.runner.task.play_task`.
Ctrl-C reaches the whole process group: each worker then stops its game (killing its bots) and
reports nothing for it, so the game is played again on resume.

Nothing outlives the tournament: a worker gets ``SIGKILL`` when the main process dies, its bots
when it dies (and, sandboxed, everything they started, see :mod:`arena.match.sandbox`); the main
process adopts what a dead worker left (it is a subreaper) and kills it.
"""

from __future__ import annotations

import multiprocessing.connection
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from ..errors import ArenaError
from ..match.launch.botspec import BotSpec
from ..match.limits.refereetime import RefereeFailure
from ..match.process import proctree
from ..match.process.plumbing import become_subreaper, kill_orphans
from ..store.records import GameRecord
from . import worker
from .task import GameTask

__all__ = ["RETRIES", "Executor", "ExecutorError", "LocalExecutor", "Cluster", "connect"]

RETRIES = 2
"""How many times a game whose worker died is played again before the run stops with an error."""


class ExecutorError(ArenaError):
    """An executor cannot go on (the message says why)."""


class Executor(Protocol):
    """What a tournament needs from a place to play games."""

    def free_slots(self) -> int:
        """How many more games can start now."""

    def running(self) -> int:
        """Games submitted whose results have not been collected."""

    def submit(self, task: GameTask) -> None:
        """Start a game (at most :meth:`free_slots` at a time)."""

    def results(self, timeout: float | None) -> Iterator[tuple[GameTask, GameRecord | None]]:
        """Games finished since the last call, as they complete (waits up to ``timeout`` for
        the first); ``None`` for a game that was interrupted."""

    def cancel(self, comparison: int, from_pair: int) -> None:
        """The games of ``comparison`` from pair ``from_pair`` on are no longer wanted (its SPRT
        test decided): the executor may drop those submitted, started or not, and report nothing
        for them."""

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        """Release the resources; with ``interrupt``, cancel the games in progress."""


class _Worker:
    """One worker process (see :mod:`.worker`) and the game it is playing."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        self.conn: multiprocessing.connection.Connection[GameTask | None, GameRecord | RefereeFailure | None]
        self.conn = multiprocessing.connection.Connection(mine.detach())
        fd = theirs.fileno()
        try:
            self.process = subprocess.Popen(worker.command(fd, os.getpid()), pass_fds=(fd,), stdin=subprocess.DEVNULL)
        finally:
            theirs.close()
        self.task: GameTask | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_alive(self) -> bool:
        return self.process.poll() is None

    def join(self, timeout: float) -> None:
        try:
            self.process.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            pass


class LocalExecutor:
    """``size`` worker processes on this machine, one game each at a time; a worker that dies is
    replaced and its game played again (at most :data:`RETRIES` times, then :class:`ExecutorError`)."""

    def __init__(self, size: int) -> None:
        become_subreaper()  # a dead worker's bots come to us, to be killed
        # Children this process had before (a program using the arena may run servers of its
        # own in sessions of their own): never taken for what a dead worker left.
        self._before = tuple(proctree.children(os.getpid()) or ())
        self._workers = [_Worker() for _ in range(size)]
        self._failures: dict[tuple[int, int, int], int] = {}

    def _idle(self) -> list[_Worker]:
        return [w for w in self._workers if w.task is None]

    def free_slots(self) -> int:
        return len(self._idle())

    def running(self) -> int:
        return sum(1 for w in self._workers if w.task is not None)

    def submit(self, task: GameTask) -> None:
        idle = self._idle()
        if not idle:
            raise ExecutorError("no free worker: submit only as many tasks as free_slots()")
        self._send(idle[0], task)

    @staticmethod
    def _send(worker: _Worker, task: GameTask) -> None:
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
                if self._failures[key] > RETRIES:
                    raise ExecutorError(
                        f"a worker process died {self._failures[key]} times playing game "
                        f"{key} (seed {task.game.seed}); see the bots' stderr"
                    ) from None
                self._send(self._idle()[0], task)
                continue
            worker.task = None
            if isinstance(record, RefereeFailure):
                raise ExecutorError(f"game {task.key} (seed {task.game.seed}): {record}")
            yield task, record

    def _replace(self, worker: _Worker) -> None:
        index = self._workers.index(worker)
        try:
            worker.conn.close()
        except OSError:
            pass
        worker.join(1)
        kill_orphans(keep=[*self._before, *(w.pid for w in self._workers if w is not worker)])
        self._workers[index] = _Worker()

    def cancel(self, comparison: int, from_pair: int) -> None:
        """Nothing: a local worker's game in progress finishes (at most one per worker, stored as
        played after the decision and not counted); nothing waits here unstarted."""

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        """Stop every worker; with ``interrupt``, games in progress are stopped (bots killed),
        else the workers finish their games first."""
        for w in self._workers:
            if w.is_alive():
                if interrupt and w.task is not None:
                    os.kill(w.pid, signal.SIGTERM)
                elif w.task is None:
                    try:
                        w.conn.send(None)
                    except (BrokenPipeError, OSError):
                        pass
        end = time.monotonic() + timeout
        for w in self._workers:
            w.join(end - time.monotonic())
            if w.is_alive():
                w.process.kill()
                w.join(1)
            w.conn.close()
        kill_orphans(keep=self._before)


class Cluster(Executor, Protocol):
    """An executor that outlives one run's factory call (a Dask cluster): stopped by its caller."""

    warnings: list[str]


def connect(
    executor: str,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    specs: Iterable[BotSpec] = (),
    bundle: Callable[[str], str] | None = None,
) -> tuple[Callable[[int], Executor], Cluster | None]:
    """Where games are played, as ``executor`` says: ``local`` (worker processes here, as many as
    asked) or ``dask`` (the cluster at ``scheduler``, or one of ``local_cluster`` workers made
    here, its workers made ready for ``specs``: Python bots travel as ``bundle`` makes them).
    Returns the factory a run takes and the cluster to stop at the end (``None`` for local).
    Raises :class:`ExecutorError` (Dask missing, no cluster reached)."""
    if executor != "dask":
        return LocalExecutor, None
    from .dask_executor import DaskExecutor

    cluster = DaskExecutor.connect(scheduler, local_cluster, specs=specs, bundle=bundle)
    return (lambda _n: cluster), cluster
