"""Entry point: ``python -m brewer``."""

from __future__ import annotations

import sys
from collections import Counter

from . import protocol
from .ai import DEPTH, beam_search, evaluate
from .ai.greedy import greedy_move as fallback
from .model import COSTS, WAIT, Kind, Move


def main() -> None:
    history: Counter[Kind] = Counter()
    turn = 0
    while (read := protocol.read_turn()) is not None:
        book, state = read
        turn += 1
        best, expanded = beam_search(state, book)
        second = fallback(state, book)
        move: Move = best.first if best is not None and best.first is not None else second.move
        if move == WAIT and second.move != WAIT:
            move = second.move
        history[move.kind] += 1
        print(protocol.format_move(move, f"d{DEPTH}"), flush=True)
        print(
            f"turn {turn}: inv={state.inventory} eval={evaluate(state, book):.2f} best={best} "
            f"expanded={expanded} greedy={second}",
            file=sys.stderr,
        )
    spent = sum(COSTS[kind] * n for kind, n in history.items())
    print(f"moves {dict(sorted((k.name, n) for k, n in history.items()))} turns spent {spent}", file=sys.stderr)


if __name__ == "__main__":
    main()
