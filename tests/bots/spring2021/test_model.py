"""The Spring 2021 bots' own game model against the toolkit's referee (an independent port of
the official Java referee): legal actions, the state after every action, shadows and income."""

from __future__ import annotations

import random

import pytest

import referee
from bots.spring2021.game import io
from bots.spring2021.game import state as model
from bots.spring2021.game.shadows import income
from bots.spring2021.greedy_bot import choose as greedy_choose
from referee.spring2021 import rules
from tests.helpers.copies import copy_spring_referee


class Seat:
    """One player's view: input lines buffered across frames, its board once read."""

    def __init__(self) -> None:
        self.buffer: list[str] = []
        self.board = None

    def take(self, lines: list[str]) -> list[str]:
        lines = self.buffer + lines
        self.buffer = []
        if self.board is None:
            it = iter(lines)
            self.board = io.read_board(it.__next__)
            lines = list(it)
        return lines


def greedy_policy(lines: list[str], board, rng: random.Random) -> str:
    turn = io.parse_turn(lines, board)
    richness = dict(enumerate(board.richness))
    trees = {}
    count = int(lines[4])
    for line in lines[5 : 5 + count]:
        cell, size, mine, dormant = map(int, line.split())
        trees[cell] = (size, mine == 1, dormant == 1)
    return greedy_choose(turn.state.day, richness, trees, list(turn.offered))


def random_policy(lines: list[str], board, rng: random.Random) -> str:
    return rng.choice(io.parse_turn(lines, board).offered)


def positions(seed: int, policy, every: int = 1):
    """Yield ``(referee, player, seat, turn lines)`` at the player's decisions (referee before
    the frame is applied), playing ``policy`` for both players."""
    ref = referee.create("spring2021", seed)
    rng = random.Random(seed)
    seats = [Seat(), Seat()]
    count = 0
    while not ref.is_over:
        outputs = {}
        for request in ref.requests():
            seat = seats[request.player]
            if not request.expected_lines:
                seat.buffer += list(request.lines)
                continue
            lines = seat.take(list(request.lines))
            if count % every == 0:
                yield ref, request.player, seat, lines
            count += 1
            outputs[request.player] = policy(lines, seat.board, rng)
        ref.apply(outputs)


GAMES = [(seed, random_policy) for seed in (1, 2, 3, -77, 123456789)] + [
    (seed, greedy_policy) for seed in (4, 5, 6, 2021)
]


@pytest.mark.parametrize("seed,policy", GAMES, ids=[f"{p.__name__}-{s}" for s, p in GAMES])
def test_legal_actions_equal_the_referees(seed, policy):
    checked = 0
    for _ref, _player, seat, lines in positions(seed, policy):
        turn = io.parse_turn(lines, seat.board)
        ours = sorted(io.format_action(a, seat.board) for a in model.legal_actions(turn.state, seat.board))
        assert ours == sorted(turn.offered), f"seed {seed} day {turn.state.day}"
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("seed,policy", GAMES, ids=[f"{p.__name__}-{s}" for s, p in GAMES])
def test_every_action_gives_the_referees_next_state(seed, policy):
    """Apply a sample of the legal actions (always WAIT, COMPLETE and a GROW and SEED when
    offered) in a copy of the referee, the opponent waiting, and in the model: the next input
    the referee sends, parsed, must equal the model's state field by field (Zobrist key
    included: the incremental key must equal the one computed from scratch)."""
    rng = random.Random(seed * 7 + 1)
    compared = 0
    finals = 0
    for ref, player, seat, lines in positions(seed, policy, every=3):
        board = seat.board
        turn = io.parse_turn(lines, board)
        offered = list(turn.offered)
        sample = {"WAIT"}
        for kind in ("COMPLETE", "GROW", "SEED"):
            of_kind = [a for a in offered if a.startswith(kind)]
            if of_kind:
                sample.add(rng.choice(of_kind))
        for text in sorted(sample):
            clone = copy_spring_referee(ref)
            outputs = {player: text}
            for request in clone.requests():
                if request.player != player and request.expected_lines:
                    outputs[request.player] = "WAIT"
            clone.apply(outputs)
            predicted = model.apply(turn.state, io.parse_action(text, board), board)
            view = _next(clone, player)
            if view is None:
                outcome = clone.outcome()
                ours, theirs = model.final_scores(predicted)
                assert (ours, theirs) == (outcome.scores[player], outcome.scores[1 - player])
                finals += 1
                continue
            actual = io.parse_turn(view, board).state
            assert predicted._asdict() == actual._asdict(), f"seed {seed}: {text} on day {turn.state.day}"
            compared += 1
    assert compared > 30
    assert finals >= 1


def _next(ref, player: int) -> list[str] | None:
    buffer: list[str] = []
    while not ref.is_over:
        outputs = {}
        mine = None
        for request in ref.requests():
            if request.player == player:
                buffer += list(request.lines)
                if request.expected_lines:
                    mine = buffer
            elif request.expected_lines:
                outputs[request.player] = "WAIT"
        if mine is not None:
            return mine
        ref.apply(outputs)
    return None


def test_income_equals_the_referees_gathering_in_every_direction():
    """Shift-based shadows against the referee's per-cell shadow loop, all six directions, on
    positions of random games (both players' trees)."""
    checked = 0
    for seed in (11, 12, 13):
        for ref, player, seat, lines in positions(seed, random_policy, every=5):
            board = seat.board
            s = io.parse_turn(lines, board).state
            for d in range(6):
                state = ref.state.copy()
                state.sun_direction = d
                rules.compute_shadows(state)
                state.sun = [0, 0]
                given = rules.gather(state)
                mine = income(board.step[d], s.small, s.medium, s.tall, s.mine)
                opp = income(board.step[d], s.small, s.medium, s.tall, s.trees() & ~s.mine)
                assert (mine, opp) == (given[player], given[1 - player])
                checked += 1
    assert checked > 100
