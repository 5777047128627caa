"""The Fall Challenge 2020 rules as a small, immutable model for search bots.

One turn's input fixes the cards on the table. A search only ever looks at those cards (the ones
that will be dealt later are unknown), so the model splits a position in two:

* :class:`Table` - the cards of the root position, numbered by where they were shown: order
  ``j`` (0-4, display order), tome spell ``j`` (0-5, tome order) and, per witch, spell *slots*:
  slots ``0 .. n-1`` are the ``n`` spells she owns at the root (input order), slot ``n + j`` is
  tome spell ``j`` once she has learnt it. The table also holds the lookup tables of
  :mod:`.inventory` for every order and every slot, built once per turn.
* :class:`State` - what changes: the turn number, both witches (:class:`Witch`: inventory number,
  castable and learnt bitmasks, rupees, potions brewed), which root orders and tome spells are
  still shown (bitmasks), the urgency bonuses, and the tier-0 stock taxed onto each tome spell.

Cards dealt to replace a brewed order or a learnt spell are unknown to a bot: the model treats
them as absent. Everything else follows the referee exactly:

* both witches act against the table as it was at the start of the turn (so both may brew the
  same order, or learn the same spell, in one turn); only then are cards removed;
* BREW earns the price plus the urgency bonus of the order's *position* (``+3`` at position 0 and
  ``+1`` at position 1 while their counters last; each brew there uses one; when the ``+3``
  counter is used up the ``+1`` slides to position 0);
* LEARN of the spell at position ``i`` pays ``i`` tier-0 ingredients, one onto each spell before
  it (credited by position after the turn's removals), gives a castable copy, and hands over the
  spell's stock, as much as fits in the inventory;
* CAST ``k`` times needs ``k`` times the cost and room for ``k`` times the net gain (at most 10
  ingredients); REST makes every spell castable again and is refused (the turn is lost) when
  none is exhausted; WAIT does nothing. A refused action changes nothing;
* the game ends after the turn in which a witch brews her sixth potion, or after turn 100; then
  every tier 1-3 ingredient is worth one rupee.

Actions are ints (:func:`brew`, :func:`cast`, :func:`learn`, :data:`REST`, :data:`WAIT`):
``kind | index << 3 | times << 9``. :func:`action_text` and :func:`parse_action` convert them
to and from the referee's commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .inventory import END_BONUS, INVS, brew_table, cast_table, learn_table

__all__ = [
    "MAX_TURNS",
    "POTION_GOAL",
    "REST",
    "WAIT",
    "BREW",
    "CAST",
    "LEARN",
    "brew",
    "cast",
    "learn",
    "kind_of",
    "index_of_action",
    "times_of",
    "Spell",
    "Order",
    "Witch",
    "State",
    "Table",
    "position",
    "price_at",
    "owned",
    "legal_actions",
    "act",
    "settle_table",
    "settle",
    "step",
    "is_over",
    "final_scores",
    "action_text",
    "parse_action",
]

MAX_TURNS = 100
"""The game ends after this turn."""
POTION_GOAL = 6
"""The game ends after the turn in which a witch brews her sixth potion."""

# -- actions ------------------------------------------------------------------------------------

REST = 0
WAIT = 1
BREW = 2
CAST = 3
LEARN = 4


def brew(j: int) -> int:
    """BREW root order ``j``."""
    return BREW | j << 3


def cast(slot: int, times: int = 1) -> int:
    """CAST the spell in ``slot``, ``times`` times."""
    return CAST | slot << 3 | times << 9


def learn(j: int) -> int:
    """LEARN root tome spell ``j``."""
    return LEARN | j << 3


def kind_of(action: int) -> int:
    """REST, WAIT, BREW, CAST or LEARN."""
    return action & 7


def index_of_action(action: int) -> int:
    """The order, slot or tome spell an action names."""
    return action >> 3 & 63


def times_of(action: int) -> int:
    """The repeat count of a CAST."""
    return action >> 9


# -- cards and positions ------------------------------------------------------------------------


class Spell(NamedTuple):
    """A spell: owned by a witch, or shown in the tome (``repeatable`` iff it costs something)."""

    id: int
    delta: tuple[int, int, int, int]
    repeatable: bool


class Order(NamedTuple):
    """A potion order: the ingredients it takes (positive counts) and its price without bonus."""

    id: int
    need: tuple[int, int, int, int]
    price: int


class Witch(NamedTuple):
    """One witch during a search."""

    inv: int
    """Inventory number (:data:`.inventory.INVS`)."""
    castable: int
    """Bit ``s`` set when the spell in slot ``s`` is owned and castable."""
    learned: int
    """Bit ``j`` set when she has learnt root tome spell ``j``."""
    score: int
    potions: int


class State(NamedTuple):
    """A position reachable from the table's root."""

    turn: int
    """The turn about to be played (1-100; 101 once turn 100 is over)."""
    witches: tuple[Witch, Witch]
    """Witch 0 is the one the input was read for, witch 1 her opponent."""
    orders: int
    """Bit ``j`` set while root order ``j`` is shown."""
    bonus: tuple[int, int, int, int]
    """Urgency bonuses ``(count at position 0, count at position 1, value at 0, value at 1)``."""
    tome: int
    """Bit ``j`` set while root tome spell ``j`` is shown."""
    stocks: tuple[int, ...]
    """Tier-0 ingredients taxed onto each root tome spell."""


