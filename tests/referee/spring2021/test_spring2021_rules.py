"""Table-driven Spring Challenge 2021 rule cases: state + actions -> expected state.

Expected values are worked out by hand from the official rules (the neighbour lines below are
those the official referee sends for a 3-ring board; see ../shared/parity/README.md section S).
"""

from __future__ import annotations

import random

import pytest

from referee.spring2021 import rules
from referee.spring2021.actions import Complete, Grow, Seed, Wait, parse
from referee.spring2021.board import DIRECTIONS, Board
from referee.spring2021.state import SpringState

# Cells in a straight line from the centre, per sun direction (from the official neighbour table:
# "0 3 1 2 3 4 5 6", "1 0 7 8 2 0 6 18", "7 2 19 20 8 1 18 36", ...).
LINE_FROM_CENTRE = {
    0: [1, 7, 19],
    1: [2, 9, 22],
    2: [3, 11, 25],
    3: [4, 13, 28],
    4: [5, 15, 31],
    5: [6, 17, 34],
}


def board(holes: tuple[int, ...] = ()) -> Board:
    return Board.standard(3, holes)


def state(trees: dict, holes: tuple[int, ...] = (), **fields) -> SpringState:
    return SpringState.with_trees(board(holes), trees, **fields)


# -- shadows --------------------------------------------------------------------------------------

SHADOW_CASES = [pytest.param(d, s, LINE_FROM_CENTRE[d][:s], id=f"dir{d}-size{s}") for d in range(6) for s in (1, 2, 3)]


@pytest.mark.parametrize("direction,size,shaded", SHADOW_CASES)
def test_shadow_of_a_tree_covers_size_cells_in_the_sun_direction(direction, size, shaded):
    st = state({0: (size, 0)}, sun_direction=direction)
    rules.compute_shadows(st)
    expected = [0] * 37
    for c in shaded:
        expected[c] = size
    assert st.shadows == expected


def test_seed_casts_no_shadow_and_tallest_shadow_wins():
    # size 1 at 0 shades cell 1 with 1; size 3 at cell 1 shades 7 and 19 with 3; size 2 at 7 shades
    # 19 (and off-board) with 2: cell 19 keeps 3.
    st = state({0: (1, 0), 1: (3, 1), 7: (2, 0), 2: (0, 0)}, sun_direction=0)
    rules.compute_shadows(st)
    assert (st.shadows[1], st.shadows[7], st.shadows[19]) == (1, 3, 3)
    assert sum(1 for v in st.shadows if v) == 3


def test_shadows_ignore_holes_and_reach_hole_cells():
    st = state({0: (2, 0)}, holes=(1, 4), sun_direction=0)
    rules.compute_shadows(st)
    assert st.shadows[1] == 2 and st.shadows[7] == 2


# -- gathering --------------------------------------------------------------------------------------

GATHER_CASES = [
    # trees {cell: (size, owner)}, direction, sun given to (p0, p1)
    pytest.param({0: (3, 0), 1: (2, 1)}, 0, (3, 0), id="taller-shadow-blocks"),
    pytest.param({0: (1, 0), 1: (2, 1)}, 0, (1, 2), id="smaller-shadow-does-not"),
    pytest.param({0: (2, 0), 1: (2, 1)}, 0, (2, 0), id="equal-size-is-shadowed"),
    pytest.param({0: (2, 0), 1: (2, 1)}, 3, (0, 2), id="opposite-direction"),
    pytest.param({0: (3, 0), 7: (3, 1)}, 0, (3, 0), id="two-cells-away"),
    pytest.param({0: (2, 0), 7: (3, 1)}, 0, (2, 3), id="out-of-reach"),
    pytest.param({0: (3, 0), 1: (0, 1), 2: (0, 0)}, 0, (3, 0), id="seeds-give-nothing"),
    pytest.param({0: (1, 1), 1: (1, 1), 2: (3, 1)}, 1, (0, 5), id="own-trees-shade-each-other"),
]


@pytest.mark.parametrize("trees,direction,given", GATHER_CASES)
def test_gathering_with_shadows(trees, direction, given):
    st = state(trees, sun_direction=direction, sun=[5, 7])
    rules.compute_shadows(st)
    assert tuple(rules.gather(st)) == given
    assert st.sun == [5 + given[0], 7 + given[1]]


