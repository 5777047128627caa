"""What stops a version command, in one line: :class:`VersionError`."""

from __future__ import annotations

from ..errors import ArenaError

__all__ = ["VersionError"]


class VersionError(ArenaError, ValueError):
    """A stored bot version that cannot be found, named or removed as asked (the message says why
    and what to do, in one line)."""
