"""A Spring Challenge 2021 position in a dozen ints, and the rules as pure functions on it.

:class:`State` is an immutable named tuple: tree masks by size for both players (``seeds``,
``small``, ``medium``, ``tall``), which of them are ours (``mine``), which of ours are ``dormant``,
our and the opponent's sun and score, nutrients, day, and ``key``, the incremental Zobrist hash
of the trees and dormancy (see :mod:`.hashing`). Every function returns a new state; the search
keeps thousands of them.

The functions model *one* player acting (us): GROW, COMPLETE and SEED as the referee resolves
them, and WAIT, which here ends our day. The opponent's trees stay as they are (a search bot
models the opponent as waiting); their sun still grows every day. Costs: a seed costs one sun per
seed we own; growing to size ``s`` costs ``(1, 3, 7)[s-1]`` plus the trees of size ``s`` we own;
completing costs 4 and scores ``nutrients`` plus the cell's richness bonus, after which nutrients
drop by one. After day 23 the game ends and each player scores ``sun // 3``.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Board
from .hashing import DORMANT, SCORE_KEYS, SUN_KEYS, TREE_KEYS
from .shadows import income

__all__ = [
    "State",
    "MAX_DAYS",
    "GROW_BASE",
    "COMPLETE_COST",
    "WAIT",
    "GROW",
    "COMPLETE",
    "SEED",
    "action",
    "grow",
    "complete",
    "seed",
    "end_day",
    "legal_actions",
    "apply",
    "final_scores",
    "dedupe_key",
]

MAX_DAYS = 24
GROW_BASE = (0, 1, 3, 7)
"""Base cost of growing *to* each size (index = new size)."""
COMPLETE_COST = 4

WAIT, GROW, COMPLETE, SEED = 0, 1, 2, 3
"""Action kinds. An action is the int ``kind | source << 2 | target << 10`` (grid bits)."""


def action(kind: int, source: int = 0, target: int = 0) -> int:
    return kind | source << 2 | target << 10


class State(NamedTuple):
    seeds: int
    small: int
    medium: int
    tall: int
    mine: int
    dormant: int
    sun: int
    score: int
    opp_sun: int
    opp_score: int
    nutrients: int
    day: int
    key: int

    def trees(self) -> int:
        """Every tree, seeds included, of both players."""
        return self.seeds | self.small | self.medium | self.tall

    def size_of(self, bit: int) -> int:
        """Size of the tree on ``bit`` (-1 if none)."""
        b = 1 << bit
        if self.seeds & b:
            return 0
        if self.small & b:
            return 1
        if self.medium & b:
            return 2
        if self.tall & b:
            return 3
        return -1


def dedupe_key(s: State) -> int:
    """The full transposition key: trees, dormancy, sun, score (nutrients follow the trees)."""
    return s.key ^ SUN_KEYS[s.sun & 1023] ^ SCORE_KEYS[s.score & 511]


def grow(s: State, bit: int, size: int) -> State | None:
    """Our tree of ``size`` (0-2) on ``bit`` grows, or ``None`` if we cannot pay."""
    b = 1 << bit
    mine = s.mine
    keys = TREE_KEYS[bit]
    if size == 0:
        price = 1 + (s.small & mine).bit_count()
        if price > s.sun:
            return None
        return State(
            s.seeds ^ b,
            s.small | b,
            s.medium,
            s.tall,
            mine,
            s.dormant | b,
            s.sun - price,
            s.score,
            s.opp_sun,
            s.opp_score,
            s.nutrients,
            s.day,
            s.key ^ keys[0] ^ keys[1] ^ DORMANT[bit],
        )
    if size == 1:
        price = 3 + (s.medium & mine).bit_count()
        if price > s.sun:
            return None
        return State(
            s.seeds,
            s.small ^ b,
            s.medium | b,
            s.tall,
            mine,
            s.dormant | b,
            s.sun - price,
            s.score,
            s.opp_sun,
            s.opp_score,
            s.nutrients,
            s.day,
            s.key ^ keys[1] ^ keys[2] ^ DORMANT[bit],
        )
    price = 7 + (s.tall & mine).bit_count()
    if price > s.sun:
        return None
    return State(
        s.seeds,
        s.small,
        s.medium ^ b,
        s.tall | b,
        mine,
        s.dormant | b,
        s.sun - price,
        s.score,
        s.opp_sun,
        s.opp_score,
        s.nutrients,
        s.day,
        s.key ^ keys[2] ^ keys[3] ^ DORMANT[bit],
    )


def complete(s: State, bit: int, bonus: int) -> State | None:
    """Our tall tree on ``bit`` (cell bonus ``bonus``) ends its life, or ``None`` if sun < 4."""
    if s.sun < COMPLETE_COST:
        return None
    b = 1 << bit
    nutrients = s.nutrients
    return State(
        s.seeds,
        s.small,
        s.medium,
        s.tall ^ b,
        s.mine ^ b,
        s.dormant & ~b,
        s.sun - COMPLETE_COST,
        s.score + nutrients + bonus,
        s.opp_sun,
        s.opp_score,
        nutrients - 1 if nutrients > 0 else 0,
        s.day,
        s.key ^ TREE_KEYS[bit][3] ^ (DORMANT[bit] if s.dormant & b else 0),
    )


def seed(s: State, source: int, target: int) -> State | None:
    """Our tree on ``source`` plants a seed on the empty cell ``target`` (no range check)."""
    mine = s.mine
    price = (s.seeds & mine).bit_count()
    if price > s.sun:
        return None
    t = 1 << target
    return State(
        s.seeds | t,
        s.small,
        s.medium,
        s.tall,
        mine | t,
        s.dormant | t | 1 << source,
        s.sun - price,
        s.score,
        s.opp_sun,
        s.opp_score,
        s.nutrients,
        s.day,
        s.key ^ TREE_KEYS[target][0] ^ DORMANT[target] ^ DORMANT[source],
    )


def end_day(s: State, board: Board) -> State:
    """Both players wait: the next day begins (trees wake, both gather sun), or the game ends.

    After the last day the state is final: scores include ``sun // 3`` (the tree-count
    tie-break is left to :func:`final_scores`).
    """
    day = s.day + 1
    key = s.key
    dormant = s.dormant
    while dormant:
        low = dormant & -dormant
        key ^= DORMANT[low.bit_length() - 1]
        dormant ^= low
    if day >= MAX_DAYS:
        return State(
            s.seeds,
            s.small,
            s.medium,
            s.tall,
            s.mine,
            0,
            s.sun,
            s.score + s.sun // 3,
            s.opp_sun,
            s.opp_score + s.opp_sun // 3,
            s.nutrients,
            day,
            key,
        )
    step = board.step[day % 6]
    t1, t2, t3 = s.small, s.medium, s.tall
    mine = s.mine
    opp = (t1 | t2 | t3) & ~mine
    return State(
        s.seeds,
        t1,
        t2,
        t3,
        mine,
        0,
        s.sun + income(step, t1, t2, t3, mine),
        s.score,
        s.opp_sun + income(step, t1, t2, t3, opp),
        s.opp_score,
        s.nutrients,
        day,
        key,
    )


def final_scores(s: State) -> tuple[int, int]:
    """Final (ours, theirs) of a state after the last day, with the official tie-break: when the
    scores are equal, each player gets one more point per tree it owns."""
    ours, theirs = s.score, s.opp_score
    if ours == theirs:
        trees = s.trees()
        ours += (trees & s.mine).bit_count()
        theirs += (trees & ~s.mine).bit_count()
    return ours, theirs


def legal_actions(s: State, board: Board) -> list[int]:
    """Every action the referee offers us (WAIT first), as action ints."""
    out = [WAIT]
    mine = s.mine
    awake = mine & ~s.dormant
    sun = s.sun
    can_seed = (s.seeds & mine).bit_count() <= sun
    empty = board.usable & ~s.trees()
    within = board.within
    for size, trees in enumerate((s.seeds, s.small, s.medium, s.tall)):
        m = trees & awake
        while m:
            low = m & -m
            bit = low.bit_length() - 1
            m ^= low
            if size == 3:
                if sun >= COMPLETE_COST:
                    out.append(action(COMPLETE, bit))
            elif GROW_BASE[size + 1] + ((s.small, s.medium, s.tall)[size] & mine).bit_count() <= sun:
                out.append(action(GROW, bit))
            if size > 0 and can_seed:
                targets = within[bit][size] & empty
                while targets:
                    tl = targets & -targets
                    out.append(action(SEED, bit, tl.bit_length() - 1))
                    targets ^= tl
    return out


def apply(s: State, a: int, board: Board) -> State:
    """The state after our action ``a`` (WAIT ends the day). Raises ``ValueError`` when it is
    not affordable (the caller offers only legal actions)."""
    kind = a & 3
    if kind == WAIT:
        return end_day(s, board)
    source = (a >> 2) & 255
    if kind == GROW:
        nxt = grow(s, source, s.size_of(source))
    elif kind == COMPLETE:
        nxt = complete(s, source, board.bonus_of_bit[source])
    else:
        nxt = seed(s, source, (a >> 10) & 255)
    if nxt is None:
        raise ValueError(f"action {a} is not affordable")
    return nxt
