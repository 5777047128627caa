"""The moves a search bot tries: the legal actions, minus seeds that are almost never right.

:func:`.state.legal_actions` lists everything the referee allows; a search spends its time
better on a smaller set. GROW and COMPLETE are all kept. SEED is cut hard, as strong contest bots
did: only while we own no seed (so it is free), not in the last days (a seed needs four days to
become a tall tree worth completing), never next to one of our own trees (it would shade it or be
shaded), and for each target cell only one source: the smallest awake tree that reaches it (a
tree that seeds goes dormant, so using the smallest keeps the big ones free to grow or complete).
"""

from __future__ import annotations

from .board import Board
from .state import COMPLETE, COMPLETE_COST, GROW, GROW_BASE, SEED, State, complete, grow, seed

__all__ = ["LAST_SEED_DAY", "children"]

LAST_SEED_DAY = 19
"""The last day on which the search plants seeds."""


def children(s: State, board: Board, last_seed_day: int = LAST_SEED_DAY) -> list[tuple[int, State]]:
    """``(action, next state)`` for every move worth searching from ``s`` (WAIT excluded)."""
    out: list[tuple[int, State]] = []
    mine = s.mine
    awake = mine & ~s.dormant
    sun = s.sun
    seeds, small, medium, tall = s.seeds, s.small, s.medium, s.tall
    if sun >= COMPLETE_COST:
        m = tall & awake
        bonus = board.bonus_of_bit
        while m:
            low = m & -m
            bit = low.bit_length() - 1
            m ^= low
            out.append((COMPLETE | bit << 2, complete(s, bit, bonus[bit])))  # type: ignore[arg-type]
    for size, trees, bigger in ((0, seeds, small), (1, small, medium), (2, medium, tall)):
        m = trees & awake
        if not m or GROW_BASE[size + 1] + (bigger & mine).bit_count() > sun:
            continue
        while m:
            low = m & -m
            bit = low.bit_length() - 1
            m ^= low
            out.append((GROW | bit << 2, grow(s, bit, size)))  # type: ignore[arg-type]
    if s.day <= last_seed_day and not (seeds & mine):
        within = board.within
        free = board.usable & ~(seeds | small | medium | tall)
        # Not next to our own trees: remove every cell at distance 1 of one of them.
        own = mine
        while own:
            low = own & -own
            own ^= low
            free &= ~within[low.bit_length() - 1][1]
        placed = 0
        for size, trees in ((1, small), (2, medium), (3, tall)):
            m = trees & awake
            while m:
                low = m & -m
                bit = low.bit_length() - 1
                m ^= low
                targets = within[bit][size] & free & ~placed
                placed |= targets
                while targets:
                    tl = targets & -targets
                    targets ^= tl
                    target = tl.bit_length() - 1
                    out.append((SEED | bit << 2 | target << 10, seed(s, bit, target)))  # type: ignore[arg-type]
    return out
