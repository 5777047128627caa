"""Greedy one-action search with the opponent's best immediate reply."""

from __future__ import annotations

import heapq
from collections.abc import Iterator

import hexgrid
from actions import Action, Attack, Heal, Move, Wait
from board import Board
from evaluation import evaluate
from units import Healer, Unit

SHORTLIST = 6  # actions examined with the opponent's reply
stats = {"actions": 0, "replies": 0}


def candidate_actions(board: Board, unit: Unit) -> Iterator[Action]:
    for target in unit.targets(board):
        yield Attack(unit.uid, target.uid)
    if isinstance(unit, Healer):
        for patient in unit.patients(board):
            yield Heal(unit.uid, patient.uid)
    for h in unit.moves(board):
        yield Move(unit.uid, h)


def simulate(board: Board, action: Action) -> Board:
    after = board.copy()
    action.apply(after)
    stats["actions"] += 1
    return after


def worst_reply(board: Board, me: int) -> float:
    """The evaluation after the opponent's most damaging single attack."""
    worst = evaluate(board, me)
    for enemy in sorted(board.enemies_of(me), key=lambda u: u.uid):
        for target in enemy.targets(board):
            stats["replies"] += 1
            after = simulate(board, Attack(enemy.uid, target.uid))
            worst = min(worst, evaluate(after, me))
    return worst


def choose(board: Board, me: int) -> tuple[Action, float]:
    scored: list[tuple[float, int, Action]] = []
    order = 0
    for unit in sorted(board.units_of(me), key=lambda u: u.uid):
        for action in candidate_actions(board, unit):
            scored.append((-evaluate(simulate(board, action), me), order, action))
            order += 1
    if not scored:
        return Wait(-1), evaluate(board, me)
    best: tuple[float, Action] | None = None
    for neg, _, action in heapq.nsmallest(SHORTLIST, scored):
        value = worst_reply(simulate(board, action), me) * 0.5 - neg * 0.5
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1], best[0]


def material(board: Board, me: int) -> tuple[int, int]:
    """Hit points on each side (debug)."""
    return sum(u.hp for u in board.units_of(me)), sum(u.hp for u in board.enemies_of(me))


def frontline(board: Board, me: int) -> int:
    """How many of my units stand next to an enemy (debug)."""
    enemies = {u.pos for u in board.enemies_of(me)}
    return sum(1 for u in board.units_of(me) if any(n in enemies for n in hexgrid.neighbors(u.pos)))
