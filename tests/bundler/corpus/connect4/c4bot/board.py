"""A 7x6 Connect Four board as a numpy array (row 0 is the bottom)."""

import numpy as np

WIDTH = 7
HEIGHT = 6
EMPTY = -1
SYMBOLS = {".": EMPTY, "0": 0, "1": 1}


def _lines(mask: np.ndarray) -> bool:
    """Four in a row anywhere in a boolean (HEIGHT, WIDTH) mask."""
    if (mask[:, :-3] & mask[:, 1:-2] & mask[:, 2:-1] & mask[:, 3:]).any():
        return True
    if (mask[:-3, :] & mask[1:-2, :] & mask[2:-1, :] & mask[3:, :]).any():
        return True
    if (mask[:-3, :-3] & mask[1:-2, 1:-2] & mask[2:-1, 2:-1] & mask[3:, 3:]).any():
        return True
    return bool((mask[3:, :-3] & mask[2:-1, 1:-2] & mask[1:-2, 2:-1] & mask[:-3, 3:]).any())


class Board:
    __slots__ = ("cells", "heights")

    def __init__(self, cells: np.ndarray | None = None) -> None:
        self.cells = np.full((HEIGHT, WIDTH), EMPTY, dtype=np.int8) if cells is None else cells
        self.heights = (self.cells != EMPTY).sum(axis=0).astype(np.int64)

    @classmethod
    def from_rows(cls, rows: list[str]) -> "Board":
        """Rows as the referee sends them: the top row first."""
        cells = np.array([[SYMBOLS[ch] for ch in row] for row in reversed(rows)], dtype=np.int8)
        return cls(cells)

    def copy(self) -> "Board":
        return Board(self.cells.copy())

    @property
    def moves_played(self) -> int:
        return int(self.heights.sum())

    def to_move(self) -> int:
        return self.moves_played % 2

    def legal_moves(self) -> list[int]:
        return [c for c in range(WIDTH) if self.heights[c] < HEIGHT]

    def play(self, col: int, player: int) -> None:
        row = self.heights[col]
        self.cells[row, col] = player
        self.heights[col] = row + 1

    def undo(self, col: int) -> None:
        row = self.heights[col] - 1
        self.cells[row, col] = EMPTY
        self.heights[col] = row

    def wins(self, player: int) -> bool:
        return _lines(self.cells == player)

    def full(self) -> bool:
        return bool((self.heights >= HEIGHT).all())

    def key(self) -> bytes:
        return self.cells.tobytes()

    def __str__(self) -> str:
        chars = {EMPTY: ".", 0: "0", 1: "1"}
        return "/".join("".join(chars[int(v)] for v in row) for row in self.cells[::-1])
