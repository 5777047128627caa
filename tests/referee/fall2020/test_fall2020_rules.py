"""Table-driven rule tests for the Fall Challenge 2020 referee.

Positions are built by hand with :meth:`FallState.build`; expected values are worked out from the
official rules (README section F / Game.java), not taken from the referee's own output.
"""

from __future__ import annotations

from typing import Any

import pytest

import referee
from referee.base import DeactivationCause, EndReason, ParameterError
from referee.fall2020 import inputs, resolution
from referee.fall2020.actions import parse
from referee.fall2020.referee import Fall2020Referee
from referee.fall2020.state import FallState

# Ids as the official referee numbers them: starting spells 78-81 (p0) and 82-85 (p1).
P0_BLUE, P0_B2G, P0_G2O, P0_O2Y = 78, 79, 80, 81  # +2 0 0 0 / -1 +1 0 0 / 0 -1 +1 0 / 0 0 -1 +1
P1_BLUE = 82

TOME = [
    (0, (-3, 0, 0, 1)),
    (1, (3, -1, 0, 0)),
    (2, (1, 1, 0, 0)),
    (3, (0, 0, 1, 0)),
    (4, (3, 0, 0, 0)),
    (5, (2, 3, -2, 0)),
]
TOME_DECK = [(6, (2, 1, -2, 1)), (7, (3, 0, 1, -1)), (8, (3, -2, 1, 0))]
ORDERS = [
    (42, (2, 2, 0, 0), 6),
    (43, (3, 2, 0, 0), 7),
    (44, (0, 4, 0, 0), 8),
    (45, (2, 0, 2, 0), 8),
    (46, (2, 3, 0, 0), 8),
]
ORDER_DECK = [(47, (3, 0, 2, 0), 9), (48, (0, 2, 2, 0), 10), (49, (0, 5, 0, 0), 10)]


def make_state(**overrides: Any) -> FallState:
    spec: dict[str, Any] = {
        "tome": TOME,
        "tome_deck": TOME_DECK,
        "deliveries": ORDERS,
        "order_deck": ORDER_DECK,
        "next_id": 86,
    }
    spec.update(overrides)
    return FallState.build(**spec)


def play(state: FallState, a0: str | None = "WAIT", a1: str | None = "WAIT"):
    """One engine turn from ``state`` with the two output lines; returns (referee, report)."""
    ref = Fall2020Referee.from_state(state)
    ref.requests()
    report = ref.apply({0: a0, 1: a1})
    return ref, report


def inv(state: FallState, player: int) -> list[int]:
    return list(state.players[player].inventory)


# -- illegal but well-formed actions --------------------------------------------------------------

