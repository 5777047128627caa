"""Input and output: the player id once, then per turn the rows (top first) and the last column."""

import sys
from collections.abc import Iterator

from .board import HEIGHT, Board

MY_ID = int(input())  # the first line, read once when the bot starts


def read_turns() -> Iterator[tuple[Board, int]]:
    """Yields (board, the opponent's last column or -1) until the input ends."""
    while True:
        try:
            rows = [input().strip() for _ in range(HEIGHT)]
            last = int(input())
        except EOFError:
            return
        yield Board.from_rows(rows), last


def debug(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)
