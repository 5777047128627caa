"""bots/lib/mcts: UCB1, the tree built from given playouts (the MCTS exercise's rules), and the
game search (selection, one expansion per iteration, evaluation, backpropagation, final choice,
the stop callable), on toy games whose right answers are known. Expected values are worked out
by hand in the comments, never taken from the library's output."""

from __future__ import annotations

import math
import random
import time

import pytest

from bots.lib.mcts import (
    Node,
    Search,
    backpropagate,
    best_child,
    principal_line,
    select_child,
    ucb1,
    uct_search,
)

# --- UCB1 and the tree primitives -------------------------------------------------------------


def test_ucb1_by_hand():
    # mean 30/3 = 10; exploration 2 * sqrt(ln 12 / 3) = 2 * sqrt(2.484907 / 3) = 2 * 0.910108
    assert math.isclose(ucb1(30.0, 3, 12, 2.0), 11.820216, rel_tol=1e-6)
    # One parent visit: ln 1 = 0, only the mean counts. C = 0: only the mean counts.
    assert ucb1(-7.0, 2, 1, 5.0) == -3.5
    assert ucb1(4.5, 3, 100, 0.0) == 1.5


def test_the_puzzle_statement_example_tree():
    root: Node = Node()
    for line, score in (("baa", 30), ("ab", 20), ("bbb", 4)):
        root.add_line(line, score)
    # baa adds b; ab adds a; bbb walks to b and adds bb: root 3 visits (54), b 2 (34), a 1 (20),
    # bb 1 (4); nothing else (the first playout did not add ba).
    assert (root.visits, root.total) == (3, 54.0)
    b, a = root.child("b"), root.child("a")
    assert (b.visits, b.total) == (2, 34.0) and (a.visits, a.total) == (1, 20.0)
    assert b.child("b").visits == 1 and b.child("a") is None and a.children == []
    assert root.size() == 4
    # C = 0.1: a = 20 + 0.1*sqrt(ln3/1) = 20.1048, b = 17 + 0.1*sqrt(ln3/2) = 17.0741.
    assert principal_line(root, 0.1) == ["a"]


def test_add_line_adds_at_most_one_node_and_returns_the_end_of_the_path():
    root: Node = Node()
    assert root.add_line("xyz", 1.0).move == "x"
    assert root.add_line("xyz", 1.0).move == "y"
    assert root.add_line("xyz", 1.0).move == "z"
    end = root.add_line("xyz", 1.0)  # wholly in the tree: nothing added, z updated
    assert end.move == "z" and end.visits == 2 and root.size() == 4 and root.visits == 4


def test_ties_go_to_the_smaller_move_whatever_the_creation_order():
    root: Node = Node()
    root.add_line("cz", 5)  # adds c
    root.add_line("az", 5)  # adds a
    root.add_line("cz", 5)  # walks c, adds cz
    root.add_line("az", 5)  # walks a, adds az
    assert [child.move for child in root.children] == ["c", "a"]
    # a and c: 2 visits, total 10 each: equal UCB1 values for every C; a wins, then its only z.
    for c in (0.0, 1.0, 7.5):
        assert principal_line(root, c) == ["a", "z"]


def test_select_child_prefers_exploration_with_a_large_constant():
    root: Node = Node()
    root.visits = 10
    good, rare = root.add_child("g"), root.add_child("r")
    good.visits, good.total = 9, 9 * 0.6
    rare.visits, rare.total = 1, 0.2
    # C = 0: 0.6 vs 0.2 -> g. C = 1: g = 0.6 + sqrt(ln10/9) = 1.1058, r = 0.2 + sqrt(ln10) = 1.7174.
    assert select_child(root, 0.0) is good
    assert select_child(root, 1.0) is rare


def test_select_child_is_the_argmax_of_ucb1_on_random_nodes():
    rng = random.Random(11)
    for _ in range(300):
        parent: Node = Node()
        kids = []
        for move in rng.sample("abcdefgh", rng.randrange(1, 8)):
            kid = parent.add_child(move)
            kid.visits = rng.randrange(1, 6)
            kid.total = float(rng.randrange(-3, 4))  # coarse: exact ties are frequent
            kids.append(kid)
        parent.visits = sum(k.visits for k in kids)
        c = rng.choice([0.0, 0.5, 1.0, 2.0])
        # Reference: largest ucb1 value, then smallest move.
        expected = min(kids, key=lambda k: (-ucb1(k.total, k.visits, parent.visits, c), k.move))
        assert select_child(parent, c) is expected


