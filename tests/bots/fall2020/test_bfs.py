"""The Fall Challenge 2020 BFS planner (``bots/fall2020/bfs``): inventory tables, the three
prunings against a deliberately plain BFS, hand-worked shortest plans, and the bot itself.

The plain BFS below is written from the rules, independently of the planner: states are
``(inventory tuple, brewed frozenset, exhausted frozenset)`` in a dict, no packing, no tables, no
pruning beyond exact duplicates.
"""

from __future__ import annotations

import random
import sys
from collections import deque
from itertools import product

import pytest

from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import BotSpec
from bots.fall2020.bfs.bot import BfsBot, Settings
from bots.fall2020.bfs.planner import (
    REST_MOVE,
    Move,
    PerfectPruning,
    Problem,
    best_plan,
    pair_distances,
    search,
)
from bots.fall2020.game import inventory as inv_mod
from bots.lib.timer import NodeBudget
from tests.helpers.paths import REPO_ROOT

STARTING = [((2, 0, 0, 0), False), ((-1, 1, 0, 0), False), ((0, -1, 1, 0), False), ((0, 0, -1, 1), False)]
"""The official starting spells: +2 blue; blue -> green; green -> orange; orange -> yellow."""


# -- a plain BFS, straight from the rules --------------------------------------------------------


def plain_bfs(spells, orders, start, depth, window=None, max_brews=None):
    """Shortest distance to every (inventory, brewed) pair within ``depth`` moves, and the number
    of children generated. Exact-state dedupe only."""
    window = len(orders) if window is None else window
    max_brews = len(orders) if max_brews is None else max_brews
    first = (tuple(start), frozenset(), frozenset())
    dist = {first: 0}
    queue = deque([first])
    generated = 0
    pairs: dict[tuple, int] = {}
    while queue:
        state = queue.popleft()
        d = dist[state]
        inv, brewed, exhausted = state
        pairs.setdefault((inv, brewed), d)
        if d == depth or len(brewed) >= max_brews:
            continue
        children = []
        shown = [o for o in range(len(orders)) if o not in brewed][:window]
        for o in shown:
            after = tuple(a + b for a, b in zip(inv, orders[o]))
            if min(after) >= 0:
                children.append((after, brewed | {o}, exhausted))
        for s, (delta, repeatable) in enumerate(spells):
            if s in exhausted:
                continue
            for times in range(1, 11 if repeatable else 2):
                after = tuple(a + times * b for a, b in zip(inv, delta))
                if min(after) >= 0 and sum(after) <= 10:
                    children.append((after, brewed, exhausted | {s}))
        if exhausted:
            children.append((inv, brewed, frozenset()))
        for child in children:
            generated += 1
            if child not in dist:
                dist[child] = d + 1
                queue.append(child)
    return pairs, generated


def pruned_pairs(spells, orders, start, depth, window=None, max_brews=None, pruning=True):
    problem = Problem(spells, orders, window, max_brews)
    result = search(problem, problem.pack(start), max_depth=depth, pruning=pruning)
    out = {}
    for pair, d in pair_distances(problem, result).items():
        inv, brewed, _ = problem.unpack(pair)
        out[(inv, frozenset(o for o in range(len(orders)) if brewed >> o & 1))] = d
    return out, result


def random_delta(rng: random.Random) -> tuple[int, int, int, int]:
    while True:
        delta = tuple(rng.randint(-3, 3) for _ in range(4))
        if any(delta) and sum(delta) <= 4 and max(delta) > 0:
            return delta  # type: ignore[return-value]


def random_case(rng: random.Random):
    spells = list(STARTING) if rng.random() < 0.5 else []
    for _ in range(rng.randint(1, 3)):
        delta = random_delta(rng)
        spells.append((delta, min(delta) < 0 and rng.random() < 0.8))
    if not any(min(d) >= 0 for d, _ in spells):
        spells.append(((rng.randint(1, 2), rng.randint(0, 1), 0, 0), False))
    orders = []
    for _ in range(rng.randint(1, 4)):
        need = [rng.randint(0, 2) for _ in range(4)]
        if not any(need):
            need[rng.randrange(4)] = 1
        orders.append(tuple(-x for x in need))
    start = [rng.randint(0, 3) for _ in range(4)]
    while sum(start) > 10:
        start[rng.randrange(4)] = 0
    window = rng.choice([None, 1, 2])
    return spells, orders, tuple(start), window


