"""Spring Challenge 2021 rules as functions of a :class:`SpringState` (the full game of Bronze
to Legend; the lower leagues switch actions or shadows off by the flags some functions take).

Each function is one step of the official ``Game``: costs, shadows, sun gathering, the possible
actions a player is offered, the resolution of one ACTIONS frame, the sun move and the end
scoring. They mutate the state they are given and return what happened; they never draw random
numbers (the referee shuffles the possible-action lists) and never format input lines.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..base import RuleViolation
from .actions import Action, Complete, Grow, Seed
from .board import RICHNESS_LUSH, RICHNESS_NULL, RICHNESS_OK
from .state import NO_TREE, SEED, TALL, SpringState

__all__ = [
    "TREE_BASE_COST",
    "LIFECYCLE_END_COST",
    "RICHNESS_BONUS",
    "cost",
    "seed_cost",
    "growth_cost",
    "compute_shadows",
    "gather",
    "trees_by_owner",
    "Census",
    "census",
    "possible_actions",
    "league_actions",
    "ActionsResult",
    "resolve_actions",
    "sun_move",
    "end_scoring",
]

TREE_BASE_COST = (0, 1, 3, 7)
LIFECYCLE_END_COST = 4
RICHNESS_BONUS = {RICHNESS_NULL: 0, 1: 0, RICHNESS_OK: 2, RICHNESS_LUSH: 4}

# Precomputed action texts: the possible-action lists are rebuilt for every player every frame.
_MAX_CELLS = 200
_GROW_TEXT = [f"GROW {c}" for c in range(_MAX_CELLS)]
_COMPLETE_TEXT = [f"COMPLETE {c}" for c in range(_MAX_CELLS)]
_GROW_OR_COMPLETE_TEXT = (_GROW_TEXT, _GROW_TEXT, _GROW_TEXT, _COMPLETE_TEXT)  # by tree size


def cost(state: SpringState, owner: int, size: int) -> int:
    """``TREE_BASE_COST[size]`` + number of ``owner``'s trees of that size."""
    return TREE_BASE_COST[size] + state.count(owner, size)


def seed_cost(state: SpringState, player: int) -> int:
    """Planting a seed costs one sun per seed the player already has."""
    return cost(state, player, SEED)


def growth_cost(state: SpringState, cell: int) -> int:
    """Cost to GROW the tree on ``cell`` (or to COMPLETE it when it is tall)."""
    size = state.size[cell]
    if size + 1 > TALL:
        return LIFECYCLE_END_COST
    return cost(state, state.owner[cell], size + 1)


def compute_shadows(state: SpringState, known: Census | None = None) -> None:
    """Game.calculateShadows: a tree of size s shades the s cells after it in the sun direction
    with value s (the biggest wins). A tree is shadowed when the value is >= its size.
    ``known``: the state's :func:`census`, when already made (only the trees are visited)."""
    shadows = [0] * state.board.size
    reach = state.board.geometry.shadow_reach[state.sun_direction]
    size = state.size
    for mine in (known if known is not None else census(state)).trees:
        for c in mine:
            s = size[c]
            if s > 0:
                for target in reach[c][s]:
                    if shadows[target] < s:
                        shadows[target] = s
    state.shadows = shadows


def gather(state: SpringState, known: Census | None = None) -> list[int]:
    """The GATHERING frame: wake every player and tree, then each unshadowed tree gives its size
    in sun to its owner. Returns the sun given to each player. ``known``: the state's
    :func:`census`, when already made."""
    state.waiting = [False] * len(state.waiting)
    state.dormant = [False] * len(state.dormant)
    given = []
    size, shadows = state.size, state.shadows
    for mine in (known if known is not None else census(state)).trees:
        g = 0
        for c in mine:
            s = size[c]
            if s > shadows[c] and s > 0:  # (a seed's shadow is never negative: the test rarely runs)
                g += s
        given.append(g)
    sun = state.sun
    for p, g in enumerate(given):
        sun[p] += g
    return given


def trees_by_owner(state: SpringState) -> list[list[int]]:
    """Each player's tree cells (seeds included), ascending."""
    return census(state).trees


