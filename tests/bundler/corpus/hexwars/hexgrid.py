"""Axial hex coordinates on a hexagonal board of radius RADIUS."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from functools import lru_cache

Hex = tuple[int, int]

RADIUS = 4
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
CENTER: Hex = (0, 0)


def inside(h: Hex) -> bool:
    q, r = h
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


@lru_cache(maxsize=4096)
def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbors(h: Hex) -> Iterator[Hex]:
    for dq, dr in DIRECTIONS:
        n = (h[0] + dq, h[1] + dr)
        if inside(n):
            yield n


def cells() -> Iterator[Hex]:
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(-RADIUS, RADIUS + 1):
            if inside((q, r)):
                yield (q, r)


def reachable(start: Hex, steps: int, free: Callable[[Hex], bool]) -> dict[Hex, int]:
    """Cells within ``steps`` moves through free cells (the start is always included)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if seen[h] == steps:
            continue
        for n in neighbors(h):
            if n not in seen and free(n):
                seen[n] = seen[h] + 1
                queue.append(n)
    return seen
