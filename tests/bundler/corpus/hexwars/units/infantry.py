"""Melee kinds: infantry holds the line, knights charge."""

from __future__ import annotations

from typing import TYPE_CHECKING

import hexgrid

from .base import Unit

if TYPE_CHECKING:
    from board import Board


class Infantry(Unit):
    symbol = "I"
    max_hp = 14
    damage = 4
    cost = 12

    __slots__ = ()

    def attack_value(self, target: Unit) -> float:
        dealt = min(self.strike(target), target.hp)
        kill = 8.0 if dealt >= target.hp else 0.0
        return dealt * target.cost / target.max_hp + kill

    def threat(self, board: Board) -> float:
        # shoulder to shoulder: allies next to this unit make it more dangerous
        allies = sum(1 for u in board.units_of(self.owner) if hexgrid.distance(u.pos, self.pos) == 1)
        return super().threat(board) * (1.0 + 0.1 * allies)


class Knight(Infantry):
    symbol = "K"
    max_hp = 12
    speed = 3
    damage = 5
    cost = 18

    __slots__ = ()

    @property
    def charge(self) -> int:
        """Extra damage while healthy."""
        return 2 if self.health > 0.5 else 0

    def strike(self, target: Unit) -> int:
        return super().strike(target) + self.charge

    def attack_value(self, target: Unit) -> float:
        return super().attack_value(target) * 1.1
