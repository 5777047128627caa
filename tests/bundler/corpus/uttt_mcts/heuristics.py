"""Static evaluation for truncated playouts and the tactical check."""

from game import DRAW, LINES, State

CENTER_BONUS = 0.3
SMALL_WIN = 1.0
TWO_IN_LINE = 0.25
MACRO_WEIGHTS = (1.2, 1.0, 1.2, 1.0, 1.6, 1.0, 1.2, 1.0, 1.2)

cache: dict[tuple[int, ...], float] = {}


def helper(cells, player: int) -> int:
    """Lines where ``player`` has two marks and the third cell is empty."""
    count = 0
    for a, b, c in LINES:
        trio = (cells[a], cells[b], cells[c])
        if trio.count(player) == 2 and trio.count(0) == 1:
            count += 1
    return count


def evaluate(state: State, player: int) -> float:
    """From ``player``'s side, roughly in [-1, 1]."""
    if state.winner:
        return 0.0 if state.winner == DRAW else (1.0 if state.winner == player else -1.0)
    key = (player, *state.macro, *state.cells)
    hit = cache.get(key)
    if hit is not None:
        return hit
    other = 3 - player
    score = 0.0
    for b, result in enumerate(state.macro):
        w = MACRO_WEIGHTS[b]
        if result == player:
            score += SMALL_WIN * w
        elif result == other:
            score -= SMALL_WIN * w
        elif not result:
            cells = state.cells[b * 9 : b * 9 + 9]
            score += TWO_IN_LINE * w * (helper(cells, player) - helper(cells, other))
            score += CENTER_BONUS * ((cells[4] == player) - (cells[4] == other))
    score += 2 * SMALL_WIN * (helper(state.macro, player) - helper(state.macro, other))
    value = max(-0.95, min(0.95, score / 12))
    if len(cache) < 50_000:
        cache[key] = value
    return value
