"""The Fall Challenge 2020 referee's fast paths against plain reference implementations.

* :func:`legal.legal_actions` packs the inventory with guard bits (and the free space, against
  each spell's lane) and computes repeat counts per spell; here it is compared with the checks
  written out tier by tier, on random positions including odd ones (inventories over 10, tiers up
  to 15, needs over 15, spells with no cost), and the lane test alone on every recipe;
* the cards' memoised texts (input lines, commands) against the official formats written out;
* :class:`inputs.InputView` captures the table so that the input lines can be made later: lines
  made after the game moved on must be those :func:`inputs.input_lines` gave at capture time;
* :func:`actions.parse_answer` (memo first) must agree with :func:`actions.parse` on good and
  bad lines alike.
"""

from __future__ import annotations

import random

import pytest

import referee
from referee.base import InvalidCommand, Request
from referee.fall2020 import fits, inputs
from referee.fall2020.actions import parse, parse_answer
from referee.fall2020.deck import ORDER_RECIPES, TOME_RECIPES
from referee.fall2020.legal import legal_actions
from referee.fall2020.referee import Fall2020Referee
from referee.fall2020.state import (
    CAST_GUARDS,
    GUARDS,
    STARTING_SPELLS,
    FallState,
    Order,
    PlayerSpell,
    TomeSpell,
    cast_key,
    pack,
)


def reference_legal_actions(state: FallState, player: int) -> list[str]:
    """The legal commands, each check written out: an order is brewable iff no tier goes
    negative; a spell can be cast ``k`` times iff each consumed tier holds ``k`` times its cost
    and the inventory (at most 10) has room for ``k`` times its net gain (no room check for a
    spell whose net gain is not positive); ``k`` stops at 10."""
    p = state.players[player]
    inv = p.inventory
    out = [f"BREW {o.id}" for o in state.deliveries if all(inv[t] + o.delta[t] >= 0 for t in range(4))]
    for s in p.spells:
        if not s.castable:
            continue
        k = 0
        while k < 10:
            n = k + 1
            enough = all(inv[t] + s.delta[t] * n >= 0 for t in range(4) if s.delta[t] < 0)
            total = sum(s.delta)
            room = total <= 0 or sum(inv) + total * n <= 10
            if not (enough and room):
                break
            k = n
        if k:
            out.append(f"CAST {s.id}")
            if s.repeatable:
                out += [f"CAST {s.id} {n}" for n in range(2, k + 1)]
    out += [f"LEARN {t.id}" for i, t in enumerate(state.tome) if i <= inv[0]]
    if not all(s.castable for s in p.spells):
        out.append("REST")
    out.append("WAIT")
    return out


def random_position(rng: random.Random) -> FallState:
    """A position with random cards, castable flags and inventories (sometimes over the
    official limits, as a hand-built position may be)."""
    recipes = list(TOME_RECIPES) + [(0, 0, 0, 0), (-16, 0, 0, 1), (0, -7, 0, 0)]
    orders = [(need, price) for need, price in ORDER_RECIPES] + [((16, 0, 0, 0), 5), ((0, 0, 0, 0), 1)]
    spells = []
    next_id = 100
    for _ in range(2):
        own = [(next_id + i, d, rng.random() < 0.7, False) for i, d in enumerate(STARTING_SPELLS)]
        next_id += len(own)
        for _ in range(rng.randrange(8)):
            delta = rng.choice(recipes)
            own.append((next_id, delta, rng.random() < 0.6, any(x < 0 for x in delta)))
            next_id += 1
        spells.append(own)
    top = rng.choice((10, 15))

    def inventory() -> tuple[int, int, int, int]:
        inv = [rng.randint(0, top) for _ in range(4)]
        while top == 10 and sum(inv) > 10:
            inv[rng.randrange(4)] //= 2
        return (inv[0], inv[1], inv[2], inv[3])

    return FallState.build(
        tome=[(i, d, rng.randrange(3)) for i, d in enumerate(rng.sample(TOME_RECIPES, 6))],
        deliveries=[(50 + i, need, price) for i, (need, price) in enumerate(rng.sample(orders, 5))],
        inventories=[inventory(), inventory()],
        spells=spells,
    )


def test_legal_actions_match_the_checks_written_out() -> None:
    rng = random.Random(2020)
    for _ in range(3000):
        state = random_position(rng)
        for player in (0, 1):
            assert legal_actions(state, player) == reference_legal_actions(state, player)


def test_legal_actions_in_random_games_match_the_checks_written_out() -> None:
    for seed in range(40):
        ref = Fall2020Referee(seed)
        rng = random.Random(seed)
        while not ref.is_over:
            outputs = {}
            for r in ref.requests():
                legal = ref.legal_actions(r.player)
                assert legal == reference_legal_actions(ref.state, r.player)
                outputs[r.player] = rng.choice(legal)
            ref.apply(outputs)


