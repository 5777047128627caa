"""Monte Carlo tree search with UCB1 (UCT), for game bots and for trees built from given playouts.

Vocabulary. A *node* stands for a state reached from the root by a line of moves; it counts its
``visits`` and the ``total`` of the scores backpropagated through it. The UCB1 value of a child
``M`` of a node ``N`` is ``M.total / M.visits + C * sqrt(ln(N.visits) / M.visits)``
(:func:`ucb1`): its mean score plus an exploration bonus that shrinks as the child is visited.

One *iteration* of the game search (:class:`Search`, :func:`uct_search`):

1. selection: from the root, while the node has no untried move and has children, go to the
   child with the best UCB1 value (:func:`select_child`; equal values: the smaller move);
2. expansion: if the node reached has an untried move, create exactly one child for it;
3. evaluation: score the new node's state (or, if nothing could be expanded, the state of the
   terminal node reached) with the game's playout/evaluation callback;
4. backpropagation: every node of the path, the root included, gets one more visit and the score
   (:func:`backpropagate`). Scores are seen from the root player's side; keep them roughly within
   [-1, 1] for the usual constants (C from 0.5 to 2) to make sense.

The search stops when ``stop(iterations done)`` says so; it is asked once before each iteration,
so a bot passes a clock check or a fixed budget (``lambda n: n >= 5000``). The move to play is
the root's most visited child, ties going to the better mean (:func:`best_child`).

States are stored in the nodes (computed once, when the node is created), so selection never
re-applies moves: memory for speed. Nodes hold no link to their parent: an iteration keeps its
path in a list, so a tree has no reference cycles and is freed as soon as it is dropped, not by
Python's cyclic garbage collector (whose passes over a big tree cost a bot milliseconds at
random moments). Nothing is reused between searches: each call builds a fresh tree from the
state it is given, which is the simple and safe choice for a bot whose opponent's moves are not
in the tree.

The same :class:`Node`, :func:`select_child` and :func:`principal_line` serve the MCTS exercise
puzzle, whose tree is built from given playouts (:meth:`Node.add_line`) and read from the root by
repeated UCB1 choices. Standard library only, nothing from ``arena``/``referee``, so a bot using
this module bundles into one file.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Generic, TypeVar

__all__ = [
    "Node",
    "Search",
    "SearchResult",
    "backpropagate",
    "best_child",
    "principal_line",
    "select_child",
    "ucb1",
    "uct_search",
]

S = TypeVar("S")
"""A game state."""
M = TypeVar("M")
"""A move; moves of one node must be comparable with ``<`` (only used to break UCB1 ties)."""


def ucb1(total: float, visits: int, parent_visits: int, c: float) -> float:
    """UCB1 value of a child with ``visits`` (> 0) visits and score sum ``total`` whose parent
    has ``parent_visits`` (>= 1) visits:
    ``total / visits + c * sqrt(ln(parent_visits) / visits)``."""
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)


class Node(Generic[M, S]):
    """A node of the tree: the move leading to it, the state it stands for, its statistics and its
    children (in creation order)."""

    __slots__ = ("move", "state", "children", "untried", "visits", "total")

    move: M | None
    """The move from the parent; ``None`` at the root."""
    state: S | None
    """The state reached (game search); ``None`` in trees built from given playouts."""
    children: list[Node[M, S]]
    untried: list[Any] | None
    """Moves still to expand (the last one first); ``None`` until they are generated."""
    visits: int
    total: float
    """Sum of the scores backpropagated through this node."""

    def __init__(self, move: M | None = None, state: S | None = None) -> None:
        self.move = move
        self.state = state
        self.children = []
        self.untried = None
        self.visits = 0
        self.total = 0.0

    @property
    def mean(self) -> float:
        """Average score, 0 for a node never visited."""
        return self.total / self.visits if self.visits else 0.0

    def child(self, move: M) -> Node[M, S] | None:
        """The child reached by ``move``, or ``None``."""
        for node in self.children:
            if node.move == move:
                return node
        return None

    def add_child(self, move: M, state: S | None = None) -> Node[M, S]:
        """Create, attach and return a new child (no visit yet)."""
        node: Node[M, S] = Node(move, state)
        self.children.append(node)
        return node

    def add_line(self, moves: Sequence[M], score: float) -> Node[M, S]:
        """Record one given playout (the MCTS exercise's rule): follow ``moves`` down the existing
        tree, create at most one node, the first one missing, and stop there; then add one visit
        and ``score`` to every node of the path, this one included. Returns the last node of the
        path. A line already wholly in the tree only updates the existing nodes."""
        node = self
        path = [node]
        for move in moves:
            nxt = node.child(move)
            if nxt is None:
                path.append(node.add_child(move))
                break
            node = nxt
            path.append(node)
        backpropagate(path, score)
        return path[-1]

    def size(self) -> int:
        """Number of nodes in this subtree, this one included."""
        count = 0
        todo: list[Node[M, S]] = [self]
        while todo:
            node = todo.pop()
            count += 1
            todo.extend(node.children)
        return count


def backpropagate(path: Sequence[Node[M, S]], score: float) -> None:
    """Add one visit and ``score`` to every node of ``path``."""
    for node in path:
        node.visits += 1
        node.total += score


def select_child(node: Node[M, S], c: float) -> Node[M, S]:
    """The child of ``node`` (which must have children, all visited) with the greatest
    :func:`ucb1` value; among equal values, the one with the smaller move.

    The formula is :func:`ucb1`'s, written inline with the logarithm taken once: this runs at
    every level of every iteration."""
    children = node.children
    log_n = math.log(node.visits)
    best = children[0]
    best_value = best.total / best.visits + c * math.sqrt(log_n / best.visits)
    for i in range(1, len(children)):
        child = children[i]
        value = child.total / child.visits + c * math.sqrt(log_n / child.visits)
        # Equal values: the smaller move (moves must support ``<``).
        if value > best_value or (value == best_value and child.move < best.move):  # type: ignore
            best, best_value = child, value
    return best


def principal_line(root: Node[M, S], c: float) -> list[M]:
    """The moves taken from ``root`` by repeated :func:`select_child` until a node without
    children (an empty list if the root has none)."""
    line: list[M] = []
    node = root
    while node.children:
        node = select_child(node, c)
        line.append(node.move)  # type: ignore[arg-type]
    return line


def best_child(root: Node[M, S]) -> Node[M, S] | None:
    """The move to play: the most visited child, ties to the better mean, then to the first
    created; ``None`` if ``root`` has no children."""
    best: Node[M, S] | None = None
    for child in root.children:
        if best is None or child.visits > best.visits or (child.visits == best.visits and child.mean > best.mean):
            best = child
    return best


class SearchResult(Generic[M, S]):
    """What a search returns: its tree, the chosen child and the number of iterations."""

    __slots__ = ("root", "best", "playouts")

    def __init__(self, root: Node[M, S], best: Node[M, S] | None, playouts: int) -> None:
        self.root = root
        self.best = best
        """:func:`best_child` of the root; ``None`` if the root state has no move."""
        self.playouts = playouts
        """Iterations run (each one a playout or evaluation); equals ``root.visits``."""

    @property
    def move(self) -> M | None:
        """The chosen move, ``None`` if there is none."""
        return None if self.best is None else self.best.move

    def __repr__(self) -> str:
        return f"SearchResult(move={self.move!r}, playouts={self.playouts}, nodes={self.root.size()})"


def _grow(
    root: Node[M, S],
    untried_of: Callable[[S], list[Any]],
    expand: Callable[[S, Any], tuple[M, S]],
    evaluate: Callable[[S], float],
    stop: Callable[[int], bool],
    c: float,
) -> int:
    """The iteration loop shared by :class:`Search` and :func:`uct_search`: ``untried_of(state)``
    lists a new node's untried entries, ``expand(state, entry)`` turns one into ``(move, child
    state)``. Returns the number of iterations run."""
    if root.untried is None:
        root.untried = untried_of(root.state)  # type: ignore[arg-type]
    done = 0
    while not stop(done):
        node = root
        path = [root]
        while not node.untried and node.children:
            node = select_child(node, c)
            path.append(node)
        if node.untried:
            move, state = expand(node.state, node.untried.pop())  # type: ignore[arg-type]
            node = node.add_child(move, state)
            node.untried = untried_of(state)
            path.append(node)
        backpropagate(path, evaluate(node.state))  # type: ignore[arg-type]
        done += 1
    return done


class Search(Generic[S, M]):
    """UCT over a game described by four callbacks; build it once, call :meth:`run` every turn
    (each run starts a fresh tree).

    - ``legal_moves(state)``: the moves available in a non-terminal state;
    - ``apply(state, move)``: the state the move leads to (a new object; ``state`` is not changed);
    - ``evaluate(state)``: a score for the state, from the root player's side, e.g. the result of
      a random playout from it (called once per iteration, on the new node or on a terminal node);
    - ``is_terminal(state)``: whether the game is over (no move is expanded from such a state).

    Moves are applied lazily, one per expansion. Without ``rng`` untried moves are expanded in
    reverse order of ``legal_moves`` (the last one first); with ``rng`` in an order shuffled by it.
    """

    __slots__ = ("legal_moves", "apply", "evaluate", "is_terminal", "c", "rng")

    def __init__(
        self,
        legal_moves: Callable[[S], Sequence[M]],
        apply: Callable[[S, M], S],
        evaluate: Callable[[S], float],
        is_terminal: Callable[[S], bool],
        c: float = math.sqrt(2.0),
        rng: Random | None = None,
    ) -> None:
        self.legal_moves = legal_moves
        self.apply = apply
        self.evaluate = evaluate
        self.is_terminal = is_terminal
        self.c = c
        """The exploration constant of :func:`ucb1`."""
        self.rng = rng

    def untried(self, state: S) -> list[M]:
        """The moves a new node of ``state`` will expand, popped from the end."""
        if self.is_terminal(state):
            return []
        moves = list(self.legal_moves(state))
        if self.rng is not None:
            self.rng.shuffle(moves)
        return moves

    def run(self, state: S, stop: Callable[[int], bool]) -> SearchResult[M, S]:
        """Search from ``state`` until ``stop(iterations done)`` is true (asked before each
        iteration, so ``stop(0)`` true means no iteration at all)."""
        apply = self.apply
        root: Node[M, S] = Node(None, state)
        done = _grow(root, self.untried, lambda s, m: (m, apply(s, m)), self.evaluate, stop, self.c)
        return SearchResult(root, best_child(root), done)


def uct_search(
    state: S,
    moves: Callable[[S], list[tuple[M, S]]],
    playout: Callable[[S], float],
    stop: Callable[[int], bool],
    c: float = 0.7,
) -> SearchResult[M, S]:
    """The same search with the moves and their states generated together, for a game that
    computes them at once: ``moves(state)`` lists ``(move, next state)`` pairs, an empty list
    meaning a terminal state, which ``playout`` then scores directly. The pairs are expanded
    from the end of the list (put the moves to try first last). A fresh tree per call."""
    root: Node[M, S] = Node(None, state)
    done = _grow(root, moves, lambda s, pair: pair, playout, stop, c)
    return SearchResult(root, best_child(root), done)
