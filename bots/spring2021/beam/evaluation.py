"""Two evaluations of a Spring Challenge 2021 state, both in final-score points for us.

*Final* (:func:`playout_value`, picks the move): the waiting playout of the contest post-mortem.
From the state, wait until the end of the game: trees stay as they are, each day's sun income is
counted with a decay of ``DECAY`` per day (later sun is less sure); then complete every tall tree
that is worth its 4 sun, richest cells first, with the nutrients pessimistically lowered by the
opponent's tall trees (they will complete them too); score ``sun / 3``; add a bonus for our seeds
by how much sun their cells get, and trees / 100 as the tie-break. Trees never move in a waiting
playout, so the six sun directions' incomes are computed once and weighted by how often (and how
early) each direction comes back before the end.

*Cheap* (:func:`quick_value`, orders the beam): the same terms, but the income of all remaining
days is estimated from tomorrow's alone (one shadow computation instead of six).
"""

from __future__ import annotations

from bots.spring2021.game.board import Board
from bots.spring2021.game.shadows import income
from bots.spring2021.game.state import MAX_DAYS, State, final_scores

__all__ = ["DECAY", "Weights", "playout_value", "quick_value", "final_value"]

DECAY = 0.95


class Weights:
    """Per-board tables that depend only on the day (built once per game)."""

    __slots__ = ("board", "direction_weight", "days_weight", "steps", "seed_value", "soil", "seed_weight")

    def __init__(self, board: Board, seed_value: float = 1.0, soil: float = 0.05) -> None:
        self.board = board
        self.steps = board.step
        self.seed_value = seed_value
        self.soil = soil
        # direction_weight[day][d]: sum of DECAY**k over the days day+1+k (k >= 0) before the
        # end whose sun points to d. days_weight[day]: the same summed over all directions.
        self.direction_weight = []
        self.days_weight = []
        for day in range(MAX_DAYS + 1):
            w = [0.0] * 6
            for k, later in enumerate(range(day + 1, MAX_DAYS)):
                w[later % 6] += DECAY**k
            self.direction_weight.append(w)
            self.days_weight.append(sum(w))
        # A seed is worth ``seed_value`` while it has time to grow (days left > 9), then less,
        # and nothing in the last four days.
        self.seed_weight = [
            seed_value * min(1.0, max(0.0, (MAX_DAYS - 1 - day - 3) / 6)) for day in range(MAX_DAYS + 1)
        ]


def _harvest(s: State, board: Board, sun: float) -> tuple[float, float]:
    """(points, sun left) from completing our tall trees at the end of the game, richest cells
    first, as many as ``sun`` pays for (4 each), the nutrients lowered first by the opponent's
    tall trees. Closed form: the ``k`` completions score ``N + (N-1) + ... `` (never below 0)
    plus their cells' bonuses."""
    tall = s.tall & s.mine
    if not tall or sun < 4:
        return 0.0, sun
    count = tall.bit_count()
    k = int(sun) >> 2
    if k > count:
        k = count
    nutrients = s.nutrients - (s.tall & ~s.mine).bit_count()
    if nutrients <= 0:
        points = 0
    elif k <= nutrients:
        points = k * nutrients - k * (k - 1) // 2
    else:
        points = nutrients * (nutrients + 1) // 2
    rich = board.rich
    lush = (tall & rich[3]).bit_count()
    if k <= lush:
        points += 4 * k
    else:
        ok = (tall & rich[2]).bit_count()
        points += 4 * lush + 2 * (k - lush if k - lush < ok else ok)
    return float(points), sun - 4 * k


def _extras(s: State, weights: Weights) -> float:
    """Seeds (worth less as the end nears), soil quality, and the tree count tie-break."""
    mine = s.mine
    rich = weights.board.rich
    value = mine.bit_count() / 100 + weights.soil * ((mine & rich[2]).bit_count() + 2 * (mine & rich[3]).bit_count())
    seeds = s.seeds & mine
    if seeds:
        value += weights.seed_weight[s.day] * seeds.bit_count()
    return value


def playout_value(s: State, weights: Weights) -> float:
    """The waiting playout's final score for us, from a state at the start of ``s.day`` (its
    sun already gathered): the move-picking evaluation."""
    if s.day >= MAX_DAYS:
        return final_value(s)
    board = weights.board
    t1, t2, t3, mine = s.small, s.medium, s.tall, s.mine
    sun = float(s.sun)
    w = weights.direction_weight[s.day]
    steps = weights.steps
    for d in range(6):
        if w[d]:
            sun += w[d] * income(steps[d], t1, t2, t3, mine)
    points, sun = _harvest(s, board, sun)
    return s.score + points + sun / 3 + _extras(s, weights)


def quick_value(s: State, weights: Weights) -> float:
    """The cheap estimate: like :func:`playout_value` with every remaining day's income taken
    equal to tomorrow's."""
    if s.day >= MAX_DAYS:
        return final_value(s)
    day = s.day + 1
    sun = float(s.sun)
    if day < MAX_DAYS:
        sun += weights.days_weight[s.day] * income(weights.steps[day % 6], s.small, s.medium, s.tall, s.mine)
    points, sun = _harvest(s, weights.board, sun)
    return s.score + points + sun / 3 + _extras(s, weights)


def final_value(s: State) -> float:
    """A finished game: our score (already including ``sun // 3``), plus 1000 for a win and
    500 for a draw, so that winning lines beat merely high-scoring ones."""
    ours, theirs = final_scores(s)
    return ours + (1000.0 if ours > theirs else 500.0 if ours == theirs else 0.0)
