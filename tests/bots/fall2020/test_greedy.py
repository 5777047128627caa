"""The Fall Challenge 2020 greedy policy (``bots/fall2020/greedy/policy.py``).

* ``cast_distances`` against a second, plain implementation: a shortest-path search over
  inventories written as 4-tuples, moving by each spell's recipe directly (no lookup tables),
  from random positions with random spells, some of them exhausted.
* Hand-worked positions: the starting spells' path to a tier-3 order, REST when the path starts
  with an exhausted spell, the order with the better price per cast, brewing before casting.
"""

from __future__ import annotations

import heapq
import random

import pytest

from bots.fall2020.game import model
from bots.fall2020.game.inventory import INVS
from bots.fall2020.game.io import parse_turn
from bots.fall2020.greedy.policy import Settings, cast_distances, choose
from tests.helpers.fall2020_turns import turn_lines

START_IDS = (78, 79, 80, 81)


def plain_distances(inv, spells, horizon):
    """``{inventory tuple: casts}`` within ``horizon``: Dijkstra over 4-tuples. ``spells`` are
    (delta, repeatable, castable); a first move with an exhausted spell costs 2 (REST first)."""

    def moves(start, delta, repeatable):
        after = start
        while True:
            after = tuple(a + d for a, d in zip(after, delta))
            if min(after) < 0 or sum(after) > 10:
                return
            yield after
            if not repeatable:
                return

    best = {inv: 0}
    heap = [(0, inv)]
    while heap:
        d, cur = heapq.heappop(heap)
        if d > best[cur]:
            continue
        for delta, repeatable, castable in spells:
            step = 2 if (cur == inv and d == 0 and not castable) else 1
            for after in moves(cur, delta, repeatable):
                if d + step <= horizon and d + step < best.get(after, horizon + 1):
                    best[after] = d + step
                    heapq.heappush(heap, (d + step, after))
    return best


def random_position(rng: random.Random):
    spells = [(78 + i, d) for i, d in enumerate(((2, 0, 0, 0), (-1, 1, 0, 0), (0, -1, 1, 0), (0, 0, -1, 1)))]
    for k in range(rng.randrange(0, 5)):
        delta = tuple(rng.randint(-2, 3) for _ in range(4))
        if sum(delta) > 4 or all(d == 0 for d in delta):
            continue
        spells.append((90 + k, delta, min(delta) < 0 and rng.random() < 0.7))
    exhausted = {s[0] for s in spells if rng.random() < 0.3}
    while True:
        inv = tuple(rng.randint(0, 4) for _ in range(4))
        if sum(inv) <= 10:
            break
    lines = turn_lines([(42, (0, 0, 0, 3), 20)], mine=spells, me=(*inv, 0), exhausted=exhausted)
    plain = [(s[1], s[2] if len(s) > 2 else False, s[0] not in exhausted) for s in spells]
    return parse_turn(lines, turn=10), inv, plain


@pytest.mark.parametrize("seed", range(40))
def test_cast_distances_equal_a_plain_search(seed: int) -> None:
    rng = random.Random(seed)
    (table, state), inv, spells = random_position(rng)
    horizon = rng.choice((1, 2, 4, 6))
    got = {INVS[i]: d for i, (d, _) in cast_distances(table, state.witches[0], horizon).items()}
    assert got == plain_distances(inv, spells, horizon)


def test_cast_distances_first_moves_start_a_shortest_path() -> None:
    """A first move is REST, or a castable spell whose result is itself at distance 1 and from
    which the target is one cast fewer (checked with the plain search)."""
    for seed in range(40):
        rng = random.Random(1000 + seed)
        (table, state), _inv, spells = random_position(rng)
        reach = cast_distances(table, state.witches[0], 5)
        rested = [(s[0], s[1], True) for s in spells]
        from_first: dict[int, dict] = {}  # the plain search from each first move's result, made once
        for number, (d, first) in reach.items():
            if d == 0:
                continue
            if first == model.REST:
                continue
            slot, times = first >> 3 & 63, first >> 9
            assert state.witches[0].castable >> slot & 1
            after = table.casts[0][slot][state.witches[0].inv][times - 1]
            assert reach[after][0] == 1
            if after not in from_first:
                from_first[after] = plain_distances(INVS[after], rested, 5)
            assert from_first[after][INVS[number]] == d - 1


def test_walks_the_starting_spells_to_a_tier3_order() -> None:
    # (3,0,0,0) -> (2,1,0,0) -> (2,0,1,0) -> (2,0,0,1): three casts, the first of spell 79.
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 1), 10)]), turn=20)
    assert model.action_text(table, 0, choose(table, state)) == "CAST 79"


def test_rests_when_the_path_starts_with_an_exhausted_spell() -> None:
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 1), 10)], exhausted={79}), turn=20)
    assert choose(table, state) == model.REST


def test_prefers_the_better_price_per_cast() -> None:
    # From (0,0,2,0): order 42 (tier 3) is 1 cast away, 10 / 2 = 5 per step; order 43 needs
    # (2,0,2,0): one cast of 78, 14 / 2 = 7. So CAST 78; with 43 at 9 (4.5), CAST 81.
    for price, answer in ((14, "CAST 78"), (9, "CAST 81")):
        table, state = parse_turn(
            turn_lines([(42, (0, 0, 0, 1), 10), (43, (2, 0, 2, 0), price)], me=(0, 0, 2, 0, 0)), turn=20
        )
        assert model.action_text(table, 0, choose(table, state)) == answer


def test_brews_before_anything_else() -> None:
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 1), 10), (43, (1, 0, 0, 0), 5)]), turn=2)
    assert model.action_text(table, 0, choose(table, state, Settings())) == "BREW 43"
