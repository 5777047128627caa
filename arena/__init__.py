"""The arena: plays bots against each other under the official rules and time limits.

It reaches games only through the referee registry (:mod:`referee`).
"""

from .api import ArenaError, Bot, Seat, play_recorded

__all__ = ["ArenaError", "Bot", "Seat", "play_recorded"]
