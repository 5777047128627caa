"""Beam search: layers of states, the best WIDTH kept, duplicates merged."""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from ..model import Book, Move, State
from .heuristics import evaluate

DEPTH = 6
WIDTH = 60


@dataclass(order=True)
class Node:
    score: float
    tie: int
    state: State = field(compare=False)
    first: Move | None = field(default=None, compare=False)
    depth: int = field(default=0, compare=False)


def beam_search(root: State, book: Book, depth: int = DEPTH, width: int = WIDTH) -> tuple[Node | None, int]:
    """The best node found (its ``first`` move is the answer) and the number of nodes expanded."""
    counter = itertools.count()
    layer = [Node(evaluate(root, book), next(counter), root)]
    best: Node | None = None
    expanded = 0
    for d in range(1, depth + 1):
        seen: dict[object, Node] = {}
        for node in layer:
            for move in node.state.legal_moves(book):
                expanded += 1
                child = node.state.apply(move, book)
                key = child.key()
                candidate = Node(evaluate(child, book), next(counter), child, node.first or move, d)
                kept = seen.get(key)
                if kept is None or candidate.score > kept.score:
                    seen[key] = candidate
        if not seen:
            break
        layer = heapq.nlargest(width, seen.values(), key=lambda n: (n.score, -n.tie))
        if best is None or layer[0].score > best.score:
            best = layer[0]
    return best, expanded
