"""The board: walls, gems, monsters and the runner, rebuilt from the rows of each turn."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import config

Pos = tuple[int, int]

# neighbours of a cell, per wall layout: the walls never change, so this fills once per game
cache: dict[tuple[int, Pos], tuple[tuple[str, Pos], ...]] = {}


@lru_cache(maxsize=1 << 14)
def manhattan(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class Grid:
    __slots__ = ("width", "height", "walls", "gems", "monsters", "me", "energy", "score", "_key")

    def __init__(self, rows: list[str], energy: int, score: int) -> None:
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        self.walls: set[Pos] = set()
        self.gems: set[Pos] = set()
        self.monsters: list[Pos] = []
        self.me: Pos = (-1, -1)
        self.energy = energy
        self.score = score
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch == "#":
                    self.walls.add((x, y))
                elif ch == "*":
                    self.gems.add((x, y))
                elif ch == "M":
                    self.monsters.append((x, y))
                elif ch == "@":
                    self.me = (x, y)
        self._key = hash(frozenset(self.walls))

    @property
    def key(self) -> int:
        """Identifies the wall layout (for the caches)."""
        return self._key

    def inside(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def passable(self, p: Pos) -> bool:
        return self.inside(p) and p not in self.walls

    def neighbors(self, p: Pos) -> Iterator[tuple[str, Pos]]:
        found = cache.get((self._key, p))
        if found is None:
            steps = []
            for name in config.ORDER:
                dx, dy = config.DIRECTIONS[name]
                q = (p[0] + dx, p[1] + dy)
                if self.passable(q):
                    steps.append((name, q))
            found = cache[(self._key, p)] = tuple(steps)
        yield from found

    def danger(self, p: Pos) -> int:
        """How threatened a cell is: closer monsters count more."""
        total = 0
        for m in self.monsters:
            d = manhattan(p, m)
            if d <= config.MONSTER_RADIUS:
                total += config.MONSTER_RADIUS + 1 - d
        return total

    def render(self) -> str:
        lines = []
        for y in range(self.height):
            row = []
            for x in range(self.width):
                p = (x, y)
                if p == self.me:
                    row.append("@")
                elif p in self.walls:
                    row.append("#")
                elif p in self.monsters:
                    row.append("M")
                elif p in self.gems:
                    row.append("*")
                else:
                    row.append(".")
            lines.append("".join(row))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Grid({self.width}x{self.height}, gems={len(self.gems)}, me={self.me}, energy={self.energy})"
