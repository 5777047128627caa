"""Game constants (re-exported by ``from .constants import *``)."""

__all__ = ["NO_CELL", "EGG", "CRYSTAL", "EMPTY", "ANNEAL_STEPS", "SEED", "DEPTH", "EGG_WEIGHT"]

NO_CELL = -1
EMPTY, EGG, CRYSTAL = 0, 1, 2

ANNEAL_STEPS = 250  # fixed: the bot is deterministic
SEED = 20230527
DEPTH = 3  # targets chained per turn at most
EGG_WEIGHT = 1.6

_PRIVATE_NOTE = "not exported"
