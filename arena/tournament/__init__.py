"""Tournaments: settings (:mod:`.settings`, read by :mod:`.config`), which games (:mod:`.schedule`)
and in which order (:mod:`.dispatcher`), played on the executors of :mod:`arena.runner`, stored in
:mod:`arena.store`, counted (:mod:`arena.standings.tracker`) and reported (:mod:`arena.standings`);
:mod:`.scheduler` says what the one runner (:mod:`arena.runner.runner`) plays next (what stops
it is in :mod:`.errors`), and :mod:`.play` is a tournament as ``arena tournament`` plays it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["TournamentScheduler", "TournamentError", "Decided", "bot_spec", "run_tournament"]

if TYPE_CHECKING:
    from .errors import TournamentError
    from .scheduler import Decided, TournamentScheduler, bot_spec, run_tournament


def __getattr__(name: str) -> Any:
    # Imported on first use: a worker process only needs the games, not the scheduler, the
    # statistics and numpy.
    if name == "TournamentError":
        from .errors import TournamentError

        return TournamentError
    if name in __all__:
        from . import scheduler

        return getattr(scheduler, name)
    raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
