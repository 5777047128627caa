"""How good a board is for one player: a weighted sum of registered terms."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import hexgrid
from board import Board
from units import Archer, Healer, Unit

Term = Callable[[Board, int], float]
TERMS: dict[str, Term] = {}
WEIGHTS: dict[str, float] = {}


def term(weight: float) -> Callable[[Term], Term]:
    """Registers a term under its function's name."""

    def register(fn: Term) -> Term:
        TERMS[fn.__name__] = fn
        WEIGHTS[fn.__name__] = weight
        return fn

    return register


def _worth(units: list[Unit]) -> float:
    return sum(u.value for u in units)


@term(1.0)
def material(board: Board, me: int) -> float:
    return _worth(list(board.units_of(me))) - _worth(list(board.enemies_of(me)))


@term(0.6)
def threat(board: Board, me: int) -> float:
    return sum(u.threat(board) for u in board.units_of(me))


def exposure_of(board: Board, unit: Unit) -> float:
    """Damage the enemies could deal to ``unit`` if it stays where it is."""
    return float(
        sum(
            e.strike(unit)
            for e in board.enemies_of(unit.owner)
            if hexgrid.distance(e.pos, unit.pos) <= e.reach + e.speed
        )
    )


@term(-0.8)
def exposure(board: Board, me: int) -> float:
    return sum(exposure_of(board, u) * (1.5 if isinstance(u, (Archer, Healer)) else 1.0) for u in board.units_of(me))


@term(-0.3)
def center(board: Board, me: int) -> float:
    return float(sum(hexgrid.distance(u.pos, hexgrid.CENTER) for u in board.units_of(me)))


@term(0.5)
def mix(board: Board, me: int) -> float:
    return float(len(Counter(type(u).symbol for u in board.units_of(me))))


def evaluate(board: Board, me: int) -> float:
    return round(sum(WEIGHTS[name] * fn(board, me) for name, fn in TERMS.items()), 4)


def breakdown(board: Board, me: int) -> str:
    return " ".join(f"{name}={fn(board, me):.1f}" for name, fn in TERMS.items())
