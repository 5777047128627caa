"""Entry point: ``python -m c4bot``."""

import sys

from . import book, protocol, search
from .board import Board
from .evaluation import evaluate, threats
from .protocol import debug, read_turns


def decide(board: Board, me: int) -> tuple[int, str]:
    opening = book.lookup(board)
    if opening is not None:
        return opening, "book"
    for col in board.legal_moves():  # immediate win, then immediate block
        board.play(col, me)
        won = board.wins(me)
        board.undo(col)
        if won:
            return col, "win"
    for col in board.legal_moves():
        board.play(col, 1 - me)
        lost = board.wins(1 - me)
        board.undo(col)
        if lost:
            return col, "block"
    col, score, node = search.best_move(board, me)
    return col, f"search {score:+.2f} {node!r}"


def main() -> None:
    me = protocol.MY_ID
    debug(f"playing as {me}")
    previous = -1
    for turn, (board, last) in enumerate(read_turns(), start=1):
        if board.moves_played < previous:
            search.reset()
        previous = board.moves_played
        col, why = decide(board, me)
        print(col)
        sys.stdout.flush()
        debug(
            f"turn {turn} opp={last} board={board} eval={evaluate(board, me):+.2f} "
            f"threats={threats(board, me)}/{threats(board, 1 - me)} -> {col} ({why})"
        )


if __name__ == "__main__":
    main()
