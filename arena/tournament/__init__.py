"""Tournaments: settings (:mod:`.config`), which games (:mod:`.schedule`) and in which order
(:mod:`.scheduler`), one game as plain data (:mod:`.task`) played on an executor
(:mod:`.executor`), stored (:mod:`.store`, :mod:`.schema`) with its provenance
(:mod:`.provenance`), counted (:mod:`.tracker`) and reported (:mod:`.standings`);
:mod:`.runner` ties them together."""

from .runner import Decided, GameDone, Started, Tournament, TournamentError, TournamentRun, bot_spec

__all__ = ["Tournament", "TournamentError", "TournamentRun", "Started", "GameDone", "Decided", "bot_spec"]
