"""Breadth-first distances and A* paths on the grid."""

from __future__ import annotations

import heapq
import itertools
from collections import deque

import config
from grid import Grid, Pos, manhattan

DEPTH = 60  # BFS horizon (cells): further cells count as unreachable

# distance maps per (wall layout, source): walls never change, sources repeat a lot
cache: dict[tuple[int, Pos], dict[Pos, int]] = {}
stats = {"bfs": 0, "astar": 0, "expanded": 0}


def bfs(grid: Grid, start: Pos) -> dict[Pos, int]:
    key = (grid.key, start)
    if key in cache:
        return cache[key]
    stats["bfs"] += 1
    dist = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        d = dist[p]
        if d >= DEPTH:
            continue
        for _, q in grid.neighbors(p):
            if q not in dist:
                dist[q] = d + 1
                queue.append(q)
    cache[key] = dist
    return dist


def astar(grid: Grid, start: Pos, goal: Pos, careful: bool = True) -> list[Pos] | None:
    """Cheapest path from ``start`` to ``goal`` (each step costs 1, plus danger when careful)."""
    stats["astar"] += 1
    tie = itertools.count()
    frontier: list[tuple[int, int, Pos]] = [(manhattan(start, goal), next(tie), start)]
    came: dict[Pos, Pos | None] = {start: None}
    cost = {start: 0}
    budget = config.MAX_EXPANSIONS
    while frontier and budget > 0:
        _, _, p = heapq.heappop(frontier)
        budget -= 1
        stats["expanded"] += 1
        if p == goal:
            path = []
            node: Pos | None = p
            while node is not None:
                path.append(node)
                node = came[node]
            path.reverse()
            return path
        for _, q in grid.neighbors(p):
            step = 1 + (grid.danger(q) * config.MONSTER_PENALTY // 10 if careful else 0)
            new_cost = cost[p] + step
            if q not in cost or new_cost < cost[q]:
                cost[q] = new_cost
                came[q] = p
                heapq.heappush(frontier, (new_cost + manhattan(q, goal), next(tie), q))
    return None


def direction(a: Pos, b: Pos) -> str:
    delta = (b[0] - a[0], b[1] - a[1])
    for name, d in config.DIRECTIONS.items():
        if d == delta:
            return name
    raise ValueError(f"{a} and {b} are not adjacent")


def helper(path: list[Pos]) -> str:
    """A path as a string of directions, for the debug output."""
    return "".join(direction(a, b) for a, b in itertools.pairwise(path))
