"""bots/lib/mcts: UCB1, one expansion per playout, backpropagation, final choice; the tree built
from given playouts (the MCTS exercise's rules), with hand-worked expectations."""

from __future__ import annotations

import math
import random

from bots.lib.mcts import Node, principal_line, select_child, ucb1, uct_search


def test_ucb1_by_hand():
    # mean 30/3 = 10, exploration 2 * sqrt(ln 12 / 3) = 2 * sqrt(2.4849/3) = 1.82027
    assert math.isclose(ucb1(30.0, 3, 12, 2.0), 10 + 2 * math.sqrt(math.log(12) / 3))
    assert math.isclose(ucb1(30.0, 3, 12, 2.0), 11.82027, rel_tol=1e-5)


def test_the_puzzle_statement_example():
    root: Node = Node()
    for line, score in (("baa", 30), ("ab", 20), ("bbb", 4)):
        root.add_line(line, score)
    # baa adds b; ab adds a; bbb walks to b and adds bb: root 3 visits, b 2 (34), a 1 (20),
    # bb 1 (4). With C = 0.1: a = 20 + 0.1*sqrt(ln3/1) = 20.105, b = 17 + 0.1*sqrt(ln3/2) = 17.07.
    assert (root.visits, root.total) == (3, 54.0)
    b = root.child("b")
    assert (b.visits, b.total) == (2, 34.0) and b.child("b").visits == 1 and b.child("a") is None
    assert principal_line(root, 0.1) == ["a"]
    # A huge C favours nothing here (both terms grow), but C = 0 just compares means: still a.
    assert principal_line(root, 0.0) == ["a"]


def test_one_new_node_per_given_playout_and_ties_to_the_smaller_move():
    root: Node = Node()
    root.add_line("cz", 5)  # adds c
    root.add_line("az", 5)  # adds a
    root.add_line("cz", 5)  # walks c, adds cz
    root.add_line("az", 5)  # walks a, adds az
    assert root.size() == 5
    # a and c: same visits (2) and total (10): equal UCB1, the smaller letter wins; then z.
    assert principal_line(root, 1.0) == ["a", "z"]


class BitGame:
    """Choose 4 bits one at a time; reward 1 if they spell TARGET, else 0."""

    TARGET = (1, 0, 1, 1)

    def moves(self, state: tuple) -> list:
        if len(state) == 4:
            return []
        return [(0, state + (0,)), (1, state + (1,))]

    def playout(self, state: tuple) -> float:
        rng = self.rng
        while len(state) < 4:
            state = state + (rng.randrange(2),)
        return 1.0 if state == self.TARGET else 0.0

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)


def test_uct_finds_the_only_winning_first_move():
    game = BitGame(1)
    result = uct_search((), game.moves, game.playout, lambda n: n >= 400, c=0.7)
    assert result.best.move == 1
    assert result.root.visits == 400 == result.playouts


def test_exactly_one_node_per_playout_until_a_leaf_is_reached():
    game = BitGame(2)
    # The root's two moves are expanded first, so four playouts cannot reach depth 4 (the
    # game's end): each adds exactly one node.
    for n in (1, 2, 3, 4):
        result = uct_search((), game.moves, game.playout, lambda k, n=n: k >= n)
        assert result.root.size() == n + 1
    # A playout that selects down to a finished game adds nothing: never more than one per playout.
    for n in (10, 20, 30):
        result = uct_search((), game.moves, game.playout, lambda k, n=n: k >= n)
        assert result.root.size() <= n + 1
    # With strong exploration every branch is reached: the full tree of 4 binary choices has 31
    # nodes, and more playouts add nothing.
    result = uct_search((), game.moves, game.playout, lambda k: k >= 3000, c=10.0)
    assert result.root.size() == 31


def test_a_fixed_seed_repeats_the_search_and_stop_is_honoured():
    a = uct_search((), BitGame(5).moves, BitGame(5).playout, lambda k: k >= 60)
    b = uct_search((), BitGame(5).moves, BitGame(5).playout, lambda k: k >= 60)
    assert [(c.move, c.visits, c.total) for c in a.root.children] == \
        [(c.move, c.visits, c.total) for c in b.root.children]
    calls = []
    result = uct_search((), BitGame(6).moves, BitGame(6).playout, lambda k: calls.append(k) or k >= 3)
    assert result.playouts == 3 and calls == [0, 1, 2, 3]


def test_select_child_prefers_exploration_with_a_large_constant():
    root: Node = Node()
    root.visits = 10
    good, rare = root.add_child("g"), root.add_child("r")
    good.visits, good.total = 9, 9 * 0.6
    rare.visits, rare.total = 1, 0.2
    # C = 0: 0.6 vs 0.2 -> g. C = 1: g = 0.6 + sqrt(ln10/9) = 1.1058, r = 0.2 + sqrt(ln10) = 1.7174.
    assert select_child(root, 0.0) is good
    assert select_child(root, 1.0) is rare
