"""What stops a tournament, in one line: :class:`TournamentError` (it cannot run as asked; the
runner's own failures, another run playing it or the database failing, are
:mod:`arena.runner.runner`'s)."""

from __future__ import annotations

from ..errors import ArenaError

__all__ = ["TournamentError"]


class TournamentError(ArenaError):
    """The tournament cannot run as asked (the message says why and what to do)."""