COUNTS: list[tuple[int, int, int]] = []


@pytest.mark.parametrize("seed", range(40))
def test_pruned_distances_equal_plain_bfs(seed: int) -> None:
    rng = random.Random(seed)
    spells, orders, start, window = random_case(rng)
    depth = rng.randint(5, 8)
    expected, plain_generated = plain_bfs(spells, orders, start, depth, window)
    got, result = pruned_pairs(spells, orders, start, depth, window)
    assert got == expected
    assert result.finished
    assert result.generated <= plain_generated
    COUNTS.append((seed, result.generated, plain_generated))
    print(
        f"seed {seed}: pruned {result.generated} children generated ({result.admitted} kept), plain {plain_generated}"
    )


def test_pruning_pays_off_on_the_starting_spells() -> None:
    # The official start: 3 blue, the four starting spells, two more repeatable spells.
    spells = STARTING + [((-3, 0, 0, 1), True), ((2, 1, -2, 1), True), ((0, 2, -1, 0), True)]
    orders = [(-2, -2, 0, 0), (0, 0, -2, -2), (0, -3, 0, -2), (-1, -1, -1, -1), (0, 0, 0, -5)]
    expected, plain_generated = plain_bfs(spells, orders, (3, 0, 0, 0), 13)
    got, result = pruned_pairs(spells, orders, (3, 0, 0, 0), 13)
    assert got == expected
    print(
        f"depth 13, 7 spells, 5 orders: pruned {result.generated} generated "
        f"({result.admitted} kept), plain {plain_generated}"
    )
    assert result.generated * 2 < plain_generated  # measured: 7247 against 20470


def test_dedupe_only_search_agrees_too() -> None:
    # The planner's own search without the three rules is a plain BFS as well.
    rng = random.Random(99)
    for _ in range(10):
        spells, orders, start, window = random_case(rng)
        expected, generated = plain_bfs(spells, orders, start, 6, window)
        got, result = pruned_pairs(spells, orders, start, 6, window, pruning=False)
        assert got == expected
        assert result.generated == generated


# -- hand-worked shortest plans ------------------------------------------------------------------


def shortest_brew(spells, orders, start, target: int, depth: int = 20) -> int:
    problem = Problem(spells, orders)
    result = search(problem, problem.pack(start), max_depth=depth)
    best = [d for pair, d in pair_distances(problem, result).items() if problem.unpack(pair)[1] >> target & 1]
    return min(best)


def test_one_yellow_from_nothing() -> None:
    # +2 blue (2,0,0,0); blue->green (1,1,0,0); green->orange (1,0,1,0); orange->yellow
    # (1,0,0,1); brew: 5 turns. Fewer is impossible: the yellow needs the whole chain.
    assert shortest_brew(STARTING, [(0, 0, 0, -1)], (0, 0, 0, 0), 0) == 5


def test_two_yellows_from_nothing() -> None:
    # Two yellows need 2 x (blue->green, green->orange, orange->yellow) = 6 conversion casts and
    # one +2 blue cast; the conversion spells are not repeatable, so each is cast, rested, cast
    # again: at least one REST. 7 casts + 1 REST + 1 BREW = 9, and this order does it:
    # +2, b->g, g->o, o->y, REST, b->g, g->o, o->y, BREW.
    assert shortest_brew(STARTING, [(0, 0, 0, -2)], (0, 0, 0, 0), 0) == 9


def test_two_blue_two_green_from_the_official_start() -> None:
    # From (3,0,0,0): greens only come from blue->green, cast twice, so a REST between: 3 turns;
    # then 3 - 2 = 1 blue is short of 2, so +2 blue once more: 4 turns, then BREW: 5.
    assert shortest_brew(STARTING, [(-2, -2, 0, 0)], (3, 0, 0, 0), 0) == 5