@dataclass(slots=True)
class Census:
    """Where the trees are, counted once (valid while the trees do not change;
    :func:`resolve_actions` keeps it up to date)."""

    trees: list[list[int]]
    """``trees[p]``: player ``p``'s tree cells (seeds included), ascending."""
    counts: list[list[int]]
    """``counts[p][size]``: how many trees of that size player ``p`` has."""
    free: int
    """The cells a seed could go to (no tree, not a hole), as a mask of ``1 << rank`` bits
    (:attr:`.board.Geometry.rank`)."""
    cells: list[int]
    """Every tree cell of every player, ascending (the trees of the input lines, in their order)."""


def census(state: SpringState) -> Census:
    """Count the trees of every player and find the free cells, in one pass over the board."""
    players = len(state.sun)
    trees: list[list[int]] = [[] for _ in range(players)]
    counts = [[0, 0, 0, 0] for _ in range(players)]
    cells = []
    free = 0
    bit = state.board.geometry.rank_bit
    owner = state.owner
    for c, s in enumerate(state.size):
        if s == NO_TREE:
            free |= bit[c]
        else:
            o = owner[c]
            trees[o].append(c)
            counts[o][s] += 1
            cells.append(c)
    return Census(trees, counts, free & state.board.open_mask, cells)


_SEED_LISTS_KEPT = 4096
"""At most this many target masks are remembered per cell (then the memo starts again)."""


def _seed_list(memo: dict[int, tuple[str, ...]], texts: tuple[str, ...], targets: int) -> tuple[str, ...]:
    """The SEED commands of one cell for a mask of target ranks, lowest rank first (the official
    order), remembered in ``memo``."""
    listed = []
    left = targets
    while left:
        low = left & -left
        listed.append(texts[low.bit_length() - 1])
        left ^= low
    if len(memo) >= _SEED_LISTS_KEPT:
        memo.clear()
    found = memo[targets] = tuple(listed)
    return found


def possible_actions(
    state: SpringState, player: int, known: Census | None = None
) -> tuple[list[str], list[str], list[str]]:
    """Game.getPossibleMoves before shuffling: (completes, grows, seeds), own trees by cell.
    ``known``: the frame's :func:`census`, when already made."""
    completes: list[str] = []
    grows: list[str] = []
    seeds: list[str] = []
    if state.waiting[player]:
        return completes, grows, seeds
    if known is None:
        known = census(state)
    mine, count, free = known.trees[player], known.counts[player], known.free
    size, dormant = state.size, state.dormant
    sun = state.sun[player]
    can_seed = count[0] <= sun  # a seed costs TREE_BASE_COST[SEED] (0) + one per seed
    # By size: can the tree grow (or, when tall, complete), the list it goes to, and its texts.
    # The costs are written out (TREE_BASE_COST[1:] is 1, 3, 7; LIFECYCLE_END_COST 4): constants
    # load faster than globals, and this runs for every player every frame.
    affordable = (count[1] + 1 <= sun, count[2] + 3 <= sun, count[3] + 7 <= sun, sun >= 4)
    target_list = (grows, grows, grows, completes)
    geometry = state.board.geometry
    seed_mask, seed_text, seed_lists = geometry.seed_mask, geometry.seed_text, geometry.seed_lists
    texts_by_size = _GROW_OR_COMPLETE_TEXT  # a local: read once per tree
    if not can_seed:  # the usual loop without the seed targets
        for c in mine:
            if not dormant[c]:
                s = size[c]
                if affordable[s]:
                    target_list[s].append(texts_by_size[s][c])
        return completes, grows, seeds
    for c in mine:
        if dormant[c]:
            continue
        s = size[c]
        if s > 0:  # a tree, not a seed
            targets = seed_mask[c][s] & free
            if targets:
                listed = seed_lists[c].get(targets)
                if listed is None:
                    listed = _seed_list(seed_lists[c], seed_text[c], targets)
                seeds += listed
        if affordable[s]:
            target_list[s].append(texts_by_size[s][c])
    return completes, grows, seeds


def league_actions(
    state: SpringState, player: int, known: Census | None = None, *, grow: bool, seed: bool
) -> tuple[list[str], list[str], list[str]]:
    """:func:`possible_actions` in a league that may lack GROW or SEED: their lists come back
    empty (an empty list is shuffled without a draw, as the official list that never got them)."""
    completes, grows, seeds = possible_actions(state, player, known)
    return completes, grows if grow else [], seeds if seed else []


Event = (
    tuple[Literal["grow"], int, int]
    | tuple[Literal["seed"], int, int, int]
    | tuple[Literal["wait"], int]
    | tuple[Literal["error"], int, str]
)
"""One event of an ACTIONS frame (see :attr:`ActionsResult.events`)."""


