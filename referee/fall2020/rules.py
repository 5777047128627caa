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
    COUNTER_SIZE,
    DELIVERY_GOAL,
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
    lines = []
    bonus = state.bonus
    bonus_value = state.bonus_value
    for index, order in enumerate(state.deliveries):
        if index < 2:
            count = bonus[index]
            value = bonus_value[index] if count > 0 else 0
            lines.append(order.line(order.price + value, value, count))
        else:
            lines.append(order.line(order.price, 0, 0))
    for index, spell in enumerate(state.tome):
        lines.append(spell.line(index))
    return lines


def input_lines(state: FallState, player: int, shared: list[str] | None = None) -> list[str]:
    """The lines the official referee sends to ``player`` at the start of a turn."""
    if shared is None:
        shared = shared_lines(state)
    me = state.players[player]
    foe = state.players[1 - player]
    mine = me.spell_lines()[0]
    theirs = foe.spell_lines()[1]
    count = len(shared) + len(mine) + len(theirs)
    return [str(count), *shared, *mine, *theirs, me.line(), foe.line()]


# -- actions -----------------------------------------------------------------------------------


def find_spell(state: FallState, spell_id: int) -> TomeSpell | Order | PlayerSpell | None:
    """The card with that id among the orders, the tome and the players' spells."""
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
    delta = order.delta
    if any(inv[i] + delta[i] < 0 for i in range(4)):
        raise RuleViolation(f"Not enough ingredients for order {order.id}")
    for i in range(4):
        inv[i] += delta[i]
    index = state.deliveries.index(order)
    earned = price_of(state, index)[0]
    log.delivered.append((order, index))
    p.deliveries += 1
    p.score = i32(p.score + earned)
    log.summary.append(f"${player} brewed potion {order.id} and earned {earned} rupees")
    log.summary.append(f"They have now brewed {p.deliveries} potions.")


def cast(state: FallState, player: int, spell: PlayerSpell, repeats: int, log: TurnLog) -> None:
    """CAST ``repeats`` times (checks in the official order, Java int arithmetic)."""
    sid = spell.id
    if repeats < 1:
        raise RuleViolation(f"Repeat can't be zero (on {sid})")
    if repeats > 1 and not spell.repeatable:
        raise RuleViolation(f"Spell {sid} is not repeatable")
    if not spell.castable:
        raise RuleViolation(f"Spell {sid} is exhausted")
    inv = state.players[player].inventory
    delta = spell.delta
    a, b, c, d = inv
    if repeats < _SMALL and a < _SMALL and b < _SMALL and c < _SMALL and d < _SMALL:
        # No Java int can overflow here.
        after = [a + delta[0] * repeats, b + delta[1] * repeats,
                 c + delta[2] * repeats, d + delta[3] * repeats]
        space = spell.total * repeats + a + b + c + d
    else:
        after = [i32(inv[i] + delta[i] * repeats) for i in range(4)]
        space = i32(spell.total * repeats + _total(inv))
    if min(after) < 0:
        raise RuleViolation(f"Not enough ingredients for spell {sid}")
    if space > MAX_SPACE:
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
    got = min(i32(MAX_SPACE - _total(inv)), spell.stock)
    inv[0] = i32(inv[0] + got)
    if spell not in log.learnt:
        log.learnt.append(spell)
    # The official summary looks at the inventory *after* the gain (so its numbers can be off).
    stock = spell.stock
    total = _total(inv)
    name = f"${player} learnt spell {spell.id}"
    if stock <= 0:
        log.summary.append(name)
    elif total >= MAX_SPACE:
        log.summary.append(
            f"{name}, the taxed ingredients were lost because their inventory is full."
        )
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
    if all(s._castable for s in spells):
        raise RuleViolation("All spells are already castable")
    for s in spells:
        s.castable = True
    log.summary.append(f"${player} rested")


_EXPECTED_COMMAND = {TomeSpell: LEARN, Order: BREW}