def test_backpropagate_and_best_child():
    root: Node = Node()
    a, b, c = root.add_child("a"), root.add_child("b"), root.add_child("c")
    backpropagate([root, a], 1.0)
    backpropagate([root, b], 0.5)
    backpropagate([root, b], 0.5)
    backpropagate([root, c], 2.0)
    backpropagate([root, c], -1.0)
    assert (root.visits, root.total) == (5, 3.0)
    # b and c have 2 visits (the most); means 0.5 and 0.5: equal, the first created (b) stays.
    assert best_child(root) is b
    backpropagate([root, c], 1.0)  # c: 3 visits -> c
    assert best_child(root) is c
    backpropagate([root, b], 1.0)  # b and c: 3 visits, total 2.0 each: equal means, b is first
    assert best_child(root) is b
    backpropagate([root, b], -1.0)
    backpropagate([root, c], 1.0)  # b 4 visits mean 1/4, c 4 visits mean 3/4 -> c
    assert best_child(root) is c
    assert best_child(Node()) is None


# --- The game search on toy games ---------------------------------------------------------------

BITS = 3
TARGET = (1, 0, 1)
FULL_TREE = 1 + 2 + 4 + 8  # every line of up to 3 bits


class BitGame:
    """Choose 3 bits one at a time; score 1 if they spell TARGET, else 0. The evaluation finishes
    the choice at random (a seeded playout)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.evaluated: list[tuple[int, ...]] = []

    @staticmethod
    def legal_moves(state: tuple[int, ...]) -> list[int]:
        return [0, 1]

    @staticmethod
    def apply(state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return state + (move,)

    @staticmethod
    def is_terminal(state: tuple[int, ...]) -> bool:
        return len(state) == BITS

    def evaluate(self, state: tuple[int, ...]) -> float:
        self.evaluated.append(state)
        while len(state) < BITS:
            state = state + (self.rng.randrange(2),)
        return 1.0 if state == TARGET else 0.0

    def search(self, c: float = 0.7, rng: random.Random | None = None) -> Search:
        return Search(self.legal_moves, self.apply, self.evaluate, self.is_terminal, c, rng)

    def pairs(self, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """The same game for uct_search: (move, state) pairs, none when the game is over."""
        return [] if self.is_terminal(state) else [(m, state + (m,)) for m in (0, 1)]


def budget(n: int):
    return lambda done: done >= n


def most_visited_line(root: Node) -> tuple:
    line = []
    node = best_child(root)
    while node is not None:
        line.append(node.move)
        node = best_child(node)
    return tuple(line)


def snapshot(root: Node) -> list:
    """Every node's line, visits and total, depth first, children in creation order."""
    out, todo = [], [((), root)]
    while todo:
        line, node = todo.pop()
        out.append((line, node.visits, node.total))
        todo.extend((line + (k.move,), k) for k in reversed(node.children))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_enough_iterations_find_the_target(seed):
    game = BitGame(seed)
    result = game.search(c=0.7, rng=random.Random(seed)).run((), budget(600))
    # Only the line 1,0,1 scores: the root's move is 1, and the most visited line spells it.
    assert result.move == 1 == result.best.move
    assert most_visited_line(result.root) == TARGET
    assert result.playouts == 600 == result.root.visits
    assert result.root.size() <= FULL_TREE


def test_one_node_per_iteration_until_the_tree_is_complete():
    # With a constant evaluation every UCB1 value is C*sqrt(ln N / v): the least visited child
    # is selected, ties to the smaller move. A node's subtree then fills evenly: a 2-bit node is
    # complete after 3 visits (itself + its two leaves) and gets a 4th only when its sibling has
    # 3 too; a 1-bit node's 7 nodes are complete after 7 visits; the root's 14 after 14
    # iterations. So no iteration reaches an old leaf before the tree is complete:
    # nodes = iterations + 1 up to 14 iterations, then 15 for ever.
    for n in range(0, 40):
        search = Search(BitGame.legal_moves, BitGame.apply, lambda s: 0.0, BitGame.is_terminal, 1.0)
        result = search.run((), budget(n))
        assert result.root.visits == n == result.playouts
        assert result.root.size() == min(n + 1, FULL_TREE), n