def test_gathering_wakes_players_and_trees():
    st = state({0: (1, 0, True), 1: (2, 1, True)}, waiting=[True, True])
    rules.gather(st)
    assert st.waiting == [False, False]
    assert st.dormant[0] is False and st.dormant[1] is False


# -- costs ------------------------------------------------------------------------------------------

COST_CASES = [
    # own trees by size (seeds, small, medium, tall), opponent's trees, expected costs
    # (seed, grow 0->1, grow 1->2, grow 2->3, complete)
    pytest.param((0, 0, 0, 0), (0, 0, 0, 0), (0, 1, 3, 7, 4), id="empty"),
    pytest.param((2, 0, 0, 0), (0, 0, 0, 0), (2, 1, 3, 7, 4), id="seeds"),
    pytest.param((0, 3, 0, 0), (0, 0, 0, 0), (0, 4, 3, 7, 4), id="small"),
    pytest.param((0, 0, 2, 0), (0, 0, 0, 0), (0, 1, 5, 7, 4), id="medium"),
    pytest.param((0, 0, 0, 3), (0, 0, 0, 0), (0, 1, 3, 10, 4), id="tall"),
    pytest.param((1, 1, 1, 1), (4, 4, 4, 4), (1, 2, 4, 8, 4), id="opponent-trees-do-not-count"),
]


@pytest.mark.parametrize("own,theirs,expected", COST_CASES)
def test_cost_formulas(own, theirs, expected):
    trees = {}
    cells = iter(range(37))
    for owner, counts in ((0, own), (1, theirs)):
        for size, n in enumerate(counts):
            for _ in range(n):
                trees[next(cells)] = (size, owner)
    st = state(trees)
    probe = {}
    for size in range(4):  # one more own tree of each size to ask its growth cost
        cell = next(cells)
        probe[size] = cell
    assert rules.seed_cost(st, 0) == expected[0]
    for size in range(4):
        extra = st.copy()
        extra.size[probe[size]], extra.owner[probe[size]] = size, 0
        # growth cost counts the trees of the *target* size, so adding a tree of `size` changes
        # only the count of `size` (never of size + 1)
        assert rules.growth_cost(extra, probe[size]) == expected[1 + size]


def test_grow_and_seed_costs_are_paid():
    st = state({0: (1, 0), 1: (0, 0), 2: (1, 0)}, sun=[10, 0])
    rules.resolve_actions(st, [Grow(0), Wait()])
    assert st.sun[0] == 10 - (3 + 0) and st.size[0] == 2 and st.dormant[0]
    st.waiting = [False, False]
    rules.resolve_actions(st, [Seed(2, 9), Wait()])  # one own seed: costs 1
    assert st.sun[0] == 6 and st.size[9] == 0 and st.owner[9] == 0 and st.dormant[9]


# -- seeds: range, richness 0, possible actions ---------------------------------------------------


def test_possible_seed_targets_follow_the_official_range_order():
    # Game.getCoordsInRange from the centre with N = 1: x=-1: (-1,0,1)=5, (-1,1,0)=4; x=0:
    # (0,-1,1)=6, centre, (0,1,-1)=3; x=1: (1,-1,0)=1, (1,0,-1)=2. Cell 3 is a hole, cell 1 holds
    # a tree: neither is offered.
    st = state({0: (1, 0), 1: (1, 1)}, holes=(3,), sun=[0, 0])
    completes, grows, seeds = rules.possible_actions(st, 0)
    assert seeds == ["SEED 0 5", "SEED 0 4", "SEED 0 6", "SEED 0 2"]
    assert grows == [] and completes == []  # growing 1->2 costs 3


def test_possible_actions_respect_sun_dormancy_and_waiting():
    st = state({0: (3, 0), 1: (2, 0, True), 2: (0, 0), 3: (1, 1)}, sun=[4, 0])
    completes, grows, seeds = rules.possible_actions(st, 0)
    assert completes == ["COMPLETE 0"]
    assert grows == ["GROW 2"]  # cell 1 is dormant; seed 2 -> 1 costs 1 + 0 small trees
    assert all(s.startswith("SEED 0 ") for s in seeds)  # seeds and dormant trees cannot seed
    assert len(seeds) == 37 - 4  # size 3 from the centre reaches every free cell
    assert rules.trees_by_owner(st) == [[0, 1, 2], [3]]
    assert rules.possible_actions(st, 0, rules.census(st)) == (completes, grows, seeds)
    st.waiting[0] = True
    assert rules.possible_actions(st, 0) == ([], [], [])


