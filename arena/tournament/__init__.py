"""Tournaments: settings (:mod:`.config`), which games (:mod:`.schedule`) and in which order
(:mod:`.scheduler`), one game as plain data (:mod:`.task`) played on an executor
(:mod:`.executor`), stored (:mod:`.store`, :mod:`.schema`) with its provenance
(:mod:`.provenance`), counted (:mod:`.tracker`) and reported (:mod:`.standings`);
:mod:`.runner` ties them together."""

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
