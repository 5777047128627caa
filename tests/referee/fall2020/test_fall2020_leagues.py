"""The league levels of Fall Challenge 2020, table-driven, from the official sources.

Every expected value here was worked out by hand from ``Game.java`` (``init``: the switches of
each level, lines 94-135; ``getExpected``: 703-711; ``onEnd``: 713-721), ``CommandManager.java``
(which patterns each level tries, 40-100) and ``Deck.java`` (the order catalogue), or is a line of
the official referee's own output (the first inputs of ``traces_v2``); none comes from this
referee's output.
"""

from __future__ import annotations

import pytest

import referee
from referee.base import DeactivationCause, EndReason, InvalidCommand, ParameterError
from referee.fall2020 import deck
from referee.fall2020.actions import parser
from referee.fall2020.leagues import LEAGUES, java_half, wood2_orders
from referee.fall2020.referee import Fall2020Referee
from referee.fall2020.state import FallState
from referee.javarandom import JavaRandom, java_shuffle

E1 = "BREW <id> | WAIT"
E2 = "BREW <id> | CAST <id> | REST | WAIT"
E3 = "BREW <id> | CAST <id> [<repeat>] | LEARN <id> | REST | WAIT"

# -- which CodinGame league plays which level ------------------------------------------------------


@pytest.mark.parametrize(
    "given,level",
    [
        (None, 4),
        ("1", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("wood 2", 1),
        ("Wood  1", 2),
        ("BRONZE", 3),
        ("silver", 4),
        ("gold", 4),
        ("legend", 4),
    ],
)
def test_league_names_and_levels(given: str | None, level: int) -> None:
    params = None if given is None else {"league": given}
    ref = referee.create("fall2020", 1, params)
    assert isinstance(ref, Fall2020Referee)
    assert ref.league == level and ref.rules is LEAGUES[level]


@pytest.mark.parametrize("bad", ["0", "5", "wood 3", "bronze+", "-1"])
def test_unknown_leagues_are_refused(bad: str) -> None:
    with pytest.raises(ParameterError, match="wood 2 \\(1\\)"):
        referee.create("fall2020", 1, {"league": bad})


def test_the_seed_is_the_only_other_parameter() -> None:
    # Referee.java reads gameManager.getSeed() and the league level, nothing else.
    with pytest.raises(ParameterError, match="'DELIVERY_GOAL'"):
        referee.create("fall2020", 1, {"league": "1", "DELIVERY_GOAL": "3"})


# -- the switches of each level (Game.java:94-137) -------------------------------------------------

SWITCHES = [
    # level, starting inventory, goal, tome, spells, urgency bonus, inventory bonus, halved orders
    (1, (2, 2, 3, 3), 2, False, False, False, False, True),
    (2, (3, 0, 0, 0), 3, False, True, False, True, False),
    (3, (3, 0, 0, 0), 6, True, True, True, True, False),
    (4, (3, 0, 0, 0), 6, True, True, True, True, False),
]


@pytest.mark.parametrize("level,inventory,goal,tome,spells,bonus,inv_bonus,halved", SWITCHES)
def test_switches(
    level: int,
    inventory: tuple[int, ...],
    goal: int,
    tome: bool,
    spells: bool,
    bonus: bool,
    inv_bonus: bool,
    halved: bool,
) -> None:
    league = LEAGUES[level]
    assert league.level == level
    assert league.starting_inventory == inventory
    assert league.delivery_goal == goal
    assert (league.tome, league.spells, league.urgency_bonus) == (tome, spells, bonus)
    assert (league.inventory_bonus, league.halved_orders) == (inv_bonus, halved)


@pytest.mark.parametrize("level,inventory,goal,tome,spells,bonus,inv_bonus,halved", SWITCHES)
def test_the_deal_follows_the_switches(
    level: int,
    inventory: tuple[int, ...],
    goal: int,
    tome: bool,
    spells: bool,
    bonus: bool,
    inv_bonus: bool,
    halved: bool,
) -> None:
    s = referee.create("fall2020", 7, {"league": str(level)}).state
    assert [p.inventory for p in s.players] == [list(inventory)] * 2
    assert len(s.tome) == (6 if tome else 0)
    assert [[sp.id for sp in p.spells] for p in s.players] == (
        [[78, 79, 80, 81], [82, 83, 84, 85]] if spells else [[], []]
    )
    assert s.bonus == ([4, 4] if bonus else [0, 0])
    assert len(s.deliveries) == 5
    assert len(s.deliveries) + len(s.order_deck) == (18 if halved else 36)


# -- level 1's orders: halved with Java's division, duplicates dropped, then shuffled ------------


@pytest.mark.parametrize(
    "x,half", [(0, 0), (-1, 0), (-2, -1), (-3, -1), (-4, -2), (-5, -2), (3, 1), (-(2**31), -(2**30))]
)
def test_java_half_rounds_toward_zero(x: int, half: int) -> None:
    assert java_half(x) == half


# Worked out by hand from Deck.java: an order with a need of 2 or more has every need halved
# (toward zero: 3 -> 1, 1 -> 0); of equal needs the first in catalogue order stays; ids and
# prices are the catalogue's.
WOOD2_ORDERS = [
    (42, (1, 1, 0, 0), 6),  # 2 2 0 0
    (44, (0, 2, 0, 0), 8),  # 0 4 0 0   (43: 3 2 0 0 -> 1 1 0 0, as 42)
    (45, (1, 0, 1, 0), 8),  # 2 0 2 0   (46: 2 3 -> as 42; 47: 3 0 2 -> as 45)
    (48, (0, 1, 1, 0), 10),  # 0 2 2 0  (49: 0 5 -> as 44)
    (50, (1, 0, 0, 1), 10),  # 2 0 0 2  (51: 2 0 3 -> as 45; 52: 3 0 0 2 -> as 50)
    (53, (0, 0, 2, 0), 12),  # 0 0 4 0
    (54, (0, 1, 0, 1), 12),  # 0 2 0 2  (55, 56 -> as 48)
    (57, (0, 0, 1, 1), 14),  # 0 0 2 2  (58 -> as 54; 59 -> as 50; 60 -> as 53)
    (61, (0, 0, 0, 2), 16),  # 0 0 0 4  (62 -> as 54; 63, 64 -> as 57; 65 -> as 61)
    (66, (1, 0, 0, 0), 9),  # 2 1 0 1
    (67, (0, 1, 0, 0), 12),  # 0 2 1 1
    (68, (0, 0, 1, 0), 12),  # 1 0 2 1
    (69, (1, 1, 1, 0), 13),  # 2 2 2 0
    (70, (1, 1, 0, 1), 15),  # 2 2 0 2
    (71, (1, 0, 1, 1), 17),  # 2 0 2 2
    (72, (0, 1, 1, 1), 19),  # 0 2 2 2
    (73, (1, 1, 1, 1), 12),  # no need of 2: unchanged
    (77, (0, 0, 0, 1), 20),  # 1 1 1 3   (74, 75, 76 -> as 66, 67, 68)
]


def test_wood2_order_catalogue() -> None:
    got = [(o.id, o.need, o.price) for o in wood2_orders(deck.order_catalogue())]
    assert got == WOOD2_ORDERS


@pytest.mark.parametrize("seed", [*range(12), -5, 2**63 - 1, -(2**63)])
def test_level1_shuffles_the_short_deck_after_the_tome(seed: int) -> None:
    # Game.init: the tome (42 spells) is shuffled first, even when no tome is dealt, then the
    # 18 remaining orders; the first five are on the table.
    rnd = JavaRandom(seed)
    java_shuffle(list(range(42)), rnd)
    orders = list(WOOD2_ORDERS)
    java_shuffle(orders, rnd)
    s = referee.create("fall2020", seed, {"league": "1"}).state
    assert [(o.id, o.need, o.price) for o in s.deliveries] == orders[:5]
    assert [(o.id, o.need, o.price) for o in s.order_deck] == orders[5:]


# -- the first input of each level (lines of the official referee, traces_v2) -------------------

SPELL_LINES = [
    "78 CAST 2 0 0 0 0 -1 -1 1 0",
    "79 CAST -1 1 0 0 0 -1 -1 1 0",
    "80 CAST 0 -1 1 0 0 -1 -1 1 0",
    "81 CAST 0 0 -1 1 0 -1 -1 1 0",
    "82 OPPONENT_CAST 2 0 0 0 0 -1 -1 1 0",
    "83 OPPONENT_CAST -1 1 0 0 0 -1 -1 1 0",
    "84 OPPONENT_CAST 0 -1 1 0 0 -1 -1 1 0",
    "85 OPPONENT_CAST 0 0 -1 1 0 -1 -1 1 0",
]

FIRST_INPUTS = [
    (
        1,
        23,
        [
            "5",
            "73 BREW -1 -1 -1 -1 12 0 0 0 0",
            "53 BREW 0 0 -2 0 12 0 0 0 0",
            "57 BREW 0 0 -1 -1 14 0 0 0 0",
            "48 BREW 0 -1 -1 0 10 0 0 0 0",
            "42 BREW -1 -1 0 0 6 0 0 0 0",
            "2 2 3 3 0",
            "2 2 3 3 0",
        ],
    ),
    (
        1,
        27,
        [
            "5",
            "66 BREW -1 0 0 0 9 0 0 0 0",
            "50 BREW -1 0 0 -1 10 0 0 0 0",
            "71 BREW -1 0 -1 -1 17 0 0 0 0",
            "72 BREW 0 -1 -1 -1 19 0 0 0 0",
            "45 BREW -1 0 -1 0 8 0 0 0 0",
            "2 2 3 3 0",
            "2 2 3 3 0",
        ],
    ),
    (
        2,
        17,
        [
            "13",
            "62 BREW 0 -2 0 -3 16 0 0 0 0",
            "59 BREW -2 0 0 -3 14 0 0 0 0",
            "52 BREW -3 0 0 -2 11 0 0 0 0",
            "66 BREW -2 -1 0 -1 9 0 0 0 0",
            "46 BREW -2 -3 0 0 8 0 0 0 0",
            *SPELL_LINES,
            "3 0 0 0 0",
            "3 0 0 0 0",
        ],
    ),
    (
        3,
        14,
        [
            "19",
            "60 BREW 0 0 -5 0 18 3 4 0 0",
            "54 BREW 0 -2 0 -2 13 1 4 0 0",
            "61 BREW 0 0 0 -4 16 0 0 0 0",
            "42 BREW -2 -2 0 0 6 0 0 0 0",
            "47 BREW -3 0 -2 0 9 0 0 0 0",
            "3 LEARN 0 0 1 0 0 0 0 0 0",
            "21 LEARN -3 1 1 0 0 1 0 0 1",
            "15 LEARN 0 2 0 0 0 2 0 0 0",
            "23 LEARN 1 -3 1 1 0 3 0 0 1",
            "30 LEARN -4 0 1 1 0 4 0 0 1",
            "40 LEARN 0 -2 2 0 0 5 0 0 1",
            *SPELL_LINES,
            "3 0 0 0 0",
            "3 0 0 0 0",
        ],
    ),
]


@pytest.mark.parametrize("level,seed,lines", FIRST_INPUTS)
def test_first_input(level: int, seed: int, lines: list[str]) -> None:
    ref = referee.create("fall2020", seed, {"league": str(level)})
    requests = ref.requests()
    assert [(r.player, r.expected_lines, r.time_limit_ms) for r in requests] == [(0, 1, 1000), (1, 1, 1000)]
    assert list(requests[0].lines) == lines


def test_levels_3_and_4_deal_the_same_game() -> None:
    for seed in (14, 16, -5):
        a = referee.create("fall2020", seed, {"league": "3"}).requests()
        b = referee.create("fall2020", seed, {"league": "4"}).requests()
        assert [r.lines for r in a] == [r.lines for r in b]


def test_level2_orders_are_the_full_catalogue() -> None:
    # Only level 1 rewrites the orders: level 2 deals the 36 of Deck.java as they are.
    s = referee.create("fall2020", 17, {"league": "2"}).state
    orders = [*s.deliveries, *s.order_deck]
    assert sorted(o.id for o in orders) == list(range(42, 78))
    assert {o.id: (o.need, o.price) for o in orders}[59] == ((2, 0, 0, 3), 14)
    assert {o.id: (o.need, o.price) for o in orders}[77] == ((1, 1, 1, 3), 20)


# -- the commands each level understands (CommandManager.java:40-100, Game.java:703-711) -------

NFE = 'java.lang.NumberFormatException: For input string: "99999999999"'

PARSED = [
    # level, line, the command it parses to (None: invalid input), what the message says it got
    (1, "BREW 42", "BREW 42", None),
    (1, "brew 42 hi", "BREW 42", None),
    (1, "WAIT", "WAIT", None),
    (1, "REST", None, "REST"),
    (1, "CAST 78", None, "CAST 78"),
    (1, "LEARN 3", None, "LEARN 3"),
    # Level 1 never tries the CAST pattern: the number is not read, the line itself is "got".
    (1, "CAST 99999999999", None, "CAST 99999999999"),
    (1, "BREW 99999999999", None, NFE),
    (1, "RESTING", None, "RESTING"),
    (2, "REST", "REST", None),
    (2, "CAST 78", "CAST 78", None),
    (2, "CAST 78 2", "CAST 78 2", None),  # parses; refused later: the spell is not repeatable
    (2, "BREW 42", "BREW 42", None),
    (2, "WAIT", "WAIT", None),
    (2, "LEARN 3", None, "LEARN 3"),
    (2, "LEARN 99999999999", None, "LEARN 99999999999"),
    (2, "CAST 99999999999", None, NFE),
    (2, "RESTING", None, "RESTING"),
    (3, "LEARN 3", "LEARN 3", None),
    (3, "CAST 78 2", "CAST 78 2", None),
    (3, "LEARN 99999999999", None, NFE),
    (3, "RESTING", None, "RESTING"),
    (4, "LEARN 3", "LEARN 3", None),
    (4, "RESTING", None, "RESTING"),
]
EXPECTED_BY_LEVEL = {1: E1, 2: E2, 3: E3, 4: E3}


@pytest.mark.parametrize("level,line,command,got", PARSED)
def test_commands_of_each_level(level: int, line: str, command: str | None, got: str | None) -> None:
    parse = parser(LEAGUES[level])
    if command is not None:
        assert str(parse((line,))) == command
        return
    with pytest.raises(InvalidCommand) as info:
        parse((line,))
    assert str(info.value) == f"Invalid Input: Expected {EXPECTED_BY_LEVEL[level]} but got '{got}'"


@pytest.mark.parametrize(
    "level,line,expected",
    [(1, "REST", E1), (1, "CAST 9999", E1), (2, "LEARN 5", E2), (3, "RESTING", E3), (4, "GROW 1", E3)],
)
def test_invalid_input_disqualifies_with_the_level_wording(level: int, line: str, expected: str) -> None:
    ref = referee.create("fall2020", 23, {"league": str(level)})
    ref.requests()
    report = ref.apply({0: line, 1: "WAIT"})
    reason = f"Invalid Input: Expected {expected} but got '{line}'"
    assert [(d.player, d.cause, d.reason) for d in report.deactivations] == [
        (0, DeactivationCause.INVALID_INPUT, reason)
    ]
    # GameSummaryManager.addPlayerBadCommand, then addPlayerDisqualified, then the other action.
    assert list(report.summary) == [
        f"¤RED¤$0 provided invalid input. Expected '{expected}'",
        f"Got '{line}'§RED§",
        "$0 was disqualified.",
        "$1 bided their time",
    ]
    outcome = ref.outcome()
    assert outcome is not None and outcome.end_reason is EndReason.PLAYER_DEACTIVATED
    assert outcome.scores[0] == -1


def test_the_same_line_is_read_by_each_level_anew() -> None:
    # Each level parses with its own memo: a line valid at one level stays invalid at another.
    assert str(parser(LEAGUES[4])(("LEARN 7",))) == "LEARN 7"
    with pytest.raises(InvalidCommand):
        parser(LEAGUES[2])(("LEARN 7",))
    assert str(parser(LEAGUES[3])(("LEARN 7",))) == "LEARN 7"


# -- the legal actions at the start --------------------------------------------------------------

LEGAL_AT_START = [
    # level 1, seed 23: 2 2 3 3 affords all five orders; nothing else but WAIT exists.
    (1, 23, ["BREW 73", "BREW 53", "BREW 57", "BREW 48", "BREW 42", "WAIT"]),
    # level 2, seed 17: 3 0 0 0 affords no order; +2 blue (5 <= 10) and blue -> green; no LEARN.
    (2, 17, ["CAST 78", "CAST 79", "WAIT"]),
    # level 3, seed 14: the same casts, and the tome spells whose tax (0-3) 3 blue can pay.
    (3, 14, ["CAST 78", "CAST 79", "LEARN 3", "LEARN 21", "LEARN 15", "LEARN 23", "WAIT"]),
]


@pytest.mark.parametrize("level,seed,legal", LEGAL_AT_START)
def test_legal_actions_at_the_start(level: int, seed: int, legal: list[str]) -> None:
    ref = referee.create("fall2020", seed, {"league": str(level)})
    assert isinstance(ref, Fall2020Referee)
    assert ref.legal_actions(0) == legal


# -- the goal and the end-of-game bonus -------------------------------------------------------------


def _orders_game(level: int, brews: int) -> tuple[Fall2020Referee, list[str]]:
    """Player 0 can brew ``brews`` cheap orders in a row (one blue each); player 1 waits."""
    orders = [(42 + i, (1, 0, 0, 0), 5) for i in range(5)]
    deck_ = [(47 + i, (1, 0, 0, 0), 5) for i in range(5)]
    state = FallState.build(
        deliveries=orders,
        order_deck=deck_,
        inventories=[(brews, 1, 2, 0), (0, 3, 0, 1)],
        spells=[[], []],
        bonus=(0, 0),
    )
    ref = Fall2020Referee.from_state(state, league=level)
    return ref, [f"BREW {42 + i}" for i in range(brews)]


@pytest.mark.parametrize("level,goal", [(1, 2), (2, 3), (3, 6), (4, 6)])
def test_goal(level: int, goal: int) -> None:
    ref, commands = _orders_game(level, goal)
    for turn, command in enumerate(commands, 1):
        assert not ref.is_over
        ref.requests()
        ref.apply({0: command, 1: "WAIT"})
        # The game ends after the turn of the goal-th potion, not before.
        assert ref.is_over == (turn == goal)
    outcome = ref.outcome()
    assert outcome is not None and outcome.end_reason is EndReason.DELIVERY_GOAL
    assert outcome.turns == goal


@pytest.mark.parametrize("level,scores", [(1, (10, 0)), (2, (18, 4)), (3, (33, 4)), (4, (33, 4))])
def test_inventory_bonus(level: int, scores: tuple[int, int]) -> None:
    # Player 0 brews up to the goal (2, 3, 6) at 5 rupees each; tiers 1-3 left: 1 + 2 for player
    # 0, 3 + 1 for player 1; tier 0 never counts; level 1 has no such bonus.
    goal = LEAGUES[level].delivery_goal
    ref, commands = _orders_game(level, goal)
    for command in commands:
        ref.requests()
        ref.apply({0: command, 1: "WAIT"})
    outcome = ref.outcome()
    assert outcome is not None
    assert outcome.scores == scores


def test_level2_casts_and_rests_but_never_repeats() -> None:
    ref = referee.create("fall2020", 17, {"league": "2"})
    ref.requests()
    report = ref.apply({0: "CAST 78", 1: "CAST 82 2"})
    assert list(report.summary) == ["$0 cast spell 78", "$1 attempted an invalid action:", "Spell 82 is not repeatable"]
    assert ref.requests()[0].lines[-2:] == ("5 0 0 0 0", "3 0 0 0 0")
    report = ref.apply({0: "REST", 1: "REST"})
    assert list(report.summary) == [
        "$0 rested",
        "$1 attempted an invalid REST action:",
        "All spells are already castable",
    ]


def test_level1_bonus_free_prices() -> None:
    # No urgency bonus: every order line shows its base price, bonus value 0 and count 0, turn
    # after turn (the slide at the end of a turn moves a count of 0).
    ref = referee.create("fall2020", 23, {"league": "1"})
    ref.requests()
    ref.apply({0: "BREW 73", 1: "WAIT"})
    lines = ref.requests()[0].lines
    orders = [line for line in lines if " BREW " in line]
    assert len(orders) == 5 and all(line.endswith(" 0 0 0 0") for line in orders)
    assert lines[-2:] == ("1 1 2 2 12", "2 2 3 3 0")
