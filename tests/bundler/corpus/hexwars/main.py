"""Hex wars: two armies on a hexagonal board; one unit acts per turn.

Input: my player id, then per turn the unit count and one line per unit
(``uid owner kind q r hp``). Output: ``MOVE uid q r``, ``ATTACK uid target``, ``HEAL uid target``
or ``WAIT``. Run as ``python main.py``.
"""

from __future__ import annotations

import sys

import tactics
from board import Board
from evaluation import breakdown, evaluate
from units import Unit


def read_board() -> Board | None:
    line = sys.stdin.readline()
    if not line.strip():
        return None
    count = int(line)
    return Board(Unit.from_fields(sys.stdin.readline().split()) for _ in range(count))


def main() -> None:
    me = int(sys.stdin.readline())
    print(f"kinds: {' '.join(f'{s}={k.__name__}' for s, k in sorted(Unit.kinds.items()))}", file=sys.stderr)
    turn = 0
    while (board := read_board()) is not None:
        turn += 1
        action, value = tactics.choose(board, me)
        print(action)
        mine = ", ".join(u.describe() for u in sorted(board.units_of(me), key=lambda u: u.uid))
        print(
            f"turn {turn}: {len(board)} units, eval {evaluate(board, me):.2f} -> {action!r} ({value:.2f}); "
            f"front {tactics.frontline(board, me)}; hp {tactics.material(board, me)}; mine {mine}",
            file=sys.stderr,
        )
        print(f"  terms: {breakdown(board, me)}", file=sys.stderr)
    print(f"stats {tactics.stats}", file=sys.stderr)


if __name__ == "__main__":
    main()