def test_repeats_save_turns() -> None:
    # Blue->green repeatable: +2 blue (5,0,0,0), blue->green x4 (1,4,0,0), BREW: 3 turns.
    # Not repeatable it takes 4 casts of it with 3 RESTs between, plus +2 and BREW.
    spells = [((2, 0, 0, 0), False), ((-1, 1, 0, 0), True)]
    assert shortest_brew(spells, [(0, -4, 0, 0)], (3, 0, 0, 0), 0) == 3
    # Not repeatable: b->g, +2, REST, b->g, REST, b->g, REST, b->g, BREW = 9 (4 b->g casts need
    # 3 RESTs; the +2 fits in a gap at no cost).
    spells = [((2, 0, 0, 0), False), ((-1, 1, 0, 0), False)]
    assert shortest_brew(spells, [(0, -4, 0, 0)], (3, 0, 0, 0), 0) == 9


def test_the_window_hides_later_orders() -> None:
    # Window 1: order 1 (1 blue) can only be brewed after order 0 (2 blue).
    problem = Problem(STARTING, [(-2, 0, 0, 0), (-1, 0, 0, 0)], window=1)
    result = search(problem, problem.pack((3, 0, 0, 0)), max_depth=6)
    dist = {problem.unpack(p)[:2]: d for p, d in pair_distances(problem, result).items()}
    assert dist[((0, 0, 0, 0), 0b11)] == 2
    assert dist[((1, 0, 0, 0), 0b01)] == 1
    assert not any(brewed == 0b10 for _, brewed in dist)


def test_max_brews_ends_the_plan() -> None:
    problem = Problem(STARTING, [(-1, 0, 0, 0), (-1, 0, 0, 0)], max_brews=1)
    result = search(problem, problem.pack((3, 0, 0, 0)), max_depth=6)
    assert all(problem.unpack(s)[1] != 0b11 for s in result.states)


def test_best_plan_and_its_first_move() -> None:
    # From (3,0,0,0): order 0 (3 blue, 4 rupees) in 1 turn; order 1 (1 yellow, 20 rupees) in 4.
    # 4/1 < 20/4: the plan aims at order 1 and starts with blue->green.
    problem = Problem(STARTING, [(-3, 0, 0, 0), (0, 0, 0, -1)])
    result = search(problem, problem.pack((3, 0, 0, 0)), max_depth=8)
    plan = best_plan(problem, result, [4, 20])
    assert plan is not None and plan.brewed == 0b10 and plan.depth == 4
    assert result.path(plan.node) == [Move("CAST", 1, 1), Move("CAST", 2, 1), Move("CAST", 3, 1), Move("BREW", 1)]
    # Cheaper yellow: 3 rupees in 1 turn beats 5 in 4 (and 8 in 5 for both).
    plan = best_plan(problem, result, [3, 5])
    assert plan is not None and plan.brewed == 0b01 and plan.depth == 1
    assert REST_MOVE not in result.path(plan.node)


def test_best_plan_can_value_the_inventory_left() -> None:
    # From (3,0,0,0): order 0 takes the 3 blue for 4 rupees, order 1 one blue for 3 rupees.
    # Rupees only: 4/1 beats 3/1. With 1 rupee per point of inventory left (blue = 1): order 0
    # scores 4 + 0, order 1 scores 3 + 2 = 5 (and both, in 3 turns, (4 + 3 + 1) / 3 < 5).
    problem = Problem(STARTING, [(-3, 0, 0, 0), (-1, 0, 0, 0)])
    result = search(problem, problem.pack((3, 0, 0, 0)), max_depth=6)
    plan = best_plan(problem, result, [4, 3])
    assert plan is not None and plan.brewed == 0b01 and plan.rate == 4
    plan = best_plan(problem, result, [4, 3], keep=1.0)
    assert plan is not None and plan.brewed == 0b10 and plan.rate == 5 and plan.gain == 3


