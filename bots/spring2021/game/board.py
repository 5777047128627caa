"""The hex board as bitboards where moving one cell in a direction is a bit shift.

CodinGame numbers cells in a spiral from the centre (``0`` to ``36`` on the standard board) and
gives, for each cell, its neighbour in each of the six directions. For a search, per-cell lists
are slow; Python ints used as bit sets are fast (``&``, ``|``, ``bit_count`` are single C calls).

The layout: give each cell axial coordinates ``(q, r)`` by walking the neighbour table from the
centre, then put cell ``(q, r)`` on bit ``(r + R) * W + (q + R)`` of a grid ``W`` bits
wide (``R`` = rings, ``W = 2R + 4``). Stepping one cell in direction ``d`` is then adding a
constant ``step[d]`` to the bit index: a left or right shift of the whole mask. The three guard
columns beside the board absorb up to three steps sideways, so shifting a mask 1, 2 or 3 cells
(the longest shadow) never lands on a wrong
board cell: bits that leave the board land on guard bits or off the grid, and a final ``& mask``
of real cells (or an ``&`` with a mask of trees, which only holds real cells) drops them. That
turns "which cells are in the shadow of which trees" into a handful of shifts (``shadows``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["AXIAL", "RICHNESS_BONUS", "Board"]

AXIAL: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial ``(dq, dr)`` of the six directions, in CodinGame's order (0 = east, counter-clockwise).
Opposite directions are 3 apart, and the sun on day ``d`` casts shadows towards ``d % 6``."""

RICHNESS_BONUS = (0, 0, 2, 4)
"""Points added to the nutrients when completing a tree, by the richness of its cell."""


class Board:
    """Cells, richness and every precomputed mask the model uses.

    Attributes (bits are grid bits, see the module docstring):

    - ``cells``: number of cells; ``bit_of[cell]`` and ``cell_of[bit]`` convert indices;
    - ``usable``: cells with richness > 0 (seeds can only go there);
    - ``richness_of_bit[bit]``, ``bonus_of_bit[bit]``: richness and completion bonus;
    - ``rich[k]``: mask of the cells of richness ``k``;
    - ``step[d]``: bit offset of one step in direction ``d`` (positive = left shift);
    - ``within[bit][n]``: cells at distance 1..n (n = 0..3) from ``bit``, the seeding range;
    - ``neighbours``: the input's table, by cell index (``-1`` = none).
    """

    __slots__ = (
        "cells",
        "rings",
        "width",
        "bit_of",
        "cell_of",
        "usable",
        "all_cells",
        "richness",
        "richness_of_bit",
        "bonus_of_bit",
        "rich",
        "step",
        "within",
        "neighbours",
    )

    def __init__(self, richness: Sequence[int], neighbours: Sequence[Sequence[int]]) -> None:
        if len(richness) != len(neighbours) or not richness:
            raise ValueError("every cell needs a richness and six neighbours")
        self.cells = len(richness)
        self.richness = tuple(richness)
        self.neighbours = tuple(tuple(n) for n in neighbours)
        axial = self._axial_coordinates()
        self.rings = max(max(abs(q), abs(r), abs(q + r)) for q, r in axial)
        self.width = 2 * self.rings + 4
        rings, width = self.rings, self.width
        self.bit_of = tuple((r + rings) * width + (q + rings) for q, r in axial)
        self.cell_of = {b: c for c, b in enumerate(self.bit_of)}
        self.step = tuple(dr * width + dq for dq, dr in AXIAL)
        self.all_cells = 0
        self.usable = 0
        self.rich = [0, 0, 0, 0]
        self.richness_of_bit: dict[int, int] = {}
        self.bonus_of_bit: dict[int, int] = {}
        for c, b in enumerate(self.bit_of):
            self.all_cells |= 1 << b
            self.rich[richness[c]] |= 1 << b
            if richness[c] > 0:
                self.usable |= 1 << b
            self.richness_of_bit[b] = richness[c]
            self.bonus_of_bit[b] = RICHNESS_BONUS[richness[c]]
        self.within = {self.bit_of[c]: self._range_masks(c) for c in range(self.cells)}

    def _axial_coordinates(self) -> list[tuple[int, int]]:
        coords: list[tuple[int, int] | None] = [None] * len(self.neighbours)
        coords[0] = (0, 0)
        todo = [0]
        while todo:
            c = todo.pop()
            q, r = coords[c]  # type: ignore[misc]
            for d, n in enumerate(self.neighbours[c]):
                if n >= 0 and coords[n] is None:
                    coords[n] = (q + AXIAL[d][0], r + AXIAL[d][1])
                    todo.append(n)
        if any(c is None for c in coords):
            raise ValueError("the neighbour table does not connect every cell to cell 0")
        return coords  # type: ignore[return-value]

    def _range_masks(self, cell: int) -> tuple[int, int, int, int]:
        """Cells at distance 1..n from ``cell`` for n = 0..3, by breadth-first search."""
        masks = [0]
        seen = {cell}
        frontier = [cell]
        reach = 0
        for _ in range(3):
            nxt = []
            for c in frontier:
                for n in self.neighbours[c]:
                    if n >= 0 and n not in seen:
                        seen.add(n)
                        nxt.append(n)
                        reach |= 1 << self.bit_of[n]
            masks.append(reach)
            frontier = nxt
        return tuple(masks)  # type: ignore[return-value]

    def bits(self, mask: int) -> list[int]:
        """The set bits of ``mask``, lowest first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def cells_in(self, mask: int) -> list[int]:
        """The cell indices in ``mask``, ascending."""
        cell_of = self.cell_of
        return sorted(cell_of[b] for b in self.bits(mask))

    def mask_of(self, cells: Sequence[int] | set[int]) -> int:
        mask = 0
        for c in cells:
            mask |= 1 << self.bit_of[c]
        return mask