def test_guard_bits_tell_whether_an_inventory_covers_a_need() -> None:
    needs = [(0, 0, 0, 0), (1, 0, 0, 0), (0, 2, 3, 0), (5, 5, 5, 5), (15, 0, 0, 15), (16, 0, 1, 0)]
    for need in needs:
        for a in range(16):
            for b in range(0, 16, 3):
                for c in range(0, 16, 5):
                    for d in (0, 7, 15):
                        inv = (a, b, c, d)
                        covered = all(x >= n for x, n in zip(inv, need))
                        have = pack(*inv) | GUARDS
                        assert ((have - pack(*need)) & GUARDS == GUARDS) == covered, (inv, need)


ODD_RECIPES = [(0, 0, 0, 0), (-16, 0, 0, 1), (0, -7, 0, 0), (0, 0, 0, 11), (20, 0, 0, 0), (-17, 0, 18, 0), (1, 1, 1, 1)]


def test_spell_lane_tells_whether_a_spell_can_be_cast_once() -> None:
    """``cast_key(inventory) - lane`` keeps the guards iff every consumed tier holds enough and
    the inventory (at most 10) has room for the net gain, for every recipe and many inventories
    (tiers 0-15, so sums over 10 too)."""
    values = range(16)
    for delta in list(TOME_RECIPES) + list(STARTING_SPELLS) + ODD_RECIPES:
        spell = PlayerSpell(1, delta, 0, True)
        for a in values:
            for b in values[::3]:
                for c in values[::4]:
                    for d in (0, 1, 2, 5, 15):
                        inv = (a, b, c, d)
                        enough = all(inv[t] + delta[t] >= 0 for t in range(4) if delta[t] < 0)
                        room = sum(delta) <= 0 or sum(inv) + sum(delta) <= 10
                        fits = (cast_key(*inv) - spell.lane) & CAST_GUARDS == CAST_GUARDS
                        assert fits == (enough and room), (delta, inv)


def test_card_texts_are_the_official_formats() -> None:
    rng = random.Random(7)
    for _ in range(500):
        delta = rng.choice(list(TOME_RECIPES) + ODD_RECIPES)
        d = " ".join(map(str, delta))
        card_id = rng.randrange(200)
        tome = TomeSpell(card_id, delta, rng.randrange(4))
        rep = int(any(x < 0 for x in delta))
        index, stock = rng.randrange(6), rng.randrange(-1, 12)
        assert tome.line(index, stock) == f"{card_id} LEARN {d} 0 {index} {stock} 0 {rep}"
        assert tome.line(index) == f"{card_id} LEARN {d} 0 {index} {tome.stock} 0 {rep}"
        assert tome.learn_command == f"LEARN {card_id}"
        order = Order(card_id, delta, rng.randrange(30))
        price, value, count = rng.randrange(40), rng.randrange(4), rng.randrange(5)
        assert order.line(price, value, count) == f"{card_id} BREW {d} {price} {value} {count} 0 0"
        assert order.brew_command == f"BREW {card_id}"
        repeatable = rng.random() < 0.5
        owner = rng.randrange(2)
        spell = PlayerSpell(card_id, delta, owner, repeatable, rng.random() < 0.5)
        for viewer in (0, 1):
            kind = "CAST" if viewer == owner else "OPPONENT_CAST"
            assert spell.line(viewer) == (f"{card_id} {kind} {d} 0 -1 -1 {int(spell.castable)} {int(repeatable)}")
        spell.castable = not spell.castable
        assert spell.line(owner).split()[-2] == str(int(spell.castable))


def test_deferred_lines_are_the_lines_at_capture_time() -> None:
    for seed in range(15):
        ref = Fall2020Referee(seed)
        rng = random.Random(seed)
        captured: list[tuple[inputs.InputView, list[list[str]], tuple[Request, ...]]] = []
        while not ref.is_over:
            state = ref.state
            view = inputs.InputView(state)
            expected = [inputs.input_lines(state, p) for p in (0, 1)]
            requests = ref.requests()
            outputs = {r.player: rng.choice(ref.legal_actions(r.player)) for r in requests}
            ref.apply(outputs)
            captured.append((view, expected, requests))
        for view, expected, requests in captured:
            # Made only now, long after the state changed.
            assert [list(view.lines(p)) for p in (0, 1)] == expected
            assert [list(r.lines) for r in requests] == [expected[r.player] for r in requests]


