"""A one-ply greedy policy for Fall Challenge 2020: brew, learn early, else walk toward an order.

Each turn, in this order:

1. **Brew** the affordable order that earns the most (price plus urgency bonus).
2. **Learn** during the first ``learn_turns`` turns (until ``max_spells`` are owned): the tome
   spell with the best *gain* ``sum((tier + 1) * delta[tier]) + stock - tax``, if that gain is at
   least ``min_gain`` and the tax at most ``max_tax``. A tier-weighted gain rewards spells that
   make many or high-tier ingredients.
3. **Cast** toward a target order. From the current inventory a breadth-first search over the
   1,001 possible inventories, with every owned spell as an edge (any repeat count) and
   exhaustion ignored past the first move, gives the fewest casts to every inventory within
   ``horizon`` casts; a first move with an exhausted spell costs one more (the REST before it).
   An order's *distance* is the fewest casts to any inventory that affords it. The target is the
   order with the best ``price / (distance + 1)``, ties to the earlier order; we play the first
   move of its shortest path (REST when one of them starts with it: such a path really is that
   short, while one that casts first may need a REST of its own later).
4. Otherwise, with no order within ``horizon`` casts: rest when a spell is exhausted, else cast
   whatever adds the most ingredient value, else wait.

No randomness: the same position always gives the same action.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.fall2020.game.inventory import INVS
from bots.fall2020.game.model import (
    BREW,
    CAST,
    LEARN,
    REST,
    WAIT,
    State,
    Table,
    Witch,
    cast,
    legal_actions,
    owned,
    position,
    price_at,
)

__all__ = ["Settings", "cast_distances", "spell_gain", "choose"]


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
    horizon: int = 6
    """Casts searched toward an order."""


def cast_distances(table: Table, me: Witch, horizon: int) -> dict[int, tuple[int, int]]:
    """``{inventory: (casts, first move)}`` for every inventory witch 0 reaches within
    ``horizon`` casts of her owned spells (see the module doc; the REST a first move with an
    exhausted spell needs counts as a cast, and its first move is then :data:`REST`)."""
    casts = table.casts[0]
    slots = [s for s in range(len(casts)) if owned(table, 0, me) >> s & 1]
    best: dict[int, tuple[int, int]] = {me.inv: (0, WAIT)}
    # The first move: castable spells cost 1, exhausted ones 2 (REST, then the cast). At equal
    # cost a path starting with REST is preferred: it really is that short, while a path that
    # casts first may use an exhausted spell later and need a REST of its own.
    layers: list[list[int]] = [[] for _ in range(horizon + 1)]
    for slot in slots:
        ready = me.castable >> slot & 1
        for times, after in enumerate(casts[slot][me.inv], 1):
            if ready:
                _improve(best, layers, after, 1, cast(slot, times))
            elif horizon >= 2:
                _improve(best, layers, after, 2, REST)
    # Later moves: one cast each, exhaustion ignored.
    for d in range(1, horizon):
        for inv in dict.fromkeys(layers[d]):
            dist, first = best[inv]
            if dist != d:
                continue  # reached again more cheaply
            for slot in slots:
                for after in casts[slot][inv]:
                    _improve(best, layers, after, d + 1, first)
    return best


def _improve(best: dict[int, tuple[int, int]], layers: list[list[int]], inv: int, dist: int, first: int) -> None:
    old = best.get(inv)
    if old is None or dist < old[0] or (dist == old[0] and first == REST != old[1]):
        best[inv] = (dist, first)
        layers[dist].append(inv)


def spell_gain(delta: tuple[int, int, int, int], stock: int, tax: int) -> int:
    """Tier-weighted ingredients made by one cast, plus the stock received, minus the tax."""
    return _worth(delta) + stock - tax


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
    reach = cast_distances(table, me, settings.horizon)
    target: tuple[float, int] | None = None
    for j, brew_table in enumerate(table.brews):
        if state.orders >> j & 1:
            # The nearest affording inventory, one reached by a path starting with REST first.
            nearest = min(
                (way for inv, way in reach.items() if brew_table[inv] >= 0),
                key=lambda way: (way[0], way[1] != REST),
                default=None,
            )
            if nearest is None:
                continue
            price = price_at(table.prices[j], position(state.orders, j), state.bonus)
            ratio = price / (nearest[0] + 1)
            if target is None or ratio > target[0]:
                target = (ratio, nearest[1])
    if target is not None:
        return target[1]
    # 4. Rest, else the richest cast, else wait.
    if REST in legal:
        return REST
    inv = me.inv
    best_cast, best_worth = -1, _worth(INVS[inv])
    for a in legal:
        if a & 7 == CAST:
            after = table.casts[0][a >> 3 & 63][inv][(a >> 9) - 1]
            if _worth(INVS[after]) > best_worth:
                best_cast, best_worth = a, _worth(INVS[after])
    if best_cast >= 0:
        return best_cast
    return WAIT
