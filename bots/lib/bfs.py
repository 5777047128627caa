"""Breadth-first search with pluggable pruning: shortest move sequences in a one-move-one-step graph.

When every move costs the same (one turn), breadth-first search finds the shortest sequence of
moves to every state it reaches: it expands the states one *layer* at a time (layer ``d`` = the
states first reached after ``d`` moves), so the first time a state is reached is by a shortest
path. Two ingredients make it practical in a game bot:

- **Pruning**: before a child is queued, a *pruner* decides whether it is worth keeping. The
  simplest pruner, :class:`Dedupe`, keeps each state once (the first, shortest, time). A game can
  do much better with *dominance*: if a kept state is at least as good as the new one in every
  respect and was reached no later, the new one can go (see the Fall Challenge planner,
  ``bots/fall2020/bfs/planner.py``, whose three rules keep every shortest distance exact while
  cutting the graph by orders of magnitude). A pruner is any object with
  ``admit(child, depth) -> bool``; it is also shown the start state (depth 0) so that it can
  record it, and may keep whatever tables it likes between calls.
- **Parent links**: every kept state gets a number (its position in :attr:`BfsResult.states`); the
  search records the parent's number and the move that led to it. The path to any state is
  rebuilt by walking the links back to the start: no per-node copy of the path is ever made, and a
  bot only rebuilds the one path it plays (usually only its first move).

The search stops cleanly when its turn limit (``bots.lib.timer``: ``done(nodes)``, asked with the
number of children generated so far, before each state is expanded) says so, when ``max_depth``
layers are done, or when a layer has no child left. Whatever was kept stays valid: every kept
state's depth is its shortest distance (within the pruner's promise), even in a layer cut short.

The search knows nothing of games: states are any hashable or unhashable values the ``expand``
function understands (a packed ``int`` is the fastest), moves any values it yields.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from .timer import TurnLimit

__all__ = ["Pruner", "Dedupe", "KeepAll", "BfsResult", "bfs"]

S = TypeVar("S")
M = TypeVar("M")
S_contra = TypeVar("S_contra", contravariant=True)


class Pruner(Protocol[S_contra]):
    """Decides, child by child, what the search keeps."""

    def admit(self, state: S_contra, depth: int) -> bool:
        """True to keep ``state``, just reached at ``depth`` (moves from the start).

        Called once for the start state (depth 0; its answer is ignored: the start is always kept)
        and then for every generated child, in breadth-first order: depths never decrease.
        """


class Dedupe(Generic[S]):
    """Plain BFS: keep each state the first time it is reached (states must be hashable).

    ``key`` maps a state to what identifies it (default: the state itself).
    """

    __slots__ = ("seen", "key")

    def __init__(self, key: Callable[[S], Hashable] | None = None) -> None:
        self.seen: set[Hashable] = set()
        self.key = key

    def admit(self, state: S, depth: int) -> bool:
        k = state if self.key is None else self.key(state)
        if k in self.seen:
            return False
        self.seen.add(k)
        return True


class KeepAll:
    """No pruning at all: the full search tree (only for tiny experiments; it grows exponentially)."""

    __slots__ = ()

    def admit(self, state: object, depth: int) -> bool:
        return True


@dataclass
class BfsResult(Generic[S, M]):
    """What :func:`bfs` kept, with the links to rebuild any path.

    Kept states are numbered in the order they were kept (the start is 0); ``states[i]``,
    ``parents[i]`` (-1 for the start) and ``moves[i]`` (the move from the parent, ``None`` for the
    start) describe state ``i``; the states of depth ``d`` are numbers
    ``layers[d] <= i < layers[d + 1]`` (the last layer ends at ``len(states)``).
    """

    states: list[S] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    moves: list[M | None] = field(default_factory=list)
    layers: list[int] = field(default_factory=list)
    """Number of the first state of each depth (``layers[0] == 0``)."""
    generated: int = 0
    """Children produced by ``expand`` (before pruning)."""
    admitted: int = 0
    """Children the pruner kept (``len(states) - 1``)."""
    expanded: int = 0
    """States whose children were generated."""
    finished: bool = False
    """True when the search ran out of depth or of children, not out of time or budget."""

    @property
    def depth(self) -> int:
        """The deepest layer holding a kept state (possibly not complete when cut short)."""
        return len(self.layers) - 1

    def layer(self, d: int) -> range:
        """Numbers of the kept states of depth ``d``."""
        end = self.layers[d + 1] if d + 1 < len(self.layers) else len(self.states)
        return range(self.layers[d], end)

    def depth_of(self, node: int) -> int:
        """The depth (shortest distance from the start) of kept state ``node``."""
        return bisect_right(self.layers, node) - 1

    def path(self, node: int) -> list[M]:
        """The moves from the start to kept state ``node``, first move first."""
        moves: list[M] = []
        parents = self.parents
        while node > 0:
            moves.append(self.moves[node])  # type: ignore[arg-type]
            node = parents[node]
        moves.reverse()
        return moves

    def first_move(self, node: int) -> M | None:
        """The first move towards kept state ``node`` (``None`` for the start itself)."""
        if node <= 0:
            return None
        parents = self.parents
        while parents[node] > 0:
            node = parents[node]
        return self.moves[node]


def bfs(
    start: S,
    expand: Callable[[S], Iterable[tuple[M, S]]],
    prune: Pruner[S] | None,
    limit: TurnLimit | None = None,
    max_depth: int = 1 << 30,
    spent: int = 0,
    leaf: Callable[[S], bool] | None = None,
) -> BfsResult[S, M]:
    """Breadth-first search from ``start``.

    * ``expand(state)`` yields ``(move, child)`` for every move playable in ``state``;
    * ``prune.admit(child, depth)`` decides whether a child is kept (``None``: :class:`Dedupe`);
    * ``limit.done(spent + generated)`` is asked before each state is expanded (``None``: never
      stop early);
    * ``max_depth``: no state deeper than this is generated;
    * ``leaf(state)``: true for states that are kept but never expanded (game over, goal reached).

    No queue and no recursion: the kept states sit in one list in the order they were kept, each
    layer a slice of it; the search walks a layer's slice while appending the next one.
    """
    if prune is None:
        prune = Dedupe()
    admit = prune.admit
    done = limit.done if limit is not None else None
    result: BfsResult[S, M] = BfsResult()
    states = result.states
    parents = result.parents
    moves = result.moves
    layers = result.layers
    admit(start, 0)
    states.append(start)
    parents.append(-1)
    moves.append(None)
    layers.append(0)
    add_state = states.append
    add_parent = parents.append
    add_move = moves.append
    generated = 0
    expanded = 0
    begin, end = 0, 1
    depth = 0
    stopped = False
    while depth < max_depth and begin < end:
        depth += 1
        layers.append(end)
        for node in range(begin, end):
            if done is not None and done(spent + generated):
                stopped = True
                break
            state = states[node]
            if leaf is not None and leaf(state):
                continue
            expanded += 1
            for move, child in expand(state):
                generated += 1
                if admit(child, depth):
                    add_state(child)
                    add_parent(node)
                    add_move(move)
        if stopped:
            break
        begin, end = end, len(states)
    if len(layers) > 1 and layers[-1] == len(states):
        layers.pop()  # the last layer opened got no state
    result.generated = generated
    result.admitted = len(states) - 1
    result.expanded = expanded
    result.finished = not stopped
    return result
