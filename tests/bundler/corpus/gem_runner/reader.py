"""The referee's protocol: a header line, then per turn the rows and a status line."""

from __future__ import annotations

import sys

from grid import Grid


def read_header() -> tuple[int, int]:
    line = sys.stdin.readline()
    if not line:
        raise SystemExit("no header")
    width, height = map(int, line.split())
    return width, height


def read_turn(width: int, height: int) -> Grid | None:
    """The next turn's grid, or None at the end of the input."""
    rows = []
    for _ in range(height):
        line = sys.stdin.readline()
        if not line:
            return None
        rows.append(line.rstrip("\n")[:width])
    status = sys.stdin.readline()
    if not status:
        return None
    energy, score = (int(v) for v in status.split())
    return Grid(rows, energy, score)
