"""Zobrist hashing: a state's key is the XOR of one random number per feature it has.

Give every (feature, value) pair a random 64-bit number; a state's hash is the XOR of the numbers
of the pairs it holds. Changing one feature updates the hash with two XORs (remove the old
value's number, add the new one's), so a search can hash every child it makes in O(1) instead of
re-reading the whole state, and two move orders that reach the same state (transpositions) get
the same key. The numbers come from a seeded generator: the same table in every run, so searches
are reproducible.
"""

from __future__ import annotations

import random

__all__ = ["ZobristTable"]


class ZobristTable:
    """``rows`` features, each with ``values`` possible values: one random 64-bit key per pair.

    ``table[f][v]`` (a list per feature) is the key of feature ``f`` holding value ``v``; features
    that are simply present or absent use ``values=1`` and ``table[f][0]``.
    """

    __slots__ = ("rows", "values", "table")

    def __init__(self, rows: int, values: int = 1, seed: int = 0x5EED) -> None:
        rng = random.Random(seed)
        self.rows = rows
        self.values = values
        self.table: list[list[int]] = [[rng.getrandbits(64) for _ in range(values)] for _ in range(rows)]

    def __getitem__(self, feature: int) -> list[int]:
        return self.table[feature]
