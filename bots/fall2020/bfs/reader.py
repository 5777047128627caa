"""One turn of Fall Challenge 2020 input, read into plain data.

Each turn the referee sends ``actionCount``, then one line per action
``id type delta0 delta1 delta2 delta3 price tomeIndex taxCount castable repeatable`` (type BREW,
CAST, OPPONENT_CAST or LEARN), then the two witches' ``inv0 inv1 inv2 inv3 score`` lines (own
first). For BREW, ``price`` includes the urgency bonus; for LEARN, ``tomeIndex`` is the tax to pay
and ``taxCount`` the tier-0 ingredients stored on the spell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Card", "Witch", "Turn", "read_turn"]

Delta = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Card:
    """An order, a spell of the tome or a witch's spell."""

    id: int
    kind: str
    delta: Delta
    price: int = 0
    tome_index: int = -1
    tax_count: int = -1
    castable: bool = False
    repeatable: bool = False


@dataclass(frozen=True, slots=True)
class Witch:
    inventory: Delta
    score: int


@dataclass(slots=True)
class Turn:
    """The table as one witch sees it."""

    orders: list[Card] = field(default_factory=list)
    """Potion orders, in display order (position 0 first)."""
    tome: list[Card] = field(default_factory=list)
    """Spells to learn, in tome order (``tome_index`` = tax)."""
    spells: list[Card] = field(default_factory=list)
    """Own spells."""
    foe_spells: list[Card] = field(default_factory=list)
    me: Witch = Witch((0, 0, 0, 0), 0)
    foe: Witch = Witch((0, 0, 0, 0), 0)


def _witch(line: str) -> Witch:
    a, b, c, d, score = (int(x) for x in line.split()[:5])
    return Witch((a, b, c, d), score)


def read_turn(lines: list[str]) -> Turn:
    """The turn described by ``lines`` (the count line, the action lines, the two witch lines)."""
    count = int(lines[0])
    turn = Turn()
    lists = {"BREW": turn.orders, "LEARN": turn.tome, "CAST": turn.spells,
             "OPPONENT_CAST": turn.foe_spells}
    for line in lines[1:1 + count]:
        f = line.split()
        card = Card(
            int(f[0]), f[1], (int(f[2]), int(f[3]), int(f[4]), int(f[5])), int(f[6]), int(f[7]),
            int(f[8]), f[9] == "1", f[10] == "1",
        )
        lists[card.kind].append(card)
    turn.tome.sort(key=lambda c: c.tome_index)
    turn.me = _witch(lines[1 + count])
    turn.foe = _witch(lines[2 + count])
    return turn
