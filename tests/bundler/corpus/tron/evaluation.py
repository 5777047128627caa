"""Scores a position for one player."""

from __future__ import annotations

import voronoi as vor
from board import Board

WIN = 10_000.0
DEPTH = 8  # cells of look-ahead for the corridor check


def helper(board: Board, head: int) -> int:
    """Length of the corridor in front of ``head`` (cells with one exit), up to DEPTH."""
    length, current, previous = 0, head, -1
    while length < DEPTH:
        exits = [j for _, j in board.exits(current) if j != previous]
        if len(exits) != 1:
            break
        previous, current = current, exits[0]
        length += 1
    return length


def evaluate(board: Board, me: int, opp: int) -> float:
    mine, theirs = board.heads[me], board.heads[opp]
    if mine < 0 and theirs < 0:
        return 0.0
    if mine < 0:
        return -WIN
    if theirs < 0:
        return WIN
    if vor.separated(board, mine, theirs):
        return 50.0 * (vor.flood(board, mine) - vor.flood(board, theirs))
    area = vor.territory(board)
    return float(area[me] - area[opp]) - 0.5 * helper(board, mine) + 0.5 * helper(board, theirs)
