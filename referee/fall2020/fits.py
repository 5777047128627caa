"""Which inventories can pay for a spell or an order, and how many times, tabled per recipe.

In a game the inventory never holds more than :data:`MAX_SPACE` ingredients, so there are only
1001 inventories. :func:`cast_counts` lists, by :func:`inventory_index`, how many times in a row
a recipe can be cast (or brewed) from each: testing a card against the inventory is then one list
look-up, with no arithmetic. A table is built once per recipe and process, from the sets of the
inventories holding at least ``n`` of a tier or leaving at least ``n`` free (set intersections,
done in C).
"""

from __future__ import annotations

__all__ = ["MAX_SPACE", "BASES", "INVENTORIES", "NO_CASTS", "cast_key", "inventory_index", "cast_counts"]

MAX_SPACE = 10
"""Inventory capacity (all tiers together)."""

_CAST_GUARDS = 16 << 20 | 16 << 15 | 16 << 10 | 16 << 5 | 16
_COUNTS: dict[tuple[tuple[int, ...], bool], list[int]] = {}
_AT_LEAST: list[list[frozenset[int]]] = []
"""``_AT_LEAST[i][n]``: the indexes of the inventories with at least ``n`` of tier ``i`` (tiers 0-3)
or, for ``i`` = 4, at least ``n`` free places (``n`` from 0 to :data:`MAX_SPACE`)."""


def cast_key(a: int, b: int, c: int, d: int) -> int:
    """An inventory (each tier 0-15) packed against :attr:`.state.PlayerSpell.lane`: the four tiers and
    the free space (0 if none, or if the inventory is over-full), 5 bits each, guards set. Minus
    the lane of a spell it keeps all five guards iff the spell, if not exhausted, can be cast
    once: every consumed tier holds enough and the free space takes its net gain."""
    room = MAX_SPACE - (a + b + c + d)
    return (a << 20 | b << 15 | c << 10 | d << 5 | (room if room > 0 else 0)) | _CAST_GUARDS


def inventory_index(a: int, b: int, c: int, d: int) -> int:
    """The place (0 to 1000) of an inventory of at most :data:`MAX_SPACE` ingredients in the
    tables: inventories listed by tier 0, then 1, 2 and 3, ascending (written out by
    :func:`.legal.legal_actions`)."""
    return BASES[a][b][c] + d


def _bases() -> list[list[list[int]]]:
    bases: list[list[list[int]]] = []
    place = 0
    for a in range(MAX_SPACE + 1):
        bases.append([])
        for b in range(MAX_SPACE + 1 - a):
            bases[a].append([])
            for c in range(MAX_SPACE + 1 - a - b):
                bases[a][b].append(place)
                place += MAX_SPACE + 1 - a - b - c
    return bases


BASES = _bases()
"""``BASES[a][b][c]``: the :func:`inventory_index` of ``(a, b, c, 0)``, for ``a + b + c`` at most
:data:`MAX_SPACE`."""
INVENTORIES = BASES[-1][0][0] + 1
"""How many inventories hold at most :data:`MAX_SPACE` ingredients (1001)."""

NO_CASTS: list[int] = [0] * INVENTORIES
"""The table of an exhausted spell: nothing can cast it (shared: never modify it)."""


def _at_least() -> list[list[frozenset[int]]]:
    if not _AT_LEAST:
        exact: list[list[list[int]]] = [[[] for _ in range(MAX_SPACE + 1)] for _ in range(5)]
        top = MAX_SPACE
        for a in range(top + 1):
            for b in range(top + 1 - a):
                for c in range(top + 1 - a - b):
                    for d in range(top + 1 - a - b - c):
                        key = inventory_index(a, b, c, d)
                        for i, n in enumerate((a, b, c, d, top - a - b - c - d)):
                            exact[i][n].append(key)
        for by_count in exact:
            sets = [frozenset[int]()] * (top + 2)
            for n in range(top, -1, -1):
                sets[n] = sets[n + 1].union(by_count[n])
            _AT_LEAST.append(sets[: top + 1])
    return _AT_LEAST


def cast_counts(delta: tuple[int, ...], repeatable: bool = True) -> list[int]:
    """For every inventory ``(a, b, c, d)`` of at most :data:`MAX_SPACE` ingredients, by its
    :func:`inventory_index`: how many times in a row a spell of this net change can be cast from
    it (``k`` times the consumed ingredients held and ``k`` times the net gain, if positive,
    fitting in the free space; at most :data:`MAX_SPACE`), or just 1 if it can and is not
    ``repeatable``; 0 if it cannot be cast. Memoised: do not modify the result.

    An order brews iff its delta, negative parts only (no room needed), gives at least 1."""
    counts = _COUNTS.get((delta, repeatable))
    if counts is not None:
        return counts
    counts = _COUNTS[delta, repeatable] = [0] * INVENTORIES
    at_least = _at_least()
    total = sum(delta)
    needs = [(i, -x) for i, x in enumerate(delta) if x < 0]
    if total > 0:
        needs.append((4, total))
    for k in range(1, MAX_SPACE + 1 if repeatable else 2):
        if any(k * n > MAX_SPACE for _, n in needs):
            break
        for i in at_least[0][0].intersection(*[at_least[i][k * n] for i, n in needs]):
            counts[i] = k
    return counts
