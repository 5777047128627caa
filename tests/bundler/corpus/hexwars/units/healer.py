"""Support kind: heals allies instead of attacking."""

from __future__ import annotations

from typing import TYPE_CHECKING

import hexgrid

from .base import Unit

if TYPE_CHECKING:
    from board import Board


class Healer(Unit):
    symbol = "H"
    max_hp = 9
    damage = 1
    cost = 16
    heal = 3

    __slots__ = ()

    def attack_value(self, target: Unit) -> float:
        return 0.5 * min(self.strike(target), target.hp)

    def patients(self, board: Board) -> list[Unit]:
        return [
            u
            for u in board.units_of(self.owner)
            if u.uid != self.uid and u.hp < u.max_hp and hexgrid.distance(u.pos, self.pos) <= 1
        ]

    def heal_value(self, patient: Unit) -> float:
        restored = min(self.heal, patient.max_hp - patient.hp)
        return restored * patient.cost / patient.max_hp

    def threat(self, board: Board) -> float:
        return super().threat(board) + sum(self.heal_value(p) for p in self.patients(board))
