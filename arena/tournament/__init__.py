"""Tournaments: settings (:mod:`.settings`, read by :mod:`.config`), which games (:mod:`.schedule`)
and in which order (:mod:`.dispatcher`), played on the executors of :mod:`arena.runner`, stored in
:mod:`arena.store`, counted (:mod:`arena.standings.tracker`) and reported (:mod:`arena.standings`);
:mod:`.runner` ties them together (what stops it is in :mod:`.errors`), and :mod:`.play` is a
tournament as ``arena tournament`` plays it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Tournament", "TournamentError", "TournamentRun", "Started", "GameDone", "Decided", "bot_spec"]

if TYPE_CHECKING:
    from .runner import Decided, GameDone, Started, Tournament, TournamentError, TournamentRun, bot_spec


def __getattr__(name: str) -> Any:
    # Imported on first use: a worker process only needs the games (.task), not the runner, the
    # statistics and numpy.
    if name in __all__:
        from . import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
