"""Light cycles (Tron): minimax over territory. Run as ``python main.py``."""

from __future__ import annotations

import sys
from itertools import count

import config
import protocol
import voronoi as vor
from board import Board, coords
from evaluation import evaluate as score
from protocol import turns, update
from search import choose


def nearest_opponent(board: Board, me: int) -> int:
    mx, my = coords(board.heads[me])

    def gap(p: int) -> tuple[int, int]:
        x, y = coords(board.heads[p])
        return abs(x - mx) + abs(y - my), p

    others = [p for p in board.alive() if p != me]
    return min(others, key=gap) if others else me


def main() -> None:
    board: Board | None = None
    clock = count(1)
    for me, rows in turns(iter(sys.stdin)):
        if board is None:
            board = Board(len(rows))
            print(f"{len(rows)} players on {config.WIDTH}x{config.HEIGHT}, I am {me}", file=sys.stderr)
        turn = next(clock)
        died = update(board, rows)
        opp = nearest_opponent(board, me)
        name, value, used = choose(board, me, opp)
        print(name)
        area = vor.territory(board)
        print(
            f"turn {turn}: vs {opp} {name} value={value:.1f} nodes={used} now={score(board, me, opp):.1f} "
            f"area={sorted(area.items())} filled={board.filled()} died={died}",
            file=sys.stderr,
        )
    print(f"cache {len(vor.cache)} positions, {protocol.PLAYERS} players", file=sys.stderr)


if __name__ == "__main__":
    main()
