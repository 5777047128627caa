"""The mutable state of a Spring Challenge 2021 game.

Trees are kept in three parallel per-cell lists (``size[c] == -1`` means no tree), which is both
fast and easy to set up by hand in tests (:meth:`SpringState.with_trees`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from .board import Board

__all__ = ["FrameType", "SpringState", "NO_TREE", "SEED", "SMALL", "MEDIUM", "TALL"]

NO_TREE = -1
SEED, SMALL, MEDIUM, TALL = 0, 1, 2, 3


class FrameType(str, Enum):
    GATHERING = "GATHERING"
    ACTIONS = "ACTIONS"
    SUN_MOVE = "SUN_MOVE"


@dataclass(slots=True, eq=False)
class SpringState:
    """Board, trees, players' sun/score/waiting, nutrients, day, sun direction and shadows."""

    board: Board
    size: list[int]
    owner: list[int]
    dormant: list[bool]
    sun: list[int] = field(default_factory=lambda: [0, 0])
    score: list[int] = field(default_factory=lambda: [0, 0])
    waiting: list[bool] = field(default_factory=lambda: [False, False])
    nutrients: int = 20
    day: int = 0
    sun_direction: int = 0
    shadows: list[int] = field(default_factory=list)
    """``shadows[c]``: size of the tallest tree shadowing cell c (0 = none), at the last sun move."""
    max_rounds: int = 24

    @classmethod
    def empty(cls, board: Board) -> SpringState:
        n = board.size
        return cls(board, [NO_TREE] * n, [-1] * n, [False] * n, shadows=[0] * n)

    @classmethod
    def with_trees(
        cls,
        board: Board,
        trees: Mapping[int, tuple[int, int] | tuple[int, int, bool]],
        **fields: object,
    ) -> SpringState:
        """A state with ``trees[cell] = (size, owner[, dormant])``; other fields by keyword.

        Shadows are not computed: call :func:`rules.compute_shadows` if the test needs them.
        """
        state = cls.empty(board)
        for cell, spec in trees.items():
            state.size[cell] = spec[0]
            state.owner[cell] = spec[1]
            state.dormant[cell] = bool(spec[2]) if len(spec) > 2 else False
        for name, value in fields.items():
            setattr(state, name, value)
        return state

    def copy(self) -> SpringState:
        return SpringState(
            self.board,
            self.size[:],
            self.owner[:],
            self.dormant[:],
            self.sun[:],
            self.score[:],
            self.waiting[:],
            self.nutrients,
            self.day,
            self.sun_direction,
            self.shadows[:],
            self.max_rounds,
        )

    def tree_cells(self) -> Iterator[int]:
        """Cells holding a tree (seeds included), ascending (the official TreeMap order)."""
        size = self.size
        return (c for c in range(len(size)) if size[c] != NO_TREE)

    def count(self, owner: int, size: int) -> int:
        """Number of ``owner``'s trees of exactly ``size``."""
        n = 0
        for s, o in zip(self.size, self.owner):
            if s == size and o == owner:
                n += 1
        return n

    def trees(self) -> dict[int, tuple[int, int, bool]]:
        """``{cell: (size, owner, dormant)}`` for every tree, ascending by cell."""
        return {c: (self.size[c], self.owner[c], self.dormant[c]) for c in self.tree_cells()}
