"""Monte Carlo tree search with UCB1 (UCT), for game bots and for trees built from given playouts.

A *playout* walks down the tree from the root, choosing at each node the child with the best UCB1
value ``mean + C * sqrt(ln(parent visits) / child visits)``, until it reaches a node that still
has untried moves (or no moves at all). It then *expands* exactly one new node (one untried move),
scores the new node's state with a *playout* or evaluation supplied by the game, and
*backpropagates*: every node on the path, the root included, gets one more visit and the score
added to its total. After the last playout, the move played is the root's most visited child
(ties: the better mean), the most robust choice.

The tree stores the game state in each node (the game's ``moves`` callback returns each move with
the state it leads to), so selection never re-applies moves. Nodes hold no link to their parent:
a playout keeps its path in a list, so a tree has no reference cycles and is freed at once when
the search drops it, instead of waiting for Python's cyclic garbage collector, whose full passes
over big trees would cost a bot tens of milliseconds at random moments. Rewards should be roughly within
[-1, 1] (scale them) for the usual exploration constants (0.5 to 2) to make sense.

:class:`Node` and :func:`ucb1` are shared with the MCTS exercise puzzle, whose tree is built from
given move sequences (:meth:`Node.add_line`) and read by :func:`principal_line`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, Sequence, TypeVar

__all__ = ["Node", "ucb1", "backpropagate", "select_child", "principal_line", "SearchResult",
           "uct_search"]

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


def ucb1(total: float, visits: int, parent_visits: int, c: float) -> float:
    """The UCB1 value of a child: its mean score plus the exploration term."""
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)


class Node(Generic[M, S]):
    """One node: the move that led here, the state, statistics and children (in creation order)."""

    __slots__ = ("move", "state", "children", "untried", "visits", "total")

    def __init__(self, move: M | None = None, state: S | None = None) -> None:
        self.move = move
        self.state = state
        self.children: list[Node[M, S]] = []
        self.untried: list[tuple[M, S]] | None = None
        """Moves not expanded yet, ``None`` until the node's moves are generated."""
        self.visits = 0
        self.total = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def child(self, move: M) -> "Node[M, S] | None":
        for c in self.children:
            if c.move == move:
                return c
        return None

    def add_child(self, move: M, state: S | None = None) -> "Node[M, S]":
        node: Node[M, S] = Node(move, state)
        self.children.append(node)
        return node

    def add_line(self, moves: Sequence[M], score: float) -> "Node[M, S]":
        """Record a given playout: follow ``moves`` down the existing tree, create at most one
        node (the first missing one) and stop there, then backpropagate ``score`` from the node
        reached. Returns that node."""
        node = self
        path = [node]
        for move in moves:
            nxt = node.child(move)
            if nxt is None:
                node = node.add_child(move)
                path.append(node)
                break
            node = nxt
            path.append(node)
        backpropagate(path, score)
        return node

    def size(self) -> int:
        """Nodes in this subtree, this one included."""
        count = 0
        todo = [self]
        while todo:
            node = todo.pop()
            count += 1
            todo.extend(node.children)
        return count


def backpropagate(path: Sequence[Node[M, S]], score: float) -> None:
    """One more visit and ``score`` for every node of ``path`` (the root first)."""
    for node in path:
        node.visits += 1
        node.total += score


def select_child(node: Node[M, S], c: float) -> Node[M, S]:
    """The child with the best UCB1 value; among equal values, the smallest move."""
    log_n = math.log(node.visits)
    best = node.children[0]
    best_value = best.total / best.visits + c * math.sqrt(log_n / best.visits)
    for child in node.children[1:]:
        value = child.total / child.visits + c * math.sqrt(log_n / child.visits)
        if value > best_value or (value == best_value and child.move < best.move):  # type: ignore[operator]
            best, best_value = child, value
    return best


def principal_line(root: Node[M, S], c: float) -> list[M]:
    """From the root, take the UCB1-best child (:func:`select_child`) until a node has no
    children; the moves taken."""
    line: list[M] = []
    node = root
    while node.children:
        node = select_child(node, c)
        line.append(node.move)  # type: ignore[arg-type]
    return line


@dataclass
class SearchResult(Generic[M, S]):
    root: Node[M, S]
    best: Node[M, S] | None
    """The root's most visited child (ties: the better mean); ``None`` if the root has no move."""
    playouts: int


def uct_search(
    state: S,
    moves: Callable[[S], list[tuple[M, S]]],
    playout: Callable[[S], float],
    stop: Callable[[int], bool],
    c: float = 0.7,
) -> SearchResult[M, S]:
    """Run playouts from ``state`` until ``stop(playouts done)`` is true (checked before each).

    ``moves(state)`` lists ``(move, next state)``; an empty list means a terminal state, which
    ``playout`` scores directly. Untried moves are expanded last first (put the moves to try
    first at the end of the list).
    """
    root: Node[M, S] = Node(None, state)
    root.untried = moves(state)
    playouts = 0
    while not stop(playouts):
        node = root
        path = [root]
        # Selection: descend while the node is fully expanded and has children.
        while not node.untried and node.children:
            node = select_child(node, c)
            path.append(node)
        # Expansion: one new node.
        if node.untried:
            move, child_state = node.untried.pop()
            node = node.add_child(move, child_state)
            node.untried = moves(child_state)
            path.append(node)
        backpropagate(path, playout(node.state))  # type: ignore[arg-type]
        playouts += 1
    best = None
    for child in root.children:
        if best is None or (child.visits, child.mean) > (best.visits, best.mean):
            best = child
    return SearchResult(root, best, playouts)
