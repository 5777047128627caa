"""Ultimate tic-tac-toe with MCTS (fixed playouts, seeded): ``python main.py``."""

import random
import sys

import heuristics
import mcts as tree
import minimax
from game import State, to_row_col
from minimax import best_reply as tactical
from reader import read_turn

SEED = 12345


def cache_report() -> str:
    cache = heuristics.cache
    wins = sum(1 for v in cache.values() if v > 0.5)
    return (
        f"{len(cache)} evaluations cached ({wins} clearly won), {tree.nodes} tree nodes, {minimax.nodes} minimax nodes"
    )


def main() -> None:
    rng = random.Random(SEED)
    me = int(input())
    turn = 0
    while (got := read_turn(me)) is not None:
        rows, forced, valid = got
        turn += 1
        state = State.from_rows(rows, me, forced)
        legal = sorted(state.legal_moves())
        if legal != sorted(valid):
            print(f"turn {turn}: my moves differ from the referee's: {len(legal)} vs {len(valid)}", file=sys.stderr)
            state.forced = -1
        quick = tactical(state, depth=minimax.DEPTH)
        if quick is not None:
            move, why = quick.move, f"tactic {quick.score:+.2f}"
        else:
            move, node = tree.search(state, rng)
            why = f"mcts {node!r} line={list(tree.principal(node))}"
        if move not in valid:
            move, why = valid[0], "fallback"
        row, col = to_row_col(move)
        print(f"{row} {col}")
        print(f"turn {turn}: {state} -> {row} {col} ({why})", file=sys.stderr)
    print(cache_report(), file=sys.stderr)


if __name__ == "__main__":
    main()
