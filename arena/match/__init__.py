"""Running one match: what a BOT argument means (:mod:`.botspec`), how the path of a Python bot
runs (:mod:`.pymodule`, which the bundler shares), the engine's line rules (:mod:`.lines`), one bot
process (:mod:`.botprocess`; its limits :mod:`.limits`, the Linux mechanism under it
:mod:`.plumbing`), the game loop (:mod:`.loop`), the replay file (:mod:`.replay`), and a match as
``arena play`` asks for it (:mod:`.session`)."""

from .loop import Execution, Frame, MatchOptions, MatchResult, PlayerResult, Verdict, play_match

__all__ = ["Verdict", "MatchOptions", "Execution", "Frame", "PlayerResult", "MatchResult", "play_match"]
