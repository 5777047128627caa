"""Inventories as small integers, and spells and orders as lookup tables over them.

A witch never holds more than 10 ingredients, so her inventory ``(tier0, tier1, tier2, tier3)``
is one of the C(14, 4) = 1001 tuples with a sum of at most 10. We number them once (``INVS[i]`` is
the tuple of inventory ``i``) and from then on an inventory is a plain ``int``:

* a spell cast ``k`` times maps inventory ``i`` to inventory ``j`` or is illegal; the table
  ``cast_table(delta, repeatable)[i]`` lists the reachable inventories for ``k = 1, 2, ...`` (an
  empty tuple when the spell cannot be cast), so a search generates every ``CAST id k`` child of
  a spell with one list lookup;
* an order is ``brew_table(need)[i]``: the inventory after paying, or -1 when it is unaffordable;
* a LEARN pays ``tax`` tier-0 ingredients and then receives ``min(space left, stock)`` of them:
  ``learn_table(tax, stock)[i]``;
* values that only depend on the inventory (its size, its ingredient worth, the end-of-game
  bonus of one point per tier 1-3 ingredient) are lists indexed by the inventory number.

Tables depend only on the recipe, and the same 46 recipes come back every game, so they are
memoised for the life of the process.
"""

from __future__ import annotations

from itertools import product

__all__ = [
    "MAX_SPACE",
    "Inventory",
    "INVS",
    "COUNT",
    "TOTAL",
    "END_BONUS",
    "index_of",
    "cast_table",
    "brew_table",
    "learn_table",
    "weighted_table",
]

Inventory = tuple[int, int, int, int]

MAX_SPACE = 10
"""Ingredients a witch can hold, all tiers together."""

INVS: tuple[Inventory, ...] = tuple(
    (a, b, c, d) for a, b, c, d in product(range(MAX_SPACE + 1), repeat=4) if a + b + c + d <= MAX_SPACE
)
"""Every legal inventory, numbered in lexicographic order."""

COUNT = len(INVS)
"""1001 inventories."""

_NUMBER: dict[tuple[int, ...], int] = {inv: i for i, inv in enumerate(INVS)}
"""Inventory number by counts (keyed by any tuple, so that a lookup needs no length check)."""

TOTAL: tuple[int, ...] = tuple(sum(inv) for inv in INVS)
"""Ingredients held in each inventory."""

END_BONUS: tuple[int, ...] = tuple(b + c + d for _, b, c, d in INVS)
"""End-of-game rupees of each inventory: one per tier 1, 2 or 3 ingredient."""


def index_of(inv: tuple[int, ...] | list[int]) -> int:
    """The number of an inventory given as 4 counts (``ValueError`` if it is not legal)."""
    number = _NUMBER.get(tuple(inv))
    if number is None:
        raise ValueError(f"not a legal inventory: {inv!r}")
    return number


_CASTS: dict[tuple[Inventory, bool], list[tuple[int, ...]]] = {}
_BREWS: dict[Inventory, list[int]] = {}
_LEARNS: dict[tuple[int, int], list[int]] = {}


def cast_table(delta: Inventory, repeatable: bool) -> list[tuple[int, ...]]:
    """``table[i]``: the inventories after casting ``delta`` 1, 2, ... times from inventory ``i``
    (only the first for a spell that is not repeatable; empty when it cannot be cast once)."""
    key = (delta, repeatable)
    table = _CASTS.get(key)
    if table is None:
        table = []
        for inv in INVS:
            reach: list[int] = []
            after = inv
            while True:
                after = (after[0] + delta[0], after[1] + delta[1], after[2] + delta[2], after[3] + delta[3])
                number = _NUMBER.get(after) if min(after) >= 0 else None
                if number is None:
                    break
                reach.append(number)
                if not repeatable:
                    break
            table.append(tuple(reach))
        _CASTS[key] = table
    return table


def brew_table(need: Inventory) -> list[int]:
    """``table[i]``: the inventory after paying ``need`` from inventory ``i``, or -1."""
    table = _BREWS.get(need)
    if table is None:
        a, b, c, d = need
        table = [
            _NUMBER[(w - a, x - b, y - c, z - d)] if w >= a and x >= b and y >= c and z >= d else -1
            for w, x, y, z in INVS
        ]
        _BREWS[need] = table
    return table


def learn_table(tax: int, stock: int) -> list[int]:
    """``table[i]``: the inventory after paying ``tax`` tier-0 ingredients and receiving the
    spell's ``stock`` (as much of it as fits), or -1 when the tax cannot be paid."""
    key = (tax, stock)
    table = _LEARNS.get(key)
    if table is None:
        table = []
        for a, b, c, d in INVS:
            if a < tax:
                table.append(-1)
                continue
            a -= tax
            a += min(MAX_SPACE - (a + b + c + d), stock)
            table.append(_NUMBER[(a, b, c, d)])
        _LEARNS[key] = table
    return table


def weighted_table(weights: tuple[float, float, float, float]) -> list[float]:
    """``table[i]``: the sum of the counts of inventory ``i`` times ``weights`` (per tier)."""
    w0, w1, w2, w3 = weights
    return [a * w0 + b * w1 + c * w2 + d * w3 for a, b, c, d in INVS]
