"""``arena ladder show --where``: conditions on the facts of a game's start, table-driven."""

from __future__ import annotations

import pytest

from arena.store.where import WhereError, matches, parse_condition, parse_where

SPRING = {"holes": 4, "richness": 55, "rich_cells": 5}
FALL = {"first_orders": "76,64,49,50,48", "orders_value": 66}


@pytest.mark.parametrize(
    ("text", "facts", "holds"),
    [
        ("holes=4", SPRING, True),
        ("holes==4", SPRING, True),
        ("holes!=4", SPRING, False),
        ("holes>=4", SPRING, True),
        ("holes>4", SPRING, False),
        ("holes<5", SPRING, True),
        ("holes <= 3", SPRING, False),
        ("richness>54.5", SPRING, True),  # numbers compare as numbers
        ("holes=four", SPRING, False),  # not a number: never equal to one
        ("first_orders~76", FALL, True),  # holds the item
        ("first_orders~7", FALL, False),  # an item, not a substring
        ("first_orders=76,64,49,50,48", FALL, True),
        ("first_orders>7", FALL, False),  # a text has no order
        ("orders_value>=66", FALL, True),
        ("holes=4", FALL, False),  # a fact the game does not give
        ("holes=4", None, False),  # a game stored without facts
    ],
)
def test_a_condition_holds_as_worked_out_by_hand(text: str, facts: dict | None, holds: bool) -> None:
    assert parse_condition(text).holds(facts) is holds


def test_every_condition_must_hold() -> None:
    both = parse_where(["holes>=2", "rich_cells<6"])
    assert matches(both, SPRING)
    assert not matches(both, {**SPRING, "rich_cells": 7})
    assert matches((), None)  # no condition: every game


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("holes", "expected NAME OP VALUE"),
        ("holes>=", "expected NAME OP VALUE"),
        (">=2", "expected NAME OP VALUE"),
        ("2holes=1", "expected NAME OP VALUE"),
        ("trees>2", "the games do not give 'trees' (facts known: holes, rich_cells, richness)"),
    ],
)
def test_a_condition_that_cannot_be_used_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(WhereError) as caught:
        parse_condition(text, sorted(SPRING))
    assert message in str(caught.value) and "\n" not in str(caught.value)
