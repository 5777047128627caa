"""What Fall Challenge 2020 sends each player at the start of a turn, as the official referee
formats it: the orders (with their urgency bonus) and the tome, the same for both players
(:func:`shared_lines`), then the player's spells, the opponent's, and both inventories and scores
(:func:`input_lines`).

:class:`InputView` captures the table so that the lines can be made later, after the state has
changed: the referee formats its input only if it is read.
"""

from __future__ import annotations

from collections.abc import Sequence

from .state import FallState, Order, TomeSpell

__all__ = ["shared_lines", "input_lines", "InputView"]


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
