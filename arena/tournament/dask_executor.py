"""Games played on a Dask distributed cluster: many machines, one results database.

:class:`DaskExecutor` is an :class:`arena.tournament.executor.Executor`: the tournament pulls
games from its schedule as before and submits each as a Dask task that calls the same
:func:`arena.tournament.task.play_task` as a local worker; results come back as they complete and
only this process (the client) writes them to the database, so resume, statistics, SPRT and the
progress display are those of a local run.

- **Capacity.** A game runs two bot processes timed in wall-clock time, so a Dask worker may play
  at most as many games at once as it has cores: each worker's threads are checked against its
  cores when the executor connects (:class:`DaskExecutorError` names a worker with more), and the
  number of games in flight follows the workers that are connected now.
- **Stopping.** A running Dask task cannot be interrupted from outside, so every game watches a
  cluster-wide :class:`distributed.Event` (looked at twice a second, between turns): when the
  tournament stops (Ctrl-C, a failure limit), the event is set and each running game kills its
  bots and reports nothing, within a turn's time limit plus half a second.
- **Lost workers.** A worker that dies mid-game loses that game only: Dask plays the task again
  on another worker, and the client receives one result per task, so no game is stored twice.

Dask is an optional dependency (``pip install 'cgarena[dask]'``): :func:`require_dask` says how
to install it in one line.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .executor import ExecutorError
from .store import GameRecord
from .task import GameTask, play_task

if TYPE_CHECKING:
    import distributed

__all__ = ["DaskExecutor", "DaskExecutorError", "require_dask", "INSTALL_HINT", "STOP_LOOK_S", "QUIET_WORKER"]

INSTALL_HINT = "Dask is not installed: pip install 'cgarena[dask]' (or: pip install distributed)"
STOP_LOOK_S = 0.5
"""How often a game on a worker looks whether the tournament asked it to stop."""
QUIET_WORKER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for workers that play games: no sampling profiler (a thread waking every 10 ms
in the worker, stealing time from the bots it times), fewer event-loop and memory checks.
Remote workers get them from the environment (see the README)."""
CAPACITY_LOOK_S = 1.0
"""How often the workers connected to the scheduler are counted again."""


class DaskExecutorError(ExecutorError):
    """The cluster cannot play the tournament's games (the message says why and what to do)."""


def require_dask() -> None:
    """Raise :class:`DaskExecutorError` with :data:`INSTALL_HINT` when ``distributed`` is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DaskExecutorError(INSTALL_HINT) from None


def _worker_cores() -> int:
    """The cores this process may run on (runs on each worker)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def play_on_worker(task: GameTask, stop_event: str) -> GameRecord | None:
    """The Dask task: :func:`play_task`, stopped (``None``) once the event ``stop_event`` is set."""
    from distributed import Event

    event = Event(stop_event)
    last = time.monotonic()

    def should_stop() -> bool:
        nonlocal last
        now = time.monotonic()
        if now - last < STOP_LOOK_S:
            return False
        last = now
        return bool(event.is_set())

    return play_task(task, should_stop=should_stop)


