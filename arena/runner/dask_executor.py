"""Games played on a Dask distributed cluster: many machines, one results database.

:class:`DaskExecutor` is an :class:`arena.runner.executor.Executor`: the tournament pulls
games from its schedule as before and submits each as a Dask task that calls the same
:func:`arena.runner.task.play_task` as a local worker; results come back as they complete and
only this process (the client) writes them to the database, so resume, statistics, SPRT and the
progress display are those of a local run.

- **Capacity.** A game runs two bot processes timed in wall-clock time, so a Dask worker may play
  at most as many games at once as it has cores: each worker's threads are checked against its
  cores when the executor connects (:class:`DaskExecutorError` names a worker with more), and the
  number of games in flight follows the workers that are connected now.
- **Stopping.** A running Dask task cannot be interrupted from outside, so every game watches a
  cluster-wide :class:`distributed.Event` (looked at twice a second, between turns): when the
  tournament stops (Ctrl-C, a failure limit), the event is set and each running game kills its
  bots and reports nothing, within a turn's time limit plus half a second. Likewise, when a
  comparison's SPRT test decides, its later pairs are no longer wanted: those waiting are
  cancelled, and those running see it in a cluster-wide :class:`distributed.Variable` (the
  comparisons decided, and from which pair) and stop the same way.
- **Lost workers.** A worker that dies mid-game loses that game only: Dask plays the task again
  on another worker, and the client receives one result per task, so no game is stored twice.
- **Bots.** Python bots travel as their bundle and other bots must be at the same paths on every
  worker (:mod:`arena.runner.shipping`); :meth:`DaskExecutor.prepare` checks every worker
  before the first game (and each game checks its worker, which may have joined since).
- **Slow workers.** Each game records the worker that played it (the report shows latencies and
  answers near the limit per worker); :meth:`DaskExecutor.prepare` also times a fixed piece of
  work and the clock's pace on every worker, and :attr:`DaskExecutor.warnings` names a worker much
  slower than the others, or whose clock runs at another pace than this machine's.

Dask is an optional dependency (``pip install 'cgarena[dask]'``): :func:`require_dask` says how
to install it in one line.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..match.launch.botspec import BotSpec
from ..store.records import GameRecord
from .dask_worker import (
    WorkerPace,
    bundle_variable,
    cpu_work,
    dropped_variable,
    play_on_worker,
    slow_workers,
    worker_cores,
)
from .executor import RETRIES, ExecutorError
from .shipping import Need, Shipped, ShippingError, describe_missing, missing, pack
from .task import GameTask

if TYPE_CHECKING:
    import distributed

__all__ = ["DaskExecutor", "DaskExecutorError", "require_dask", "INSTALL_HINT", "QUIET_WORKER"]

INSTALL_HINT = "Dask is not installed: pip install 'cgarena[dask]' (or: pip install distributed)"
QUIET_WORKER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for workers that play games: no sampling profiler (a thread waking every 10 ms
in the worker, stealing time from the bots it times), fewer event-loop and memory checks.
Remote workers get them from the environment (see docs/how-to/dask.md)."""
CONNECT_TIMEOUT_S = 10.0
"""How long reaching the scheduler may take (a refused address is retried until then)."""
CAPACITY_LOOK_S = 1.0
"""How often the workers connected to the scheduler are counted again."""
CLOCK_SPAN_S = 1.0
"""At least this long between the two readings of the workers' clocks."""


class DaskExecutorError(ExecutorError):
    """The cluster cannot play the tournament's games (the message says why and what to do)."""


