"""Running one match: how a BOT argument becomes a command (:mod:`.launch`), a bot as a tree of
processes (:mod:`.process`) held to its limits (:mod:`.limits`), in a sandbox (:mod:`.sandbox`),
the turn exchange with it (:mod:`.protocol`), the game loop (:mod:`.loop`) and what it gives
(:mod:`.result`), the replay file (:mod:`.replay`), the bots' start check (:mod:`.preflight`), game
seeds (:mod:`.seeds`), and a match as ``arena play`` asks for it (:mod:`.request`)."""

from .loop import MatchOptions, play_match
from .result import Verdict

__all__ = ["Verdict", "MatchOptions", "play_match"]
