"""The facts a referee gives about a game's start (:meth:`referee.Referee.metadata`), checked
against the first input the official referee sent in every official trace: Spring 2021's map
(the richness of each cell, 0 for a hole) and Fall 2020's first orders (their ids and prices:
an order's input price includes its urgency bonus, given in the field after it)."""

from __future__ import annotations

from typing import Any

import pytest

import referee

from ..helpers.parity import load, params_of, roots, trace_files


def _traces(game: str) -> list[Any]:
    return [
        pytest.param(path, id=f"{path.parent.parent.name}/{path.name}")
        for r in roots()
        for path in trace_files(r, game)
    ]


def _first_input(trace: dict[str, Any]) -> list[str]:
    return list(trace["turns"][0]["executions"][0]["input"])


def _referee(trace: dict[str, Any]) -> referee.Referee:
    return referee.create(trace["game"], int(trace["seed"]), params_of(trace))


@pytest.mark.parametrize("path", _traces("spring2021"))
def test_spring_map_facts_are_those_of_the_official_first_input(path: Any) -> None:
    trace = load(path)
    lines = _first_input(trace)
    cells = int(lines[0])
    richness = [int(line.split()[1]) for line in lines[1 : 1 + cells]]
    assert _referee(trace).metadata() == {
        "holes": sum(1 for r in richness if r == 0),
        "richness": sum(richness),
        "rich_cells": sum(1 for r in richness if r == 3),
    }


@pytest.mark.parametrize("path", _traces("fall2020"))
def test_fall_first_orders_are_those_of_the_official_first_input(path: Any) -> None:
    trace = load(path)
    lines = _first_input(trace)
    actions = [line.split() for line in lines[1 : 1 + int(lines[0])]]
    orders = [a for a in actions if a[1] == "BREW"]
    assert len(orders) == 5
    assert _referee(trace).metadata() == {
        "first_orders": ",".join(a[0] for a in orders),
        "orders_value": sum(int(a[6]) - int(a[7]) for a in orders),  # the price less its bonus
    }


def test_a_spring_map_without_holes_has_the_official_ring_richness() -> None:
    """Hand-worked: 7 cells of richness 3 (the centre and ring 1), 12 of 2, 18 of 1."""
    facts = referee.create("spring2021", 5, {referee.LEAGUE: "1"}).metadata()  # no holes below league 3
    assert facts == {"holes": 0, "richness": 7 * 3 + 12 * 2 + 18 * 1, "rich_cells": 7}


def test_the_facts_are_those_of_the_start_whenever_they_are_asked() -> None:
    """Fall's orders change as potions are brewed: the facts stay those of turn 1."""
    ref = referee.create("fall2020", 1)
    start = ref.metadata()
    first = [o.id for o in ref.state.deliveries]
    while not ref.is_over and [o.id for o in ref.state.deliveries] == first:
        outputs = {}
        for player in ref.players_to_act():
            legal = ref.legal_actions(player)
            brews = [a for a in legal if a.startswith("BREW")]
            casts = [a for a in legal if a.startswith("CAST")]
            outputs[player] = (brews[0] if brews else casts[ref.turn % len(casts)] if casts else "REST",)
        ref.apply(outputs)
    assert [o.id for o in ref.state.deliveries] != first  # a potion was brewed: the table changed
    assert ref.metadata() == start