@dataclass(slots=True)
class ActionsResult:
    """What one ACTIONS frame did, in the official order of events."""

    events: list[Event] = field(default_factory=list)
    """("grow", p, cell) | ("seed", p, target, source) | ("wait", p) | ("error", p, message)."""
    errors: list[tuple[int, str]] = field(default_factory=list)
    conflict: int | None = None
    """Target cell of a seed conflict (nothing planted, nobody's sun changed)."""
    completed: list[tuple[int, int, int]] = field(default_factory=list)
    """(player, cell, points) for each COMPLETE, in resolution order."""


def _tree_on(state: SpringState, player: int, cell: int) -> None:
    if state.size[cell] == NO_TREE:
        raise RuleViolation(f"There is no tree on cell {cell}")
    if state.owner[cell] != player:
        raise RuleViolation(f"The tree on cell {cell} is owned by opponent")


def _check_cell(state: SpringState, cell: int) -> None:
    if not 0 <= cell < state.board.size:
        raise RuleViolation(f"Cell {cell} not found")


def _pay(state: SpringState, player: int, available: list[int], price: int) -> None:
    if available[player] < price:
        raise RuleViolation(f"Not enough sun. You need {price} but have {state.sun[player]}")
    available[player] -= price


def _do_grow(state: SpringState, player: int, cell: int, available: list[int], count: list[int]) -> None:
    size = state.size
    if 0 <= cell < len(size):  # the usual case first: every check below passes
        s = size[cell]
        if SEED <= s < TALL and state.owner[cell] == player and not state.dormant[cell]:
            price = TREE_BASE_COST[s + 1] + count[s + 1]
            if available[player] >= price:
                available[player] -= price
                size[cell] = s + 1
                state.dormant[cell] = True
                return
    _check_cell(state, cell)
    _tree_on(state, player, cell)
    if state.dormant[cell]:
        raise RuleViolation(f"Tree on cell {cell} is dormant (has already been used this round)")
    if state.size[cell] >= TALL:
        raise RuleViolation(f"Tree on cell {cell} cannot grow more (max size is 3).")
    _pay(state, player, available, TREE_BASE_COST[state.size[cell] + 1] + count[state.size[cell] + 1])
    state.size[cell] += 1
    state.dormant[cell] = True


def _do_complete(state: SpringState, player: int, cell: int, available: list[int], dying: list[int]) -> None:
    _check_cell(state, cell)
    _tree_on(state, player, cell)
    if state.size[cell] < TALL:
        raise RuleViolation(f"The tree on cell {cell} is not large enough")
    if state.dormant[cell]:
        raise RuleViolation(f"Tree on cell {cell} is dormant (has already been used this round)")
    _pay(state, player, available, LIFECYCLE_END_COST)
    dying.append(cell)
    state.dormant[cell] = True


def _do_seed(
    state: SpringState,
    player: int,
    source: int,
    target: int,
    available: list[int],
    sent: list[tuple[int, int, int]],
    count: list[int],
) -> None:
    size = state.size
    price = TREE_BASE_COST[SEED] + count[SEED]
    if 0 <= target < len(size) and 0 <= source < len(size):  # the usual case first: all pass
        s = size[source]
        if (
            size[target] == NO_TREE
            and s > SEED
            and state.owner[source] == player
            and not state.dormant[source]
            and state.board.dist[source][target] <= s
            and state.board.richness[target] != RICHNESS_NULL
            and available[player] >= price
        ):
            available[player] -= price
            state.dormant[source] = True
            sent.append((player, source, target))
            return
    _check_cell(state, target)
    _check_cell(state, source)
    if state.size[target] != NO_TREE:
        raise RuleViolation(f"There is already a tree on cell {target}")
    if state.size[source] == NO_TREE:
        raise RuleViolation(f"There is no tree on cell {source}")
    if state.size[source] == SEED:
        raise RuleViolation(f"The seed on {source} cannot produce seeds")
    if state.owner[source] != player:
        raise RuleViolation(f"The tree on cell {source} is owned by opponent")
    if state.dormant[source]:
        raise RuleViolation(f"Tree on cell {source} is dormant (has already been used this round)")
    if state.board.dist[source][target] > state.size[source]:
        raise RuleViolation(f"The tree on cell {source} is too far from cell {target} to plant a seed there")
    if state.board.richness[target] == RICHNESS_NULL:
        raise RuleViolation(f"You can't plant a seed on cell {target}")
    _pay(state, player, available, price)
    state.dormant[source] = True
    sent.append((player, source, target))


