"""The Fall Challenge 2020 bots at every league level, in process against the referee.

The lower levels show less (no tome, no spells, no urgency bonus) and understand fewer commands: a
bot that answers a command its level lacks is disqualified. Here the bots' own reader parses the
exact input of each level; the model's legal actions must be exactly the referee's, and the
greedy policy and the random bot must only ever answer one of them. (Run as processes, beam and
bfs included, the shipped bots were checked the same way through the arena: none refused, none
disqualified, at any level.)
"""

from __future__ import annotations

import random

import pytest

import referee
from bots.fall2020 import random_bot
from bots.fall2020.game import model
from bots.fall2020.game.io import Tracker
from bots.fall2020.greedy.policy import choose as greedy_choose


def greedy(tracker: Tracker, lines: list[str], legal: list[str], rng: random.Random) -> str:
    table, state = tracker.position(lines)
    assert {model.action_text(table, 0, a) for a in model.legal_actions(table, state, 0)} == set(legal), lines
    return model.action_text(table, 0, greedy_choose(table, state))


def randomly(tracker: Tracker, lines: list[str], legal: list[str], rng: random.Random) -> str:
    count = int(lines[0])
    rows = [line.split() for line in lines[1 : 1 + count]]
    inventory = [int(x) for x in lines[1 + count].split()[:4]]
    return random_bot.choose(rows, inventory, rng)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bots_play_every_level_legally(level: int, seed: int) -> None:
    ref = referee.create("fall2020", seed, {"league": str(level)})
    trackers = [Tracker(), Tracker()]
    rng = random.Random(seed)
    policies = [greedy, randomly] if seed % 2 else [randomly, greedy]
    while not ref.is_over:
        answers = {}
        for p in (0, 1):
            legal = ref.legal_actions(p)
            answer = policies[p](trackers[p], ref.input_lines(p), legal, rng)
            assert answer in legal, (level, ref.turn, p, answer)
            answers[p] = answer
        report = ref.apply(answers)
        assert not report.errors and not report.deactivations
    outcome = ref.outcome()
    assert outcome is not None and outcome.end_reason.value in ("delivery_goal", "max_turns")
