"""Beam search over the actions of a day and over days, with the beam limited per action layer.

A Spring Challenge 2021 turn is one action, but a *day* is several of ours (grow this, then
complete that, then seed) followed by WAIT, which ends our day. Two kinds of layers, then:

- within a day, layer ``k`` holds the states after ``k`` more actions today. Each node of a layer
  is expanded into its action children (the next layer, cut to ``width`` by the cheap evaluation
  after merging transpositions: "grow A then grow B" and "grow B then grow A" are one state) and
  into its WAIT child, which goes to the next day's pool;
- the next day starts from the best ``width`` states of that pool.

The contest post-mortem (``shared/seeds``) describes the mistake of limiting the beam per *day*
(one priority queue over all the day's states): the queue fills with states of one or two
actions and the search never looks at a third or fourth action in a day. Limiting each action
layer separately lets every depth of the day keep its ``width`` best states.

The opponent is modelled as waiting: its trees stay and shade ours, its sun grows. The answer is
the first action of the best state (by the waiting-playout evaluation) of the deepest *completed*
day pool; when time runs out before the first day is done, the WAIT children gathered so far
(one per expanded state, so every completed action layer is represented) are used instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.lib.beam import select
from bots.lib.timer import TurnLimit
from bots.spring2021.game.board import Board
from bots.spring2021.game.moves import LAST_SEED_DAY, children
from bots.spring2021.game.state import MAX_DAYS, WAIT, State, dedupe_key, end_day

from .evaluation import Weights, playout_value, quick_value

__all__ = ["SearchResult", "Settings", "search"]


@dataclass(frozen=True)
class Settings:
    width: int = 120
    """States kept per action layer and per day pool."""
    horizon: int = 6
    """Days searched ahead (the current one included)."""
    last_seed_day: int = LAST_SEED_DAY


@dataclass
class SearchResult:
    action: int
    value: float
    nodes: int
    """States generated (action children and WAIT children)."""
    days: int
    """Day pools completed."""
    layers: int
    """Action layers completed, all days together."""


def search(
    root: State, board: Board, weights: Weights, limit: TurnLimit, settings: Settings = Settings()
) -> SearchResult:
    """The best first action from ``root`` (a state at our turn, mid-day or not)."""
    width = settings.width
    last_seed = settings.last_seed_day
    nodes = 0
    layers = 0
    days = 0
    done = limit.done
    pool: list[tuple[float, tuple[State, int]]] = [(0.0, (root, -1))]
    best_pool: list[tuple[float, tuple[State, int]]] = []
    timed_out = False
    for _ in range(settings.horizon):
        if pool[0][1][0].day >= MAX_DAYS:
            break
        ended: list[tuple[int, float, tuple[State, int]]] = []
        layer = pool
        while layer:
            next_layer: list[tuple[int, float, tuple[State, int]]] = []
            for _, (s, first) in layer:
                if done(nodes):
                    timed_out = True
                    break
                w = end_day(s, board)
                ended.append((dedupe_key(w), quick_value(w, weights), (w, WAIT if first < 0 else first)))
                for a, child in children(s, board, last_seed):
                    next_layer.append(
                        (dedupe_key(child), quick_value(child, weights), (child, a if first < 0 else first))
                    )
                nodes += 1
            nodes += len(next_layer)
            if timed_out:
                break
            layers += 1
            layer = select(next_layer, width)
        if timed_out:
            if not best_pool:  # first day unfinished: use the WAIT children seen so far
                best_pool = select(ended, width)
            break
        pool = select(ended, width)
        best_pool = pool
        days += 1
    best_value = float("-inf")
    best_action = WAIT
    for _, (s, first) in best_pool:
        value = playout_value(s, weights)
        if value > best_value:
            best_value, best_action = value, first
    return SearchResult(best_action, best_value, nodes, days, layers)
