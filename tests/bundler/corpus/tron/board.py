"""The light-cycle arena: a flat bytearray of walls, one byte per cell (0 is free, else player + 1)."""

from __future__ import annotations

from collections.abc import Iterator

import config

SIZE = config.WIDTH * config.HEIGHT


def _neighbor_table() -> list[tuple[tuple[str, int], ...]]:
    table = []
    for i in range(SIZE):
        x, y = i % config.WIDTH, i // config.WIDTH
        steps = []
        for name, (dx, dy) in config.DIRECTIONS.items():
            nx, ny = x + dx, y + dy
            if 0 <= nx < config.WIDTH and 0 <= ny < config.HEIGHT:
                steps.append((name, ny * config.WIDTH + nx))
        table.append(tuple(steps))
    return table


NEIGHBORS = _neighbor_table()


def index(x: int, y: int) -> int:
    return y * config.WIDTH + x


def coords(i: int) -> tuple[int, int]:
    return i % config.WIDTH, i // config.WIDTH


class Board:
    __slots__ = ("walls", "heads")

    def __init__(self, players: int) -> None:
        self.walls = bytearray(SIZE)
        self.heads = [config.DEAD] * players

    def free(self, i: int) -> bool:
        return not self.walls[i]

    def exits(self, i: int) -> Iterator[tuple[str, int]]:
        return ((name, j) for name, j in NEIGHBORS[i] if not self.walls[j])

    def occupy(self, player: int, i: int) -> None:
        self.walls[i] = player + 1
        self.heads[player] = i

    def release(self, player: int, i: int, previous: int) -> None:
        self.walls[i] = 0
        self.heads[player] = previous

    def erase(self, player: int) -> None:
        """A dead player's trail disappears."""
        mark = player + 1
        self.walls = bytearray(0 if v == mark else v for v in self.walls)
        self.heads[player] = config.DEAD

    def alive(self) -> list[int]:
        return [p for p, h in enumerate(self.heads) if h != config.DEAD]

    def filled(self) -> int:
        return sum(1 for v in self.walls if v)
