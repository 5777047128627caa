"""Evaluation of a state: score, ingredients, and how close the open orders are."""

from __future__ import annotations

from functools import lru_cache

from ..model import Book, State, Tier

TIER_VALUE = {Tier.BLUE: 1.0, Tier.GREEN: 2.2, Tier.ORANGE: 3.1, Tier.YELLOW: 4.0}
BREW_BONUS = 1.5
TEMPO = 0.35

cache: dict[tuple[object, ...], float] = {}


@lru_cache(maxsize=1024)
def missing(inventory: tuple[int, ...], need: tuple[int, ...]) -> int:
    """Ingredient value still missing to pay ``need`` (negative deltas) from ``inventory``."""
    return sum((t + 1) * max(0, -d - have) for t, (have, d) in enumerate(zip(inventory, need)))


def evaluate(state: State, book: Book) -> float:
    key = (state.key(), state.score, state.turns)
    found = cache.get(key)
    if found is not None:
        return found
    value = state.score * BREW_BONUS
    value += sum(TIER_VALUE[tier] * count for tier, count in zip(Tier, state.inventory))
    open_orders = [o for uid, o in book.orders.items() if uid not in state.brewed]
    if open_orders:
        closest = min(missing(state.inventory, o.delta) - o.price / 4 for o in open_orders)
        value -= closest
    value -= TEMPO * state.turns
    cache[key] = value
    return value
