"""Ranged kind: weak up close."""

from __future__ import annotations

import hexgrid

from .base import Unit


class Archer(Unit):
    symbol = "A"
    max_hp = 8
    reach = 3
    damage = 3
    cost = 14

    __slots__ = ()

    @classmethod
    def volley_range(cls) -> range:
        return range(2, cls.reach + 1)

    def strike(self, target: Unit) -> int:
        far = hexgrid.distance(self.pos, target.pos) in self.volley_range()
        return super().strike(target) if far else 1

    def attack_value(self, target: Unit) -> float:
        dealt = min(self.strike(target), target.hp)
        return dealt * target.cost / target.max_hp + (6.0 if dealt >= target.hp else 0.0)