def test_request_lines_read_late_equal_lines_read_at_once() -> None:
    early = referee.create("fall2020", 77)
    late = referee.create("fall2020", 77)
    rng = random.Random(5)
    kept = []
    while not early.is_over:
        requests = early.requests()
        now = [r.lines for r in requests]
        kept.append((late.requests(), now))
        outputs = {r.player: rng.choice(early.legal_actions(r.player)) for r in requests}
        early.apply(outputs)
        late.apply(outputs)
    for requests, now in kept:
        assert [r.lines for r in requests] == now


LINES = [
    "WAIT",
    "REST",
    "wait",
    "Rest hello",
    "CAST 78",
    "CAST 78 2",
    "cast 79 3 go",
    "LEARN 3",
    "BREW 42",
    "BREW 42 msg",
    "BREW",
    "CAST",
    "FOO",
    "",
    " WAIT",
    "WAIT\tx",
    "CAST 99999999999",
    "LEARN 2147483648",
    "CAST 1 0",
    "brew 7  ",
    "REST\n",
    "CAST 78 2 " + "x" * 60,
]


@pytest.mark.parametrize("line", LINES)
def test_parse_answer_agrees_with_parse(line: str) -> None:
    for _ in range(2):  # the second time from the memo
        try:
            expected = parse(line)
        except InvalidCommand as exc:
            with pytest.raises(InvalidCommand) as got:
                parse_answer((line,))
            assert (str(got.value), got.value.got, got.value.expected) == (str(exc), exc.got, exc.expected)
        else:
            assert parse_answer((line,)) == expected


def test_cast_count_tables_match_the_checks_written_out() -> None:
    """:func:`fits.cast_counts`, for every recipe (official and odd) and every inventory of at
    most 10 ingredients: a repeatable spell's entry is the largest ``k`` (at most 10) for which
    every consumed tier holds ``k`` times its cost and the inventory has room for ``k`` times
    the net gain (0 if none); a non-repeatable one's is 1 wherever it can be cast; an order's
    table (its need, no room) is 1 for the inventories covering the need, else 0."""
    inventories = [
        (a, b, c, d) for a in range(11) for b in range(11 - a) for c in range(11 - a - b) for d in range(11 - a - b - c)
    ]
    # The index numbers the 1001 inventories 0 to 1000, in this (lexicographic) order.
    assert [fits.inventory_index(*inv) for inv in inventories] == list(range(1001))
    for delta in list(TOME_RECIPES) + list(STARTING_SPELLS) + ODD_RECIPES:
        for repeatable in (True, False):
            table = fits.cast_counts(delta, repeatable)
            for inv in inventories:
                k = 0
                while k < 10:
                    n = k + 1
                    enough = all(inv[t] + delta[t] * n >= 0 for t in range(4))
                    room = sum(delta) <= 0 or sum(inv) + sum(delta) * n <= 10
                    if not (enough and room) or (n > 1 and not repeatable):
                        break
                    k = n
                assert table[fits.inventory_index(*inv)] == k, (delta, repeatable, inv)
    for need, _ in list(ORDER_RECIPES) + [((16, 0, 0, 0), 1), ((0, 0, 0, 0), 1)]:
        table = fits.cast_counts((-need[0], -need[1], -need[2], -need[3]), False)
        covered = [int(all(x >= n for x, n in zip(inv, need))) for inv in inventories]
        assert [table[fits.inventory_index(*inv)] for inv in inventories] == covered, need


def test_legal_actions_after_casts_and_rests_match_the_checks_written_out() -> None:
    """Exhausting spells one by one and resting (the castable setter keeps each player's count
    of exhausted spells and each spell's table in step) never changes the legal actions from the
    written-out checks: REST is offered iff a spell is exhausted."""
    rng = random.Random(38)
    for _ in range(300):
        state = random_position(rng)
        for player in (0, 1):
            spells = state.players[player].spells
            for _ in range(6):
                spell = rng.choice(spells)
                spell.castable = not spell.castable if rng.random() < 0.5 else rng.random() < 0.5
                assert legal_actions(state, player) == reference_legal_actions(state, player)
            for spell in spells:
                spell.castable = True
            assert "REST" not in legal_actions(state, player)


def test_rest_makes_every_spell_castable_and_its_lines_and_count_follow() -> None:
    """REST (:meth:`PlayerState.rest`, the setter written out): every spell castable, the cached
    lines are the castable ones each spell shows (``... 1 rep``), nothing is counted exhausted."""
    rng = random.Random(3)
    for _ in range(200):
        state = random_position(rng)
        for player in (0, 1):
            witch = state.players[player]
            witch.rest()
            assert all(s.castable for s in witch.spells) and witch.exhausted == 0
            assert witch.own_lines == [s.line(player) for s in witch.spells]
            assert witch.foe_lines == [s.line(1 - player) for s in witch.spells]
            assert all(line.split()[-2] == "1" for line in witch.own_lines)
            assert legal_actions(state, player) == reference_legal_actions(state, player)


