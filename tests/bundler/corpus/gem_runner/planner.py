"""Which gems to collect, in which order: exhaustive over the few nearest gems."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import config
import pathing as pf
from grid import Grid, Pos


def helper(grid: Grid, origin: Pos) -> list[Pos]:
    """The nearest gems by true distance (ties by position)."""
    dist = pf.bfs(grid, origin)
    reachable = [g for g in grid.gems if g in dist]
    reachable.sort(key=lambda g: (dist[g], g))
    return reachable[: config.CANDIDATES]


def make_scorer(grid: Grid, points: list[Pos]) -> Callable[[tuple[int, ...]], float]:
    """A scoring function for orders of ``points`` (index 0 is the runner), over a distance table."""
    table = [[pf.bfs(grid, a).get(b, pf.DEPTH * 2) for b in points] for a in points]

    def evaluate(order: tuple[int, ...]) -> float:
        total = 0.0
        steps = 0
        here = 0
        for rank, nxt in enumerate(order):
            steps += table[here][nxt]
            if steps > grid.energy:
                break
            total += config.GEM_VALUE * config.DECAY**steps - rank
            here = nxt
        return total

    return evaluate


def plan(grid: Grid) -> list[Pos]:
    gems = helper(grid, grid.me)
    if not gems:
        return []
    points = [grid.me, *gems]
    evaluate = make_scorer(grid, points)
    depth = min(config.DEPTH, len(gems))
    best = max(itertools.permutations(range(1, len(points)), depth), key=lambda o: (evaluate(o), [-i for i in o]))
    return [points[i] for i in best]
