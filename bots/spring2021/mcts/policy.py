"""What the Spring Challenge 2021 MCTS bot plugs into the generic tree search.

- the moves of a node: the beam bot's pruned moves (:func:`bots.spring2021.game.moves.children`)
  plus WAIT, which ends our day (the opponent is modelled as waiting, as in the beam bot);
- the playout: from the new node, for ``random_days`` days (2 by default) a cheap random policy
  plays (WAIT with probability ``wait_chance``, otherwise a random move among the pruned ones,
  SEED half as likely), then the *waiting* policy plays to the end of the game: nobody acts,
  trees give their decayed income every day and our tall trees are completed at the end. That
  waiting playout is the beam bot's evaluation, computed in closed form (:mod:`.evaluation` of
  the beam bot), so a playout costs about as much as one evaluation. Random moves for whole games
  would spend the budget on moves no sane player makes and drown the signal in noise; the waiting
  playout alone (``random_days=0``) makes the search a deterministic best-first search, which
  scored lower against ``greedy`` in a short test (11-9 and 8-12 against 12-8);
- the reward: that evaluation relative to the root's own, divided by ``scale`` points, so the
  UCB1 exploration constant has a sensible range (about 0.5 to 2).
"""

from __future__ import annotations

import random

from bots.spring2021.beam.evaluation import Weights, playout_value
from bots.spring2021.game.board import Board
from bots.spring2021.game.moves import LAST_SEED_DAY, children
from bots.spring2021.game.state import MAX_DAYS, SEED, WAIT, State, end_day

__all__ = ["Node", "Policy"]

Node = tuple[State, bool]
"""What a tree node holds: the state and whether it is the start of a day (see ``moves``)."""


class Policy:
    """Moves, playouts and rewards for one game (board and evaluation weights fixed)."""

    __slots__ = ("board", "weights", "rng", "wait_chance", "scale", "baseline", "random_days", "last_seed_day")

    def __init__(
        self,
        board: Board,
        weights: Weights,
        seed: int = 0,
        wait_chance: float = 0.35,
        scale: float = 20.0,
        random_days: int = 2,
    ) -> None:
        self.random_days = random_days
        self.board = board
        self.weights = weights
        self.rng = random.Random(seed)
        self.wait_chance = wait_chance
        self.scale = scale
        self.baseline = 0.0
        self.last_seed_day = LAST_SEED_DAY
        """The last day seeds are searched (-1 in a league without SEED)."""

    def start(self, root: State) -> None:
        """A new search from ``root``: rewards are measured from the root's evaluation."""
        self.baseline = playout_value(end_day(root, self.board), self.weights)

    def moves(self, node: Node) -> list[tuple[int, Node]]:
        """``(action, next node state)`` for every move searched, WAIT last. A node state is
        ``(state, new_day)``: ``new_day`` is true after WAIT (the state is the start of a day,
        its sun gathered), false after an action (we are mid-day)."""
        s = node[0]
        if s.day >= MAX_DAYS:
            return []
        out: list[tuple[int, Node]] = [(a, (child, False)) for a, child in children(s, self.board, self.last_seed_day)]
        out.append((WAIT, (end_day(s, self.board), True)))
        return out

    def playout(self, node: Node) -> float:
        """Random moves for ``random_days`` days, then the waiting playout in closed form."""
        board = self.board
        s, new_day = node
        if not new_day and s.day < MAX_DAYS and not self.random_days:
            s = end_day(s, board)  # wait for the rest of today
        rng = self.rng
        random_ = rng.random
        stop_day = s.day + self.random_days
        while s.day < stop_day and s.day < MAX_DAYS:
            if random_() < self.wait_chance:
                s = end_day(s, board)
                continue
            options = children(s, board, self.last_seed_day)
            if not options:
                s = end_day(s, board)
                continue
            a, nxt = options[int(random_() * len(options))]
            if a & 3 == SEED and random_() < 0.5:  # seeds: half as likely
                s = end_day(s, board)
                continue
            s = nxt
        value = playout_value(s, self.weights)
        return (value - self.baseline) / self.scale
