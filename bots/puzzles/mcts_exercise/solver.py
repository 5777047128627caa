"""The MCTS exercise on :mod:`bots.lib.mcts`.

Input: ``N C``, then ``N`` lines ``moves score`` (``moves`` is a word, one letter per move; the
score and ``C`` are real numbers such as ``30``, ``-3.5`` or ``0.1``). Each playout is recorded
as the puzzle defines it: walk down the tree along the moves, add at most one new node (the
first missing one) and stop there, then add one visit and the score to every node of the path,
the root included (:meth:`~bots.lib.mcts.Node.add_line`). The answer is the line UCB1 picks from
the root with the given ``C``, ties going to the smaller letter, until a node has no child
(:func:`~bots.lib.mcts.principal_line`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bots.lib.mcts import Node, principal_line

__all__ = ["build_tree", "parse", "solve", "solve_text"]


def parse(lines: Iterable[str]) -> tuple[float, list[tuple[str, float]]]:
    """``(C, [(moves, score), ...])`` from the puzzle's input lines; blank lines and surrounding
    spaces are ignored, lines after the ``N`` playouts too."""
    it = (line.split() for line in lines if line.strip())
    head = next(it)
    count, c = int(head[0]), float(head[1])
    playouts = []
    for _ in range(count):
        moves, score = next(it)
        playouts.append((moves, float(score)))
    return c, playouts


def build_tree(playouts: Iterable[tuple[str, float]]) -> Node[str, None]:
    """The tree the playouts build, one :meth:`~bots.lib.mcts.Node.add_line` each, in order."""
    root: Node[str, None] = Node()
    for moves, score in playouts:
        root.add_line(moves, score)
    return root


def solve(c: float, playouts: Iterable[tuple[str, float]]) -> str:
    """The letters UCB1 with constant ``c`` chooses from the root of the tree the playouts build."""
    return "".join(principal_line(build_tree(playouts), c))


def solve_text(text: str) -> str:
    """The answer to a whole input."""
    c, playouts = parse(text.splitlines())
    return solve(c, playouts)
