"""What the Spring Challenge 2021 MCTS bot plugs into the generic tree search.

- the moves of a node: the beam bot's pruned moves (:func:`bots.spring2021.game.moves.children`)
  plus WAIT, which ends our day (the opponent is modelled as waiting, as in the beam bot);
- the playout: from the new node, a cheap random policy plays to the end of the *next* day
  (WAIT with probability ``wait_chance``, otherwise a random move among the pruned ones; GROW
  and COMPLETE twice as likely as SEED), then the state is scored with the beam bot's waiting
  playout evaluation, which plays the rest of the game in closed form. Playing whole games at
  random would waste the time budget on moves no sane player makes and add noise;
- the reward: that evaluation relative to the root's own, divided by ``scale`` points, so the
  UCB1 exploration constant has a sensible range (about 0.5 to 2).
"""

from __future__ import annotations

import random

from bots.spring2021.beam.evaluation import Weights, playout_value
from bots.spring2021.game.board import Board
from bots.spring2021.game.moves import children
from bots.spring2021.game.state import MAX_DAYS, SEED, WAIT, State, end_day

__all__ = ["Policy"]


class Policy:
    """Moves, playouts and rewards for one game (board and evaluation weights fixed)."""

    __slots__ = ("board", "weights", "rng", "wait_chance", "scale", "baseline")

    def __init__(self, board: Board, weights: Weights, seed: int = 0, wait_chance: float = 0.35,
                 scale: float = 20.0) -> None:
        self.board = board
        self.weights = weights
        self.rng = random.Random(seed)
        self.wait_chance = wait_chance
        self.scale = scale
        self.baseline = 0.0

    def start(self, root: State) -> None:
        """A new search from ``root``: rewards are measured from the root's evaluation."""
        self.baseline = playout_value(end_day(root, self.board), self.weights)

    def moves(self, s: State) -> list[tuple[int, State]]:
        """``(action, next state)`` for every move searched from ``s``, WAIT last."""
        if s.day >= MAX_DAYS:
            return []
        out = children(s, self.board)
        out.append((WAIT, end_day(s, self.board)))
        return out

    def is_terminal(self, s: State) -> bool:
        return s.day >= MAX_DAYS

    def playout(self, s: State) -> float:
        """Random moves to the end of the next day, then the closed-form evaluation."""
        board = self.board
        rng = self.rng
        random_ = rng.random
        stop_day = s.day + 2
        while s.day < stop_day and s.day < MAX_DAYS:
            if random_() < self.wait_chance:
                s = end_day(s, board)
                continue
            options = children(s, board)
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
