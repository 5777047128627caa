"""Bit-exact ``java.util.Random`` and ``java.util.Collections.shuffle``.

The official referees seed one ``java.util.Random`` per game and draw maps, decks and list orders
from it, so reproducing a CodinGame game means reproducing this generator draw for draw.

``java.util.Random`` is a 48-bit linear congruential generator: only the low 48 bits of the seed
matter, so two seeds that are congruent modulo 2**48 give the same game.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

__all__ = ["JavaRandom", "java_shuffle", "JAVA_LONG_MIN", "JAVA_LONG_MAX", "check_java_long"]

JAVA_LONG_MIN = -(1 << 63)
JAVA_LONG_MAX = (1 << 63) - 1

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1
_INT_SIGN = 1 << 31

T = TypeVar("T")


def check_java_long(seed: int) -> int:
    """Return ``seed`` if it is a Java long, else raise ``ValueError`` naming the range."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer (a Java long), got {seed!r}")
    if not JAVA_LONG_MIN <= seed <= JAVA_LONG_MAX:
        raise ValueError(f"seed {seed} is outside the Java long range [{JAVA_LONG_MIN}, {JAVA_LONG_MAX}]")
    return seed


class JavaRandom:
    """``java.util.Random(seed)``: same draws as the JVM for every method implemented here."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = (seed ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        """``protected int next(int bits)``: the top ``bits`` of the new state, cast to a Java int.

        The cast is signed, so ``next(32)`` can be negative while ``next(31)`` never is.
        """
        self._state = (self._state * _MULTIPLIER + _ADDEND) & _MASK
        value = self._state >> (48 - bits)
        if value >= _INT_SIGN:
            value -= 1 << 32
        return value

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any Java int) or ``nextInt(bound)`` (uniform in ``[0, bound)``)."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        if bound & -bound == bound:  # power of two: take the high bits
            return (bound * self.next(31)) >> 31
        # Rejection loop: reject the top partial block so every residue is equally likely.
        while True:
            bits = self.next(31)
            value = bits % bound
            if bits - value + (bound - 1) < _INT_SIGN:
                return value

    def next_long(self) -> int:
        """``nextLong()``: two ``next(32)`` draws combined as Java does (with sign wrap)."""
        value = (self.next(32) << 32) + self.next(32)
        value &= (1 << 64) - 1
        return value - (1 << 64) if value >= 1 << 63 else value

    def next_boolean(self) -> bool:
        """``nextBoolean()``."""
        return self.next(1) != 0

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits scaled to ``[0, 1)``."""
        return ((self.next(26) << 27) + self.next(27)) * (1.0 / (1 << 53))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """``Collections.shuffle(items, this)`` in place (same swaps as the JDK)."""
        java_shuffle(items, self)


def java_shuffle(items: MutableSequence[T], rnd: JavaRandom) -> None:
    """``Collections.shuffle(list, rnd)``: for i = size..2, swap(i-1, rnd.nextInt(i)).

    Lists of size 0 or 1 draw nothing; a list of n items draws nextInt(n), ..., nextInt(2).
    The draws are inlined (this runs for every possible-action list of every Spring frame).
    """
    n = len(items)
    if n < 2:
        return
    if n >= len(_REJECT_FROM):  # a very long list: nextInt itself
        for i in range(n, 1, -1):
            j = rnd.next_int(i)
            items[i - 1], items[j] = items[j], items[i - 1]
        return
    reject_from = _REJECT_FROM
    state = rnd._state
    # The generator's constants are written out (_MULTIPLIER, _ADDEND, _MASK): constants are
    # loaded faster than globals, and this loop runs for every item of every shuffled list.
    for i in range(n, 1, -1):
        state = (state * 0x5DEECE66D + 0xB) & 0xFFFFFFFFFFFF
        bits = state >> 17  # next(31)
        limit = reject_from[i]
        if limit:
            while bits >= limit:  # nextInt's rejection of the top partial block
                state = (state * 0x5DEECE66D + 0xB) & 0xFFFFFFFFFFFF
                bits = state >> 17
            j = bits % i
        else:  # nextInt's power-of-two path
            j = (i * bits) >> 31
        last = i - 1
        items[last], items[j] = items[j], items[last]
    rnd._state = state


_REJECT_FROM = [0 if bound & (bound - 1) == 0 else _INT_SIGN // bound * bound for bound in range(1, 1025)]
_REJECT_FROM.insert(0, 0)
"""``_REJECT_FROM[bound]``: for a bound that is not a power of two, the smallest ``next(31)`` that
``nextInt(bound)`` rejects (``bits - bits % bound + (bound - 1)`` overflows a Java int exactly
when ``bits`` is in the top partial block of multiples of ``bound``); 0 for a power of two."""
