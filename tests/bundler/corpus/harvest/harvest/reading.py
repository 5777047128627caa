"""The protocol: the map once, then scores and per-cell counts every turn."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .model import Cell, Map, Side, Turn


def read_map(read: Callable[[], str]) -> Map:
    count = int(read())
    cells = []
    for i in range(count):
        kind, amount, *neighbors = map(int, read().split())
        cells.append(Cell(i, kind, amount, tuple(neighbors)))
    read()  # number of bases per player
    mine = [int(v) for v in read().split()]
    theirs = [int(v) for v in read().split()]
    return Map(cells, mine, theirs)


def read_turns(world: Map, read: Callable[[], str]) -> Iterator[Turn]:
    while True:
        try:
            line = read()
        except EOFError:
            return
        my_score, opp_score = map(int, line.split())
        turn = Turn(my_score, opp_score)
        for cell in world.cells:
            cell.resources, cell.my_ants, cell.opp_ants = map(int, read().split())
            turn.total_ants += cell.my_ants
            if cell.side == Side.BOTH:
                turn.contested.append(cell.index)
        yield turn