class Table:
    """The cards of a root position, and their lookup tables.

    ``spells[w]`` are witch ``w``'s spells at the root; slot ``s < slots[w]`` is ``spells[w][s]``
    and slot ``slots[w] + j`` is tome spell ``j``. ``casts[w][s]``, ``repeatable[w][s]`` and
    ``deltas[w][s]`` describe every slot, ``brews[j]`` the order ``j``.
    """

    __slots__ = (
        "orders",
        "tome",
        "spells",
        "slots",
        "root_mask",
        "casts",
        "repeatable",
        "deltas",
        "brews",
        "prices",
        "next_id",
    )

    def __init__(
        self, orders: Sequence[Order], tome: Sequence[Spell], spells: Sequence[Sequence[Spell]], next_id: int = -1
    ) -> None:
        self.orders: tuple[Order, ...] = tuple(orders)
        self.tome: tuple[Spell, ...] = tuple(tome)
        self.spells: tuple[tuple[Spell, ...], tuple[Spell, ...]] = (tuple(spells[0]), tuple(spells[1]))
        self.slots = (len(self.spells[0]), len(self.spells[1]))
        """Spells owned at the root, per witch."""
        self.root_mask = ((1 << self.slots[0]) - 1, (1 << self.slots[1]) - 1)
        cards = [list(self.spells[w]) + list(self.tome) for w in (0, 1)]
        self.deltas = tuple(tuple(s.delta for s in cards[w]) for w in (0, 1))
        self.repeatable = tuple(tuple(s.repeatable for s in cards[w]) for w in (0, 1))
        self.casts = tuple([cast_table(s.delta, s.repeatable) for s in cards[w]] for w in (0, 1))
        self.brews = [brew_table(o.need) for o in self.orders]
        self.prices = [o.price for o in self.orders]
        self.next_id = next_id
        """Id the referee gives the next learnt spell (-1 when unknown)."""

    def spell_id(self, w: int, slot: int) -> int:
        """The id of the spell in ``slot`` (-1 for a spell learnt during the search)."""
        return self.spells[w][slot].id if slot < self.slots[w] else -1


def position(mask: int, j: int) -> int:
    """Display position of root card ``j`` among those still shown (``mask``)."""
    return (mask & ((1 << j) - 1)).bit_count()


def price_at(base: int, pos: int, bonus: tuple[int, int, int, int]) -> int:
    """What brewing an order of price ``base`` at display position ``pos`` earns."""
    if pos < 2 and bonus[pos] > 0:
        return base + bonus[2 + pos]
    return base


def owned(table: Table, w: int, witch: Witch) -> int:
    """Bitmask of the slots witch ``w`` owns."""
    return table.root_mask[w] | witch.learned << table.slots[w]


# -- rules --------------------------------------------------------------------------------------


def legal_actions(table: Table, state: State, w: int) -> list[int]:
    """Every action the referee would accept from witch ``w``: BREWs, CASTs (every repeat count),
    LEARNs, REST when a spell is exhausted, and WAIT."""
    witch = state.witches[w]
    inv = witch.inv
    out = [brew(j) for j, t in enumerate(table.brews) if state.orders >> j & 1 and t[inv] >= 0]
    castable = witch.castable
    for slot, tbl in enumerate(table.casts[w]):
        if castable >> slot & 1:
            for k in range(len(tbl[inv])):
                out.append(cast(slot, k + 1))
    tax = 0
    blue = INVS[inv][0]
    for j in range(len(table.tome)):
        if state.tome >> j & 1:
            if tax > blue:
                break
            out.append(learn(j))
            tax += 1
    if castable != owned(table, w, witch):
        out.append(REST)
    out.append(WAIT)
    return out


Effect = tuple[int, int, int]
"""``(BREW or LEARN, root index, display position)``: what :func:`settle` must remove."""


def act(table: Table, state: State, w: int, action: int) -> tuple[Witch, Effect | None, bool]:
    """Witch ``w`` plays ``action`` on ``state``'s table: ``(her new witch, effect on the table,
    accepted)``. A refused action leaves her unchanged."""
    witch = state.witches[w]
    kind = action & 7
    j = action >> 3 & 63
    inv, castable, learned, score, potions = witch
    if kind == CAST:
        times = action >> 9
        if j < len(table.casts[w]) and castable >> j & 1 and times >= 1 and len(table.casts[w][j][inv]) >= times:
            return (Witch(table.casts[w][j][inv][times - 1], castable & ~(1 << j), learned, score, potions), None, True)
    elif kind == REST:
        mine = owned(table, w, witch)
        if castable != mine:
            return Witch(inv, mine, learned, score, potions), None, True
    elif kind == BREW:
        if j < len(table.brews) and state.orders >> j & 1 and table.brews[j][inv] >= 0:
            pos = position(state.orders, j)
            earned = price_at(table.prices[j], pos, state.bonus)
            return (Witch(table.brews[j][inv], castable, learned, score + earned, potions + 1), (BREW, j, pos), True)
    elif kind == LEARN:
        if j < len(table.tome) and state.tome >> j & 1:
            pos = position(state.tome, j)
            after = learn_table(pos, state.stocks[j])[inv]
            if after >= 0:
                slot = table.slots[w] + j
                return (Witch(after, castable | 1 << slot, learned | 1 << j, score, potions), (LEARN, j, pos), True)
    elif kind == WAIT:
        return witch, None, True
    return witch, None, False