def resolve_actions(state: SpringState, actions: Sequence[Action | None], known: Census | None = None) -> ActionsResult:
    """Game.performActionUpdate: one action per player (``None`` = no action, e.g. disqualified).

    Players not already waiting act in index order. GROW, COMPLETE and SEED are checked and
    applied at once against a snapshot of each player's sun; an illegal one is refused with the
    official message and, like WAIT or no action, puts the player to sleep until the next day.
    Then seeds are planted unless two target the same cell (a conflict: nothing planted, nobody's
    sun changes, the sources stay dormant); completed trees score ``nutrients`` + the richness
    bonus (all with the same nutrient value) and are removed; nutrients drop by one per tree.

    ``known``: the :func:`census` of the state as the frame begins, when already made; it is
    brought up to date in place (grown trees change size, planted seeds are new trees, completed
    trees are gone), so it stays the census of the state without a new pass over the board. Each
    player acts once a frame and its prices depend only on its own trees, so the counts it is
    priced with are those the frame began with.
    """
    result = ActionsResult([], [], None, [])
    if known is None:
        known = census(state)
    trees, counts = known.trees, known.counts
    size = state.size
    available = state.sun[:]
    dying: list[int] = []
    sent: list[tuple[int, int, int]] = []
    for player, action in enumerate(actions):
        if state.waiting[player]:
            continue
        try:
            if isinstance(action, Grow):
                count = counts[player]
                _do_grow(state, player, action.cell, available, count)
                grown = size[action.cell]
                count[grown - 1] -= 1
                count[grown] += 1
                result.events.append(("grow", player, action.cell))
            elif isinstance(action, Seed):
                _do_seed(state, player, action.source, action.target, available, sent, counts[player])
                result.events.append(("seed", player, action.target, action.source))
            elif isinstance(action, Complete):
                _do_complete(state, player, action.cell, available, dying)
            else:
                state.waiting[player] = True
                result.events.append(("wait", player))
        except RuleViolation as exc:
            message = str(exc)
            result.events.append(("error", player, message))
            result.errors.append((player, message))
            state.waiting[player] = True

    bit = state.board.geometry.rank_bit
    if len(sent) > 1 and len({target for _, _, target in sent}) != len(sent):
        result.conflict = sent[0][2]
    else:
        for player, _source, target in sent:
            size[target] = SEED
            state.owner[target] = player
            state.dormant[target] = True
            insort(trees[player], target)
            insort(known.cells, target)
            counts[player][SEED] += 1
            known.free &= ~bit[target]
        state.sun[:] = available

    richness = state.board.richness
    for cell in dying:
        points = state.nutrients + RICHNESS_BONUS[richness[cell]]
        player = state.owner[cell]
        state.score[player] += points
        size[cell] = NO_TREE
        state.owner[cell] = -1
        state.dormant[cell] = False
        result.completed.append((player, cell, points))
        trees[player].remove(cell)
        known.cells.remove(cell)
        counts[player][TALL] -= 1
        known.free |= bit[cell]
    for _ in dying:
        state.nutrients = max(0, state.nutrients - 1)
    return result


def sun_move(state: SpringState, known: Census | None = None, shadows: bool = True) -> None:
    """The SUN_MOVE frame: next day; the sun turns and shadows are recomputed (not after the
    last day; never in a league without shadows). ``known``: the state's :func:`census`, when
    already made."""
    state.day += 1
    if state.day < state.max_rounds:
        state.sun_direction = (state.sun_direction + 1) % 6
        if shadows:
            compute_shadows(state, known)


def end_scoring(state: SpringState, active: Sequence[bool]) -> list[int]:
    """Game.onEnd: each active player scores sun // 3; then, if all active players have the same
    score (always true when only one is active), each of their trees, seeds included, is worth one
    more point. Returns the tree bonus given to each player."""
    bonus = [0] * len(state.score)
    for p, is_active in enumerate(active):
        if is_active:
            state.score[p] += state.sun[p] // 3
    active_scores = {state.score[p] for p, is_active in enumerate(active) if is_active}
    if len(active_scores) == 1:
        for c in state.tree_cells():
            p = state.owner[c]
            if active[p]:
                bonus[p] += 1
                state.score[p] += 1
    return bonus