def test_pruning_rule_by_rule() -> None:
    problem = Problem(STARTING, [(-1, 0, 0, 0)])
    prune = PerfectPruning(problem)
    start = problem.pack((3, 0, 0, 0))
    assert prune.admit(start, 0)
    a = problem.pack((2, 1, 0, 0), exhausted=0b0010)
    assert prune.admit(a, 1)
    assert not prune.admit(a, 1)  # rule 1: duplicate
    b = problem.pack((2, 1, 0, 0), exhausted=0b0011)
    assert prune.admit(b, 1)  # same pair, same depth: kept
    assert not prune.admit(problem.pack((2, 1, 0, 0), exhausted=0b0110), 2)  # rule 3
    assert prune.admit(problem.pack((2, 1, 0, 0)), 2)  # the REST of a: fresh, kept
    assert not prune.admit(problem.pack((2, 1, 0, 0), exhausted=0b1000), 2)  # rule 2
    assert not prune.admit(problem.pack((2, 1, 0, 0)), 2)  # rule 2 (duplicate fresh)


# -- the inventory table (the shared one of bots/fall2020/game, which the planner packs) --------


def test_1001_inventories() -> None:
    everything = [inv for inv in product(range(11), repeat=4) if sum(inv) <= 10]
    assert inv_mod.COUNT == 1001 == len(everything)
    assert sorted(inv_mod.INVS) == everything
    for i, inv in enumerate(inv_mod.INVS):
        assert inv_mod.index_of(inv) == i
    for bad in ((11, 0, 0, 0), (3, 3, 3, 2), (-1, 0, 0, 0)):
        with pytest.raises(ValueError):
            inv_mod.index_of(bad)


def test_packing_round_trip() -> None:
    problem = Problem(STARTING, [(-1, 0, 0, 0)] * 3)
    for i, inv in enumerate(inv_mod.INVS):
        for brewed, exhausted in ((0, 0), (0b101, 0b1001), (0b111, 0b1111)):
            state = problem.pack(inv, brewed, exhausted)
            assert state & 1023 == i
            assert problem.unpack(state) == (inv, brewed, exhausted)


