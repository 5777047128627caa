"""Negamax with alpha-beta, a transposition table and iterative deepening under a node budget."""

from . import evaluation
from .board import WIDTH, Board
from .evaluation import evaluate as static_eval

DEPTH = 5
BUDGET = 600  # nodes per move: the search is deterministic, no clock
WIN = 100_000.0
EXACT, LOWER, UPPER = 0, 1, 2
ORDER = sorted(range(WIDTH), key=lambda c: (abs(c - WIDTH // 2), c))

cache: dict[bytes, tuple[int, float, int, int]] = {}  # key -> (depth, value, flag, best column)


class Node:
    """Search statistics of one move decision."""

    DEPTH = DEPTH  # the default, reported in the debug line

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.visited = 0
        self.cutoffs = 0
        self.hits = 0

    @property
    def exhausted(self) -> bool:
        return self.visited >= self.budget

    def __repr__(self) -> str:
        return f"Node(depth<={self.DEPTH}, visited={self.visited}, cutoffs={self.cutoffs}, hits={self.hits})"


def ordered(board: Board, hint: int | None) -> list[int]:
    moves = [c for c in ORDER if board.heights[c] < board.cells.shape[0]]
    if hint is not None and hint in moves:
        moves.remove(hint)
        moves.insert(0, hint)
    return moves


def negamax(board: Board, depth: int, alpha: float, beta: float, player: int, node: Node) -> float:
    node.visited += 1
    key = board.key()
    entry = cache.get(key)
    hint = None
    if entry is not None:
        e_depth, e_value, e_flag, hint = entry
        if e_depth >= depth:
            node.hits += 1
            if e_flag == EXACT:
                return e_value
            if e_flag == LOWER:
                alpha = max(alpha, e_value)
            elif e_flag == UPPER:
                beta = min(beta, e_value)
            if alpha >= beta:
                return e_value
    moves = ordered(board, hint)
    if depth == 0 or not moves or node.exhausted:
        return static_eval(board, player)
    start_alpha = alpha
    best, best_col = -WIN * 2, moves[0]
    for col in moves:
        board.play(col, player)
        if board.wins(player):
            value = WIN + depth
        else:
            value = -negamax(board, depth - 1, -beta, -alpha, 1 - player, node)
        board.undo(col)
        if value > best:
            best, best_col = value, col
        alpha = max(alpha, value)
        if alpha >= beta:
            node.cutoffs += 1
            break
    flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
    cache[key] = (depth, best, flag, best_col)
    return best


def best_move(board: Board, player: int, depth: int = DEPTH, budget: int = BUDGET) -> tuple[int, float, Node]:
    node = Node(budget)
    choice, score = ordered(board, None)[0], 0.0
    for d in range(1, depth + 1):
        best, best_col = -WIN * 2, None
        for col in ordered(board, choice):
            board.play(col, player)
            if board.wins(player):
                value = WIN + d
            else:
                value = -negamax(board, d - 1, -WIN * 2, -best, 1 - player, node)
            board.undo(col)
            if value > best:
                best, best_col = value, col
        if node.exhausted and d > 1:
            break  # an incomplete iteration: keep the previous answer
        choice, score = best_col if best_col is not None else choice, best
    return choice, score, node


def reset() -> None:
    """A new game: forget the transpositions and the evaluation cache."""
    cache.clear()
    evaluation.cache.clear()
