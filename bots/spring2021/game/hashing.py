"""Zobrist keys for Spring Challenge 2021 states (see :mod:`bots.lib.zobrist`).

One key per (grid bit, tree size) for trees, one per grid bit for dormancy, one per sun and score
value. A state's ``key`` holds the trees and dormancy part and is updated with two or three XORs
by each action; sun and score are mixed in when a layer is deduplicated.
"""

from __future__ import annotations

from bots.lib.zobrist import ZobristTable

__all__ = ["GRID_BITS", "TREE_KEYS", "DORMANT", "SUN_KEYS", "SCORE_KEYS", "tree_key"]

GRID_BITS = 256
"""Enough grid bits for any board the game allows (up to 6 rings: 13 rows of 16 bits)."""

TREE_KEYS: list[list[int]] = ZobristTable(GRID_BITS, 4, seed=2021).table
"""``TREE_KEYS[bit][size]``."""
_KEYS = ZobristTable(3, 1024, seed=2022)
DORMANT: list[int] = _KEYS[0][:GRID_BITS]
SUN_KEYS: list[int] = _KEYS[1]
"""Indexed by ``sun & 1023``."""
SCORE_KEYS: list[int] = _KEYS[2][:512]
"""Indexed by ``score & 511``."""


def tree_key(seeds: int, small: int, medium: int, tall: int, dormant: int) -> int:
    """The key of a whole position, computed from scratch (at parse time and in checks)."""
    key = 0
    for size, mask in enumerate((seeds, small, medium, tall)):
        while mask:
            low = mask & -mask
            key ^= TREE_KEYS[low.bit_length() - 1][size]
            mask ^= low
    while dormant:
        low = dormant & -dormant
        key ^= DORMANT[low.bit_length() - 1]
        dormant ^= low
    return key
