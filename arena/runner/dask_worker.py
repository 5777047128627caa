"""What runs on the Dask workers of a tournament: a game played there with the bots as they run
there (a Python bot from its bundle, fetched once from the cluster; the others checked to exist),
stopped when the tournament stops or no longer wants the game; and the timing of a worker against
the others (:func:`slow_workers`). :mod:`arena.runner.dask_executor` submits them."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..match.launch.botspec import BotSpec
from ..store.records import GameRecord
from .shipping import Need, Shipped, ShippingError, describe_missing, missing, unpack
from .task import GameTask, play_task

__all__ = [
    "STOP_LOOK_S",
    "SLOW_CPU",
    "CLOCK_DRIFT",
    "WorkerPace",
    "slow_workers",
    "worker_cores",
    "cpu_work",
    "bundle_variable",
    "dropped_variable",
    "play_on_worker",
]

STOP_LOOK_S = 0.5
"""How often a game on a worker looks whether the tournament asked it to stop."""
SLOW_CPU = 1.5
"""A worker that takes this many times as long as the fastest one for the same work is reported."""
CLOCK_DRIFT = 0.05
"""A worker whose clock runs this much faster or slower than this machine's is reported (its bots
would get more, or less, time than the rules give)."""


def worker_cores() -> int:
    """The cores this process may run on (runs on each worker)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cpu_work() -> float:
    """Seconds this worker takes for a fixed piece of pure-Python work (best of five)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(100_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return best


@dataclass(frozen=True)
class WorkerPace:
    """How fast a worker is: seconds for :func:`cpu_work`, and its clock's pace against this
    machine's (1.0: the same; ``None``: not measured)."""

    cpu_s: float
    clock_rate: float | None = None


def slow_workers(paces: dict[str, WorkerPace], *, slow_cpu: float = SLOW_CPU, drift: float = CLOCK_DRIFT) -> list[str]:
    """One line per worker much slower than the fastest, or whose clock is off pace."""
    out = []
    fastest = min((p.cpu_s for p in paces.values()), default=0.0)
    for address, pace in sorted(paces.items()):
        if fastest > 0 and len(paces) > 1 and pace.cpu_s >= slow_cpu * fastest:
            out.append(
                f"Dask worker {address} is {pace.cpu_s / fastest:.1f}x slower than the fastest worker "
                f"({pace.cpu_s * 1000:.0f} ms against {fastest * 1000:.0f} ms for the same work): its bots "
                "will time out sooner; see the per-worker latencies in the report"
            )
        if pace.clock_rate is not None and abs(pace.clock_rate - 1) >= drift:
            out.append(
                f"Dask worker {address}'s clock runs at {pace.clock_rate:.2f}x this machine's: its bots "
                f"get {1 / pace.clock_rate:.2f}x the time the rules give"
            )
    return out


_checked: set[tuple[Need, ...]] = set()
"""The needs already found on this worker process (each is looked for once)."""


def bundle_variable(prefix: str, sha: str) -> str:
    """The name of the cluster-wide variable that holds the bundle of hash ``sha``."""
    return f"{prefix}-bundle-{sha}"


def dropped_variable(prefix: str) -> str:
    """The name of the cluster-wide variable that maps each decided comparison (as a string) to
    the first pair no longer wanted."""
    return f"{prefix}-dropped"


def _fetch(prefix: str, sha: str) -> Callable[[], str]:
    def fetch() -> str:
        from distributed import Variable

        text: str = Variable(bundle_variable(prefix, sha)).get(timeout=60)
        return text

    return fetch


def _on_this_worker(
    specs: Sequence[BotSpec], ships: Sequence[Shipped | None], prefix: str, needs: tuple[Need, ...], worker: str
) -> tuple[BotSpec, ...]:
    """The bots as they run here: shipped ones unpacked, the others checked to exist."""
    if needs not in _checked:
        lacking = missing(needs)
        if lacking:
            raise ShippingError(describe_missing(lacking[0], worker))
        _checked.add(needs)
    out = []
    for spec, ship in zip(specs, ships, strict=True):
        if ship is not None:
            spec = unpack(spec, ship, _fetch(prefix, ship.sha256))
        out.append(spec)
    return tuple(out)


def play_on_worker(
    task: GameTask, stop_event: str, ships: tuple[Shipped | None, ...], needs: tuple[Need, ...]
) -> GameRecord | None:
    """The Dask task: :func:`play_task` with the bots as they run on this worker (``ships``:
    each seat's :class:`Shipped` form, or ``None``, its bundle fetched from the cluster variable
    named after ``stop_event`` and its hash when this worker does not have it yet; ``needs``: what
    the other bots use), stopped (``None``) once the event ``stop_event`` is set. The record names
    the worker."""
    from distributed import Event, Variable, get_worker

    worker = get_worker().address
    task = dataclasses.replace(task, specs=_on_this_worker(task.specs, ships, stop_event, needs, worker))
    event = Event(stop_event)
    dropped = Variable(dropped_variable(stop_event))
    last = time.monotonic()

    def should_stop() -> bool:
        nonlocal last
        now = time.monotonic()
        if now - last < STOP_LOOK_S:
            return False
        last = now
        if event.is_set():
            return True
        from_pair = dropped.get(timeout=STOP_LOOK_S).get(str(task.game.comparison))
        return from_pair is not None and task.game.pair >= from_pair

    record = play_task(task, should_stop=should_stop)
    return None if record is None else dataclasses.replace(record, worker=worker)
