"""The abstract unit: what every kind shares; kinds register themselves by symbol."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

import hexgrid
from hexgrid import Hex

if TYPE_CHECKING:
    from board import Board


class Unit(ABC):
    symbol: ClassVar[str] = "?"
    max_hp: ClassVar[int] = 10
    speed: ClassVar[int] = 1
    reach: ClassVar[int] = 1
    damage: ClassVar[int] = 3
    cost: ClassVar[int] = 10
    kinds: ClassVar[dict[str, type[Unit]]] = {}

    __slots__ = ("uid", "owner", "pos", "hp")

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if cls.symbol in Unit.kinds:
            raise TypeError(f"two unit kinds use the symbol {cls.symbol!r}")
        Unit.kinds[cls.symbol] = cls

    def __init__(self, uid: int, owner: int, pos: Hex, hp: int | None = None) -> None:
        self.uid = uid
        self.owner = owner
        self.pos = pos
        self.hp = self.max_hp if hp is None else self.clamp(hp, 0, self.max_hp)

    @classmethod
    def from_fields(cls, fields: list[str]) -> Unit:
        """``uid owner symbol q r hp`` as the referee sends it."""
        uid, owner, symbol, q, r, hp = fields
        kind = cls.kinds[symbol]
        return kind(int(uid), int(owner), (int(q), int(r)), int(hp))

    @staticmethod
    def clamp(value: int, low: int, high: int) -> int:
        return max(low, min(high, value))

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def health(self) -> float:
        return self.hp / self.max_hp

    @property
    def value(self) -> float:
        """Material worth: cost scaled by remaining health."""
        return self.cost * (0.5 + 0.5 * self.health)

    def copy(self) -> Unit:
        return type(self)(self.uid, self.owner, self.pos, self.hp)

    def moves(self, board: Board) -> Iterator[Hex]:
        cells = hexgrid.reachable(self.pos, self.speed, board.is_free)
        yield from sorted(h for h in cells if h != self.pos)

    def targets(self, board: Board) -> list[Unit]:
        return [u for u in board.enemies_of(self.owner) if hexgrid.distance(self.pos, u.pos) <= self.reach]

    def strike(self, target: Unit) -> int:
        """Damage dealt to ``target`` (kinds adjust it)."""
        return self.damage

    @abstractmethod
    def attack_value(self, target: Unit) -> float:
        """How much attacking ``target`` is worth."""

    def threat(self, board: Board) -> float:
        """Damage this unit could deal next turn."""
        return float(sum(self.strike(t) for t in self.targets(board)))

    def describe(self) -> str:
        return f"{type(self).__name__.lower()}#{self.uid}@{self.pos}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.uid}, p{self.owner}, {self.pos}, hp={self.hp})"
