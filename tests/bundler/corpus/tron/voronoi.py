"""Territory: which cells each player reaches first (multi-source BFS), and flood fills."""

from __future__ import annotations

from collections import Counter, deque

from board import NEIGHBORS, SIZE, Board

cache: dict[tuple[bytes, tuple[int, ...]], Counter[int]] = {}
NEUTRAL = -1


def territory(board: Board) -> Counter[int]:
    """Cells per player that this player reaches strictly first (ties are neutral)."""
    heads = tuple(board.heads)
    key = (bytes(board.walls), heads)
    found = cache.get(key)
    if found is not None:
        return found
    walls = board.walls
    owner = [NEUTRAL] * SIZE
    dist = [-1] * SIZE
    frontier = []
    for p, h in enumerate(heads):
        if h >= 0:
            owner[h], dist[h] = p, 0
            frontier.append(h)
    depth = 0
    while frontier:  # level by level: a cell reached by two players at once is neutral
        depth += 1
        following = []
        for i in frontier:
            mine = owner[i]
            for _, j in NEIGHBORS[i]:
                if walls[j]:
                    continue
                if dist[j] < 0:
                    dist[j] = depth
                    owner[j] = mine
                    following.append(j)
                elif dist[j] == depth and owner[j] != mine:
                    owner[j] = NEUTRAL
        frontier = following
    counts = Counter(o for i, o in enumerate(owner) if o != NEUTRAL and dist[i] > 0)
    cache[key] = counts
    return counts


def flood(board: Board, start: int) -> int:
    """Free cells reachable from ``start``."""
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for _, j in board.exits(i):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) - 1


def separated(board: Board, a: int, b: int) -> bool:
    """Whether the two heads can no longer meet."""
    seen = {a}
    queue = deque([a])
    targets = {j for _, j in board.exits(b)} | {b}
    while queue:
        i = queue.popleft()
        for _, j in board.exits(i):
            if j in targets:
                return False
            if j not in seen:
                seen.add(j)
                queue.append(j)
    return True
