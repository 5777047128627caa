"""What stops a ladder command, in one line: :class:`LadderError`."""

from __future__ import annotations

from ..errors import ArenaError

__all__ = ["LadderError"]


class LadderError(ArenaError):
    """A ladder command cannot do what it was asked (the message says why and what to do)."""