@pytest.mark.parametrize("seed", range(5))
def test_transitions_add_deltas(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(8):
        delta = tuple(rng.randint(-4, 4) for _ in range(4))
        repeatable = rng.random() < 0.7
        table = inv_mod.cast_table(delta, repeatable)
        for i, inv in enumerate(inv_mod.INVS):
            expected = []
            for k in range(1, 11 if repeatable else 2):
                after = tuple(a + k * d for a, d in zip(inv, delta))
                if min(after) < 0 or sum(after) > 10:
                    break
                expected.append(inv_mod.index_of(after))
            assert list(table[i]) == expected, (delta, inv)
        need = tuple(rng.randint(0, 3) for _ in range(4))
        brews = inv_mod.brew_table(need)
        for i, inv in enumerate(inv_mod.INVS):
            after = tuple(a - n for a, n in zip(inv, need))
            assert brews[i] == (inv_mod.index_of(after) if min(after) >= 0 else -1)


# -- the bot -------------------------------------------------------------------------------------

BOT = ("-u", "-m", "bots.fall2020.bfs")


def turn_lines(orders, spells, me=(3, 0, 0, 0, 0), foe=(3, 0, 0, 0, 0), tome=()):
    """Input lines in the official format: orders ``(id, delta, price)``, own spells
    ``(id, delta, castable, repeatable)``, tome spells ``(id, delta, index, stock, repeatable)``."""
    rows = [f"{i} BREW {' '.join(map(str, d))} {p} 0 0 0 0" for i, d, p in orders]
    rows += [f"{i} LEARN {' '.join(map(str, d))} 0 {k} {s} 0 {int(r)}" for i, d, k, s, r in tome]
    rows += [f"{i} CAST {' '.join(map(str, d))} 0 -1 -1 {int(c)} {int(r)}" for i, d, c, r in spells]
    return [str(len(rows)), *rows, " ".join(map(str, me)), " ".join(map(str, foe))]


START_SPELLS = [(78 + i, d, True, False) for i, (d, _) in enumerate(STARTING)]


def test_the_bot_plays_the_plan_with_the_best_rate() -> None:
    # Yellow (20 rupees) in 4 turns beats 3 blue (4 rupees) now, and both in 6 turns (24):
    # the first move is blue -> green (spell 79).
    bot = BfsBot(NodeBudget(20_000), Settings(learn_turns=0))
    bot.limit.start()
    lines = turn_lines([(50, (-3, 0, 0, 0), 4), (51, (0, 0, 0, -1), 20)], START_SPELLS)
    assert bot.turn(lines) == "CAST 79"
    # A brew that is affordable now and the best rate: BREW.
    bot.limit.start()
    lines = turn_lines([(50, (-3, 0, 0, 0), 9), (51, (0, 0, 0, -1), 20)], START_SPELLS)
    assert bot.turn(lines) == "BREW 50"


def test_the_bot_repeats_casts_and_rests() -> None:
    # Repeatable blue->green (id 90), order 4 green: CAST 90 3 then +2 ... ; with everything
    # exhausted the only way on is REST.
    bot = BfsBot(NodeBudget(20_000), Settings(learn_turns=0))
    bot.limit.start()
    spells = [(78, (2, 0, 0, 0), True, False), (90, (-1, 1, 0, 0), True, True)]
    lines = turn_lines([(50, (0, -3, 0, 0), 10)], spells)
    assert bot.turn(lines) == "CAST 90 3"
    bot.limit.start()
    spells = [(78, (2, 0, 0, 0), False, False), (90, (-1, 1, 0, 0), False, True)]
    assert bot.turn(turn_lines([(50, (0, -3, 0, 0), 10)], spells)) == "REST"


def test_the_bot_learns_early() -> None:
    bot = BfsBot(NodeBudget(1000), Settings(learn_turns=2, max_tax=1))
    tome = [(5, (-3, 0, 0, 1), 0, 0, True), (9, (0, 0, 0, 1), 1, 0, False), (12, (0, 0, 0, 1), 2, 0, False)]
    lines = turn_lines([(50, (0, 0, 0, -5), 20)], START_SPELLS, tome=tome)
    bot.limit.start()
    # Worth: spell 5 = (-3 + 4) * 1.5 = 1.5; spell 9 = 4 - 1 (tax) = 3; spell 12 costs tax 2.
    assert bot.turn(lines) == "LEARN 9"
    bot.limit.start()
    assert bot.turn(lines) == "LEARN 9"  # the table did not change in this test
    bot.limit.start()
    assert bot.turn(lines).startswith("CAST")  # learning phase over


def play(seed: int, budget: int):
    bfs_bot = BotSpec("bfs", (sys.executable, *BOT, "--budget", str(budget)), cwd=str(REPO_ROOT))
    rnd = BotSpec("random", (sys.executable, "-u", "bots/fall2020/random_bot.py", "--seed", "3"), cwd=str(REPO_ROOT))
    # limits scaled by 5: the test checks the games, not the speed on a busy machine (its answer
    # times at the real limits: benchmarks/answer_times.py)
    return play_match("fall2020", seed, [bfs_bot, rnd], MatchOptions(record=True, time_scale=5.0))


def answers(result):
    return [e.output for f in result.frames for e in f.executions if e.player == 0 and e.expected_lines]


def test_the_bot_plays_a_full_game_deterministically() -> None:
    first = play(7, 3000)
    assert first.outcome is not None
    bfs_player = first.players[0]
    assert bfs_player.verdict == Verdict.OK, bfs_player.message
    assert not any(p == 0 for f in first.frames for p, _ in f.report.errors)
    assert first.outcome.scores[0] > first.outcome.scores[1]
    second = play(7, 3000)
    assert answers(first) == answers(second)
    assert len(answers(first)) >= 20
