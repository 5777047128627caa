"""A one-ply greedy policy for Fall Challenge 2020: brew, learn early, else walk toward an order.

Each turn, in this order:

1. **Brew** the affordable order that earns the most (price plus urgency bonus).
2. **Learn** during the first ``learn_turns`` turns (until ``max_spells`` are owned): the tome
   spell with the best *gain* ``sum((tier + 1) * delta[tier]) + stock - tax``, if that gain is at
   least ``min_gain`` and the tax at most ``max_tax``. A tier-weighted gain rewards spells that
   make many or high-tier ingredients.
3. **Cast** toward a target order. The *distance* from an inventory to an order counts the casts
   of the starting spells still needed to afford it: walking down from tier 3, every missing
   ingredient of tier ``t`` costs one conversion from tier ``t - 1`` (which in turn may be
   missing), and missing tier-0 ingredients come two per cast. The target is the order with the
   best ``price / (distance + 1)``; we play the cast (any repeat count) that lowers the distance
   to the target the most, ties to the richer inventory (tier-weighted).
4. **Rest** when no castable spell brings the target closer and a spell is exhausted;
   otherwise cast whatever adds the most ingredient value, or wait.

No randomness: the same position always gives the same action.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.fall2020.game.inventory import INVS, TOTAL
from bots.fall2020.game.model import (
    BREW,
    CAST,
    LEARN,
    REST,
    WAIT,
    State,
    Table,
    legal_actions,
    owned,
    position,
    price_at,
)

__all__ = ["Settings", "distance", "spell_gain", "choose"]


@dataclass(frozen=True)
class Settings:
    learn_turns: int = 8
    """Turns during which spells are learnt."""
    max_spells: int = 10
    """Stop learning once this many spells are owned."""
    max_tax: int = 2
    """Never pay more tax than this."""
    min_gain: int = 1
    """Smallest tier-weighted gain worth learning."""


def distance(inv: tuple[int, int, int, int], need: tuple[int, int, int, int]) -> float:
    """Starting-spell casts still needed to afford ``need`` from ``inv`` (see the module doc)."""
    carry = 0
    cost = 0.0
    for tier in (3, 2, 1):
        missing = need[tier] + carry - inv[tier]
        if missing > 0:
            cost += missing
            carry = missing
        else:
            carry = 0
    missing = need[0] + carry - inv[0]
    if missing > 0:
        cost += (missing + 1) // 2
    return cost


def spell_gain(delta: tuple[int, int, int, int], stock: int, tax: int) -> int:
    """Tier-weighted ingredients made by one cast, plus the stock received, minus the tax."""
    return delta[0] + 2 * delta[1] + 3 * delta[2] + 4 * delta[3] + stock - tax


def _worth(inv: tuple[int, int, int, int]) -> int:
    return inv[0] + 2 * inv[1] + 3 * inv[2] + 4 * inv[3]


def choose(table: Table, state: State, settings: Settings = Settings()) -> int:
    """The greedy action of witch 0."""
    me = state.witches[0]
    legal = legal_actions(table, state, 0)
    # 1. Brew the most valuable affordable order.
    best_brew, best_price = -1, -1
    for a in legal:
        if a & 7 == BREW:
            j = a >> 3 & 63
            price = price_at(table.prices[j], position(state.orders, j), state.bonus)
            if price > best_price:
                best_brew, best_price = a, price
    if best_brew >= 0:
        return best_brew
    # 2. Learn a cheap good spell early.
    spells = owned(table, 0, me).bit_count()
    if state.turn <= settings.learn_turns and spells < settings.max_spells:
        best_learn, best_gain = -1, settings.min_gain - 1
        for a in legal:
            if a & 7 == LEARN:
                j = a >> 3 & 63
                tax = position(state.tome, j)
                if tax > settings.max_tax:
                    continue
                gain = spell_gain(table.tome[j].delta, state.stocks[j], tax)
                if gain > best_gain:
                    best_learn, best_gain = a, gain
        if best_learn >= 0:
            return best_learn
    # 3. Cast toward the target order.
    inv = INVS[me.inv]
    target = None
    best_ratio = -1.0
    for j, order in enumerate(table.orders):
        if state.orders >> j & 1:
            price = price_at(order.price, position(state.orders, j), state.bonus)
            ratio = price / (distance(inv, order.need) + 1)
            if ratio > best_ratio:
                target, best_ratio = order.need, ratio
    casts: list[tuple[float, int, int]] = []
    for a in legal:
        if a & 7 == CAST:
            slot, times = a >> 3 & 63, a >> 9
            after = INVS[table.casts[0][slot][me.inv][times - 1]]
            d = distance(after, target) if target is not None else 0.0
            casts.append((d, -_worth(after), a))
    now = distance(inv, target) if target is not None else 0.0
    casts.sort()
    if casts and casts[0][0] < now:
        return casts[0][2]
    # 4. Rest, else the richest cast, else wait.
    if REST in legal:
        return REST
    if casts:
        best = min(casts, key=lambda c: (c[1], c[2]))
        if -best[1] > _worth(inv) and TOTAL[me.inv] < 10:
            return best[2]
    return WAIT
