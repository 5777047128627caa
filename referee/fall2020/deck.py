"""The cards of Fall Challenge 2020: tome spells, potion orders, starting spells, the shuffle, and
the deal of the starting position (:func:`new_game`).

The official referee gives every spell an id from one static counter, in creation order: the 42
tome spells (ids 0-41, in the order of the catalogue below), then the 36 potion orders (42-77),
then each player's four starting spells (78-81 for player 0, 82-85 for player 1). The game's
``java.util.Random(seed)`` shuffles the tome deck, then the order deck, and is never used again.

The league level (:mod:`.leagues`) changes the deal: level 1 shuffles a simpler order deck and
has no spells, levels 1 and 2 deal no tome (the tome deck is shuffled all the same: the orders'
shuffle comes second) and have no urgency bonus.
"""

from __future__ import annotations

from collections import deque

from ..javarandom import JavaRandom, java_shuffle
from .leagues import TOP_LEAGUE, League, wood2_orders
from .state import (
    COUNTER_SIZE,
    FIRST_PLAYER_SPELL_ID,
    STARTING_SPELLS,
    TOME_SIZE,
    Delta,
    FallState,
    Order,
    PlayerState,
    TomeSpell,
)

__all__ = [
    "TOME_RECIPES",
    "ORDER_RECIPES",
    "STARTING_SPELLS",
    "FIRST_ORDER_ID",
    "FIRST_PLAYER_SPELL_ID",
    "FIRST_LEARNT_SPELL_ID",
    "tome_catalogue",
    "order_catalogue",
    "shuffled_decks",
    "STARTING_INVENTORY",
    "new_game",
]

TOME_RECIPES: tuple[Delta, ...] = (
    (-3, 0, 0, 1),
    (3, -1, 0, 0),
    (1, 1, 0, 0),
    (0, 0, 1, 0),
    (3, 0, 0, 0),
    (2, 3, -2, 0),
    (2, 1, -2, 1),
    (3, 0, 1, -1),
    (3, -2, 1, 0),
    (2, -3, 2, 0),
    (2, 2, 0, -1),
    (-4, 0, 2, 0),
    (2, 1, 0, 0),
    (4, 0, 0, 0),
    (0, 0, 0, 1),
    (0, 2, 0, 0),
    (1, 0, 1, 0),
    (-2, 0, 1, 0),
    (-1, -1, 0, 1),
    (0, 2, -1, 0),
    (2, -2, 0, 1),
    (-3, 1, 1, 0),
    (0, 2, -2, 1),
    (1, -3, 1, 1),
    (0, 3, 0, -1),
    (0, -3, 0, 2),
    (1, 1, 1, -1),
    (1, 2, -1, 0),
    (4, 1, -1, 0),
    (-5, 0, 0, 2),
    (-4, 0, 1, 1),
    (0, 3, 2, -2),
    (1, 1, 3, -2),
    (-5, 0, 3, 0),
    (-2, 0, -1, 2),
    (0, 0, -3, 3),
    (0, -3, 3, 0),
    (-3, 3, 0, 0),
    (-2, 2, 0, 0),
    (0, 0, -2, 2),
    (0, -2, 2, 0),
    (0, 0, 2, -1),
)
"""The 42 tome spells in the official catalogue order (Deck.java): deltas per tier 0-3."""

ORDER_RECIPES: tuple[tuple[Delta, int], ...] = (
    ((2, 2, 0, 0), 6),
    ((3, 2, 0, 0), 7),
    ((0, 4, 0, 0), 8),
    ((2, 0, 2, 0), 8),
    ((2, 3, 0, 0), 8),
    ((3, 0, 2, 0), 9),
    ((0, 2, 2, 0), 10),
    ((0, 5, 0, 0), 10),
    ((2, 0, 0, 2), 10),
    ((2, 0, 3, 0), 11),
    ((3, 0, 0, 2), 11),
    ((0, 0, 4, 0), 12),
    ((0, 2, 0, 2), 12),
    ((0, 3, 2, 0), 12),
    ((0, 2, 3, 0), 13),
    ((0, 0, 2, 2), 14),
    ((0, 3, 0, 2), 14),
    ((2, 0, 0, 3), 14),
    ((0, 0, 5, 0), 15),
    ((0, 0, 0, 4), 16),
    ((0, 2, 0, 3), 16),
    ((0, 0, 3, 2), 17),
    ((0, 0, 2, 3), 18),
    ((0, 0, 0, 5), 20),
    ((2, 1, 0, 1), 9),
    ((0, 2, 1, 1), 12),
    ((1, 0, 2, 1), 12),
    ((2, 2, 2, 0), 13),
    ((2, 2, 0, 2), 15),
    ((2, 0, 2, 2), 17),
    ((0, 2, 2, 2), 19),
    ((1, 1, 1, 1), 12),
    ((3, 1, 1, 1), 14),
    ((1, 3, 1, 1), 16),
    ((1, 1, 3, 1), 18),
    ((1, 1, 1, 3), 20),
)
"""The 36 potion orders in the official order: (ingredients needed, price)."""

FIRST_ORDER_ID = len(TOME_RECIPES)  # 42
FIRST_LEARNT_SPELL_ID = FIRST_PLAYER_SPELL_ID + 2 * len(STARTING_SPELLS)  # 86
STARTING_INVENTORY = (3, 0, 0, 0)
"""Every player's inventory at the start (levels 2 to 4): three tier-0 ingredients."""


def tome_catalogue() -> list[TomeSpell]:
    """Fresh tome spells with their official ids (0-41), stock 0, unshuffled."""
    return [TomeSpell(i, delta) for i, delta in enumerate(TOME_RECIPES)]


def order_catalogue() -> list[Order]:
    """Fresh potion orders with their official ids (42-77), unshuffled."""
    return [Order(FIRST_ORDER_ID + i, (-a, -b, -c, -d), price) for i, ((a, b, c, d), price) in enumerate(ORDER_RECIPES)]


def shuffled_decks(seed: int, league: League = TOP_LEAGUE) -> tuple[deque[TomeSpell], deque[Order]]:
    """The tome deck and the order deck after ``Collections.shuffle`` with ``Random(seed)``
    (tome first, then orders; level 1 shuffles its own orders); the game deals from the front."""
    rnd = JavaRandom(seed)
    tome = tome_catalogue()
    orders = order_catalogue()
    if league.halved_orders:
        orders = wood2_orders(orders)
    java_shuffle(tome, rnd)
    java_shuffle(orders, rnd)
    return deque(tome), deque(orders)


def new_game(seed: int, league: League = TOP_LEAGUE) -> FallState:
    """The official starting position for ``seed`` at a league level (the top one by default:
    shuffled decks, 6 tome spells and 5 orders dealt, inventories ``3 0 0 0``, four starting
    spells each, ids 78-85)."""
    tome_deck, order_deck = shuffled_decks(seed, league)
    tome = [tome_deck.popleft() for _ in range(TOME_SIZE)] if league.tome else []
    deliveries = [order_deck.popleft() for _ in range(COUNTER_SIZE)]
    players = [PlayerState(list(league.starting_inventory), []) for _ in range(2)]
    bonus = [4, 4] if league.urgency_bonus else [0, 0]
    state = FallState(tome, deliveries, players, tome_deck, order_deck, bonus)
    state.next_id = FIRST_PLAYER_SPELL_ID
    if league.spells:
        for p in range(2):
            for delta in STARTING_SPELLS:
                state.add_spell(p, delta, repeatable=False)
    return state
