"""Shadows and sun income with shifts (see :mod:`.board` for the bit layout).

A tree of size ``s`` shades the ``s`` cells after it in the sun's direction, and a tree is in the
shadow (gives no sun) when some tree at least as tall as itself shades it. So with ``t1, t2,
t3`` the masks of trees of size 1, 2, 3 (both players) and ``<<`` one step towards the sun:

- shaded by a size-3 tree: ``sh3 = t3<<1 | t3<<2 | t3<<3``
- shaded by size >= 2:     ``sh2 = sh3 | t2<<1 | t2<<2``
- shaded by size >= 1:     ``sh1 = sh2 | t1<<1``

and the income of a player owning ``mine`` is ``|t1 & mine & ~sh1| + 2|t2 & mine & ~sh2| +
3|t3 & mine & ~sh3|``: a dozen integer operations whatever the number of trees. Bits shifted off
the board land on guard or out-of-board bits, which ``& mine`` discards.
"""

from __future__ import annotations

__all__ = ["shade", "income", "incomes"]


def shade(step: int, t1: int, t2: int, t3: int) -> tuple[int, int, int]:
    """``(sh1, sh2, sh3)``: cells shaded by trees of size >= 1, >= 2, >= 3 for a sun whose
    direction is one bit step of ``step`` (not masked: ``&`` them with real cells)."""
    if step > 0:
        a, b = step, step + step
        sh3 = (t3 << a) | (t3 << b) | (t3 << (a + b))
        sh2 = sh3 | (t2 << a) | (t2 << b)
        return sh2 | (t1 << a), sh2, sh3
    a = -step
    b = a + a
    sh3 = (t3 >> a) | (t3 >> b) | (t3 >> (a + b))
    sh2 = sh3 | (t2 >> a) | (t2 >> b)
    return sh2 | (t1 >> a), sh2, sh3


def income(step: int, t1: int, t2: int, t3: int, owned: int) -> int:
    """Sun gathered by the trees in ``owned`` when the sun points one ``step``."""
    if step > 0:
        a, b = step, step + step
        sh3 = (t3 << a) | (t3 << b) | (t3 << (a + b))
        sh2 = sh3 | (t2 << a) | (t2 << b)
        sh1 = sh2 | (t1 << a)
    else:
        a = -step
        b = a + a
        sh3 = (t3 >> a) | (t3 >> b) | (t3 >> (a + b))
        sh2 = sh3 | (t2 >> a) | (t2 >> b)
        sh1 = sh2 | (t1 >> a)
    return (t1 & owned & ~sh1).bit_count() + 2 * (t2 & owned & ~sh2).bit_count() + 3 * (t3 & owned & ~sh3).bit_count()


def incomes(steps: tuple[int, ...], t1: int, t2: int, t3: int, owned: int) -> list[int]:
    """The income of ``owned`` for each of the six sun directions."""
    return [income(s, t1, t2, t3, owned) for s in steps]