def test_seed_range_is_the_tree_size():
    st = state({19: (1, 0), 7: (2, 0)}, sun=[10, 0])
    # cell 19 (ring 3) to 1 is distance 2 > size 1
    rules.resolve_actions(st, [Seed(19, 1), Wait()])
    assert st.size[1] == -1 and st.waiting[0]


# -- seed conflicts ----------------------------------------------------------------------------------


def test_seed_conflict_plants_nothing_keeps_sun_and_sources_dormant():
    st = state({1: (1, 0), 2: (1, 1), 6: (0, 0)}, sun=[5, 5])
    result = rules.resolve_actions(st, [Seed(1, 0), Seed(2, 0)])
    assert result.conflict == 0
    assert st.size[0] == -1
    assert st.sun == [5, 5]
    assert st.dormant[1] and st.dormant[2]
    assert st.waiting == [False, False]


def test_seeds_on_different_cells_are_both_planted():
    st = state({1: (1, 0), 2: (1, 1)}, sun=[5, 5])
    result = rules.resolve_actions(st, [Seed(1, 7), Seed(2, 9)])
    assert result.conflict is None
    assert (st.size[7], st.owner[7], st.size[9], st.owner[9]) == (0, 0, 0, 1)
    assert st.sun == [5, 5]  # first seeds are free


def test_sun_is_a_snapshot_even_when_both_act():
    st = state({0: (3, 0), 19: (0, 1)}, sun=[4, 1])
    rules.resolve_actions(st, [Complete(0), Grow(19)])
    assert st.sun == [0, 0]


# -- COMPLETE, nutrients ---------------------------------------------------------------------------

COMPLETE_CASES = [
    # cell (richness), nutrients before, points, nutrients after
    pytest.param(0, 20, 24, 19, id="lush-centre"),
    pytest.param(3, 20, 24, 19, id="lush-ring1"),
    pytest.param(10, 20, 22, 19, id="ok-ring2"),
    pytest.param(25, 20, 20, 19, id="poor-ring3"),
    pytest.param(25, 1, 1, 0, id="last-nutrient"),
    pytest.param(0, 0, 4, 0, id="nutrients-at-zero-stay-zero"),
]


@pytest.mark.parametrize("cell,nutrients,points,after", COMPLETE_CASES)
def test_complete_points_richness_bonus_and_nutrients(cell, nutrients, points, after):
    st = state({cell: (3, 1)}, sun=[0, 6], nutrients=nutrients, score=[0, 10])
    result = rules.resolve_actions(st, [Wait(), Complete(cell)])
    assert result.completed == [(1, cell, points)]
    assert st.score == [0, 10 + points]
    assert st.nutrients == after
    assert st.size[cell] == -1
    assert st.sun == [0, 2]


def test_completes_of_one_frame_share_the_nutrient_value_and_floor_at_zero():
    st = state({0: (3, 0), 25: (3, 1)}, sun=[4, 4], nutrients=1)
    result = rules.resolve_actions(st, [Complete(0), Complete(25)])
    assert result.completed == [(0, 0, 1 + 4), (1, 25, 1 + 0)]
    assert st.nutrients == 0


# -- end of day / game: scoring --------------------------------------------------------------------

END_CASES = [
    # scores, suns, active, trees {cell: owner}, expected scores, expected tree bonus
    pytest.param([10, 8], [5, 11], [True, True], {1: 0, 2: 1}, [12, 12], [1, 1], id="tie-after-sun"),
    pytest.param([10, 8], [5, 8], [True, True], {1: 0, 2: 1}, [11, 10], [0, 0], id="sun-breaks-tie"),
    pytest.param([10, 8], [2, 5], [True, True], {1: 0}, [10, 9], [0, 0], id="no-tie"),
    pytest.param([10, 10], [2, 2], [True, True], {1: 0, 2: 0, 3: 1}, [12, 11], [2, 1], id="tie-break-by-trees"),
    pytest.param(
        [-1, 3], [9, 3], [False, True], {1: 0, 2: 1, 3: 1}, [-1, 6], [0, 2], id="lone-active-player-always-gets-trees"
    ),
    pytest.param([-1, -1], [9, 9], [False, False], {1: 0, 2: 1}, [-1, -1], [0, 0], id="nobody-active"),
]


