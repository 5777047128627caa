"""The league levels of Fall Challenge 2020: what each one plays (:class:`League`, :data:`LEAGUES`).

The official referee reads the level once, when the game starts, and sets six switches from it
(``Game.init``): the starting inventory, the number of potions that ends the game, whether the
tome, the players' spells, the urgency bonus and the end-of-game inventory bonus exist. Level 1
also rewrites the potion orders before the shuffle (:func:`wood2_orders`). Levels 3 and 4 share
the full rules (their official statements differ, the game does not). The commands a level
understands follow from the switches: without spells neither ``CAST`` nor ``REST`` parse, without
a tome ``LEARN`` does not, and the invalid-input message says what was expected
(:attr:`League.expected`).

The CodinGame leagues: Wood 2 plays level 1, Wood 1 level 2, Bronze level 3, Silver, Gold and
Legend level 4 (:data:`LEAGUE_NAMES`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .state import DELIVERY_GOAL, Delta, Order

__all__ = ["League", "LEAGUES", "TOP_LEAGUE", "LEAGUE_NAMES", "LEAGUE_RULES", "java_half", "wood2_orders"]


@dataclass(frozen=True, slots=True)
class League:
    """The rules of one league level."""

    level: int
    starting_inventory: Delta
    """Both players' ingredients at the start."""
    delivery_goal: int
    """The game ends after the turn in which a player has brewed this many potions."""
    tome: bool
    """Six tome spells are dealt and can be learnt (``LEARN`` parses)."""
    spells: bool
    """Each player starts with the four basic spells (``CAST`` and ``REST`` parse)."""
    urgency_bonus: bool
    """The first two orders pay +3 and +1 rupees, four times each (otherwise there is no bonus)."""
    inventory_bonus: bool
    """At the end each active player scores one rupee per tier 1-3 ingredient."""
    halved_orders: bool
    """The orders are made simpler before the shuffle (:func:`wood2_orders`)."""

    @property
    def commands(self) -> frozenset[str]:
        """The command keywords that parse: ``BREW`` and ``WAIT``, ``CAST`` and ``REST`` with
        spells, ``LEARN`` with a tome."""
        return frozenset(
            ("BREW", "WAIT") + (("CAST", "REST") if self.spells else ()) + (("LEARN",) if self.tome else ())
        )

    @property
    def expected(self) -> str:
        """What the invalid-input message says was expected (the official wording)."""
        if not self.spells:
            return "BREW <id> | WAIT"
        if not self.tome:
            return "BREW <id> | CAST <id> | REST | WAIT"
        return "BREW <id> | CAST <id> [<repeat>] | LEARN <id> | REST | WAIT"


_FULL = {"tome": True, "spells": True, "urgency_bonus": True, "inventory_bonus": True, "halved_orders": False}

LEAGUES: dict[int, League] = {
    # Wood 2: brewing only, from a rich start and with simpler orders; two potions end the game.
    1: League(
        1, (2, 2, 3, 3), 2, tome=False, spells=False, urgency_bonus=False, inventory_bonus=False, halved_orders=True
    ),
    # Wood 1: the four basic spells and REST, no tome, no urgency bonus; three potions end it.
    2: League(
        2, (3, 0, 0, 0), 3, tome=False, spells=True, urgency_bonus=False, inventory_bonus=True, halved_orders=False
    ),
    # Bronze, then Silver to Legend: the full rules.
    3: League(3, (3, 0, 0, 0), DELIVERY_GOAL, **_FULL),
    4: League(4, (3, 0, 0, 0), DELIVERY_GOAL, **_FULL),
}
"""Every level's rules, by level."""

TOP_LEAGUE = LEAGUES[4]

LEAGUE_NAMES: dict[str, int] = {"wood 2": 1, "wood 1": 2, "bronze": 3, "silver": 4, "gold": 4, "legend": 4}
"""The CodinGame leagues (lower case) and the level each plays."""

LEAGUE_RULES: dict[int, str] = {
    1: "brewing only (no spells, no tome, no bonus), simpler orders, 2 potions end the game",
    2: "the four starting spells and REST, no tome, no urgency bonus, 3 potions end the game",
    3: "the full rules, as level 4",
}
"""What each level below the top one changes, in a few words."""


def java_half(x: int) -> int:
    """``x / 2`` in Java ``int`` arithmetic: rounded toward zero (-3 gives -1, where ``-3 // 2``
    is -2)."""
    return -(-x // 2) if x < 0 else x // 2


def wood2_orders(orders: Iterable[Order]) -> list[Order]:
    """Level 1's order deck, made from the unshuffled catalogue: an order that needs two or more
    of some ingredient needs half of every ingredient (rounded down, as Java's division of a
    negative delta rounds toward zero), then of the orders with equal needs only the first is
    kept. Ids and prices do not change (18 of the 36 orders are left)."""
    seen: set[Delta] = set()
    kept = []
    for order in orders:
        delta = order.delta
        if min(delta) < -1:
            order = Order(order.id, tuple(java_half(x) for x in delta), order.price)
            delta = order.delta
        if delta not in seen:
            seen.add(delta)
            kept.append(order)
    return kept
