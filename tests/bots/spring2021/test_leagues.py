"""The shipped Spring 2021 bots at every league level: no action refused, no invalid line.

wait, random and greedy answer from the actions the referee offers, so they play every level as
they are. The search bots make their own moves: they see a league without SEED (both Wood
leagues) from the offered actions (:func:`bots.spring2021.game.io.lacks_seed`) and stop planting.
"""

from __future__ import annotations

import dataclasses

import pytest

import referee
from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import BotSpec, resolve, shipped_bots
from bots.spring2021.game import io
from bots.spring2021.game.board import Board

BOTS = ("wait", "random", "greedy", "beam", "mcts")


def shipped(name: str) -> BotSpec:
    """The shipped bot with its deterministic arguments (a fixed budget for the search bots)."""
    spec = resolve(name, "spring2021")
    extra = tuple(str(a) for a in shipped_bots("spring2021")[name].get("deterministic", []))
    return dataclasses.replace(spec, argv=spec.argv + extra)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", BOTS)
def test_every_shipped_bot_plays_every_level_legally(name: str, level: int) -> None:
    seeds = (1, 3) if level < 3 else (1,)  # seed 3: both search bots would plant at levels 1 and 2
    for seed in seeds:
        result = play_match(
            "spring2021",
            seed,
            [shipped(name), shipped(name)],
            MatchOptions(params={"league": str(level)}, no_timeout=True),
        )
        assert result.outcome is not None and result.outcome.end_reason is referee.EndReason.MAX_ROUNDS
        for player in result.players:
            assert (player.verdict, player.refused) == (Verdict.OK, 0), player.message


def first_turn(level: int, seed: int = 3) -> tuple[io.Turn, Board]:
    ref = referee.create("spring2021", seed, {"league": str(level)})
    ref.apply({})
    lines = list(ref.requests()[1].lines)  # player 1: the map, then its first turn
    it = iter(lines)
    board = io.read_board(it.__next__)
    return io.parse_turn(list(it), board), board


@pytest.mark.parametrize(("level", "lacks"), [(1, True), (2, True), (3, False)])
def test_the_bots_see_a_league_without_seed_from_its_first_turn(level: int, lacks: bool) -> None:
    turn, board = first_turn(level)
    assert io.lacks_seed(turn, board) is lacks


def test_no_seed_offered_because_none_is_possible_is_not_a_league_without_seed() -> None:
    turn, board = first_turn(3)
    assert any(a.startswith("SEED ") for a in turn.offered) and not io.lacks_seed(turn, board)
    asleep = turn.state._replace(dormant=turn.state.mine)  # every own tree has acted today
    offered = tuple(a for a in turn.offered if not a.startswith("SEED "))
    assert not io.lacks_seed(dataclasses.replace(turn, state=asleep, offered=offered), board)
