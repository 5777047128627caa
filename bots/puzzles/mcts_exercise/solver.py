"""The MCTS exercise on :mod:`bots.lib.mcts`.

Input: ``N C``, then ``N`` lines ``moves score`` (``moves`` is a word, one letter per move; the
score is a real number). Each playout is recorded as the puzzle defines it: walk down the tree
along the moves, add at most one new node (the first missing one) and stop there, then add one
visit and the score to every node of the path, the root included (:meth:`Node.add_line`). The
answer is the line UCB1 picks from the root with the given ``C``, ties going to the smaller
letter, until a node has no child (:func:`principal_line`).
"""

from __future__ import annotations

from typing import Iterable

from bots.lib.mcts import Node, principal_line

__all__ = ["parse", "solve"]


def parse(lines: Iterable[str]) -> tuple[float, list[tuple[str, float]]]:
    """``(C, [(moves, score), ...])`` from the puzzle's input lines."""
    it = iter(lines)
    head = next(it).split()
    count, c = int(head[0]), float(head[1])
    playouts = []
    for _ in range(count):
        moves, score = next(it).split()
        playouts.append((moves, float(score)))
    return c, playouts


def solve(c: float, playouts: Iterable[tuple[str, float]]) -> str:
    """The letters UCB1 chooses from the root of the tree the playouts build."""
    root: Node[str, None] = Node()
    for moves, score in playouts:
        root.add_line(moves, score)
    return "".join(principal_line(root, c))
