"""Game model: ingredients, spells and orders, moves, and the state they change."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum, auto

CAPACITY = 10


class Tier(IntEnum):
    BLUE = 0
    GREEN = 1
    ORANGE = 2
    YELLOW = 3


class Kind(Enum):
    CAST = auto()
    BREW = auto()
    REST = auto()
    WAIT = auto()


COSTS: dict[Kind, int] = {Kind.CAST: 1, Kind.BREW: 0, Kind.REST: 1, Kind.WAIT: 0}
LABELS = {kind: kind.name for kind in Kind}


@dataclass(frozen=True, order=True)
class Recipe:
    """A spell (``price`` 0) or an order: adds ``delta`` to the inventory."""

    price: int
    uid: int
    delta: tuple[int, ...] = field(default=(0, 0, 0, 0))
    kind: Kind = field(default=Kind.CAST, compare=False)

    def __post_init__(self) -> None:
        if len(self.delta) != len(Tier):
            raise ValueError(f"recipe {self.uid}: {len(self.delta)} ingredients")
        object.__setattr__(self, "delta", tuple(self.delta))

    @property
    def gain(self) -> int:
        """Ingredient value produced (tiers weigh 1, 2, 3, 4)."""
        return sum((t + 1) * d for t, d in zip(Tier, self.delta))


@dataclass(frozen=True)
class Move:
    kind: Kind
    uid: int = -1

    def __str__(self) -> str:
        match self.kind:
            case Kind.CAST | Kind.BREW:
                return f"{LABELS[self.kind]} {self.uid}"
            case Kind.REST:
                return "REST"
            case _:
                return "WAIT"


REST = Move(Kind.REST)
WAIT = Move(Kind.WAIT)


@dataclass
class Book:
    """What can be cast and brewed this turn (fixed during the search)."""

    spells: dict[int, Recipe] = field(default_factory=dict)
    orders: dict[int, Recipe] = field(default_factory=dict)

    def add(self, recipe: Recipe) -> None:
        match recipe.kind:
            case Kind.CAST:
                self.spells[recipe.uid] = recipe
            case Kind.BREW:
                self.orders[recipe.uid] = recipe
            case other:
                raise ValueError(f"not a recipe kind: {other}")


@dataclass
class State:
    inventory: tuple[int, ...]
    exhausted: frozenset[int] = frozenset()
    brewed: tuple[int, ...] = ()
    score: int = 0
    turns: int = 0
    total: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.inventory = tuple(self.inventory)
        self.total = sum(self.inventory)
        if self.total > CAPACITY or min(self.inventory) < 0:
            raise ValueError(f"impossible inventory {self.inventory}")

    def key(self) -> tuple[tuple[int, ...], frozenset[int], tuple[int, ...]]:
        return self.inventory, self.exhausted, self.brewed

    def can_use(self, recipe: Recipe) -> bool:
        after = [a + d for a, d in zip(self.inventory, recipe.delta)]
        return min(after) >= 0 and sum(after) <= CAPACITY

    def legal_moves(self, book: Book) -> Iterator[Move]:
        for uid, order in sorted(book.orders.items()):
            if uid not in self.brewed and self.can_use(order):
                yield Move(Kind.BREW, uid)
        for uid, spell in sorted(book.spells.items()):
            if uid not in self.exhausted and self.can_use(spell):
                yield Move(Kind.CAST, uid)
        if self.exhausted:
            yield REST

    def apply(self, move: Move, book: Book) -> State:
        match move.kind:
            case Kind.CAST:
                spell = book.spells[move.uid]
                inventory = tuple(a + d for a, d in zip(self.inventory, spell.delta))
                return replace(
                    self,
                    inventory=inventory,
                    exhausted=self.exhausted | {move.uid},
                    turns=self.turns + COSTS[move.kind],
                )
            case Kind.BREW:
                order = book.orders[move.uid]
                inventory = tuple(a + d for a, d in zip(self.inventory, order.delta))
                return replace(
                    self,
                    inventory=inventory,
                    brewed=(*self.brewed, move.uid),
                    score=self.score + order.price,
                    turns=self.turns + COSTS[move.kind],
                )
            case Kind.REST:
                return replace(self, exhausted=frozenset(), turns=self.turns + COSTS[move.kind])
            case Kind.WAIT:
                return replace(self, turns=self.turns + 1)
        raise AssertionError(move)
