"""The position: every unit by id, and which cell each occupies."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import hexgrid
from hexgrid import Hex
from units import Unit


class Board:
    __slots__ = ("units", "occupied")

    def __init__(self, units: Iterable[Unit] = ()) -> None:
        self.units: dict[int, Unit] = {}
        self.occupied: dict[Hex, int] = {}
        for u in units:
            self.add(u)

    def add(self, unit: Unit) -> None:
        self.units[unit.uid] = unit
        self.occupied[unit.pos] = unit.uid

    def remove(self, uid: int) -> None:
        unit = self.units.pop(uid)
        del self.occupied[unit.pos]

    def move(self, uid: int, to: Hex) -> None:
        unit = self.units[uid]
        del self.occupied[unit.pos]
        unit.pos = to
        self.occupied[to] = uid

    def is_free(self, h: Hex) -> bool:
        return hexgrid.inside(h) and h not in self.occupied

    def units_of(self, owner: int) -> Iterator[Unit]:
        return (u for u in self.units.values() if u.owner == owner)

    def enemies_of(self, owner: int) -> Iterator[Unit]:
        return (u for u in self.units.values() if u.owner != owner)

    def copy(self) -> Board:
        return Board(u.copy() for u in self.units.values())

    def __len__(self) -> int:
        return len(self.units)
