"""Cells, the graph's distances and the per-turn state."""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field
from enum import Flag, auto
from functools import cache

from .constants import *  # noqa: F403


class Side(Flag):
    NONE = 0
    MINE = auto()
    THEIRS = auto()
    BOTH = MINE | THEIRS


@dataclass(slots=True)
class Cell:
    index: int
    kind: int
    resources: int
    neighbors: tuple[int, ...]
    my_ants: int = 0
    opp_ants: int = 0

    @property
    def side(self) -> Side:
        side = Side.NONE
        if self.my_ants:
            side |= Side.MINE
        if self.opp_ants:
            side |= Side.THEIRS
        return side

    @property
    def worth(self) -> float:
        if self.kind == EGG:  # noqa: F405
            return self.resources * EGG_WEIGHT  # noqa: F405
        return float(self.resources) if self.kind == CRYSTAL else 0.0  # noqa: F405


@dataclass
class Map:
    cells: list[Cell]
    my_bases: list[int]
    opp_bases: list[int]
    by_kind: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))

    def __post_init__(self) -> None:
        for cell in self.cells:
            self.by_kind[cell.kind].append(cell.index)

    @property
    def size(self) -> int:
        return len(self.cells)

    def distances(self, start: int) -> tuple[int, ...]:
        return _distances(tuple(c.neighbors for c in self.cells), start)

    def path(self, a: int, b: int) -> list[int]:
        """A shortest path from ``a`` to ``b`` (both included), preferring low cell indexes."""
        dist = self.distances(b)
        if dist[a] < 0:
            return []
        out = [a]
        while out[-1] != b:
            here = out[-1]
            out.append(min(n for n in self.cells[here].neighbors if n != NO_CELL and dist[n] == dist[here] - 1))  # noqa: F405
        return out


@cache
def _distances(graph: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    dist = [-1] * len(graph)
    dist[start] = 0
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for n in graph[i]:
            if n != NO_CELL and dist[n] < 0:  # noqa: F405
                dist[n] = dist[i] + 1
                queue.append(n)
    return tuple(dist)


@dataclass
class Turn:
    my_score: int
    opp_score: int
    total_ants: int = 0
    contested: list[int] = field(default_factory=list)
