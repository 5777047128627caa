"""The arena: plays bots against each other under the official rules and time limits.

It reaches games only through the referee registry (:mod:`referee`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ArenaError", "Bot", "Seat", "play_recorded"]

if TYPE_CHECKING:
    from .api import ArenaError, Bot, Seat, play_recorded


def __getattr__(name: str) -> Any:
    # Imported on first use: a process that needs one part of the arena (a tournament worker,
    # a bot's sandbox helper) does not pay for the rest.
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