@pytest.mark.parametrize("scores,suns,active,trees,expected,bonus", END_CASES)
def test_end_scoring(scores, suns, active, trees, expected, bonus):
    st = state({c: (0 if c == 3 else 1, o) for c, o in trees.items()}, score=scores, sun=suns)
    assert rules.end_scoring(st, active) == bonus
    assert st.score == expected


def test_sun_move_turns_the_sun_except_after_the_last_day():
    st = state({0: (1, 0)}, day=5, sun_direction=5)
    rules.sun_move(st)
    assert (st.day, st.sun_direction) == (6, 0)
    assert st.shadows[LINE_FROM_CENTRE[0][0]] == 1
    st = state({0: (1, 0)}, day=23, sun_direction=5)
    rules.sun_move(st)
    assert (st.day, st.sun_direction) == (24, 5)


# -- illegal actions: every message path ------------------------------------------------------------

ILLEGAL_CASES = [
    # trees {cell: (size, owner[, dormant])}, holes, player 0's sun, action, official message
    pytest.param({}, (), 9, Grow(37), "Cell 37 not found", id="grow-no-cell"),
    pytest.param({}, (), 9, Grow(5), "There is no tree on cell 5", id="grow-no-tree"),
    pytest.param({5: (1, 1)}, (), 9, Grow(5), "The tree on cell 5 is owned by opponent", id="grow-not-owner"),
    pytest.param(
        {5: (1, 0, True)},
        (),
        9,
        Grow(5),
        "Tree on cell 5 is dormant (has already been used this round)",
        id="grow-dormant",
    ),
    pytest.param({5: (3, 0)}, (), 9, Grow(5), "Tree on cell 5 cannot grow more (max size is 3).", id="grow-tall"),
    pytest.param({5: (2, 0), 6: (3, 0)}, (), 7, Grow(5), "Not enough sun. You need 8 but have 7", id="grow-sun"),
    pytest.param({}, (), 9, Complete(99), "Cell 99 not found", id="complete-no-cell"),
    pytest.param({}, (), 9, Complete(4), "There is no tree on cell 4", id="complete-no-tree"),
    pytest.param({4: (3, 1)}, (), 9, Complete(4), "The tree on cell 4 is owned by opponent", id="complete-not-owner"),
    pytest.param({4: (2, 0)}, (), 9, Complete(4), "The tree on cell 4 is not large enough", id="complete-not-tall"),
    pytest.param(
        {4: (2, 0, True)},
        (),
        9,
        Complete(4),
        "The tree on cell 4 is not large enough",
        id="complete-size-checked-before-dormancy",
    ),
    pytest.param(
        {4: (3, 0, True)},
        (),
        9,
        Complete(4),
        "Tree on cell 4 is dormant (has already been used this round)",
        id="complete-dormant",
    ),
    pytest.param({4: (3, 0)}, (), 3, Complete(4), "Not enough sun. You need 4 but have 3", id="complete-sun"),
    pytest.param({1: (1, 0)}, (), 9, Seed(1, 40), "Cell 40 not found", id="seed-no-target"),
    pytest.param({}, (), 9, Seed(41, 40), "Cell 40 not found", id="seed-target-checked-first"),
    pytest.param({}, (), 9, Seed(41, 2), "Cell 41 not found", id="seed-no-source"),
    pytest.param({1: (1, 0), 2: (0, 1)}, (), 9, Seed(1, 2), "There is already a tree on cell 2", id="seed-occupied"),
    pytest.param({2: (0, 1)}, (), 9, Seed(3, 2), "There is already a tree on cell 2", id="seed-occupied-before-source"),
    pytest.param({}, (), 9, Seed(1, 2), "There is no tree on cell 1", id="seed-no-source-tree"),
    pytest.param(
        {1: (0, 1)}, (), 9, Seed(1, 2), "The seed on 1 cannot produce seeds", id="seed-from-seed-before-owner"
    ),
    pytest.param({1: (2, 1)}, (), 9, Seed(1, 2), "The tree on cell 1 is owned by opponent", id="seed-not-owner"),
    pytest.param(
        {1: (2, 0, True)},
        (),
        9,
        Seed(1, 2),
        "Tree on cell 1 is dormant (has already been used this round)",
        id="seed-dormant",
    ),
    pytest.param(
        {19: (1, 0)},
        (),
        9,
        Seed(19, 1),
        "The tree on cell 19 is too far from cell 1 to plant a seed there",
        id="seed-far",
    ),
    pytest.param({1: (1, 0)}, (2, 5), 9, Seed(1, 2), "You can't plant a seed on cell 2", id="seed-on-hole"),
    pytest.param(
        {19: (1, 0)},
        (1, 4),
        9,
        Seed(19, 1),
        "The tree on cell 19 is too far from cell 1 to plant a seed there",
        id="seed-distance-checked-before-richness",
    ),
    pytest.param(
        {1: (1, 0), 3: (0, 0), 4: (0, 0)}, (), 1, Seed(1, 2), "Not enough sun. You need 2 but have 1", id="seed-sun"
    ),
]


