"""Deep copies of referees and positions, made cheaply: what never changes stays shared.

``copy.deepcopy`` of a referee copies everything it reaches, including what no game ever changes:
a Spring board (its richness and geometry tables) and the Fall cards' memos of their input lines
(dicts that the referee itself already shares between every card of the same id, in every game)
and command tables. Most of a copy's time goes there. Given to ``deepcopy`` in its memo, those
objects are kept as they are; everything a game changes (trees, sun, inventories, spells, cards
on the table and in the decks, bonuses, the referee's own bookkeeping) is copied as before, so the
copy is as independent of the original as a full deep copy.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TypeVar

from referee.fall2020.state import FallState
from referee.spring2021.referee import Spring2021Referee

T = TypeVar("T")


def deepcopy_sharing(obj: T, shared: Iterable[object]) -> T:
    """``copy.deepcopy(obj)``, except that the objects of ``shared`` are kept, not copied."""
    memo: dict[int, object] = {id(o): o for o in shared}
    return copy.deepcopy(obj, memo)


def fall_unchanging(state: FallState) -> list[object]:
    """The recipe, memos and tables of every card of ``state`` (on the table, in the decks, owned):
    made once per card from its id and recipe, never changed by a game."""
    out: list[object] = []
    for card in (*state.tome, *state.tome_deck, *state.deliveries, *state.order_deck):
        out += (card._lines, card.delta)
    for player in state.players:
        for spell in player.spells:
            out += (spell.lines, spell.cast_table, spell.costs, spell.delta)
    return out


def copy_fall_state(state: FallState) -> FallState:
    """A deep copy of a Fall position that shares :func:`fall_unchanging`."""
    return deepcopy_sharing(state, fall_unchanging(state))


def copy_spring_referee(ref: Spring2021Referee) -> Spring2021Referee:
    """A deep copy of a Spring referee that shares its board (set up once, never changed)."""
    return deepcopy_sharing(ref, [ref.state.board])
