"""Scores a single step: progress toward the plan against the monsters' threat."""

from __future__ import annotations

from collections import Counter

import config
from grid import Grid, Pos, manhattan

cache: dict[tuple[Pos, Pos], float] = {}
seen: Counter[Pos] = Counter()


def helper(grid: Grid, pos: Pos) -> int:
    """Free cells around ``pos``: dead ends are traps when monsters come."""
    return sum(1 for _ in grid.neighbors(pos))


def evaluate(grid: Grid, pos: Pos, target: Pos | None) -> float:
    score = 0.0
    if target is not None:
        key = (pos, target)
        if key not in cache:
            cache[key] = -2.0 * manhattan(pos, target)
        score += cache[key]
    if pos in grid.gems:
        score += config.GEM_VALUE / 2
    score -= grid.danger(pos) * config.MONSTER_PENALTY
    score += helper(grid, pos)
    score -= 3 * seen[pos]  # do not dither between two cells
    if grid.energy < config.LOW_ENERGY:
        score -= 5 * (pos not in grid.gems)
    return score


def remember(pos: Pos) -> None:
    seen[pos] += 1
