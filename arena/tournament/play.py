"""A tournament as ``arena tournament`` plays it: :func:`play_tournament` checks that the bots can
be played (they resolve, they start, the sandbox and Dask are there when asked for) before the
database is made, reaches the Dask cluster, plays the games into the results database with the
one runner (:mod:`arena.runner.runner`) and returns the run with its standings. It never prints:
the run reports through ``on_event``.

Every failure is an :class:`arena.errors.ArenaError`, one line:
:class:`arena.runner.runner.StorageFailure` when the database or the disk failed (with the games
kept and, once a tournament exists, its id, so the caller can say how to resume).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import referee

from ..match import sandbox
from ..match.preflight import start_failures
from ..runner.executor import Cluster, connect
from ..runner.runner import RunResult, StorageFailure
from ..standings.tournament import Standings, standings
from ..store.results import Store, StoreError
from .config import TournamentConfig
from .errors import TournamentError
from .scheduler import bot_spec, reference_of, run_tournament

__all__ = ["TournamentOutcome", "play_tournament"]


@dataclass(frozen=True)
class TournamentOutcome:
    """A run of a tournament and the tournament's standings after it."""

    run: RunResult
    standings: Standings


def play_tournament(
    config: TournamentConfig,
    *,
    new: bool = False,
    on_event: Callable[[object], None] | None = None,
    bundle: Callable[[str], str] | None = None,
) -> TournamentOutcome:
    """Play ``config`` (resume it, unless ``new``). ``bundle`` turns a Python bot into one file for
    the Dask executor (:func:`bundler.ship.bundle_source`)."""
    cluster = _check(config, bundle)
    try:
        try:
            store = Store(config.db)
        except StoreError as exc:
            raise StorageFailure(exc) from None
        with store:
            executor = None if cluster is None else (lambda _n: cluster)
            warnings = () if cluster is None else cluster.warnings
            run = run_tournament(config, store, new=new, on_event=on_event, executor=executor, warnings=warnings)
            try:
                row = store.tournament(run.run_id)
                assert row is not None
                return TournamentOutcome(run, standings(store, row))
            except StoreError as exc:
                raise StorageFailure(exc) from None
    finally:
        if cluster is not None:
            cluster.stop(interrupt=True)  # closes the connection (and a local cluster) if the run did not


def _check(config: TournamentConfig, bundle: Callable[[str], str] | None) -> Cluster | None:
    """Before the database exists: every bot given by its source resolves and starts (in the
    sandbox when it will play there; a stored version it names is checked when the tournament
    opens), the sandbox works when it must, Dask is installed and its cluster reached (the
    executor returned) when asked for."""
    specs = [bot_spec(entry, config.game) for entry in config.bots if reference_of(entry) is None]
    level = config.league or referee.get(config.game).top_league
    refused = next((why for spec in specs if (why := spec.league_refusal(config.game, level))), None)
    if refused is not None:
        raise TournamentError(refused)
    confined, _ = sandbox.decide(config.sandbox)
    if config.executor == "dask":
        from ..runner.dask_executor import require_dask

        require_dask()
    failures = start_failures(specs, config.memory_limit_mb, sandboxed=confined)
    if failures:
        more = len(failures) - 1
        others = f" (and {more} other bot{'' if more == 1 else 's'})" if more else ""
        raise TournamentError(f"{failures[0]}{others}; fix it, then run the tournament again")
    return connect(config.executor, config.scheduler, config.local_cluster, specs, bundle)[1]
