"""Reading the exact CodinGame input of Fall Challenge 2020 into the model, and answering.

Every turn the referee sends ``actionCount``, then one line per card::

    id type delta0 delta1 delta2 delta3 price tomeIndex taxCount castable repeatable

with ``type`` one of ``BREW`` (an order: the deltas are negative, ``price`` includes the urgency
bonus, ``tomeIndex`` is the bonus value and ``taxCount`` how many bonuses are left at that
position), ``LEARN`` (a tome spell: ``tomeIndex`` is its position, which is also the tax to pay,
``taxCount`` the tier-0 stock on it), ``CAST`` (one of our spells) or ``OPPONENT_CAST``; then
``inv0 inv1 inv2 inv3 score`` for us and for the opponent.

Two facts are not in the input: the turn number and the potions each witch has brewed (six end
the game). :class:`Tracker` keeps them from turn to turn: the turn is the number of inputs read,
and a witch's score only ever grows when she brews, so each rise of a score is one potion.

The id the referee gives the next learnt spell is one more than the largest id of the spells the
witches own (ids come from one counter, and owned spells are never lost).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .inventory import index_of
from .model import Order, Spell, State, Table, Witch, action_text

__all__ = ["Position", "parse_turn", "read_lines", "Tracker", "format_action"]


class Position(NamedTuple):
    """One turn's input as the model sees it."""

    table: Table
    state: State


def parse_turn(lines: Sequence[str], turn: int = 1, potions: tuple[int, int] = (0, 0)) -> Position:
    """The position described by one turn's ``lines`` (count line, card lines, two witch lines),
    for the given turn number and potions brewed so far (ours, the opponent's)."""
    count = int(lines[0])
    orders: list[Order] = []
    bonus = [0, 0, 0, 0]
    tome: list[tuple[int, Spell, int]] = []
    spells: tuple[list[Spell], list[Spell]] = ([], [])
    castable = [0, 0]
    for line in lines[1 : 1 + count]:
        f = line.split()
        cid = int(f[0])
        kind = f[1]
        delta = (int(f[2]), int(f[3]), int(f[4]), int(f[5]))
        if kind == "BREW":
            pos = len(orders)
            value, left = int(f[7]), int(f[8])
            if pos < 2 and left > 0:
                bonus[pos] = left
                bonus[2 + pos] = value
            orders.append(Order(cid, (-delta[0], -delta[1], -delta[2], -delta[3]), int(f[6]) - value))
        elif kind == "LEARN":
            tome.append((int(f[7]), Spell(cid, delta, f[10] == "1"), int(f[8])))
        else:
            w = 0 if kind == "CAST" else 1
            if f[9] == "1":
                castable[w] |= 1 << len(spells[w])
            spells[w].append(Spell(cid, delta, f[10] == "1"))
    tome.sort(key=lambda t: t[0])
    witches = []
    for w in (0, 1):
        f = lines[1 + count + w].split()
        inv = index_of((int(f[0]), int(f[1]), int(f[2]), int(f[3])))
        witches.append(Witch(inv, castable[w], 0, int(f[4]), potions[w]))
    ids = [s.id for w in (0, 1) for s in spells[w]]
    table = Table(orders, [t[1] for t in tome], spells, max(ids, default=-1) + 1)
    if bonus[0] <= 0:
        # As the referee keeps it: once the +3 is used up, the +1 has slid to position 0.
        bonus = [bonus[1], 0, bonus[3] if bonus[1] else 1, 0]
    state = State(
        turn,
        (witches[0], witches[1]),
        (1 << len(orders)) - 1,
        (bonus[0], bonus[1], bonus[2], bonus[3]),
        (1 << len(tome)) - 1,
        tuple(t[2] for t in tome),
    )
    return Position(table, state)


def read_lines(readline: Callable[[], str]) -> list[str]:
    """One turn's input lines (``readline`` returns a line; ``EOFError`` ends the game)."""
    first = readline()
    lines = [first]
    for _ in range(int(first) + 2):
        lines.append(readline())
    return lines


class Tracker:
    """The turn number and the potions brewed, kept across the turns of one game."""

    __slots__ = ("turn", "potions", "_scores")

    def __init__(self) -> None:
        self.turn = 0
        """Turns read so far (the current turn once :meth:`position` is called)."""
        self.potions = [0, 0]
        self._scores = [0, 0]

    def position(self, lines: Sequence[str]) -> Position:
        """The position of this turn's ``lines`` (call once per turn, in order)."""
        self.turn += 1
        count = int(lines[0])
        for w in (0, 1):
            score = int(lines[1 + count + w].split()[4])
            if score > self._scores[w]:
                self.potions[w] += 1
            self._scores[w] = score
        return parse_turn(lines, self.turn, (self.potions[0], self.potions[1]))


def format_action(position: Position, action: int, message: str = "") -> str:
    """Our command for ``action`` (with an optional message shown in the viewer)."""
    text = action_text(position.table, 0, action)
    return f"{text} {message}" if message else text