@pytest.mark.parametrize("trees,holes,sun,action,message", ILLEGAL_CASES)
def test_illegal_actions_are_refused_with_the_official_message(trees, holes, sun, action, message):
    st = state(trees, holes=holes, sun=[sun, 0])
    before = st.trees()
    result = rules.resolve_actions(st, [action, Wait()])
    assert result.errors == [(0, message)]
    assert st.waiting == [True, True]  # the offender sleeps for the rest of the day
    assert st.trees() == before
    assert st.sun == [sun, 0]


# -- the counted trees and the seed ranges as rank masks ---------------------------------------


@pytest.mark.parametrize("rings", [2, 3, 4, 6])
def test_rank_order_is_the_official_range_order_from_every_cell(rings):
    # getCoordsInRange lists x = -N..N, then y ascending; sorting by the absolute (x, y) of the
    # cells gives the same order from any centre, so a rank mask lists a range in official order.
    g = Board.standard(rings).geometry
    for cell in range(g.size):
        for size in range(4):
            cells = g.seed_range[cell][size]
            assert sorted(cells, key=lambda t: g.coords[t][:2]) == list(cells)
            assert sorted(cells, key=lambda t: g.rank[t]) == list(cells)
            assert g.seed_mask[cell][size] == sum(1 << g.rank[t] for t in cells)
            assert [g.seed_text[cell][g.rank[t]] for t in cells] == [f"SEED {cell} {t}" for t in cells]


def random_state(rng, holes=None) -> SpringState:
    holes = tuple(rng.sample(range(1, 37), rng.randrange(0, 8))) if holes is None else holes
    st = SpringState.empty(board(holes))
    for c in range(37):
        if c not in holes and rng.random() < 0.45:
            st.size[c] = rng.randrange(4)
            st.owner[c] = rng.randrange(2)
            st.dormant[c] = rng.random() < 0.3
    st.sun = [rng.randrange(0, 25), rng.randrange(0, 25)]
    st.nutrients = rng.randrange(0, 21)
    return st


def written_out_census(st: SpringState) -> tuple[list[list[int]], list[list[int]], set[int]]:
    trees = [[c for c in range(37) if st.size[c] != -1 and st.owner[c] == p] for p in (0, 1)]
    counts = [[sum(1 for c in trees[p] if st.size[c] == s) for s in range(4)] for p in (0, 1)]
    free = {c for c in range(37) if st.size[c] == -1 and st.board.richness[c] != 0}
    return trees, counts, free


def written_out_seeds(st: SpringState, player: int) -> list[str]:
    """SEED commands as Game.getPossibleMoves lists them, checked cell by cell."""
    if st.waiting[player] or rules.seed_cost(st, player) > st.sun[player]:
        return []
    out = []
    for c in range(37):
        if st.owner[c] == player and st.size[c] > 0 and not st.dormant[c]:
            for t in st.board.seed_range[c][st.size[c]]:
                if st.size[t] == -1 and st.board.richness[t] != 0:
                    out.append(f"SEED {c} {t}")
    return out


