"""Zobrist keys of the beam's nodes (see :mod:`bots.lib.zobrist`).

A node's key is the XOR of one random 64-bit number per component value: our inventory number,
each castable spell slot, the bitmask of learnt tome spells, our rupees and potions, the bitmasks
of the orders and tome spells still shown, and the opponent's inventory, learnt spells, rupees
and potions. The search never hashes a node from scratch: it XORs the keys of what a move changes
into keys it computed once per parent (:mod:`.search`). A castable-slots bitmask is hashed a byte
at a time, from tables of the 256 XOR combinations of each byte's slot keys.
"""

from __future__ import annotations

from bots.fall2020.game.inventory import COUNT
from bots.fall2020.game.model import Witch
from bots.lib.zobrist import ZobristTable

__all__ = [
    "INV_KEYS",
    "LEARNED_KEYS",
    "SCORE_KEYS",
    "POTION_KEYS",
    "ORDER_KEYS",
    "TOME_KEYS",
    "SLOT_KEYS",
    "MASK_BYTES",
    "mask_key",
    "other_key",
]

_KEYS = ZobristTable(12, 1024, seed=0xFA112020)
INV_KEYS = _KEYS[0][:COUNT]
LEARNED_KEYS = _KEYS[1][:64]
SCORE_KEYS = _KEYS[2][:512]
"""Indexed by ``score & 511``."""
POTION_KEYS = _KEYS[3][:16]
ORDER_KEYS = _KEYS[4][:32]
TOME_KEYS = _KEYS[5][:64]
_OTHER_INV_KEYS = _KEYS[6][:COUNT]
_OTHER_SCORE_KEYS = _KEYS[7][:512]
_OTHER_POTION_KEYS = _KEYS[8][:16]
_OTHER_LEARNED_KEYS = _KEYS[9][:64]
SLOT_KEYS = _KEYS[10][:64]
"""Key of each castable spell slot."""


def _byte_tables() -> list[list[int]]:
    tables = []
    for b in range(8):
        row = []
        for x in range(256):
            k = 0
            for i in range(8):
                if x >> i & 1:
                    k ^= SLOT_KEYS[8 * b + i]
            row.append(k)
        tables.append(row)
    return tables


MASK_BYTES = _byte_tables()
"""``MASK_BYTES[b][x]``: key of the castable slots ``8b .. 8b+7`` given by the byte ``x``."""
_M0, _M1, _M2, _M3, _M4, _M5, _M6, _M7 = MASK_BYTES


def mask_key(mask: int) -> int:
    """Zobrist key of a castable-slots bitmask (XOR of its slots' keys)."""
    k = _M0[mask & 255] ^ _M1[mask >> 8 & 255] ^ _M2[mask >> 16 & 255]
    if mask >> 24:
        k ^= (
            _M3[mask >> 24 & 255]
            ^ _M4[mask >> 32 & 255]
            ^ _M5[mask >> 40 & 255]
            ^ _M6[mask >> 48 & 255]
            ^ _M7[mask >> 56 & 255]
        )
    return k


def other_key(w: Witch) -> int:
    """Key of the opponent's part of a node."""
    return (
        _OTHER_INV_KEYS[w.inv]
        ^ _OTHER_SCORE_KEYS[w.score & 511]
        ^ _OTHER_POTION_KEYS[w.potions & 15]
        ^ _OTHER_LEARNED_KEYS[w.learned]
    )