def _play(state: FallState, player: int, action: Action, log: TurnLog) -> None:
    kind = action.kind
    if kind == WAIT:
        log.summary.append(f"${player} bided their time")
        return
    if kind == REST:
        rest(state, player, log)
        return
    card = find_spell(state, action.spell_id)
    if card is None:
        raise RuleViolation(f"Spell with id {action.spell_id} does not exist")
    if type(card) is PlayerSpell:
        if card.owner != player:
            raise RuleViolation("Tried to cast an opponent's spell...")
        expected = CAST
    else:
        expected = _EXPECTED_COMMAND[type(card)]
    if kind != expected:
        raise RuleViolation(
            f"Command does not match action, expected '{expected}' but got '{kind}'"
        )
    # ``kind`` is the command of the card's type (checked above): dispatch on the type itself.
    if type(card) is PlayerSpell:
        cast(state, player, card, 1 if action.repeats is None else action.repeats, log)
    elif type(card) is Order:
        brew(state, player, card, log)
    elif type(card) is TomeSpell:
        learn(state, player, card, log)


def resolve_turn(state: FallState, actions: Sequence[Action | None]) -> TurnLog:
    """Apply each player's action (``None`` = no action: timed out, invalid or inactive), then
    :func:`end_turn`. A refused action costs the turn and is reported in ``errors``."""
    log = TurnLog()
    for player, action in enumerate(actions):
        if action is None:
            continue
        try:
            _play(state, player, action, log)
        except RuleViolation as exc:
            message = str(exc)
            what = "REST action" if action.kind == REST else "action"
            log.summary.append(f"${player} attempted an invalid {what}:")
            log.summary.append(message)
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
    for i, spell in enumerate(tome):
        if gain[i]:
            spell.stock += gain[i]
            gain[i] = 0


def is_game_over(state: FallState, active: Sequence[bool]) -> bool:
    """After a turn: at most one active player, or a player has brewed its sixth potion."""
    return sum(active) <= 1 or any(p.deliveries >= DELIVERY_GOAL for p in state.players)


def add_inventory_bonus(state: FallState, active: Sequence[bool]) -> None:
    """End of game: each active player scores one rupee per tier 1-3 ingredient."""
    for p, player in enumerate(state.players):
        if active[p]:
            inv = player.inventory
            player.score = i32(player.score + inv[1])
            player.score = i32(player.score + inv[2])
            player.score = i32(player.score + inv[3])


# -- legal moves ---------------------------------------------------------------------------------


_K_MAX: dict[int, int] = {}
"""Memo: ``spell.kind_key | packed inventory`` -> the largest legal repeat count (0 = none)."""


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
    out = [
        o.brew_command
        for o in state.deliveries
        if a + o.delta[0] >= 0 and b + o.delta[1] >= 0 and c + o.delta[2] >= 0 and d + o.delta[3] >= 0
    ]
    exhausted = False
    append = out.append
    if 0 <= a < 16 and 0 <= b < 16 and 0 <= c < 16 and 0 <= d < 16:
        packed = a << 12 | b << 8 | c << 4 | d
        memo_get = _K_MAX.get
        for s in p.spells:
            if s._castable:
                key = s.kind_key | packed
                k = memo_get(key)
                if k is None:
                    k = _K_MAX[key] = _k_max(s, inv)
                if k:
                    if k == 1 or not s.repeatable:
                        append(s.cast_command)
                    else:
                        out += s.cast_commands(k)
            else:
                exhausted = True
    else:  # only after a cast that overflowed a Java int: no memo
        for s in p.spells:
            if s._castable:
                k = _k_max(s, inv)
                if k:
                    out += s.cast_commands(k if s.repeatable else 1)
            else:
                exhausted = True
    for index, spell in enumerate(state.tome):
        if index > a:
            break
        out.append(spell.learn_command)
    if exhausted:
        out.append(REST)
    out.append(WAIT)
    return out
