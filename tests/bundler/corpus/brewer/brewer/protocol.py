"""Reading a turn and writing a move."""

from __future__ import annotations

import sys

from .model import Book, Kind, Move, Recipe, State

KINDS = {"CAST": Kind.CAST, "BREW": Kind.BREW}


def read_turn() -> tuple[Book, State] | None:
    """The next turn: ``count``, ``count`` lines ``uid TYPE d0 d1 d2 d3 price castable``, then
    ``i0 i1 i2 i3 score``; None when the input ends."""
    line = sys.stdin.readline()
    if not line:
        return None
    book = Book()
    exhausted = set()
    for _ in range(int(line)):
        uid, kind, *numbers = sys.stdin.readline().split()
        d0, d1, d2, d3, price, castable = map(int, numbers)
        match kind:
            case "CAST" | "BREW":
                recipe = Recipe(price, int(uid), (d0, d1, d2, d3), KINDS[kind])
            case _:
                raise ValueError(f"unknown action type {kind!r}")
        book.add(recipe)
        if recipe.kind is Kind.CAST and not castable:
            exhausted.add(recipe.uid)
    i0, i1, i2, i3, score = map(int, sys.stdin.readline().split())
    return book, State((i0, i1, i2, i3), exhausted=frozenset(exhausted), score=score)


def format_move(move: Move, note: str = "") -> str:
    match move:
        case Move(kind=Kind.CAST, uid=uid) | Move(kind=Kind.BREW, uid=uid):
            text = f"{move.kind.name} {uid}"
        case Move(kind=Kind.REST):
            text = "REST"
        case _:
            text = "WAIT"
    return f"{text} {note}".rstrip()
