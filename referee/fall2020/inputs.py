"""What Fall Challenge 2020 sends each player at the start of a turn, as the official referee
formats it: the orders (with their urgency bonus) and the tome, the same for both players
(:func:`shared_lines`), then the player's spells, the opponent's, and both inventories and scores
(:func:`input_lines`).

:class:`InputView` captures the table so that the lines can be made later, after the state has
changed: the referee formats its input only if it is read.
"""

from __future__ import annotations

from .state import FallState, Order, TomeSpell

__all__ = ["shared_lines", "input_lines", "InputView"]


def shared_lines(state: FallState) -> list[str]:
    """The order and tome lines (the same for both players)."""
    stocks = [spell.stock for spell in state.tome]
    orders = _order_lines((tuple(state.deliveries), tuple(state.bonus), tuple(state.bonus_value)))
    return [*orders, *_tome_lines((tuple(state.tome), stocks))]


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
    stocks, each witch's spell lines, inventory and score); the first :meth:`lines` makes both
    players' lines at once, as tuples (the shared order and tome lines are those of the last
    view when the table did not change). (A card's id, recipe and price never change, so the
    cards themselves are kept.)"""

    __slots__ = ("_orders", "_tome", "_first", "_second", "_made")

    def __init__(self, state: FallState) -> None:
        tome = state.tome
        stocks = []
        for spell in tome:
            stocks.append(spell.stock)
        self._orders = (tuple(state.deliveries), tuple(state.bonus), tuple(state.bonus_value))
        self._tome = (tuple(tome), stocks)
        first, second = state.players
        if len(first.own_lines) != len(first.spells):
            first.refresh_lines()
        if len(second.own_lines) != len(second.spells):
            second.refresh_lines()
        self._first = (tuple(first.own_lines), tuple(first.foe_lines), tuple(first.inventory), first.score)
        self._second = (tuple(second.own_lines), tuple(second.foe_lines), tuple(second.inventory), second.score)
        self._made: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def lines(self, player: int) -> tuple[str, ...]:
        """What :func:`input_lines` gave for ``player`` when the view was captured (a tuple)."""
        made = self._made
        if made is None:
            made = self._made = self._make()
        return made[player]

    def first(self) -> tuple[str, ...]:
        """``lines(0)`` (a bound method is a cheaper deferred part than a partial)."""
        made = self._made
        if made is None:
            made = self._made = self._make()
        return made[0]

    def second(self) -> tuple[str, ...]:
        """``lines(1)``."""
        made = self._made
        if made is None:
            made = self._made = self._make()
        return made[1]

    def _make(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Both players' lines: the count, the shared lines, own spells, the opponent's spells,
        own then the opponent's inventory and score."""
        orders = self._orders
        last = _last_orders
        if orders == last[0]:
            order_lines = last[1]
        else:
            order_lines = _order_lines(orders)
        tome = self._tome
        last_tome = _last_tome
        if tome == last_tome[0]:
            tome_lines = last_tome[1]
        else:
            tome_lines = _tome_lines(tome)
        own0, foe0, inv0, score0 = self._first
        own1, foe1, inv1, score1 = self._second
        numbers = _NUMBERS
        line0 = f"{_INVENTORIES.get(inv0) or _inventory(inv0)} {numbers[score0] if 0 <= score0 < 256 else score0}"
        line1 = f"{_INVENTORIES.get(inv1) or _inventory(inv1)} {numbers[score1] if 0 <= score1 < 256 else score1}"
        n = len(order_lines) + len(tome_lines)
        count0 = n + len(own0) + len(foe1)
        count1 = n + len(own1) + len(foe0)
        return (
            (numbers[count0] if count0 < 256 else str(count0), *order_lines, *tome_lines, *own0, *foe1, line0, line1),
            (numbers[count1] if count1 < 256 else str(count1), *order_lines, *tome_lines, *own1, *foe0, line1, line0),
        )


_NUMBERS = tuple(str(n) for n in range(256))
"""Small numbers as text: line counts (a game shows at most 11 cards and 2 x 46 spells) and
scores."""

_INVENTORIES: dict[tuple[int, ...], str] = {}
"""``inv0 inv1 inv2 inv3`` by inventory (at most 1001 in a game; bounded)."""


def _inventory(inv: tuple[int, ...]) -> str:
    if len(_INVENTORIES) >= 10_000:
        _INVENTORIES.clear()
    text = _INVENTORIES[inv] = f"{inv[0]} {inv[1]} {inv[2]} {inv[3]}"
    return text


_Orders = tuple[tuple[Order, ...], tuple[int, ...], tuple[int, ...]]
_Tome = tuple[tuple[TomeSpell, ...], list[int]]
_last_orders: tuple[_Orders | None, tuple[str, ...]] = (None, ())
_last_tome: tuple[_Tome | None, tuple[str, ...]] = (None, ())
"""The orders (with the bonuses) and the tome (with its stocks) last formatted by an
:class:`InputView`, and their lines: most turns show the same orders, and often the same tome,
as the turn before."""


def _order_lines(orders: _Orders) -> tuple[str, ...]:
    """The order lines of a captured ``(orders, bonus, bonus values)``, remembered as the last."""
    global _last_orders
    cards, bonus, bonus_value = orders
    lines = []
    for index, order in enumerate(cards):
        if index < 2:
            count = bonus[index]
            value = bonus_value[index] if count > 0 else 0
            lines.append(order._lines[order.price + value, value, count])
        else:
            lines.append(order._lines[order.price, 0, 0])
    made = tuple(lines)
    _last_orders = (orders, made)
    return made


def _tome_lines(tome: _Tome) -> tuple[str, ...]:
    """The tome lines of a captured ``(tome, stocks)``, remembered as the last."""
    global _last_tome
    cards, stocks = tome
    lines = []
    for index, spell in enumerate(cards):
        lines.append(spell._lines[index, stocks[index]])
    made = tuple(lines)
    _last_tome = (tome, made)
    return made
