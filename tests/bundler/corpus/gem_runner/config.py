"""Tunable constants of the gem runner (read by the other modules as ``config.NAME``)."""

DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ORDER = "NESW"

DEPTH = 3  # gems planned ahead by the planner
CANDIDATES = 6  # nearest gems considered for the plan
MAX_EXPANSIONS = 4000  # A* node budget per call

GEM_VALUE = 100
DECAY = 0.9
MONSTER_RADIUS = 3
MONSTER_PENALTY = 35
LOW_ENERGY = 8
