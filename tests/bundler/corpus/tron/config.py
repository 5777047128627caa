"""Constants shared by every module (read as ``config.NAME``)."""

from __future__ import annotations

WIDTH = 20
HEIGHT = 12
DEPTH = 4  # plies of the minimax (mine and the opponent's alternate)
NODE_BUDGET = 80
DIRECTIONS = {"UP": (0, -1), "RIGHT": (1, 0), "DOWN": (0, 1), "LEFT": (-1, 0)}
DEAD = -1
