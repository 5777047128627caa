"""The shuffles of a Spring Challenge 2021 frame: ``Collections.shuffle`` of each possible-action
list, one after the other, drawing from the game's ``java.util.Random``.

Draw for draw the same as :func:`referee.javarandom.java_shuffle` called on each list in turn
(which is the reference, tested against the JVM), written for the referee's hot loop: the three
lists of a player are shuffled in one call, the generator's state stays in a local variable
between them, and the loop walks a table of its steps (the bound, the swapped place, and where
``nextInt`` starts rejecting) instead of working them out for every item.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from ..javarandom import JavaRandom, java_shuffle

__all__ = ["shuffle_each"]

T = TypeVar("T")

_INT_SIGN = 1 << 31
_MAX_TABLED = 256
"""Lists longer than this are shuffled by :func:`java_shuffle` itself (no table is kept)."""

_Steps = tuple[tuple[int, int, int, int], ...]


def _step(bound: int) -> tuple[int, int, int, int]:
    """``(bound, bound - 1, reject, shift)`` for one draw of ``nextInt(bound)``, read from the
    generator's 48-bit state (whose top 31 bits are ``next(31)``). A power of two takes the high
    bits of ``next(31)``: the top ``log2(bound)`` bits of the state, ``state >> shift``, never
    rejected. Any other bound takes ``next(31) % bound`` and rejects the top partial block of
    multiples of ``bound``: ``next(31) >= limit``, that is ``state >= limit << 17`` (``reject``);
    ``shift`` is 0 for them."""
    if bound & (bound - 1) == 0:
        return bound, bound - 1, 0, 48 - (bound.bit_length() - 1)
    return bound, bound - 1, (_INT_SIGN // bound * bound) << 17, 0


_ALL_STEPS: _Steps = tuple(_step(bound) for bound in range(_MAX_TABLED, 1, -1))
_STEPS: list[_Steps] = [_ALL_STEPS[_MAX_TABLED - n :] for n in range(_MAX_TABLED + 1)]
"""``_STEPS[n]``: the steps of shuffling ``n`` items, bounds ``n`` down to 2 (none below 2)."""


def shuffle_each(lists: tuple[MutableSequence[T], ...], rnd: JavaRandom) -> None:
    """``Collections.shuffle(items, rnd)`` for each list of ``lists``, in order, in place."""
    state = rnd._state
    steps_of = _STEPS
    for items in lists:
        n = len(items)
        if n < 2:  # draws nothing
            continue
        if n > _MAX_TABLED:
            rnd._state = state
            java_shuffle(items, rnd)
            state = rnd._state
            continue
        # The generator's constants written out (see java_shuffle): constants load fastest.
        for bound, last, reject, shift in steps_of[n]:
            state = (state * 0x5DEECE66D + 0xB) & 0xFFFFFFFFFFFF
            if shift:  # nextInt's power-of-two path: (bound * next(31)) >> 31
                j = state >> shift
            else:
                while state >= reject:  # nextInt's rejection of the top partial block
                    state = (state * 0x5DEECE66D + 0xB) & 0xFFFFFFFFFFFF
                j = (state >> 17) % bound
            items[last], items[j] = items[j], items[last]
    rnd._state = state
