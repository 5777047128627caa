"""UCT for Spring Challenge 2021 on :func:`bots.lib.mcts.uct_search`.

The tree's nodes are our states after each action (WAIT moves to the next day; the opponent is
modelled as waiting, as in the beam bot); :class:`.policy.Policy` supplies the moves, the
playout and the reward. The action played is the root's most visited child.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.lib.mcts import uct_search
from bots.lib.timer import TurnLimit
from bots.spring2021.game.state import WAIT, State

from .policy import Policy

__all__ = ["MctsResult", "search"]


@dataclass
class MctsResult:
    action: int
    playouts: int
    visits: int
    """Visits of the chosen child."""
    mean: float
    """Its mean reward."""
    nodes: int


def search(root: State, policy: Policy, limit: TurnLimit, c: float = 0.7) -> MctsResult:
    policy.start(root)
    result = uct_search((root, False), policy.moves, policy.playout, limit.done, c)
    best = result.best
    if best is None:
        return MctsResult(WAIT, result.playouts, 0, 0.0, 1)
    assert best.move is not None  # only the root has no move, and ``best`` is one of its children
    return MctsResult(best.move, result.playouts, best.visits, best.mean, result.root.size())
