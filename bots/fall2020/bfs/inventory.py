"""The 1001 inventories of Fall Challenge 2020, numbered, and spells as lookup tables on them.

A witch holds at most 10 ingredients of 4 tiers, so there are exactly C(14, 4) = 1001 possible
inventories ``(blue, green, orange, yellow)`` with a sum of at most 10. Numbering them 0..1000
turns every inventory into a small integer (10 bits), and every spell or order into a table:
``table[i]`` is the number of the inventory after applying the delta to inventory ``i``, or -1
when that is illegal (an ingredient would go negative or the total would exceed 10). A search then
applies a move with one list lookup instead of four additions and two checks, and a state packs
into one ``int``.

Tables depend only on the delta and the repeat count, and a witch's spells never change, so they
are built once per delta (:func:`cast_table`, cached) and reused turn after turn.
"""

from __future__ import annotations

from itertools import product

__all__ = [
    "MAX_SPACE",
    "COUNT",
    "INVENTORIES",
    "index_of",
    "inventory",
    "delta_table",
    "cast_table",
    "cast_tables",
    "TOTALS",
]

Inventory = tuple[int, int, int, int]

MAX_SPACE = 10
"""Inventory capacity (all tiers together)."""

INVENTORIES: tuple[Inventory, ...] = tuple(
    (a, b, c, d) for a, b, c, d in product(range(MAX_SPACE + 1), repeat=4)
    if a + b + c + d <= MAX_SPACE
)
"""Every legal inventory; ``INVENTORIES[i]`` is the inventory numbered ``i`` (lexicographic)."""

COUNT = len(INVENTORIES)
"""1001."""

_BASE = MAX_SPACE + 1
_INDEX: dict[int, int] = {
    ((a * _BASE + b) * _BASE + c) * _BASE + d: i for i, (a, b, c, d) in enumerate(INVENTORIES)
}

TOTALS: tuple[int, ...] = tuple(sum(inv) for inv in INVENTORIES)
"""Number of ingredients held in each inventory."""


def index_of(inv: tuple[int, ...] | list[int]) -> int:
    """The number of inventory ``inv`` (4 counts), or -1 if it is not a legal inventory."""
    a, b, c, d = inv
    if min(a, b, c, d) < 0 or a + b + c + d > MAX_SPACE:
        return -1
    return _INDEX[((a * _BASE + b) * _BASE + c) * _BASE + d]


def inventory(index: int) -> Inventory:
    """The inventory numbered ``index``."""
    return INVENTORIES[index]


def delta_table(delta: tuple[int, ...], times: int = 1) -> list[int]:
    """``table[i]``: the inventory after adding ``times * delta`` to inventory ``i``, or -1."""
    da, db, dc, dd = (x * times for x in delta)
    get = _INDEX.get
    table = []
    append = table.append
    for a, b, c, d in INVENTORIES:
        a += da
        b += db
        c += dc
        d += dd
        if a < 0 or b < 0 or c < 0 or d < 0 or a + b + c + d > MAX_SPACE:
            append(-1)
        else:
            append(get(((a * _BASE + b) * _BASE + c) * _BASE + d, -1))
    return table


_CACHE: dict[tuple[tuple[int, ...], bool], list[list[int]]] = {}


def cast_tables(delta: tuple[int, ...], repeatable: bool) -> list[list[int]]:
    """``tables[k - 1]``: the table of casting ``delta`` ``k`` times, for every ``k`` that is legal
    from at least one inventory (only ``k = 1`` for a spell that is not repeatable). Cached."""
    key = (tuple(delta), repeatable)
    tables = _CACHE.get(key)
    if tables is None:
        tables = []
        for k in range(1, (MAX_SPACE if repeatable else 1) + 1):
            table = delta_table(delta, k)
            if k > 1 and max(table) < 0:
                break
            tables.append(table)
        _CACHE[key] = tables
    return tables


def cast_table(delta: tuple[int, ...]) -> list[int]:
    """The table of one application of ``delta`` (a spell cast once, or an order brewed)."""
    return cast_tables(delta, False)[0]
