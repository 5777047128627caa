"""One-move lookahead: the fallback, and a second opinion in the debug output."""

from __future__ import annotations

from typing import NamedTuple

from ..model import WAIT, Book, Move, State

DEPTH = 1


class Node(NamedTuple):
    value: float
    move: Move


def evaluate(state: State, book: Book) -> float:
    """Cruder than the beam's: score, then raw ingredient count."""
    return state.score * 10 + state.total + sum(state.inventory[1:])


def greedy_move(state: State, book: Book) -> Node:
    options = [Node(evaluate(state.apply(m, book), book), m) for m in state.legal_moves(book)]
    if not options:
        return Node(evaluate(state, book), WAIT)
    return max(options, key=lambda n: n.value)
