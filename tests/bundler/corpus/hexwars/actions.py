"""Commands a unit can be given; each knows how to change a board and how to print itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from board import Board
    from hexgrid import Hex


class Action:
    verb: ClassVar[str] = "WAIT"
    __slots__ = ("uid",)

    def __init__(self, uid: int) -> None:
        self.uid = uid

    def apply(self, board: Board) -> None:
        """Changes ``board`` (a copy the search owns)."""

    def args(self) -> tuple[object, ...]:
        return ()

    def __str__(self) -> str:
        return " ".join(str(a) for a in (self.verb, *self.args()))

    def __repr__(self) -> str:
        return f"<{self}>"


class Wait(Action):
    def __str__(self) -> str:
        return "WAIT"


class Move(Action):
    verb = "MOVE"
    __slots__ = ("to",)

    def __init__(self, uid: int, to: Hex) -> None:
        super().__init__(uid)
        self.to = to

    def apply(self, board: Board) -> None:
        board.move(self.uid, self.to)

    def args(self) -> tuple[object, ...]:
        return (self.uid, *self.to)


class Attack(Action):
    verb = "ATTACK"
    __slots__ = ("target",)

    def __init__(self, uid: int, target: int) -> None:
        super().__init__(uid)
        self.target = target

    def apply(self, board: Board) -> None:
        unit, victim = board.units[self.uid], board.units[self.target]
        victim.hp -= unit.strike(victim)
        if not victim.alive:
            board.remove(victim.uid)

    def args(self) -> tuple[object, ...]:
        return (self.uid, self.target)


class Heal(Attack):
    verb = "HEAL"
    __slots__ = ()

    def apply(self, board: Board) -> None:
        healer, patient = board.units[self.uid], board.units[self.target]
        patient.hp = min(patient.max_hp, patient.hp + getattr(healer, "heal", 0))
