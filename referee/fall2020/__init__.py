"""Fall Challenge 2020 ("witches' brew"): an exact reimplementation of the official referee, at
every league level.

Modules: :mod:`.state` (the table), :mod:`.deck` (the cards, the seeded shuffle and the deal),
:mod:`.leagues` (what each league level plays), :mod:`.actions` (parsing a bot's line),
:mod:`.inputs` (the input lines a player is sent), :mod:`.legal` (the legal actions),
:mod:`.resolution` (applying the actions: a turn, the end of the game), :mod:`.referee`
(:class:`Fall2020Referee`, the engine-facing referee). The rules they rely on are written up in
``docs/fall2020-rules.md``.
"""

from __future__ import annotations

from .referee import Fall2020Referee

__all__ = ["Fall2020Referee"]
