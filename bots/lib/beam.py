"""Beam search: expand a layer, merge transpositions, keep the best ``width`` children, repeat.

A *layer* is the list of nodes reached after the same number of steps, best first. The search
expands every node of a layer; each child comes with a *key* (a hash of its state, e.g. a Zobrist
hash) and a *score* (the evaluation that orders the beam). Children with the same key are the same
state reached by different move orders: only the better-scored one is kept. Then the ``width``
best children make the next layer. When the turn limit says stop in the middle of a layer, that
layer is dropped and the answer comes from the last *completed* one, so a search cut short still
answers with a fully compared move.

The search knows nothing of games: nodes are whatever the bot's ``expand`` produces (usually a
state with a link to its parent and the first move of its line).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Generic, TypeVar

from .timer import TurnLimit

__all__ = ["Child", "select", "BeamResult", "beam_search"]

T = TypeVar("T")

Child = tuple[Hashable, float, T]
"""What ``expand`` yields for each child: ``(key, score, node)``."""

_score = itemgetter(0)


def select(children: Iterable[tuple[Hashable, float, T]], width: int) -> list[tuple[float, T]]:
    """The ``width`` best distinct children as ``(score, node)``, best first.

    Children sharing a key are transpositions: the better score wins (the first one on a tie).
    """
    best: dict[Hashable, tuple[float, T]] = {}
    get = best.get
    for key, score, node in children:
        old = get(key)
        if old is None or score > old[0]:
            best[key] = (score, node)
    kept = best.values()
    if len(best) <= width:
        return sorted(kept, key=_score, reverse=True)
    return heapq.nlargest(width, kept, key=_score)


@dataclass
class BeamResult(Generic[T]):
    """The outcome of one :func:`beam_search`."""

    layers: list[list[tuple[float, T]]] = field(default_factory=list)
    """Every completed layer (``(score, node)`` best first); ``layers[0]`` is the roots."""
    nodes: int = 0
    """Children generated (including the abandoned part of an unfinished layer)."""
    finished: bool = False
    """True when the search ran out of depth or of children, not out of time or budget."""

    @property
    def depth(self) -> int:
        """Completed layers after the roots."""
        return len(self.layers) - 1

    @property
    def best(self) -> T | None:
        """The best node of the deepest completed layer (``None`` if no layer beyond the roots)."""
        if len(self.layers) < 2 or not self.layers[-1]:
            return None
        return self.layers[-1][0][1]


def beam_search(
    roots: Sequence[tuple[float, T]],
    expand: Callable[[T], Iterable[tuple[Hashable, float, T]]],
    width: int,
    limit: TurnLimit,
    max_depth: int = 1 << 30,
    spent: int = 0,
) -> BeamResult[T]:
    """Search layer by layer from ``roots`` (``(score, node)`` pairs) until ``max_depth`` layers
    are done, a layer has no children, or ``limit.done(nodes)`` (checked before each node is
    expanded, with ``spent`` + the children generated so far) says stop.
    """
    result: BeamResult[T] = BeamResult(layers=[list(roots)])
    nodes = 0
    layer = result.layers[0]
    done = limit.done
    while len(result.layers) <= max_depth:
        children: list[tuple[Hashable, float, T]] = []
        extend = children.extend
        for _, node in layer:
            if done(spent + nodes):
                result.nodes = nodes
                return result
            before = len(children)
            extend(expand(node))
            nodes += len(children) - before
        if not children:
            break
        layer = select(children, width)
        result.layers.append(layer)
    result.nodes = nodes
    result.finished = True
    return result
