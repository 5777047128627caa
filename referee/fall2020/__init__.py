"""Fall Challenge 2020 ("witches' brew"): an exact reimplementation of the official referee.

Modules: :mod:`.deck` (the cards and the seeded shuffle), :mod:`.state` (the table),
:mod:`.actions` (parsing a bot's line), :mod:`.rules` (the rules as functions on the state),
:mod:`.referee` (:class:`Fall2020Referee`, the engine-facing referee).
"""

from __future__ import annotations

from .referee import Fall2020Referee

__all__ = ["Fall2020Referee"]
