"""Monte Carlo tree search (UCT) with a fixed number of iterations."""

import math
import random

from game import State
from rollout import playout

ITERATIONS = 60
EXPLORATION = 1.3
nodes = 0  # created since the start (debug)


class Node:
    __slots__ = ("move", "parent", "children", "untried", "wins", "visits", "mover")

    def __init__(self, state: State, move: int | None = None, parent: "Node | None" = None) -> None:
        global nodes
        nodes += 1
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried = state.legal_moves()
        self.wins = 0.0
        self.visits = 0
        self.mover = 3 - state.player  # who played ``move``

    def ucb(self, log_parent: float) -> float:
        return self.wins / self.visits + EXPLORATION * math.sqrt(log_parent / self.visits)

    def select(self) -> "Node":
        log_parent = math.log(self.visits)
        return max(self.children, key=lambda c: c.ucb(log_parent))

    def expand(self, state: State, rng: random.Random) -> "Node":
        move = self.untried.pop(rng.randrange(len(self.untried)))
        state.play(move)
        child = Node(state, move, self)
        self.children.append(child)
        return child

    def __repr__(self) -> str:
        return f"Node(move={self.move}, {self.wins:.1f}/{self.visits})"


def search(root_state: State, rng: random.Random, iterations: int = ITERATIONS) -> tuple[int, Node]:
    root = Node(root_state)
    for _ in range(iterations):
        node, state = root, root_state.copy()
        while not node.untried and node.children:
            node = node.select()
            state.play(node.move)
        if node.untried:
            node = node.expand(state, rng)
        result = playout(state, rng, node.mover)
        while node is not None:
            node.visits += 1
            node.wins += result
            result = 1.0 - result
            node = node.parent
    best = max(root.children, key=lambda c: (c.visits, c.wins))
    return best.move, best


def principal(node: Node, length: int = 4):
    """The most visited line below ``node`` (debug)."""
    while node.children and length:
        node = max(node.children, key=lambda c: c.visits)
        length -= 1
        yield node.move