class DaskExecutor:
    """Games on the Dask cluster ``client`` is connected to (see the module's docstring).

    ``cap``: at most this many games at once (``None``: what the workers' cores allow);
    ``retries``: how many times a game whose worker died is played again before the tournament
    stops with an error; ``on_close``: called by :meth:`stop` (closes what was made for this run:
    the client, a local cluster).
    """

    def __init__(self, client: distributed.Client, *, cap: int | None = None, retries: int = 2,
                 on_close: Callable[[], None] | None = None) -> None:
        self._client = client
        self._cap = cap
        self._retries = retries
        self._on_close = on_close
        self._running: dict[Any, GameTask] = {}
        self._failures: dict[tuple[int, int, int], int] = {}
        self._stop_name = f"arena-stop-{uuid.uuid4().hex}"
        self._closed = False
        self._capacity: tuple[float, int, int] | None = None
        """(when, games at once, workers), as last asked of the scheduler."""
        self._check_workers()

    @classmethod
    def connect(cls, scheduler: str | None = None, local_cluster: int | None = None, *,
                cap: int | None = None, timeout_s: float = 10.0) -> DaskExecutor:
        """An executor on the scheduler at ``scheduler`` (``tcp://HOST:8786``), or on a new cluster
        of ``local_cluster`` one-thread worker processes on this machine (loopback only)."""
        require_dask()
        import dask
        import distributed

        if (scheduler is None) == (local_cluster is None):
            raise DaskExecutorError("the Dask executor needs a scheduler address (--scheduler tcp://HOST:8786) "
                                    "or a local cluster (--local-cluster N), not both")
        cluster: distributed.LocalCluster | None = None
        try:
            if local_cluster is not None:
                with dask.config.set(QUIET_WORKER):
                    cluster = distributed.LocalCluster(n_workers=local_cluster, threads_per_worker=1,
                                                       processes=True, host="127.0.0.1", dashboard_address=None,
                                                       silence_logs=40)
                client = distributed.Client(cluster, timeout=timeout_s)
            else:
                client = distributed.Client(scheduler, timeout=timeout_s)
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            where = scheduler or "the local cluster"
            raise DaskExecutorError(f"cannot reach the Dask scheduler at {where}: {exc}; start it with "
                                    "'dask scheduler' and its workers with 'dask worker ADDRESS'") from None

        def close() -> None:
            client.close()
            if cluster is not None:
                cluster.close()

        try:
            return cls(client, cap=cap, on_close=close)
        except BaseException:
            close()
            raise

    # -- the workers -----------------------------------------------------------------------------

    def _workers(self) -> dict[str, int]:
        """Connected workers: address -> threads."""
        info = self._client.scheduler_info(n_workers=-1)
        return {address: int(w.get("nthreads", 1)) for address, w in info.get("workers", {}).items()}

    def _check_workers(self, wait_s: float = 30.0) -> None:
        """Wait for a first worker; refuse a worker with more threads than cores."""
        end = time.monotonic() + wait_s
        while not self._workers():
            if time.monotonic() > end:
                address = self._client.scheduler_info().get("address", "SCHEDULER")
                raise DaskExecutorError(f"no Dask worker joined the scheduler in {wait_s:.0f} s; start one with "
                                        f"'dask worker {address} --nthreads CORES'")
            time.sleep(0.2)
        cores = self._client.run(_worker_cores)
        threads = self._workers()
        for address, n in threads.items():
            if address in cores and n > cores[address]:
                raise DaskExecutorError(
                    f"Dask worker {address} runs {n} tasks at once on {cores[address]} cores: each game "
                    f"runs two bots timed in wall-clock time, so they would be starved; start it with "
                    f"--nthreads {cores[address]} (or fewer)")

    def capacity(self) -> int:
        """Games that can run at once on the workers connected now (within ``cap``); asked of the
        scheduler at most once a second."""
        now = time.monotonic()
        if self._capacity is None or now - self._capacity[0] > CAPACITY_LOOK_S:
            workers = self._workers()
            total = sum(workers.values())
            self._capacity = (now, total if self._cap is None else min(total, self._cap), len(workers))
        return self._capacity[1]

    # -- the Executor protocol -------------------------------------------------------------------

    def free_slots(self) -> int:
        """Games to submit now: as many as can run, plus one waiting per worker, so that a worker
        that finishes a game starts the next without waiting for this process to hear of it.
        (A worker still runs no more games at once than it has threads.)"""
        capacity = self.capacity()
        assert self._capacity is not None
        waiting = self._capacity[2] if self._cap is None else 0
        return max(0, capacity + waiting - len(self._running))

    def running(self) -> int:
        return len(self._running)

    def submit(self, task: GameTask) -> None:
        c, p, leg = task.key
        future = self._client.submit(play_on_worker, task, self._stop_name, pure=False,
                                     key=f"arena-game-c{c}-p{p}-l{leg}-{uuid.uuid4().hex[:12]}")
        self._running[future] = task

    def results(self, timeout: float | None) -> Iterator[tuple[GameTask, GameRecord | None]]:
        import distributed

        if not self._running:
            return
        try:
            done, _ = distributed.wait(list(self._running), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return
        for future in done:
            task = self._running.pop(future)
            if future.status == "cancelled":
                continue
            try:
                record = future.result()
            except distributed.KilledWorker:
                failures = self._failures[task.key] = self._failures.get(task.key, 0) + 1
                if failures > self._retries:
                    raise DaskExecutorError(f"Dask workers died {failures} times playing game {task.key} "
                                            f"(seed {task.game.seed}); see the workers' logs") from None
                self.submit(task)
                continue
            except Exception as exc:  # raised by the game on the worker
                raise DaskExecutorError(f"game {task.key} (seed {task.game.seed}) failed on a Dask worker: "
                                        f"{type(exc).__name__}: {exc}") from None
            yield task, record

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        """Stop: with ``interrupt``, running games kill their bots and report nothing (they are
        played again on resume); else they finish first (up to ``timeout``). Once stopped, the
        executor is closed: more calls do nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._running:
                import distributed

                if interrupt:
                    distributed.Event(self._stop_name, client=self._client).set()
                try:
                    distributed.wait(list(self._running), timeout=timeout)
                except TimeoutError:
                    pass
                self._client.cancel(list(self._running), force=True)
                self._running.clear()
            if interrupt:
                import distributed

                distributed.Event(self._stop_name, client=self._client).clear()
        finally:
            if self._on_close is not None:
                on_close, self._on_close = self._on_close, None
                on_close()
