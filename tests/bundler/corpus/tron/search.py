"""Alternating minimax with alpha-beta between me and the closest opponent, under a node budget."""

from __future__ import annotations

import config
from board import Board
from evaluation import WIN, evaluate

DEPTH = config.DEPTH


class Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.used = 0

    def spend(self) -> bool:
        self.used += 1
        self.left -= 1
        return self.left >= 0


def minimax(board: Board, depth: int, alpha: float, beta: float, me: int, opp: int, budget: Budget) -> float:
    mover = me if depth % 2 == DEPTH % 2 else opp
    head = board.heads[mover]
    moves = list(board.exits(head)) if head >= 0 else []
    if depth == 0 or not budget.spend():
        return evaluate(board, me, opp)
    if not moves:
        return -WIN - depth if mover == me else WIN + depth
    best = -float("inf") if mover == me else float("inf")
    for _, cell in moves:
        board.occupy(mover, cell)
        value = minimax(board, depth - 1, alpha, beta, me, opp, budget)
        board.release(mover, cell, head)
        if mover == me:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if beta <= alpha:
            break
    return best


def choose(board: Board, me: int, opp: int) -> tuple[str, float, int]:
    head = board.heads[me]
    moves = list(board.exits(head))
    if not moves:
        return "UP", -WIN, 0
    budget = Budget(config.NODE_BUDGET)
    scored = []
    for name, cell in moves:
        board.occupy(me, cell)
        scored.append((minimax(board, DEPTH - 1, -float("inf"), float("inf"), me, opp, budget), name))
        board.release(me, cell, head)
    value, name = max(scored, key=lambda t: (t[0], -list(config.DIRECTIONS).index(t[1])))
    return name, value, budget.used
