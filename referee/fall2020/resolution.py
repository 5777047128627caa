"""How Fall Challenge 2020 applies the players' actions, as functions on a
:class:`~referee.fall2020.state.FallState`: each action (BREW, CAST, LEARN, REST), the end of a
turn, and the end of the game. The same functions serve every league level: a level without a
tome, spells or urgency bonus simply has none on the table (see :mod:`.leagues`); only the number
of potions that ends the game and the inventory bonus are the caller's to choose.

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
from .state import DELIVERY_GOAL, MAX_SPACE, FallState, Order, PlayerSpell, TomeSpell

__all__ = [
    "TurnLog",
    "i32",
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
]

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
    state.players[player].rest()
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


# -- the end of the game ------------------------------------------------------------------------


def is_game_over(state: FallState, active: Sequence[bool], goal: int = DELIVERY_GOAL) -> bool:
    """After a turn: at most one active player, or a player has brewed ``goal`` potions (six
    with the full rules)."""
    first, second = state.players
    return first.deliveries >= goal or second.deliveries >= goal or sum(active) <= 1


def add_inventory_bonus(state: FallState, active: Sequence[bool]) -> None:
    """End of game: each active player scores one rupee per tier 1-3 ingredient (not in league
    level 1)."""
    for p, player in enumerate(state.players):
        if active[p]:
            inv = player.inventory
            player.score = i32(player.score + inv[1])
            player.score = i32(player.score + inv[2])
            player.score = i32(player.score + inv[3])
