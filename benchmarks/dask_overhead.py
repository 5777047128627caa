"""What Dask costs a tournament: the same games on the local executor and on a local Dask cluster.

    python benchmarks/dask_overhead.py [--games N] [--workers W] [--runs R] [--sandbox off|on] [--quick]

Both executors get ``W`` workers of one game each (the local one: worker processes; Dask: a
``LocalCluster`` of ``W`` one-thread worker processes on 127.0.0.1) and are started before the
clock starts (the bots bundled for the Dask workers), so what is timed is the games and what
carries them: task shipping, the bundles fetched and checked on the workers, results coming back,
the database. Executors alternate within each run. Prints games per second for both (median of
the runs) and the ratio measured in this run (goal: Dask at least 0.9 of local).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match.launch.botspec import resolve  # noqa: E402
from arena.runner.dask_executor import DaskExecutor, DaskExecutorError, require_dask  # noqa: E402
from arena.runner.executor import Executor, LocalExecutor  # noqa: E402
from arena.store.results import Store  # noqa: E402
from arena.tournament import run_tournament  # noqa: E402
from arena.tournament.config import config_from_mapping  # noqa: E402


def rate(games: int, workers: int, sandbox: str, pool: Executor, seed: int) -> float:
    """Games per second of one tournament of ``games`` games on ``pool``."""
    with tempfile.TemporaryDirectory() as tmp:
        config = config_from_mapping(
            {
                "game": "spring2021",
                "bots": ["greedy", "random"],
                "games": games,
                "workers": workers,
                "seed": seed,
                "sandbox": sandbox,
                "db": str(Path(tmp) / "t.sqlite"),
            },
            base=Path(tmp),
        )
        store = Store(config.db)
        try:
            start = time.perf_counter()
            run = run_tournament(config, store, executor=lambda _n: pool)
            wall = time.perf_counter() - start
        finally:
            store.close()
    assert run.played == games, run.played
    return games / wall


class _Kept:
    """An executor the tournament may stop (it does at its end) without closing it."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner

    def free_slots(self) -> int:
        return self.inner.free_slots()

    def running(self) -> int:
        return self.inner.running()

    def submit(self, task):  # type: ignore[no-untyped-def]
        self.inner.submit(task)

    def results(self, timeout):  # type: ignore[no-untyped-def]
        return self.inner.results(timeout)

    def cancel(self, comparison: int, from_pair: int) -> None:
        self.inner.cancel(comparison, from_pair)

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sandbox", choices=("off", "on"), default="off")
    parser.add_argument("--quick", action="store_true", help="10 games, 2 runs")
    args = parser.parse_args()
    if args.quick:
        args.games, args.runs = 10, 2
    try:
        require_dask()
    except DaskExecutorError as exc:
        raise SystemExit(f"cannot measure Dask here: {exc}") from None
    import dask

    with tempfile.TemporaryDirectory() as scratch:
        dask.config.set({"temporary-directory": scratch})
        local = LocalExecutor(args.workers)
        # bundled and sent to the workers, and the workers timed, before the clock starts
        on_dask = DaskExecutor.connect(
            local_cluster=args.workers, specs=[resolve(name, "spring2021") for name in ("greedy", "random")]
        )
        rates: dict[str, list[float]] = {"local": [], "dask": []}
        try:
            for i in range(args.runs):
                order = [("local", local), ("dask", on_dask)]
                for name, pool in order if i % 2 == 0 else reversed(order):
                    rates[name].append(rate(args.games, args.workers, args.sandbox, _Kept(pool), seed=100 + i))
        finally:
            local.stop()
            on_dask.stop()
    lo, da = statistics.median(rates["local"]), statistics.median(rates["dask"])
    print(
        f"{args.games} games of spring2021 greedy vs random, {args.workers} workers, sandbox {args.sandbox}, "
        f"median of {args.runs} runs"
    )
    print(f"  local executor      {lo:6.2f} games/s   runs: {', '.join(f'{r:.2f}' for r in rates['local'])}")
    print(f"  local Dask cluster  {da:6.2f} games/s   runs: {', '.join(f'{r:.2f}' for r in rates['dask'])}")
    print(f"  ratio dask/local {da / lo:.3f}  (Dask overhead per game {100 * (1 - da / lo):+.1f}%)")


if __name__ == "__main__":
    main()
