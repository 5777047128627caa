"""Per turn: ``N P``, then for each player ``X0 Y0 X1 Y1`` (trail start and current head)."""

from __future__ import annotations

from collections.abc import Iterator

from board import Board, index

PLAYERS = 0  # known after the first turn


def turns(lines: Iterator[str]) -> Iterator[tuple[int, list[tuple[int, int, int, int]]]]:
    global PLAYERS
    for header in lines:
        if not header.strip():
            return
        count, me = map(int, header.split())
        PLAYERS = count
        rows = [tuple(map(int, next(lines).split())) for _ in range(count)]
        yield me, rows  # type: ignore[misc]


def update(board: Board, rows: list[tuple[int, int, int, int]]) -> list[int]:
    """Marks the new heads; returns the players who died this turn."""
    died = []
    for p, (x0, y0, x1, y1) in enumerate(rows):
        if x0 < 0:
            if board.heads[p] >= 0:
                board.erase(p)
                died.append(p)
            continue
        if board.heads[p] < 0 and not board.walls[index(x0, y0)]:
            board.occupy(p, index(x0, y0))
        board.occupy(p, index(x1, y1))
    return died
