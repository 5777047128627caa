"""Playouts: random moves, but a move that wins a small board is always taken; cut off after
LIMIT moves and scored by the heuristic."""

import random

from game import DRAW, LINES, State
from heuristics import evaluate

LIMIT = 10


def helper(state: State, moves: list[int]) -> int | None:
    """A move that completes a line in its small board, if any."""
    me = state.player
    for move in moves:
        board, cell = divmod(move, 9)
        base = board * 9
        for line in LINES:
            if cell in line and all(state.cells[base + i] == me for i in line if i != cell):
                return move
    return None


def playout(state: State, rng: random.Random, player: int) -> float:
    """The result for ``player`` in [0, 1] (1 is a win)."""
    for _ in range(LIMIT):
        moves = state.legal_moves()
        if not moves:
            break
        move = helper(state, moves)
        state.play(move if move is not None else rng.choice(moves))
    if state.winner:
        return 0.5 if state.winner == DRAW else float(state.winner == player)
    return (evaluate(state, player) + 1) / 2
