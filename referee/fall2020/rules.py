"""The rules of Fall Challenge 2020 (league 4, the full rules used up to Legend), as functions on
a :class:`~referee.fall2020.state.FallState`.

The official ``Game.performGameUpdate`` resolves the players' actions one after the other (player
0 first) against the table as it was at the start of the turn; only then are learnt spells and
brewed potions replaced, bonuses counted down and slid, and the learning tax credited to the tome
*by position*. :func:`resolve_turn` does the same.

Arithmetic on ingredients and rupees is Java ``int`` arithmetic (:func:`i32`): a CAST with an
enormous repeat count wraps around exactly as the official referee does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base import RuleViolation
from .actions import BREW, CAST, LEARN, REST, WAIT, Action
from .deck import FIRST_LEARNT_SPELL_ID, STARTING_SPELLS, shuffled_decks
from .state import (
    CAST_GUARDS,
    COUNTER_SIZE,
    DELIVERY_GOAL,
    GUARDS,
    MAX_SPACE,
    TOME_SIZE,
    FallState,
    Order,
    PlayerSpell,
    PlayerState,
    TomeSpell,
)

__all__ = [
    "STARTING_INVENTORY",
    "TurnLog",
    "i32",
    "new_game",
    "shared_lines",
    "input_lines",
    "InputView",
    "price_of",
    "find_spell",
    "brew",
    "cast",
    "learn",
    "rest",
    "resolve_turn",
    "end_turn",
    "is_game_over",
    "add_inventory_bonus",
    "legal_actions",
]

STARTING_INVENTORY = (3, 0, 0, 0)

_SMALL = 1 << 20
"""Below this, sums of a few ingredient counts and deltas times repeats fit in a Java int."""
_INT_MASK = 0xFFFFFFFF
_INT_SIGN = 0x80000000


def i32(x: int) -> int:
    """``x`` wrapped to a Java ``int``."""
    if -_INT_SIGN <= x < _INT_SIGN:
        return x
    return ((x + _INT_SIGN) & _INT_MASK) - _INT_SIGN


class TurnLog:
    """What :func:`resolve_turn` did: summary lines (official wording), refused actions, and the
    cards played (for :func:`end_turn`)."""

    __slots__ = ("summary", "errors", "learnt", "delivered")

    def __init__(self) -> None:
        self.summary: list[str] = []
        self.errors: list[tuple[int, str]] = []
        """``(player, official message)`` of each refused action."""
        self.learnt: list[TomeSpell] = []
        """Distinct tome spells learnt this turn, in resolution order."""
        self.delivered: list[tuple[Order, int]] = []
        """Each brew: the order and its list position at the start of the turn."""


# -- setup and input ---------------------------------------------------------------------------


def new_game(seed: int) -> FallState:
    """The official starting position for ``seed``: shuffled decks, 6 tome spells and 5 orders
    dealt, inventories ``3 0 0 0``, four starting spells each (ids 78-85)."""
    tome_deck, order_deck = shuffled_decks(seed)
    tome = [tome_deck.popleft() for _ in range(TOME_SIZE)]
    deliveries = [order_deck.popleft() for _ in range(COUNTER_SIZE)]
    players = [PlayerState(list(STARTING_INVENTORY), []) for _ in range(2)]
    state = FallState(tome, deliveries, players, tome_deck, order_deck)
    state.next_id = FIRST_LEARNT_SPELL_ID - 2 * len(STARTING_SPELLS)
    for p in range(2):
        for delta in STARTING_SPELLS:
            state.add_spell(p, delta, repeatable=False)
    return state


def price_of(state: FallState, index: int) -> tuple[int, int, int]:
    """``(price with bonus, bonus value shown, bonus count shown)`` of the order at ``index``."""
    order = state.deliveries[index]
    if index < 2:
        count = state.bonus[index]
        if count > 0:
            value = state.bonus_value[index]
            return order.price + value, value, count
        return order.price, 0, count
    return order.price, 0, 0


def shared_lines(state: FallState) -> list[str]:
    """The order and tome lines (the same for both players)."""
    return _table_lines(
        state.deliveries, state.bonus, state.bonus_value, state.tome, [spell.stock for spell in state.tome]
    )


def _table_lines(
    orders: Sequence[Order],
    bonus: Sequence[int],
    bonus_value: Sequence[int],
    tome: Sequence[TomeSpell],
    stocks: Sequence[int],
) -> list[str]:
    """The order lines (orders 0 and 1 with their urgency bonus, if any is left) and the tome
    lines (position and stock): :meth:`Order.line` and :meth:`TomeSpell.line`, their memos
    looked up directly."""
    lines = []
    for index, order in enumerate(orders):
        if index < 2:
            count = bonus[index]
            value = bonus_value[index] if count > 0 else 0
            lines.append(order._lines[order.price + value, value, count])
        else:
            lines.append(order._lines[order.price, 0, 0])
    for index, spell in enumerate(tome):
        lines.append(spell._lines[index, stocks[index]])
    return lines


def input_lines(state: FallState, player: int, shared: list[str] | None = None) -> list[str]:
    """The lines the official referee sends to ``player`` at the start of a turn (``shared``:
    :func:`shared_lines`, if already made)."""
    if shared is None:
        shared = shared_lines(state)
    me = state.players[player]
    foe = state.players[1 - player]
    mine = me.spell_lines()[0]
    theirs = foe.spell_lines()[1]
    count = len(shared) + len(mine) + len(theirs)
    return [str(count), *shared, *mine, *theirs, me.line(), foe.line()]


class InputView:
    """The table as :func:`input_lines` shows it now, captured so that the lines can be made
    later, after the state has changed (the referee's input is formatted only if it is read).

    Capturing copies a few references and numbers (the orders, the bonuses, the tome and its
    stocks, each witch's spell lines, inventory and score); :meth:`lines` formats them, the
    shared order and tome lines once for both players. (A card's id, recipe and price never
    change, so the cards themselves are kept.)"""

    __slots__ = ("_table", "_witches", "_shared", "_witch_lines")

    def __init__(self, state: FallState) -> None:
        tome = state.tome
        stocks = []
        for spell in tome:
            stocks.append(spell.stock)
        self._table = (tuple(state.deliveries), tuple(state.bonus), tuple(state.bonus_value), tuple(tome), stocks)
        first, second = state.players
        if len(first.own_lines) != len(first.spells):
            first.refresh_lines()
        if len(second.own_lines) != len(second.spells):
            second.refresh_lines()
        self._witches = (
            (tuple(first.own_lines), tuple(first.foe_lines), tuple(first.inventory), first.score),
            (tuple(second.own_lines), tuple(second.foe_lines), tuple(second.inventory), second.score),
        )
        self._shared: list[str] | None = None
        self._witch_lines: list[str] | None = None

    def lines(self, player: int) -> list[str]:
        """What :func:`input_lines` gave for ``player`` when the view was captured."""
        shared = self._shared
        witch_lines = self._witch_lines
        if shared is None or witch_lines is None:
            shared = self._shared = _shared_lines_of(self._table)
            (_, _, inv0, score0), (_, _, inv1, score1) = self._witches
            witch_lines = self._witch_lines = [
                f"{inv0[0]} {inv0[1]} {inv0[2]} {inv0[3]} {score0}",
                f"{inv1[0]} {inv1[1]} {inv1[2]} {inv1[3]} {score1}",
            ]
        mine = self._witches[player][0]
        theirs = self._witches[1 - player][1]
        count = len(shared) + len(mine) + len(theirs)
        return [str(count), *shared, *mine, *theirs, witch_lines[player], witch_lines[1 - player]]


_TableView = tuple[tuple[Order, ...], tuple[int, ...], tuple[int, ...], tuple[TomeSpell, ...], list[int]]
_last_table: tuple[_TableView, list[str]] | None = None
"""The last table formatted by an :class:`InputView` and its lines: most turns show the same
orders and tome as the turn before."""


def _shared_lines_of(table: _TableView) -> list[str]:
    """:func:`shared_lines` of a captured table (orders, bonus, bonus values, tome, stocks)."""
    global _last_table
    if _last_table is not None and _last_table[0] == table:
        return _last_table[1]
    lines = _table_lines(*table)
    _last_table = (table, lines)
    return lines


# -- actions -----------------------------------------------------------------------------------


def find_spell(state: FallState, spell_id: int) -> TomeSpell | Order | PlayerSpell | None:
    """The card with that id among the orders, the tome and the players' spells (first found)."""
    for order in state.deliveries:
        if order.id == spell_id:
            return order
    for spell in state.tome:
        if spell.id == spell_id:
            return spell
    return state.player_spells.get(spell_id)


def _total(inventory: list[int]) -> int:
    return i32(inventory[0] + inventory[1] + inventory[2] + inventory[3])


def brew(state: FallState, player: int, order: Order, log: TurnLog) -> None:
    """BREW: pay the ingredients, earn the price plus the bonus of the order's position."""
    p = state.players[player]
    inv = p.inventory
    a, b, c, d = order.delta
    if inv[0] + a < 0 or inv[1] + b < 0 or inv[2] + c < 0 or inv[3] + d < 0:
        raise RuleViolation(f"Not enough ingredients for order {order.id}")
    inv[0] += a
    inv[1] += b
    inv[2] += c
    inv[3] += d
    index = state.deliveries.index(order)
    earned = price_of(state, index)[0]
    log.delivered.append((order, index))
    p.deliveries += 1
    p.score = i32(p.score + earned)
    log.summary += (
        f"${player} brewed potion {order.id} and earned {earned} rupees",
        f"They have now brewed {p.deliveries} potions.",
    )


def cast(state: FallState, player: int, spell: PlayerSpell, repeats: int, log: TurnLog) -> None:
    """CAST ``repeats`` times (checks in the official order, Java int arithmetic)."""
    sid = spell.id
    if repeats < 1:
        raise RuleViolation(f"Repeat can't be zero (on {sid})")
    if repeats > 1 and not spell.repeatable:
        raise RuleViolation(f"Spell {sid} is not repeatable")
    if not spell._castable:
        raise RuleViolation(f"Spell {sid} is exhausted")
    inv = state.players[player].inventory
    a, b, c, d = inv
    if repeats < _SMALL and a < _SMALL and b < _SMALL and c < _SMALL and d < _SMALL:
        # No Java int can overflow here.
        da, db, dc, dd = spell.delta
        if repeats == 1:
            a += da
            b += db
            c += dc
            d += dd
        else:
            a += da * repeats
            b += db * repeats
            c += dc * repeats
            d += dd * repeats
        if a < 0 or b < 0 or c < 0 or d < 0:
            raise RuleViolation(f"Not enough ingredients for spell {sid}")
        if a + b + c + d > MAX_SPACE:
            raise RuleViolation(f"Not enough space in inventory for spell {sid}")
        inv[:] = a, b, c, d
    else:
        delta = spell.delta
        after = [i32(inv[i] + delta[i] * repeats) for i in range(4)]
        if min(after) < 0:
            raise RuleViolation(f"Not enough ingredients for spell {sid}")
        if i32(spell.total * repeats + _total(inv)) > MAX_SPACE:
            raise RuleViolation(f"Not enough space in inventory for spell {sid}")
        inv[:] = after
    spell.castable = False
    log.summary.append(f"${player} cast spell {sid}")


def learn(state: FallState, player: int, spell: TomeSpell, log: TurnLog) -> None:
    """LEARN: pay one tier-0 ingredient per spell before it (credited to those positions at the
    end of the turn), get a castable copy, and take the spell's stock up to the free space."""
    index = state.tome.index(spell)
    inv = state.players[player].inventory
    if inv[0] < index:
        raise RuleViolation(f"Not enough ingredients to learn {spell.id}")
    gain = state.tome_stock_gain
    for i in range(index):
        gain[i] += 1
    inv[0] -= index
    state.add_spell(player, spell.delta, spell.repeatable)
    stock = spell.stock
    a, b, c, d = inv
    if -_SMALL < a < _SMALL and -_SMALL < b + c + d < _SMALL and -_SMALL < stock < _SMALL:
        # No Java int can overflow here.
        got = min(MAX_SPACE - (a + b + c + d), stock)
        inv[0] = a + got
        total = a + got + b + c + d
    else:
        got = min(i32(MAX_SPACE - _total(inv)), stock)
        inv[0] = i32(inv[0] + got)
        total = _total(inv)
    if spell not in log.learnt:
        log.learnt.append(spell)
    name = f"${player} learnt spell {spell.id}"
    if stock <= 0:
        log.summary.append(name)
        return
    # The official summary looks at the inventory *after* the gain (so its numbers can be off).
    if total >= MAX_SPACE:
        log.summary.append(f"{name}, the taxed ingredients were lost because their inventory is full.")
    elif total + stock > MAX_SPACE:
        log.summary.append(
            f"{name} and gained {MAX_SPACE - total} taxed ingredients, the rest was lost "
            "because their inventory is full."
        )
    else:
        log.summary.append(f"{name} and gained {stock} taxed ingredients.")


def rest(state: FallState, player: int, log: TurnLog) -> None:
    """REST: make every own spell castable again (refused if none is exhausted)."""
    spells = state.players[player].spells
    for s in spells:
        if not s._castable:
            break
    else:
        raise RuleViolation("All spells are already castable")
    for s in spells:
        if not s._castable:
            s.castable = True
    log.summary.append(f"${player} rested")


def _mismatch(expected: str, kind: str) -> RuleViolation:
    return RuleViolation(f"Command does not match action, expected '{expected}' but got '{kind}'")


def resolve_turn(state: FallState, actions: Sequence[Action | None]) -> TurnLog:
    """Apply each player's action (``None`` = no action: timed out, invalid or inactive), then
    :func:`end_turn`. A refused action costs the turn and is reported in ``errors``."""
    log = TurnLog()
    for player, action in enumerate(actions):
        if action is None:
            continue
        kind = action.kind
        try:
            if kind == WAIT:
                log.summary.append(f"${player} bided their time")
            elif kind == REST:
                rest(state, player, log)
            else:
                card = find_spell(state, action.spell_id)
                if card is None:
                    raise RuleViolation(f"Spell with id {action.spell_id} does not exist")
                # The command must be the one of the card's type: CAST (own spells only), LEARN
                # or BREW.
                if type(card) is PlayerSpell:
                    if card.owner != player:
                        raise RuleViolation("Tried to cast an opponent's spell...")
                    if kind != CAST:
                        raise _mismatch(CAST, kind)
                    cast(state, player, card, 1 if action.repeats is None else action.repeats, log)
                elif type(card) is TomeSpell:
                    if kind != LEARN:
                        raise _mismatch(LEARN, kind)
                    learn(state, player, card, log)
                elif type(card) is Order:
                    if kind != BREW:
                        raise _mismatch(BREW, kind)
                    brew(state, player, card, log)
        except RuleViolation as exc:
            message = str(exc)
            what = "REST action" if kind == REST else "action"
            log.summary += (f"${player} attempted an invalid {what}:", message)
            log.errors.append((player, message))
    end_turn(state, log)
    return log


def end_turn(state: FallState, log: TurnLog) -> None:
    """Replace learnt spells and brewed orders, count bonuses down, slide them, credit the tax."""
    tome = state.tome
    for spell in log.learnt:
        tome.remove(spell)
        if state.tome_deck:
            tome.append(state.tome_deck.popleft())
    bonus = state.bonus
    if log.delivered:
        for _, index in log.delivered:
            if index < 2 and bonus[index] > 0:
                bonus[index] -= 1
        done: list[Order] = []
        for order, _ in log.delivered:
            if order not in done:
                done.append(order)
                state.deliveries.remove(order)
                if state.order_deck:
                    state.deliveries.append(state.order_deck.popleft())
    if bonus[0] <= 0:
        # The +3 bonus is used up: the +1 bonus (and its count) moves to position 0.
        bonus[0] = bonus[1]
        bonus[1] = 0
        state.bonus_value[0] = 1
        state.bonus_value[1] = 0
    gain = state.tome_stock_gain
    if any(gain):
        for i, spell in enumerate(tome):
            if gain[i]:
                spell.stock += gain[i]
                gain[i] = 0


def is_game_over(state: FallState, active: Sequence[bool]) -> bool:
    """After a turn: at most one active player, or a player has brewed its sixth potion."""
    first, second = state.players
    return first.deliveries >= DELIVERY_GOAL or second.deliveries >= DELIVERY_GOAL or sum(active) <= 1


def add_inventory_bonus(state: FallState, active: Sequence[bool]) -> None:
    """End of game: each active player scores one rupee per tier 1-3 ingredient."""
    for p, player in enumerate(state.players):
        if active[p]:
            inv = player.inventory
            player.score = i32(player.score + inv[1])
            player.score = i32(player.score + inv[2])
            player.score = i32(player.score + inv[3])


# -- legal moves ---------------------------------------------------------------------------------


def _k_max(spell: PlayerSpell, inv: list[int]) -> int:
    """How many times ``spell`` can be cast at once with ``inv`` (ingredients and space)."""
    total = spell.total
    k_max = (MAX_SPACE - (inv[0] + inv[1] + inv[2] + inv[3])) // total if total > 0 else MAX_SPACE
    for tier, amount in spell.costs:
        k = inv[tier] // amount
        if k < k_max:
            k_max = k
    return max(k_max, 0)


def legal_actions(state: FallState, player: int) -> list[str]:
    """Every command the official referee would accept from ``player`` now: ``BREW id``,
    ``CAST id`` and ``CAST id k`` (k >= 2, repeatable spells), ``LEARN id``, ``REST`` when a spell
    is exhausted, and ``WAIT``. (Repeat counts that only pass the checks by Java int overflow are
    not listed.)"""
    p = state.players[player]
    inv = p.inventory
    a, b, c, d = inv
    exhausted = False
    if 0 <= a < 16 and 0 <= b < 16 and 0 <= c < 16 and 0 <= d < 16:
        # The usual case. The inventory packs into 20 bits with a guard bit per tier (see
        # ``state.pack``): it covers a need iff subtracting the packed need keeps the guards.
        guards = GUARDS
        have = a << 15 | b << 10 | c << 5 | d | guards
        out = []
        for o in state.deliveries:
            if (have - o.need_bits) & guards == guards:
                out.append(o.brew_command)
        # The same with the free space added (``state.cast_key``, written out): a spell can be
        # cast once iff subtracting its lane keeps the five guards.
        room = MAX_SPACE - (a + b + c + d)
        key = have << 5 | (room if room > 0 else 0) | 16
        cast_guards = CAST_GUARDS
        for s in p.spells:
            if not s._castable:
                exhausted = True
            elif (key - s.lane) & cast_guards == cast_guards:
                if not s.repeatable:
                    out.append(s.cast_command)
                    continue
                # The most repeats the free space and every consumed tier allow (at least 1).
                total = s.total
                k = room // total if total > 0 else MAX_SPACE
                for tier, amount in s.costs:
                    q = inv[tier] // amount
                    if q < k:
                        k = q
                out += s.cast_table[k]
    else:  # only after a cast that overflowed a Java int
        out = [
            o.brew_command
            for o in state.deliveries
            if a + o.delta[0] >= 0 and b + o.delta[1] >= 0 and c + o.delta[2] >= 0 and d + o.delta[3] >= 0
        ]
        for s in p.spells:
            if s._castable:
                k = _k_max(s, inv)
                if k:
                    out += s.cast_commands(k if s.repeatable else 1)
            else:
                exhausted = True
    if a >= 0:
        # Learning the spell at position i costs i tier-0 ingredients.
        for spell in state.tome[: a + 1]:
            out.append(spell.learn_command)
    if exhausted:
        out.append(REST)
    out.append(WAIT)
    return out
