"""The turn exchange with a bot: its input and output (:mod:`.pipes`), its output cut into lines
as the engine reads them (:mod:`.lines`), how close its answers come to their time limits
(:mod:`.latency`), and whether the machine rather than the bot made an answer late (:mod:`.schedlag`)."""
