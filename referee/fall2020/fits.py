"""Which inventories can pay for a spell or an order, and how many times, tabled per recipe.

In a game the inventory never holds more than :data:`MAX_SPACE` ingredients, so there are only
1001 inventories. :func:`cast_counts` maps the :func:`inventory_index` of each one from which a recipe
can be cast (or brewed) to how many times in a row it can be: testing a card against the
inventory is then one dictionary lookup, with no arithmetic. A table is built once per recipe
and process, from the sets of the inventories holding at least ``n`` of a tier or leaving at least
``n`` free (set intersections, done in C).
"""

from __future__ import annotations

__all__ = ["MAX_SPACE", "NO_CASTS", "cast_key", "inventory_index", "cast_counts"]

MAX_SPACE = 10
"""Inventory capacity (all tiers together)."""

NO_CASTS: dict[int, int] = {}
"""The table of an exhausted spell: nothing can cast it (shared: never modify it)."""

_CAST_GUARDS = 16 << 20 | 16 << 15 | 16 << 10 | 16 << 5 | 16
_COUNTS: dict[tuple[tuple[int, ...], bool], dict[int, int]] = {}
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
    """The number of an inventory of at most :data:`MAX_SPACE` ingredients in the tables: its
    four counts as the digits of a number in base 11, tier 0 first (0 to 14640). Distinct
    inventories get distinct numbers, spread over the low bits that a dictionary looks at."""
    return ((a * 11 + b) * 11 + c) * 11 + d


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


def cast_counts(delta: tuple[int, ...], repeatable: bool = True) -> dict[int, int]:
    """For every inventory ``(a, b, c, d)`` of at most :data:`MAX_SPACE` ingredients from which a
    spell of this net change can be cast once (each tier holds what the spell consumes, the free
    space takes its net gain if positive), ``inventory_index(a, b, c, d)`` -> the most times in a row it
    can be (``k`` times the costs and ``k`` times the gain fit; at most :data:`MAX_SPACE`), or
    just 1 if not ``repeatable``. Memoised: do not modify the result.

    An order brews iff its delta, negative parts only (no room needed), lists the inventory."""
    counts = _COUNTS.get((delta, repeatable))
    if counts is not None:
        return counts
    counts = _COUNTS[delta, repeatable] = {}
    at_least = _at_least()
    total = delta[0] + delta[1] + delta[2] + delta[3]
    needs = [(i, -x) for i, x in enumerate(delta) if x < 0]
    if total > 0:
        needs.append((4, total))
    for k in range(1, MAX_SPACE + 1 if repeatable else 2):
        if any(k * n > MAX_SPACE for _, n in needs):
            break
        fit = at_least[0][0].intersection(*[at_least[i][k * n] for i, n in needs])
        counts.update(dict.fromkeys(fit, k))
    return counts
