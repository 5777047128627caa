"""The generic breadth-first search of ``bots/lib/bfs.py``: distances, paths, pruning hooks, limits.

Expected distances come from a separate textbook BFS written here (a deque and a dict).
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from bots.lib.bfs import BfsResult, Dedupe, KeepAll, bfs
from bots.lib.timer import NodeBudget


def numbers(n: int):
    """Moves on 0..n-1: +1, *2, -3 (when the result stays in range)."""

    def expand(x: int):
        for name, y in (("+1", x + 1), ("*2", x * 2), ("-3", x - 3)):
            if 0 <= y < n:
                yield name, y

    return expand


def apply(x: int, move: str) -> int:
    return {"+1": x + 1, "*2": x * 2, "-3": x - 3}[move]


def textbook(start: int, expand) -> dict[int, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for _, y in expand(x):
            if y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


def test_distances_and_paths_match_a_textbook_bfs() -> None:
    expand = numbers(200)
    result = bfs(1, expand, Dedupe())
    expected = textbook(1, expand)
    assert result.finished
    got = {result.states[i]: result.depth_of(i) for i in range(len(result.states))}
    assert got == expected
    assert result.admitted == len(expected) - 1
    for node, state in enumerate(result.states):
        path = result.path(node)
        assert len(path) == expected[state]
        x = 1
        for move in path:
            x = apply(x, move)
        assert x == state
        assert result.first_move(node) == (path[0] if path else None)


def test_layers_hold_each_depth() -> None:
    expand = numbers(64)
    result = bfs(0, expand, None)
    expected = textbook(0, expand)
    for d in range(result.depth + 1):
        assert sorted(result.states[i] for i in result.layer(d)) == sorted(x for x, k in expected.items() if k == d)
    assert result.depth == max(expected.values())


def test_no_pruning_generates_the_whole_tree() -> None:
    # Two children per node, depth 3: 2 + 4 + 8 children, all kept.
    result = bfs((), lambda s: [("a", s + ("a",)), ("b", s + ("b",))], KeepAll(), max_depth=3)
    assert result.generated == result.admitted == 14
    assert result.depth == 3 and result.finished
    assert result.path(len(result.states) - 1) == ["b", "b", "b"]


def test_pruner_sees_the_start_then_non_decreasing_depths() -> None:
    calls: list[tuple[int, int]] = []

    class Spy(Dedupe):
        def admit(self, state, depth):  # type: ignore[override]
            calls.append((state, depth))
            return super().admit(state, depth)

    result = bfs(5, numbers(40), Spy())
    assert calls[0] == (5, 0)
    depths = [d for _, d in calls]
    assert depths == sorted(depths)
    assert result.generated == len(calls) - 1


def test_a_rejecting_pruner_cuts_the_graph() -> None:
    class EvenOnly:
        def admit(self, state: int, depth: int) -> bool:
            return state % 2 == 0 and state not in seen and not seen.add(state)  # type: ignore

    seen: set[int] = set()
    result = bfs(0, numbers(30), EvenOnly())
    assert all(s % 2 == 0 for s in result.states)
    assert 2 not in result.states  # 2 = 1 * 2 needs the odd 1 first; 2 = 0+1+1 too
    assert 4 not in result.states
    assert result.states == [0]


def test_max_depth_and_leaves() -> None:
    expand = numbers(100)
    result = bfs(1, expand, None, max_depth=2)
    assert result.finished and result.depth == 2
    # 1 -> {2} (1+1 and 1*2 coincide) -> {3, 4}
    assert sorted(result.states[i] for i in result.layer(2)) == [3, 4]
    result = bfs(1, expand, None, leaf=lambda x: x == 4)
    # 4 is kept but never expanded: the same as a graph in which 4 has no move.
    expected = textbook(1, lambda x: [] if x == 4 else expand(x))
    assert {s: result.depth_of(i) for i, s in enumerate(result.states)} == expected
    assert expected[8] > 3  # 8 = 4 * 2 is not reachable that way
    assert result.expanded == len(result.states) - 1


def test_a_budget_stops_the_search_cleanly() -> None:
    expand = numbers(10_000)
    full = bfs(1, expand, None)
    budget = NodeBudget(50)
    budget.start()
    cut = bfs(1, expand, None, budget)
    assert not cut.finished
    assert 50 <= cut.generated < 50 + 3
    assert cut.admitted < full.admitted
    # Everything kept before the stop is correct: same states, same depths as the full search.
    depth = {s: full.depth_of(i) for i, s in enumerate(full.states)}
    for i, s in enumerate(cut.states):
        assert cut.depth_of(i) == depth[s]
    # ``spent`` counts nodes already used this turn.
    cut2 = bfs(1, expand, None, budget, spent=40)
    assert 10 <= cut2.generated < 13


def test_a_budget_of_one_node_still_answers() -> None:
    budget = NodeBudget(1)
    result = bfs(1, numbers(10), None, budget)
    assert result.states[0] == 1 and result.generated >= 1
    assert isinstance(result, BfsResult)


@pytest.mark.parametrize("seed", range(5))
def test_random_graphs(seed: int) -> None:
    rng = random.Random(seed)
    n = 300
    edges = {x: [(f"{x}>{y}", y) for y in rng.sample(range(n), rng.randint(0, 4))] for x in range(n)}
    expand = edges.__getitem__
    result = bfs(0, expand, Dedupe())
    expected = textbook(0, expand)
    assert {s: result.depth_of(i) for i, s in enumerate(result.states)} == expected