def test_each_iteration_adds_one_node_unless_it_ends_on_a_leaf_already_there():
    # With random evaluations: an iteration either creates a node and evaluates its (new) state
    # or evaluates a finished game already in the tree. States are distinct per node, so
    # nodes = 1 + distinct states evaluated, and evaluations = iterations.
    for n in (1, 2, 5, 9, 14, 30, 200):
        game = BitGame(n)
        result = game.search(c=0.7).run((), budget(n))
        assert len(game.evaluated) == n == result.root.visits
        assert result.root.size() == 1 + len(set(game.evaluated))
        repeats = [s for i, s in enumerate(game.evaluated) if s in game.evaluated[:i]]
        assert all(len(s) == BITS for s in repeats)  # only finished games are evaluated again
    # Before any node can be reached twice at all: a finished game is first created at the 5th
    # iteration at the earliest (2 one-bit nodes, then a 2-bit one needs its parent complete,
    # then a 3-bit one), and revisited only once its 2-bit parent has both leaves (6th), so the
    # first 6 iterations add exactly one node each, whatever the scores.
    for seed in range(20):
        for n in range(7):
            result = BitGame(seed).search(c=0.7).run((), budget(n))
            assert result.root.size() == n + 1


def test_a_fixed_seed_gives_the_same_search_twice():
    first = BitGame(5).search(rng=random.Random(9)).run((), budget(80))
    second = BitGame(5).search(rng=random.Random(9)).run((), budget(80))
    assert snapshot(first.root) == snapshot(second.root)
    assert first.move == second.move
    third = BitGame(6).search(rng=random.Random(9)).run((), budget(80))
    assert snapshot(third.root) != snapshot(first.root)  # the seed does matter


def test_the_stop_callable_is_asked_once_per_iteration_and_obeyed():
    calls: list[int] = []

    def stop(done: int) -> bool:
        calls.append(done)
        return done >= 3

    result = BitGame(1).search().run((), stop)
    assert result.playouts == 3 == result.root.visits and calls == [0, 1, 2, 3]
    # stop(0) true: no iteration, no child, no move.
    result = BitGame(1).search().run((), lambda done: True)
    assert (result.playouts, result.root.visits, result.root.size(), result.move) == (0, 0, 1, None)
    # A clock: stops soon after the deadline, having run some iterations.
    deadline = time.perf_counter() + 0.02
    started = time.perf_counter()
    result = BitGame(2).search().run((), lambda done: time.perf_counter() >= deadline)
    assert result.playouts > 0 and time.perf_counter() - started < 1.0


def test_a_terminal_root_is_only_evaluated():
    game = BitGame(3)
    result = game.search().run((1, 0, 1), budget(4))
    assert result.move is None and result.root.size() == 1 and result.root.visits == 4
    assert result.root.total == 4.0 and game.evaluated == [(1, 0, 1)] * 4


def test_states_are_stored_and_moves_applied_once_per_node():
    applied: list[tuple] = []

    def apply(state, move):
        applied.append((state, move))
        return state + (move,)

    search = Search(BitGame.legal_moves, apply, lambda s: 0.5, BitGame.is_terminal)
    result = search.run((), budget(100))
    # 15 nodes, 14 created by one apply each; selection never re-applies.
    assert len(applied) == FULL_TREE - 1 == len(set(applied))
    todo = [((), result.root)]
    while todo:
        line, node = todo.pop()
        assert node.state == line
        todo.extend((line + (k.move,), k) for k in node.children)


def test_uct_search_with_move_state_pairs_builds_the_same_tree():
    # Same game, same evaluation seed, no shuffling: both forms pop the last move first.
    game_a, game_b = BitGame(4), BitGame(4)
    a = Search(game_a.legal_moves, game_a.apply, game_a.evaluate, game_a.is_terminal, 0.7).run((), budget(50))
    b = uct_search((), game_b.pairs, game_b.evaluate, budget(50), c=0.7)
    assert snapshot(a.root) == snapshot(b.root) and a.move == b.move
    assert b.playouts == 50 == b.root.visits


def test_uct_search_finds_the_target_too():
    game = BitGame(1)
    result = uct_search((), game.pairs, game.evaluate, budget(500), c=0.7)
    assert result.move == 1 and most_visited_line(result.root) == TARGET