ILLEGAL = [
    # (id, state overrides, p0 command, official message)
    ("unknown id", {}, "CAST 999", "Spell with id 999 does not exist"),
    ("unknown id brew", {}, "BREW 77", "Spell with id 77 does not exist"),
    ("opponent spell", {}, f"CAST {P1_BLUE}", "Tried to cast an opponent's spell..."),
    ("opponent spell any verb", {}, f"LEARN {P1_BLUE}", "Tried to cast an opponent's spell..."),
    ("cast a tome spell", {}, "CAST 3", "Command does not match action, expected 'LEARN' but got 'CAST'"),
    ("learn an order", {}, "LEARN 42", "Command does not match action, expected 'BREW' but got 'LEARN'"),
    ("brew a spell", {}, f"BREW {P0_BLUE}", "Command does not match action, expected 'CAST' but got 'BREW'"),
    ("cast an order", {}, "cast 42", "Command does not match action, expected 'BREW' but got 'CAST'"),
    ("brew without ingredients", {}, "BREW 42", "Not enough ingredients for order 42"),
    ("repeat zero", {}, f"CAST {P0_BLUE} 0", f"Repeat can't be zero (on {P0_BLUE})"),
    ("repeat non-repeatable", {}, f"CAST {P0_BLUE} 2", f"Spell {P0_BLUE} is not repeatable"),
    (
        "exhausted",
        {"spells": [[(P0_BLUE, (2, 0, 0, 0), False, False)], []]},
        f"CAST {P0_BLUE}",
        f"Spell {P0_BLUE} is exhausted",
    ),
    (
        "not enough for spell",
        {"inventories": [(0, 0, 0, 0), (3, 0, 0, 0)]},
        f"CAST {P0_B2G}",
        f"Not enough ingredients for spell {P0_B2G}",
    ),
    (
        "no space",
        {"inventories": [(9, 0, 0, 0), (3, 0, 0, 0)]},
        f"CAST {P0_BLUE}",
        f"Not enough space in inventory for spell {P0_BLUE}",
    ),
    ("learn too far", {"inventories": [(2, 0, 0, 0), (3, 0, 0, 0)]}, "LEARN 3", "Not enough ingredients to learn 3"),
    ("rest needlessly", {}, "REST", "All spells are already castable"),
    # Check order: repeat count before repeatable before exhaustion before ingredients/space.
    (
        "zero before exhausted",
        {"spells": [[(P0_BLUE, (2, 0, 0, 0), False, False)], []]},
        f"CAST {P0_BLUE} 0",
        f"Repeat can't be zero (on {P0_BLUE})",
    ),
    (
        "repeatable before exhausted",
        {"spells": [[(P0_BLUE, (2, 0, 0, 0), False, False)], []]},
        f"CAST {P0_BLUE} 2",
        f"Spell {P0_BLUE} is not repeatable",
    ),
    (
        "exhausted before ingredients",
        {"spells": [[(P0_B2G, (-1, 1, 0, 0), False, False)], []], "inventories": [(0, 0, 0, 0), (3, 0, 0, 0)]},
        f"CAST {P0_B2G}",
        f"Spell {P0_B2G} is exhausted",
    ),
    (
        "ingredients before space",
        {"spells": [[(90, (-1, 3, 0, 0), True, True)], []], "inventories": [(1, 0, 0, 9), (3, 0, 0, 0)]},
        "CAST 90 2",
        "Not enough ingredients for spell 90",
    ),
]


