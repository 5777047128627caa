"""Ultimate tic-tac-toe: nine small boards; winning three in a line of small boards wins.

A move is a cell index 0..80: ``board * 9 + cell``. Players are 1 and 2, 0 is empty, and a
small board's result is 0 (open), 1, 2 or 3 (full without a winner).
"""

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
DRAW = 3
ANY = -1


def line_winner(cells) -> int:
    for a, b, c in LINES:
        v = cells[a]
        if v and v != DRAW and v == cells[b] == cells[c]:
            return v
    return 0


def to_move(row: int, col: int) -> int:
    return (row // 3 * 3 + col // 3) * 9 + row % 3 * 3 + col % 3


def to_row_col(move: int) -> tuple[int, int]:
    board, cell = divmod(move, 9)
    return board // 3 * 3 + cell // 3, board % 3 * 3 + cell % 3


class State:
    __slots__ = ("cells", "macro", "forced", "player", "winner", "ply")

    def __init__(self) -> None:
        self.cells = [0] * 81
        self.macro = [0] * 9
        self.forced = ANY
        self.player = 1  # to move
        self.winner = 0
        self.ply = 0

    @classmethod
    def from_rows(cls, rows: list[str], me: int, forced: int) -> "State":
        state = cls()
        symbols = {".": 0, "X": 1, "O": 2}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                state.cells[to_move(r, c)] = symbols[ch]
        for b in range(9):
            state.macro[b] = state.small_result(b)
        state.player = me
        state.forced = forced
        state.ply = sum(1 for v in state.cells if v)
        state.winner = line_winner(state.macro)
        return state

    def copy(self) -> "State":
        other = State.__new__(State)
        other.cells = self.cells[:]
        other.macro = self.macro[:]
        other.forced = self.forced
        other.player = self.player
        other.winner = self.winner
        other.ply = self.ply
        return other

    def small_result(self, board: int) -> int:
        cells = self.cells[board * 9 : board * 9 + 9]
        won = line_winner(cells)
        if won:
            return won
        return DRAW if all(cells) else 0

    def over(self) -> bool:
        return self.winner != 0 or all(self.macro)

    def legal_moves(self) -> list[int]:
        if self.over():
            return []
        boards = [self.forced] if self.forced != ANY and not self.macro[self.forced] else range(9)
        return [b * 9 + c for b in boards if not self.macro[b] for c in range(9) if not self.cells[b * 9 + c]]

    def play(self, move: int) -> None:
        board, cell = divmod(move, 9)
        self.cells[move] = self.player
        self.ply += 1
        if not self.macro[board]:
            self.macro[board] = self.small_result(board)
            if self.macro[board]:
                self.winner = line_winner(self.macro)
                if not self.winner and all(self.macro):
                    mine = self.macro.count(1)
                    theirs = self.macro.count(2)
                    self.winner = 1 if mine > theirs else 2 if theirs > mine else DRAW
        self.forced = cell if not self.macro[cell] else ANY
        self.player = 3 - self.player

    def __str__(self) -> str:
        marks = {0: ".", 1: "X", 2: "O", DRAW: "="}
        return "".join(marks[v] for v in self.macro) + f" forced={self.forced} ply={self.ply}"
