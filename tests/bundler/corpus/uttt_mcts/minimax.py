"""A shallow alpha-beta search, used only to catch immediate tactics before the MCTS."""

from collections import namedtuple

from game import State
from heuristics import evaluate

DEPTH = 2
Node = namedtuple("Node", ["move", "score"])
nodes = 0


def minimax(state: State, depth: int, alpha: float, beta: float, player: int) -> float:
    global nodes
    nodes += 1
    moves = state.legal_moves()
    if depth == 0 or not moves:
        return evaluate(state, player)
    maximizing = state.player == player
    best = -2.0 if maximizing else 2.0
    for move in moves:
        child = state.copy()
        child.play(move)
        value = minimax(child, depth - 1, alpha, beta, player)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def best_reply(state: State, depth: int = DEPTH) -> Node | None:
    """A move that wins now, or None when every move scores alike at this depth."""
    me = state.player
    scored = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.winner == me:
            return Node(move, 1.0)
        scored.append(Node(move, minimax(child, depth - 1, -2.0, 2.0, me)))
    if len(scored) < 2 or len(scored) > 12:
        return None  # too many options for a shallow search to mean much
    best = max(scored, key=lambda n: n.score)
    worst = min(scored, key=lambda n: n.score)
    return best if best.score - worst.score > 0.3 else None


if __name__ == "__main__":  # a quick self-test: python minimax.py
    from game import to_move

    position = State()
    for r, c in ((4, 4), (3, 3), (1, 1), (4, 3), (0, 0)):
        position.play(to_move(r, c))
    print(best_reply(position), nodes)
