"""Per turn: the opponent's last move, the nine rows of the big board, the valid actions."""

import sys

from game import ANY, to_move

input = sys.stdin.readline  # faster than the builtin, and '' at the end instead of EOFError


def read_turn(me: int):
    """Returns (rows, forced board, valid moves) or None at the end of the input."""
    line = input()
    if not line:
        return None
    opp_row, opp_col = map(int, line.split())
    rows = [input().strip() for _ in range(9)]
    count = int(input())
    valid = [to_move(*map(int, input().split())) for _ in range(count)]
    forced = ANY if opp_row < 0 else (opp_row % 3) * 3 + opp_col % 3
    if valid and len({v // 9 for v in valid}) > 1:
        forced = ANY
    return rows, forced, valid
