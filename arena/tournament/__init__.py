"""Tournaments: settings (:mod:`arena.settings`, read by :mod:`.config`), which games (:mod:`.schedule`)
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
    # Imported on first use: a module of the package (its schedule, its config) comes without the
    # scheduler, the statistics and numpy.
    if name not in __all__:
        raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
    from . import errors, scheduler

    return getattr(errors if name == "TournamentError" else scheduler, name)