def written_out_view_lines(
    score: tuple[int, int], inventory: tuple[tuple[int, ...], tuple[int, ...]]
) -> list[list[str]]:
    """Both players' lines of a table of one order (id 42, need 2 2 0 0, price 6, first place:
    bonus +3, four left), no tome and the starting spells, castable (official format)."""
    spells = [
        [f"{78 + 4 * p + i} {{}} {d[0]} {d[1]} {d[2]} {d[3]} 0 -1 -1 1 0" for i, d in enumerate(STARTING_SPELLS)]
        for p in (0, 1)
    ]
    out = []
    for p in (0, 1):
        q = 1 - p
        out.append(
            [
                "9",
                "42 BREW -2 -2 0 0 9 3 4 0 0",
                *(line.format("CAST") for line in spells[p]),
                *(line.format("OPPONENT_CAST") for line in spells[q]),
                " ".join(str(x) for x in (*inventory[p], score[p])),
                " ".join(str(x) for x in (*inventory[q], score[q])),
            ]
        )
    return out


@pytest.mark.parametrize(
    ("score", "inventory"),
    [
        ((-1, 0), ((0, 0, 0, 0), (15, 15, 0, 1))),  # a disqualified witch; tiers past 10
        ((255, 256), ((3, 0, 0, 0), (3, 0, 0, 0))),  # the last small number and the first past it
        ((1000, -7), ((1, 2, 3, 4), (10, 0, 0, 0))),
    ],
)
def test_view_lines_for_odd_scores_and_inventories(
    score: tuple[int, int], inventory: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    # Both players' lines are made at once from one capture (the witch lines from a memo of
    # inventories and a table of small numbers), as tuples, the same whichever is read first.
    state = FallState.build(deliveries=[(42, (2, 2, 0, 0), 6)], inventories=inventory, scores=score)
    expected = written_out_view_lines(score, inventory)
    first, second = inputs.InputView(state), inputs.InputView(state)
    assert list(first.lines(0)) == expected[0] and list(first.lines(1)) == expected[1]
    assert list(second.second()) == expected[1] and list(second.first()) == expected[0]
    assert isinstance(first.lines(0), tuple)
    assert inputs.input_lines(state, 0) == expected[0] and inputs.input_lines(state, 1) == expected[1]


def test_views_read_in_any_order_give_the_lines_at_capture_time() -> None:
    # The order and tome lines of the last table formatted are reused when the next view shows
    # the same table: views read backwards, or two games' views interleaved, must not mix tables.
    games = [Fall2020Referee(seed) for seed in (5, 6)]
    rngs = [random.Random(seed) for seed in (5, 6)]
    captured: list[tuple[inputs.InputView, list[list[str]]]] = []
    while not any(ref.is_over for ref in games):
        for ref, rng in zip(games, rngs):
            state = ref.state
            captured.append((inputs.InputView(state), [inputs.input_lines(state, p) for p in (0, 1)]))
            requests = ref.requests()
            ref.apply({r.player: rng.choice(ref.legal_actions(r.player)) for r in requests})
    assert len(captured) > 40
    for view, expected in reversed(captured):
        assert [list(view.lines(p)) for p in (1, 0)] == [expected[1], expected[0]]


def test_answers_known_from_earlier_games_keep_each_level_rules_and_messages() -> None:
    # The referee looks lines that parsed before (to an action without a message) up directly:
    # a line valid at one level must still disqualify at a level without that command, and a
    # message must be reported every time it is sent.
    full = Fall2020Referee(8)
    learn = next(a for a in full.legal_actions(0) if a.startswith("LEARN"))
    full.apply({0: learn, 1: "REST"})  # both parse at the top level (REST is refused, not invalid)
    full.apply({0: learn, 1: "WAIT"})
    assert full.active == [True, True]
    wood1 = Fall2020Referee(8, {"league": "2"})  # no tome: LEARN is invalid input
    wood1.apply({0: "WAIT", 1: learn})
    assert wood1.active == [True, False]
    outcome = wood1.outcome()
    assert outcome is not None and [d.player for d in outcome.deactivations] == [1]
    assert outcome.deactivations[0].reason.endswith(f"Expected BREW <id> | CAST <id> | REST | WAIT but got '{learn}'")
    talker = Fall2020Referee(9)
    for _ in range(3):
        report = talker.apply({0: "WAIT hello", 1: "WAIT"})
        assert report.messages == ((0, "hello"),)