def settle_table(
    table: Table,
    orders: int,
    bonus: tuple[int, int, int, int],
    tome: int,
    stocks: tuple[int, ...],
    effects: Sequence[Effect | None],
) -> tuple[int, tuple[int, int, int, int], int, tuple[int, ...]]:
    """The shared part of the end of a turn: ``(orders, bonus, tome, stocks)`` after removing
    the brewed orders and learnt spells of ``effects``, using and sliding the bonus counters,
    and crediting the learning tax to the spells by position."""
    gains: list[int] | None = None
    for effect in effects:
        if effect is None:
            continue
        kind, j, pos = effect
        if kind == BREW:
            orders &= ~(1 << j)
            if pos < 2 and bonus[pos] > 0:
                bonus = (
                    (bonus[0] - 1, bonus[1], bonus[2], bonus[3])
                    if pos == 0
                    else (bonus[0], bonus[1] - 1, bonus[2], bonus[3])
                )
        else:
            tome &= ~(1 << j)
            if pos:
                if gains is None:
                    gains = [0] * len(table.tome)
                for i in range(pos):
                    gains[i] += 1
    if bonus[0] <= 0:
        bonus = (bonus[1], 0, 1, 0)
    if gains is not None:
        new_stocks = list(stocks)
        i = 0
        for j in range(len(table.tome)):
            if tome >> j & 1:
                new_stocks[j] += gains[i]
                i += 1
        stocks = tuple(new_stocks)
    return orders, bonus, tome, stocks


def settle(table: Table, state: State, witches: tuple[Witch, Witch], effects: Sequence[Effect | None]) -> State:
    """The end of a turn: the witches as they acted, brewed orders and learnt spells removed,
    bonus counters used and slid, the learning tax credited by position, next turn."""
    orders, bonus, tome, stocks = settle_table(table, state.orders, state.bonus, state.tome, state.stocks, effects)
    return State(state.turn + 1, witches, orders, bonus, tome, stocks)


def step(table: Table, state: State, action0: int, action1: int) -> State:
    """Play one turn: witch 0 plays ``action0``, witch 1 ``action1`` (refused actions do
    nothing)."""
    w0, e0, _ = act(table, state, 0, action0)
    w1, e1, _ = act(table, state, 1, action1)
    return settle(table, state, (w0, w1), (e0, e1))


def is_over(state: State) -> bool:
    """True once the game has ended (a sixth potion, or turn 100 played)."""
    w0, w1 = state.witches
    return state.turn > MAX_TURNS or w0.potions >= POTION_GOAL or w1.potions >= POTION_GOAL


def final_scores(state: State) -> tuple[int, int]:
    """Rupees plus one per tier 1-3 ingredient (the scores once the game is over)."""
    w0, w1 = state.witches
    return w0.score + END_BONUS[w0.inv], w1.score + END_BONUS[w1.inv]


# -- commands -----------------------------------------------------------------------------------


def action_text(table: Table, w: int, action: int) -> str:
    """The command for witch ``w``'s ``action`` (``CAST id`` for one cast, ``CAST id k`` for
    more, as the referee lists them)."""
    kind = action & 7
    j = action >> 3 & 63
    if kind == REST:
        return "REST"
    if kind == WAIT:
        return "WAIT"
    if kind == BREW:
        return f"BREW {table.orders[j].id}"
    if kind == LEARN:
        return f"LEARN {table.tome[j].id}"
    sid = table.spell_id(w, j)
    if sid < 0:
        raise ValueError("a spell learnt during the search has no id yet")
    times = action >> 9
    return f"CAST {sid}" if times == 1 else f"CAST {sid} {times}"


def parse_action(table: Table, w: int, text: str) -> int | None:
    """The action of witch ``w``'s command (``None`` when it names no card of the table; a
    trailing message is ignored)."""
    words = text.split()
    if not words:
        return None
    word = words[0].upper()
    if word == "REST":
        return REST
    if word == "WAIT":
        return WAIT
    if len(words) < 2 or not words[1].isdigit():
        return None
    card = int(words[1])
    if word == "BREW":
        for j, o in enumerate(table.orders):
            if o.id == card:
                return brew(j)
    elif word == "LEARN":
        for j, s in enumerate(table.tome):
            if s.id == card:
                return learn(j)
    elif word == "CAST":
        times = int(words[2]) if len(words) > 2 and words[2].isdigit() else 1
        for slot, s in enumerate(table.spells[w]):
            if s.id == card:
                return cast(slot, times)
    return None