@pytest.mark.parametrize("overrides,command,message", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_action_loses_the_turn_with_the_official_message(overrides: dict, command: str, message: str) -> None:
    state = make_state(**overrides)
    before_inv = inv(state, 0)
    before_castable = [s.castable for s in state.players[0].spells]
    ref, report = play(state, command, "WAIT")
    assert report.errors == ((0, message),)
    assert not report.deactivations
    verb = "REST action" if command == "REST" else "action"
    assert report.summary[:2] == (f"$0 attempted an invalid {verb}:", message)
    assert inv(ref.state, 0) == before_inv
    assert [s.castable for s in ref.state.players[0].spells] == before_castable
    assert ref.state.players[0].score == 0
    assert not ref.is_over


# -- CAST ----------------------------------------------------------------------------------------

CASTS = [
    # (id, spells of p0, inventory, command, inventory after or None when refused, message)
    ("single", None, (3, 0, 0, 0), f"CAST {P0_B2G}", (2, 1, 0, 0), None),
    ("explicit 1", None, (3, 0, 0, 0), f"CAST {P0_B2G} 1", (2, 1, 0, 0), None),
    ("message not a count", None, (3, 0, 0, 0), f"CAST {P0_B2G} hello", (2, 1, 0, 0), None),
    ("repeat 3", [(90, (-2, 2, 0, 0))], (6, 0, 0, 0), "CAST 90 3", (0, 6, 0, 0), None),
    ("repeat too many", [(90, (-2, 2, 0, 0))], (6, 0, 0, 0), "CAST 90 4", None, "Not enough ingredients for spell 90"),
    ("repeat fills exactly", [(91, (1, 1, -1, 0))], (0, 0, 4, 4), "CAST 91 2", (2, 2, 2, 4), None),
    (
        "repeat overflows space",
        [(91, (1, 1, -1, 0))],
        (0, 0, 4, 4),
        "CAST 91 3",
        None,
        "Not enough space in inventory for spell 91",
    ),
    (
        "non-repeatable twice",
        [(92, (0, 0, 0, 1), True, False)],
        (0, 0, 0, 0),
        "CAST 92 2",
        None,
        "Spell 92 is not repeatable",
    ),
    ("zero", [(90, (-2, 2, 0, 0))], (6, 0, 0, 0), "CAST 90 0", None, "Repeat can't be zero (on 90)"),
    # Java int arithmetic: -2 * 2147483647 wraps to 2 and 2 * 2147483647 to -2, so this
    # "passes" the checks and the official loop ends with the spell cast backwards.
    ("int overflow", [(90, (-2, 2, 0, 0))], (0, 2, 0, 0), "CAST 90 2147483647", (2, 0, 0, 0), None),
]


@pytest.mark.parametrize("spells,start,command,after,message", [c[1:] for c in CASTS], ids=[c[0] for c in CASTS])
def test_cast(spells, start, command, after, message) -> None:
    overrides: dict[str, Any] = {"inventories": [start, (3, 0, 0, 0)]}
    if spells is not None:
        overrides["spells"] = [spells, []]
    ref, report = play(make_state(**overrides), command)
    spell_id = int(command.split()[1])
    spell = ref.state.player_spells[spell_id]
    if after is None:
        assert report.errors == ((0, message),)
        assert inv(ref.state, 0) == list(start)
        assert spell.castable
    else:
        assert report.errors == ()
        assert inv(ref.state, 0) == list(after)
        assert not spell.castable
        assert report.summary[0] == f"$0 cast spell {spell_id}"
        # The exhausted spell is shown with castable 0 to its owner and to the opponent.
        d = spell.delta
        rep = 1 if spell.repeatable else 0
        assert f"{spell_id} CAST {d[0]} {d[1]} {d[2]} {d[3]} 0 -1 -1 0 {rep}" in (inputs.input_lines(ref.state, 0))


def test_rest_refreshes_every_spell() -> None:
    spells = [
        (P0_BLUE, (2, 0, 0, 0), False, False),
        (P0_B2G, (-1, 1, 0, 0), True, False),
        (90, (-2, 2, 0, 0), False, True),
    ]
    ref, report = play(make_state(spells=[spells, []]), "REST")
    assert report.errors == ()
    assert report.summary[0] == "$0 rested"
    assert all(s.castable for s in ref.state.players[0].spells)


def test_exhausted_spell_lines_and_rest_in_input() -> None:
    state = make_state()
    ref, _ = play(state, f"CAST {P0_BLUE}", f"CAST {P1_BLUE}")
    lines0 = inputs.input_lines(ref.state, 0)
    lines1 = inputs.input_lines(ref.state, 1)
    assert "78 CAST 2 0 0 0 0 -1 -1 0 0" in lines0
    assert "82 OPPONENT_CAST 2 0 0 0 0 -1 -1 0 0" in lines0
    assert "78 OPPONENT_CAST 2 0 0 0 0 -1 -1 0 0" in lines1
    assert lines0[-2:] == ["5 0 0 0 0", "5 0 0 0 0"]
    assert "REST" in ref.legal_actions(0)


# -- LEARN ---------------------------------------------------------------------------------------


def test_learn_pays_tax_by_position_and_gets_stock() -> None:
    tome = [(i, d, 1 if i == 3 else 0) for i, d in TOME]  # spell 3 carries 1 ingredient
    state = make_state(tome=tome, inventories=[(5, 0, 0, 0), (3, 0, 0, 0)])
    ref, report = play(state, "LEARN 3")
    s = ref.state
    # Paid 3 (index 3), got the stock of 1: 5 - 3 + 1.
    assert inv(s, 0) == [3, 0, 0, 0]
    learnt = s.players[0].spells[-1]
    assert (learnt.id, learnt.delta, learnt.castable, learnt.repeatable) == (86, (0, 0, 1, 0), True, False)
    assert s.next_id == 87
    # Spell 3 leaves, the first spell of the deck is appended, positions 0-2 got +1 each.
    assert [t.id for t in s.tome] == [0, 1, 2, 4, 5, 6]
    assert [t.stock for t in s.tome] == [1, 1, 1, 0, 0, 0]
    assert [t.id for t in s.tome_deck] == [7, 8]
    assert report.summary[0] == "$0 learnt spell 3 and gained 1 taxed ingredients."


def test_learnt_spell_repeatable_iff_it_consumes() -> None:
    ref, _ = play(make_state(), "LEARN 0")
    learnt = ref.state.players[0].spells[-1]
    assert learnt.repeatable and learnt.delta == (-3, 0, 0, 1)
    assert "86 CAST -3 0 0 1 0 -1 -1 1 1" in inputs.input_lines(ref.state, 0)


LEARN_OVERFLOW = [
    # (inventory, stock of spell 0, inventory after learning it)
    ((3, 3, 3, 1), 4, (3, 3, 3, 1)),  # full: everything lost
    ((0, 3, 3, 2), 5, (2, 3, 3, 2)),  # 2 of 5 fit
    ((0, 0, 0, 0), 7, (7, 0, 0, 0)),  # all fits
]


@pytest.mark.parametrize("start,stock,after", LEARN_OVERFLOW)
def test_learn_stock_is_capped_by_free_space(start, stock, after) -> None:
    tome = [(0, TOME[0][1], stock), *TOME[1:]]
    ref, _ = play(make_state(tome=tome, inventories=[start, (3, 0, 0, 0)]), "LEARN 0")
    assert inv(ref.state, 0) == list(after)


def test_same_spell_learnt_by_both_players() -> None:
    tome = [(i, d, 3 if i == 2 else 0) for i, d in TOME]
    state = make_state(tome=tome, inventories=[(2, 0, 0, 0), (4, 0, 0, 0)])
    ref, report = play(state, "LEARN 2", "LEARN 2")
    s = ref.state
    assert report.errors == ()
    # Both pay 2 and both get the full stock of 3.
    assert inv(s, 0) == [3, 0, 0, 0]
    assert inv(s, 1) == [5, 0, 0, 0]
    # Each gets its own copy: p0 first.
    assert (s.players[0].spells[-1].id, s.players[1].spells[-1].id) == (86, 87)
    # Removed once, one replacement; the tax (2 per position 0 and 1) stays on those positions.
    assert [t.id for t in s.tome] == [0, 1, 3, 4, 5, 6]
    assert [t.stock for t in s.tome] == [2, 2, 0, 0, 0, 0]


def test_two_learns_tax_is_credited_by_position_after_removal() -> None:
    state = make_state(inventories=[(3, 0, 0, 0), (1, 0, 0, 0)])
    ref, _ = play(state, "LEARN 3", "LEARN 1")
    s = ref.state
    # Gains per position: p0 paid positions 0,1,2, p1 position 0 -> [2, 1, 1]; after removing
    # spells 3 and 1 the spells at positions 0, 1, 2 are 0, 2, 4.
    assert [t.id for t in s.tome] == [0, 2, 4, 5, 6, 7]
    assert [t.stock for t in s.tome] == [2, 1, 1, 0, 0, 0]
    assert (s.players[0].spells[-1].id, s.players[1].spells[-1].id) == (86, 87)
    assert inv(s, 0) == [0, 0, 0, 0] and inv(s, 1) == [0, 0, 0, 0]


def test_exhausted_tome_deck_shrinks_the_tome() -> None:
    tome = [(0, (1, 1, 0, 0)), (1, (0, 0, 1, 0)), (2, (3, 0, 0, 0))]
    state = make_state(tome=tome, tome_deck=[], inventories=[(3, 0, 0, 0), (3, 0, 0, 0)])
    ref, _ = play(state, "LEARN 2", "LEARN 1")
    s = ref.state
    # Gains [2, 1]; only position 0 still exists: spell 0 gets 2, the other ingredient is lost.
    assert [t.id for t in s.tome] == [0]
    assert [t.stock for t in s.tome] == [2]
    lines = inputs.input_lines(s, 0)
    assert lines[0] == str(5 + 1 + 5 + 5)  # orders, tome, own spells, opponent's spells
    assert "0 LEARN 1 1 0 0 0 0 2 0 0" in lines
    assert [a for a in ref.legal_actions(0) if a.startswith("LEARN")] == ["LEARN 0"]
    # Learning the last spell empties the tome.
    ref2, _ = play(s, "LEARN 0")
    assert ref2.state.tome == []
    assert inv(ref2.state, 0) == [3, 0, 0, 0]


# -- BREW and the urgency bonus ------------------------------------------------------------------


def test_brew_pays_price_plus_bonus_and_replaces_the_order() -> None:
    state = make_state(inventories=[(2, 2, 0, 0), (3, 0, 0, 0)])
    ref, report = play(state, "BREW 42")
    s = ref.state
    assert inv(s, 0) == [0, 0, 0, 0]
    assert s.players[0].score == 6 + 3
    assert s.players[0].deliveries == 1
    assert [o.id for o in s.deliveries] == [43, 44, 45, 46, 47]
    assert report.summary[:2] == ("$0 brewed potion 42 and earned 9 rupees", "They have now brewed 1 potions.")
    # The +3 bonus stays on position 0 (now order 43) with one use less.
    lines = inputs.input_lines(s, 0)
    assert lines[1] == "43 BREW -3 -2 0 0 10 3 3 0 0"
    assert lines[2] == "44 BREW 0 -4 0 0 9 1 4 0 0"
    assert lines[3] == "45 BREW -2 0 -2 0 8 0 0 0 0"
    assert lines[-2] == "0 0 0 0 9"


def _cheap_orders(first_id: int, n: int) -> list[tuple[int, tuple[int, int, int, int], int]]:
    return [(first_id + i, (1, 0, 0, 0), 10) for i in range(n)]


def test_bonus_slides_across_all_eight_bonuses() -> None:
    state = make_state(
        deliveries=_cheap_orders(100, 5), order_deck=_cheap_orders(105, 20), inventories=[(10, 0, 0, 0), (10, 0, 0, 0)]
    )
    earned = []
    shown = []
    for turn in range(10):
        order = state.deliveries[0]
        shown.append(inputs.input_lines(state, 0)[1:3])
        p = turn % 2  # alternate players so nobody reaches six potions
        score = state.players[p].score
        state.players[p].inventory[0] = 10
        actions = [parse(f"BREW {order.id}") if q == p else None for q in (0, 1)]
        log = resolution.resolve_turn(state, actions)
        assert log.errors == []
        earned.append(state.players[p].score - score)
    assert earned == [13, 13, 13, 13, 11, 11, 11, 11, 10, 10]
    # Position 0 shows the +3 with 4..1 left, then the +1 (count 4..1), then nothing;
    # position 1 shows the +1 with its 4 until it slides, then nothing.
    assert [s[0].split()[-5:-2] for s in shown] == [
        ["13", "3", "4"],
        ["13", "3", "3"],
        ["13", "3", "2"],
        ["13", "3", "1"],
        ["11", "1", "4"],
        ["11", "1", "3"],
        ["11", "1", "2"],
        ["11", "1", "1"],
        ["10", "0", "0"],
        ["10", "0", "0"],
    ]
    assert [s[1].split()[-5:-2] for s in shown] == [["11", "1", "4"]] * 4 + [["10", "0", "0"]] * 6
    assert state.bonus == [0, 0]


def test_bonus_of_position_one_used_up_first_is_gone_after_the_slide() -> None:
    state = make_state(
        deliveries=_cheap_orders(100, 5),
        order_deck=_cheap_orders(105, 20),
        inventories=[(10, 0, 0, 0), (10, 0, 0, 0)],
        bonus=(1, 1),
    )
    log = resolution.resolve_turn(state, [parse("BREW 101"), None])  # position 1: +1, last one
    assert state.players[0].score == 11 and log.errors == []
    assert state.bonus == [1, 0]
    resolution.resolve_turn(state, [parse("BREW 100"), None])  # position 0: +3, last one
    assert state.players[0].score == 11 + 13
    # The slide moves position 1's count (0) to position 0: no bonus left.
    assert state.bonus == [0, 0] and state.bonus_value == [1, 0]
    assert resolution.price_of(state, 0) == (10, 0, 0)


def test_same_potion_brewed_by_both_players_pays_both_bonuses() -> None:
    state = make_state(inventories=[(2, 2, 0, 0), (3, 2, 0, 0)], bonus=(1, 4))
    ref, report = play(state, "BREW 42", "BREW 42")
    s = ref.state
    assert report.errors == ()
    # Both earn 6 + 3 although a single +3 was left.
    assert (s.players[0].score, s.players[1].score) == (9, 9)
    assert inv(s, 1) == [1, 0, 0, 0]
    # The order is removed once, one replacement is dealt.
    assert [o.id for o in s.deliveries] == [43, 44, 45, 46, 47]
    # The count went 1 -> 0 and slid: the +1 with its 4 uses is now on position 0.
    assert s.bonus == [4, 0] and s.bonus_value == [1, 0]
    assert inputs.input_lines(s, 0)[1] == "43 BREW -3 -2 0 0 8 1 4 0 0"


def test_two_different_potions_in_one_turn() -> None:
    state = make_state(inventories=[(2, 2, 0, 0), (2, 3, 0, 0)])
    ref, _ = play(state, "BREW 42", "BREW 46")
    s = ref.state
    assert (s.players[0].score, s.players[1].score) == (9, 8)
    assert [o.id for o in s.deliveries] == [43, 44, 45, 47, 48]
    assert s.bonus == [3, 4]


# -- parsing and disqualification ----------------------------------------------------------------

EXPECTED = "BREW <id> | CAST <id> [<repeat>] | LEARN <id> | REST | WAIT"

VALID = [
    ("WAIT", "WAIT", None),
    ("wait", "WAIT", None),
    ("Rest", "REST", None),
    ("REST   take a nap", "REST", "take a nap"),
    ("cast 78", "CAST 78", None),
    ("Cast   78   2", "CAST 78 2", None),
    ("CAST\t78\t1", "CAST 78 1", None),
    ("CAST 78 hi", "CAST 78", "hi"),
    ("CAST 78 2 hi there", "CAST 78 2", "hi there"),
    ("CAST 0078", "CAST 78", None),
    ("learn 3", "LEARN 3", None),
    ("BREW 42 hi", "BREW 42", "hi"),
    ("BREW 42 ", "BREW 42", ""),
    ("WAIT " + "x" * 60, "WAIT", "x" * 46 + "..."),
    ("WAIT " + "y" * 48, "WAIT", "y" * 48),
    # Java counts UTF-16 units: 30 emoji are 60 units, cut to 46 units = 23 emoji.
    ("WAIT " + "\U0001f600" * 30, "WAIT", "\U0001f600" * 23 + "..."),
    ("WAIT " + "\U0001f600" * 24, "WAIT", "\U0001f600" * 24),
]


@pytest.mark.parametrize("line,canonical,message", VALID)
def test_valid_lines(line: str, canonical: str, message: str | None) -> None:
    action = parse(line)
    assert str(action) == canonical
    assert action.message == message


@pytest.mark.parametrize(
    "line,got",
    [
        ("", ""),
        ("FLY 3", "FLY 3"),
        ("CAST", "CAST"),
        ("LEARN abc", "LEARN abc"),
        ("RESTING", "RESTING"),
        ("CAST -78", "CAST -78"),
        ("WAIT!", "WAIT!"),
        (" WAIT", " WAIT"),
        ("BREW42", "BREW42"),
        ("WAIT \u0085x", "WAIT \u0085x"),  # Java's '.' does not match U+0085
        ("ca\u017ft 78", "ca\u017ft 78"),  # Java CASE_INSENSITIVE is ASCII only
        ("FLY &lt;3&gt;", "FLY <3>"),  # the official tooltip un-escapes &lt; and &gt;
        ("BREW 99999999999", 'java.lang.NumberFormatException: For input string: "99999999999"'),
        ("CAST 78 2147483648", 'java.lang.NumberFormatException: For input string: "2147483648"'),
    ],
)
def test_invalid_line_disqualifies(line: str, got: str) -> None:
    state = make_state(inventories=[(3, 0, 0, 0), (2, 2, 0, 0)])
    ref, report = play(state, line, "BREW 42")
    reason = f"Invalid Input: Expected {EXPECTED} but got '{got}'"
    assert [(d.player, d.cause, d.reason) for d in report.deactivations] == [
        (0, DeactivationCause.INVALID_INPUT, reason)
    ]
    assert "$0 was disqualified." in report.summary
    outcome = ref.outcome()
    assert outcome is not None
    assert outcome.end_reason is EndReason.PLAYER_DEACTIVATED
    # The other player's action of that turn still counts (6 + 3 rupees, no ingredients left).
    assert outcome.scores == (-1, 9)
    assert outcome.winner == 1 and outcome.turns == 1


def test_largest_java_int_is_accepted() -> None:
    assert parse("CAST 78 2147483647").repeats == 2147483647
    assert parse("BREW 2147483647").spell_id == 2147483647


def test_timeout_disqualifies_and_the_survivor_gets_its_inventory_bonus() -> None:
    state = make_state(inventories=[(3, 0, 0, 0), (0, 1, 2, 3)], scores=(5, 7))
    ref, report = play(state, None, "WAIT")
    assert [(d.player, d.cause, d.reason) for d in report.deactivations] == [(0, DeactivationCause.TIMEOUT, "Timeout!")]
    outcome = ref.outcome()
    assert outcome.scores == (-1, 7 + 1 + 2 + 3)
    assert outcome.end_reason is EndReason.PLAYER_DEACTIVATED


def test_both_disqualified() -> None:
    ref, _ = play(make_state(), "FLY 3", None)
    outcome = ref.outcome()
    assert outcome.scores == (-1, -1)
    assert outcome.is_draw
    assert [d.cause for d in outcome.deactivations] == [DeactivationCause.INVALID_INPUT, DeactivationCause.TIMEOUT]


# -- end of the game and scoring ------------------------------------------------------------------


def test_sixth_potion_ends_the_game_after_the_turn() -> None:
    state = make_state(inventories=[(2, 2, 1, 0), (0, 3, 0, 2)], deliveries_count=(5, 2), scores=(40, 30))
    ref, _ = play(state, "BREW 42", f"CAST {P1_BLUE}")
    outcome = ref.outcome()
    assert outcome is not None and outcome.end_reason is EndReason.DELIVERY_GOAL
    # p0: 40 + 6 + 3, then one point for the tier-2 ingredient; p1 cast its spell this turn
    # (2 + 0 tier-0 do not count), 3 + 2 tier 1-3 ingredients count.
    assert outcome.scores == (40 + 9 + 1, 30 + 3 + 2)
    assert outcome.winner == 0
    assert ref.requests() == ()


def test_both_reach_six_in_the_same_turn() -> None:
    for scores, final in [((10, 12), (19, 20)), ((11, 12), (20, 20))]:
        state = make_state(inventories=[(2, 2, 0, 0), (3, 2, 0, 0)], deliveries_count=(5, 5), scores=scores)
        ref, _ = play(state, "BREW 42", "BREW 43")
        outcome = ref.outcome()
        # p0 brews position 0: 6 + 3; p1 position 1: 7 + 1; nothing left in the inventories.
        assert outcome.end_reason is EndReason.DELIVERY_GOAL
        assert outcome.scores == final
        assert outcome.winner == (1 if final[1] > final[0] else None)


def test_draw_on_equal_scores() -> None:
    state = make_state(inventories=[(2, 2, 0, 0), (2, 2, 0, 0)], deliveries_count=(5, 0), scores=(0, 9))
    ref, _ = play(state, "BREW 42", "WAIT")
    outcome = ref.outcome()
    # p0: 6 + 3 = 9, no leftovers; p1: 9 + 2 tier-1 ingredients = 11.
    assert outcome.scores == (9, 11)
    state = make_state(inventories=[(2, 2, 0, 0), (5, 0, 0, 0)], deliveries_count=(5, 0), scores=(0, 9))
    ref, _ = play(state, "BREW 42", "WAIT")
    outcome = ref.outcome()
    assert outcome.scores == (9, 9)
    assert outcome.is_draw and outcome.winner is None and outcome.ranks == (0, 0)


def test_game_stops_after_100_turns() -> None:
    ref = referee.create("fall2020", 7)
    for turn in range(1, 101):
        assert not ref.is_over
        requests = ref.requests()
        assert [r.time_limit_ms for r in requests] == ([1000, 1000] if turn == 1 else [50, 50])
        ref.apply({0: "WAIT", 1: "WAIT"})
    outcome = ref.outcome()
    assert outcome is not None
    assert outcome.end_reason is EndReason.MAX_TURNS and outcome.turns == 100
    assert outcome.scores == (0, 0)  # only tier-0 ingredients: they do not count


# -- input format, setup, parameters ----------------------------------------------------------------


def test_input_lines_format() -> None:
    state = make_state(
        tome=[(5, (2, 3, -2, 0), 2), (3, (0, 0, 1, 0))],
        deliveries=ORDERS[:3],
        spells=[
            [(78, (2, 0, 0, 0), True, False), (90, (-2, 2, 0, 0), False, True)],
            [(82, (2, 0, 0, 0), False, False)],
        ],
        inventories=[(1, 2, 3, 4), (0, 0, 0, 5)],
        scores=(12, 34),
    )
    assert inputs.input_lines(state, 0) == [
        "8",
        "42 BREW -2 -2 0 0 9 3 4 0 0",
        "43 BREW -3 -2 0 0 8 1 4 0 0",
        "44 BREW 0 -4 0 0 8 0 0 0 0",
        "5 LEARN 2 3 -2 0 0 0 2 0 1",
        "3 LEARN 0 0 1 0 0 1 0 0 0",
        "78 CAST 2 0 0 0 0 -1 -1 1 0",
        "90 CAST -2 2 0 0 0 -1 -1 0 1",
        "82 OPPONENT_CAST 2 0 0 0 0 -1 -1 0 0",
        "1 2 3 4 12",
        "0 0 0 5 34",
    ]
    assert inputs.input_lines(state, 1)[6:] == [
        "82 CAST 2 0 0 0 0 -1 -1 0 0",
        "78 OPPONENT_CAST 2 0 0 0 0 -1 -1 1 0",
        "90 OPPONENT_CAST -2 2 0 0 0 -1 -1 0 1",
        "0 0 0 5 34",
        "1 2 3 4 12",
    ]


def test_new_game_setup() -> None:
    ref = referee.create("witches-brew", 1)
    s = ref.state
    assert isinstance(ref, Fall2020Referee)
    assert len(s.tome) == 6 and len(s.deliveries) == 5
    assert len(s.tome_deck) == 36 and len(s.order_deck) == 31
    assert sorted(t.id for t in [*s.tome, *s.tome_deck]) == list(range(42))
    assert sorted(o.id for o in [*s.deliveries, *s.order_deck]) == list(range(42, 78))
    assert [[sp.id for sp in p.spells] for p in s.players] == [[78, 79, 80, 81], [82, 83, 84, 85]]
    assert [p.inventory for p in s.players] == [[3, 0, 0, 0], [3, 0, 0, 0]]
    assert s.next_id == 86 and s.bonus == [4, 4] and s.bonus_value == [3, 1]
    # Only the low 48 bits of the seed count (java.util.Random).
    other = referee.create("fall2020", 1 + 2**48).state
    assert [t.id for t in other.tome] == [t.id for t in s.tome]
    assert [o.id for o in other.order_deck] == [o.id for o in s.order_deck]


def test_parameters() -> None:
    with pytest.raises(ParameterError, match="'MAX_TURNS'"):
        referee.create("fall2020", 1, {"MAX_TURNS": "3"})
    with pytest.raises(ParameterError):
        referee.create("fall2020", 2**63)
    assert referee.create("fall2020", -(2**63), {}).seed == -(2**63)


def test_snapshot_is_json() -> None:
    import json

    ref, _ = play(make_state(inventories=[(2, 2, 0, 0), (3, 0, 0, 0)]), "BREW 42", "LEARN 1")
    snap = json.loads(json.dumps(ref.snapshot()))
    assert snap["turn"] == 2
    assert snap["deliveries"][0] == {
        "id": 43,
        "need": [3, 2, 0, 0],
        "base_price": 7,
        "price": 10,
        "bonus": 3,
        "bonus_count": 3,
    }
    assert snap["tome"][0]["stock"] == 1 and snap["tome"][0]["tax"] == 0
    assert snap["players"][0]["score"] == 9 and snap["players"][0]["deliveries"] == 1
    assert snap["players"][1]["spells"][-1] == {"id": 86, "delta": [3, -1, 0, 0], "repeatable": True, "castable": True}


def test_starting_spell_ids_follow_the_catalogues() -> None:
    from referee.fall2020 import deck, state

    # Deck.java numbers the 42 tome spells, then the 36 orders, then the players' spells.
    assert (len(deck.TOME_RECIPES), len(deck.ORDER_RECIPES)) == (42, 36)
    assert deck.FIRST_ORDER_ID + len(deck.ORDER_RECIPES) == state.FIRST_PLAYER_SPELL_ID