def require_dask() -> None:
    """Raise :class:`DaskExecutorError` with :data:`INSTALL_HINT` when ``distributed`` is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DaskExecutorError(INSTALL_HINT) from None


class DaskExecutor:
    """Games on the Dask cluster ``client`` is connected to (see the module's docstring), as many
    at once as the workers' cores allow. A game whose worker died is played again, at most
    :data:`arena.runner.executor.RETRIES` times; ``on_close`` is called by :meth:`stop` (closes
    what was made for this run: the client, a local cluster).
    """

    def __init__(
        self,
        client: distributed.Client,
        *,
        on_close: Callable[[], None] | None = None,
        bundle: Callable[[str], str] | None = None,
    ) -> None:
        self._client = client
        self._bundle = bundle
        """How a Python bot becomes the one file that travels (``bundle(entry) -> text``)."""
        self._on_close = on_close
        self._running: dict[Any, GameTask] = {}
        self._failures: dict[tuple[int, int, int], int] = {}
        self._stop_name = f"arena-stop-{uuid.uuid4().hex}"
        self._closed = False
        self._capacity: tuple[float, int] | None = None
        """(when, games to keep submitted), as last asked of the scheduler."""
        self._prepared: set[str] = set()
        """The bots (by name) the workers were made ready for."""
        self._shipped: dict[str, Shipped] = {}
        """The Python bots, by name, as they travel."""
        self._needs: list[Need] = []
        """What the other bots use, that every worker must have."""
        self._bundles: dict[str, Any] = {}
        """The bundles offered to the workers: content hash -> the cluster variable that holds it
        (a worker fetches each once, when it first plays that bot; the tasks carry only hashes, so
        the scheduler places them as games without data)."""
        self.warnings: list[str] = []
        """Workers much slower than the others, or with a clock off pace (see :meth:`prepare`)."""
        self._dropped: dict[str, int] = {}
        self._check_workers()
        import distributed

        self._dropped_var = distributed.Variable(dropped_variable(self._stop_name), client=client)
        self._dropped_var.set({})

    @classmethod
    def connect(
        cls,
        scheduler: str | None = None,
        local_cluster: int | None = None,
        *,
        specs: Iterable[BotSpec] | None = None,
        bundle: Callable[[str], str] | None = None,
    ) -> DaskExecutor:
        """An executor on the scheduler at ``scheduler`` (``tcp://HOST:8786``), or on a new cluster
        of ``local_cluster`` one-thread worker processes on this machine (loopback only); with
        ``specs``, :meth:`prepare` d for those bots. ``bundle`` turns a Python bot into the one
        file sent to the workers (``bundle(entry) -> text``: the bundler's, which the command
        line hands over; without it, Python bots cannot be sent)."""
        require_dask()
        import dask
        import distributed

        if (scheduler is None) == (local_cluster is None):
            raise DaskExecutorError(
                "the Dask executor needs a scheduler address (--scheduler tcp://HOST:8786) "
                "or a local cluster (--local-cluster N), not both"
            )
        cluster: distributed.LocalCluster | None = None
        try:
            if local_cluster is not None:
                with dask.config.set(QUIET_WORKER):
                    cluster = distributed.LocalCluster(
                        n_workers=local_cluster,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        # no dashboard; the scheduler's own HTTP server on a free loopback port
                        # (a fixed 8787 clashes with any other cluster on the machine)
                        dashboard_address="127.0.0.1:0",
                        scheduler_kwargs={"dashboard": False},
                        silence_logs=40,
                    )
                client = distributed.Client(cluster, timeout=CONNECT_TIMEOUT_S)
            else:
                client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            where = scheduler or "the local cluster"
            raise DaskExecutorError(
                f"cannot reach the Dask scheduler at {where}: {exc}; start it with "
                "'dask scheduler' and its workers with 'dask worker ADDRESS'"
            ) from None

        def close() -> None:
            client.close()
            if cluster is not None:
                cluster.close()

        try:
            executor = cls(client, on_close=close, bundle=bundle)
            if specs is not None:
                executor.prepare(specs)
            return executor
        except BaseException:
            close()
            raise

    # -- the bots --------------------------------------------------------------------------------

    def prepare(self, specs: Iterable[BotSpec]) -> None:
        """Make the workers ready for these bots: bundle the Python bots and send each bundle to
        every worker once; check that every worker has what the other bots use (raises
        :class:`arena.runner.shipping.ShippingError` naming the first bot and worker that
        cannot play). The first time, also time every worker (:attr:`warnings`). A game whose
        bots were not prepared prepares them when it is submitted."""
        specs = [s for s in specs if s.name not in self._prepared]
        if not specs:
            return
        shipment = pack(specs, self._bundle)
        first = not self._prepared
        start = time.monotonic()
        clocks = self._client.run(time.monotonic) if first else {}
        for address, lacking in sorted(self._client.run(missing, list(shipment.needs)).items()):
            if lacking:
                raise ShippingError(describe_missing(lacking[0], address))
        import distributed

        for sha, text in shipment.bundles.items():
            if sha not in self._bundles:
                variable = distributed.Variable(bundle_variable(self._stop_name, sha), client=self._client)
                variable.set(text)
                self._bundles[sha] = variable
        self._shipped.update(shipment.shipped)
        self._needs.extend(n for n in shipment.needs if n not in self._needs)
        self._prepared.update(s.name for s in specs)
        if first:
            cpu = self._client.run(cpu_work)
            time.sleep(max(0.0, CLOCK_SPAN_S - (time.monotonic() - start)))
            span = time.monotonic() - start
            later = self._client.run(time.monotonic)
            paces = {
                address: WorkerPace(
                    cpu[address],
                    (later[address] - clocks[address]) / span if address in clocks and address in later else None,
                )
                for address in cpu
            }
            self.warnings = slow_workers(paces)

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
                raise DaskExecutorError(
                    f"no Dask worker joined the scheduler in {wait_s:.0f} s; start one with "
                    f"'dask worker {address} --nthreads CORES'"
                )
            time.sleep(0.2)
        cores = self._client.run(worker_cores)
        threads = self._workers()
        for address, n in threads.items():
            if address in cores and n > cores[address]:
                raise DaskExecutorError(
                    f"Dask worker {address} runs {n} tasks at once on {cores[address]} cores: each game "
                    f"runs two bots timed in wall-clock time, so they would be starved; start it with "
                    f"--nthreads {cores[address]} (or fewer)"
                )

    # -- the Executor protocol -------------------------------------------------------------------

    def free_slots(self) -> int:
        """Games to submit now: as many as the workers connected now can run (asked of the
        scheduler at most once a second), plus one waiting per worker, so that a worker that
        finishes a game starts the next without waiting for this process to hear of it. (A
        worker still runs no more games at once than it has threads.)"""
        now = time.monotonic()
        if self._capacity is None or now - self._capacity[0] > CAPACITY_LOOK_S:
            workers = self._workers()
            self._capacity = (now, sum(workers.values()) + len(workers))
        return max(0, self._capacity[1] - len(self._running))

    def running(self) -> int:
        return len(self._running)

    def submit(self, task: GameTask) -> None:
        c, p, leg = task.key
        self.prepare(task.specs)
        ships = tuple(self._shipped.get(spec.name) for spec in task.specs)
        names = {spec.name for spec in task.specs}
        needs = tuple(n for n in self._needs if n.bot in names)
        future = self._client.submit(
            play_on_worker,
            task,
            self._stop_name,
            ships,
            needs,
            pure=False,
            key=f"arena-game-c{c}-p{p}-l{leg}-{uuid.uuid4().hex[:12]}",
        )
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
                if failures > RETRIES:
                    raise DaskExecutorError(
                        f"Dask workers died {failures} times playing game {task.key} "
                        f"(seed {task.game.seed}); see the workers' logs"
                    ) from None
                self.submit(task)
                continue
            except ShippingError:  # a bot that cannot run on that worker: the message says which
                raise
            except Exception as exc:  # raised by the game on the worker
                raise DaskExecutorError(
                    f"game {task.key} (seed {task.game.seed}) failed on a Dask worker: {type(exc).__name__}: {exc}"
                ) from None
            yield task, record

    def cancel(self, comparison: int, from_pair: int) -> None:
        """Cancel the games of ``comparison`` from pair ``from_pair`` on: those waiting are
        cancelled, those running stop at their next look (half a second); none is reported."""
        self._dropped[str(comparison)] = from_pair
        self._dropped_var.set(dict(self._dropped))
        doomed = [f for f, t in self._running.items() if t.game.comparison == comparison and t.game.pair >= from_pair]
        for future in doomed:
            del self._running[future]
        if doomed:
            self._client.cancel(doomed)

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
            for variable in [*self._bundles.values(), self._dropped_var]:  # the scheduler keeps them until deleted
                try:
                    variable.delete()
                except Exception:  # a scheduler already gone holds nothing
                    pass
            self._bundles.clear()
        finally:
            if self._on_close is not None:
                on_close, self._on_close = self._on_close, None
                on_close()