def written_out_grows(st: SpringState, player: int) -> tuple[list[str], list[str]]:
    """COMPLETE and GROW commands, checked cell by cell: growing to size s costs 1, 3 or 7 sun plus
    one per own tree of size s already; completing costs 4."""
    if st.waiting[player]:
        return [], []
    completes, grows = [], []
    for c in range(37):
        if st.owner[c] == player and st.size[c] != -1 and not st.dormant[c]:
            size = st.size[c]
            if size == 3:
                if st.sun[player] >= 4:
                    completes.append(f"COMPLETE {c}")
            else:
                same = sum(1 for t in range(37) if st.owner[t] == player and st.size[t] == size + 1)
                if (1, 3, 7)[size] + same <= st.sun[player]:
                    grows.append(f"GROW {c}")
    return completes, grows


def written_out_shadows(st: SpringState) -> list[int]:
    """For each cell, the size of the tallest tree 1..size cells before it against the sun."""
    out = []
    for cell in range(37):
        x, y, z = st.board.coords[cell]
        dx, dy, dz = DIRECTIONS[st.sun_direction]
        tallest = 0
        for k in (1, 2, 3):
            back = st.board.geometry.index_of.get((x - k * dx, y - k * dy, z - k * dz))
            if back is not None and st.size[back] >= k:
                tallest = max(tallest, st.size[back])
        out.append(tallest)
    return out


def written_out_income(st: SpringState) -> list[int]:
    return [
        sum(st.size[c] for c in range(37) if st.owner[c] == p and st.size[c] > 0 and st.shadows[c] < st.size[c])
        for p in (0, 1)
    ]


def test_census_and_seed_lists_match_the_cell_by_cell_rules_on_random_positions():
    rng = random.Random(37)
    for _ in range(1500):
        st = random_state(rng)
        known = rules.census(st)
        trees, counts, free = written_out_census(st)
        assert known.trees == trees and known.counts == counts
        assert known.cells == [c for c in range(37) if st.size[c] != -1]
        assert {t for t in range(37) if known.free >> st.board.geometry.rank[t] & 1} == free
        for p in (0, 1):
            assert rules.possible_actions(st, p, known)[2] == written_out_seeds(st, p)
            assert rules.possible_actions(st, p, known)[:2] == written_out_grows(st, p)
            assert rules.possible_actions(st, p) == rules.possible_actions(st, p, known)
        st.sun_direction = rng.randrange(6)
        rules.compute_shadows(st, known)
        assert st.shadows == written_out_shadows(st)
        sun = st.sun[:]
        given = rules.gather(st, known)
        assert given == written_out_income(st) and st.sun == [sun[0] + given[0], sun[1] + given[1]]


def test_the_census_kept_through_a_frame_equals_a_census_made_anew():
    rng = random.Random(2021)
    checked = 0
    for _ in range(1500):
        st = random_state(rng)
        st.waiting = [rng.random() < 0.2, rng.random() < 0.2]
        known = rules.census(st)
        actions = []
        for p in (0, 1):
            offered = [text for group in rules.possible_actions(st, p, known) for text in group]
            if offered and rng.random() < 0.9:
                actions.append(parse(rng.choice(offered)))
            else:  # refused or waiting actions leave the trees alone
                actions.append(rng.choice([Wait(), Grow(rng.randrange(40)), Seed(0, 36), None]))
        kept = rules.census(st)
        result = rules.resolve_actions(st, actions, kept)
        assert kept == rules.census(st)  # brought up to date in place
        checked += bool(result.completed) + (result.conflict is not None)
    assert checked > 50  # completions and seed conflicts were among the frames


def test_trees_changed_from_outside_between_frames_are_seen():
    import referee

    ref = referee.create("spring2021", 5)
    ref.apply({})  # GATHERING
    assert [r.player for r in ref.requests() if r.expected_lines] == [0, 1]  # trees counted
    ref.apply({p: ref.legal_actions(p)[-1] for p in (0, 1)})  # SEED (listed last): still awake
    st = ref.state
    assert ref.frame.value == "ACTIONS" and st.waiting == [False, False]
    cell = next(c for c in range(37) if st.size[c] == -1 and st.board.richness[c] != 0)
    st.size[cell], st.owner[cell], st.dormant[cell] = 1, 0, False  # a tree appears
    st.sun[0] = 50
    assert [r.player for r in ref.requests() if r.expected_lines] == [0, 1]
    completes, grows, seeds = rules.possible_actions(st, 0, rules.census(st))
    assert f"GROW {cell}" in grows
    assert sorted(ref.legal_actions(0)) == sorted(["WAIT", *completes, *grows, *seeds])
