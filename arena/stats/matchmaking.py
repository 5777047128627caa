"""The ladder's matchmaking: which two bots play the next pair of games, and when to stop.

Every choice is one *pair* of games (both seats of one map) between two of the ``active`` bots,
made from the current :class:`~arena.stats.ladder.LadderFit` (over all stored games, so that it
knows each bot's games, the games between each two bots, the ratings and their covariance).

The rule of :func:`next_pair`, in order
    1. **Placement.** A bot with fewer than ``min_games`` games (counted over all its games in the
       fit, retired opponents included) plays first; of several, the one with the fewest games
       (ties: ``rng``). Its ``j``-th placement pair (``j = its games // 2``, from 0) is against an
       opponent spread over the ranking, not only its neighbours: the candidates are the other
       active bots that have ``min_games`` games (all other active bots if none has), in ranking
       order, indexed 0 (best) to ``m - 1``; the target position is ``v(j + 1) (m - 1)`` where
       ``v`` is the van der Corput sequence 1/2, 1/4, 3/4, 1/8, 5/8, 3/8, 7/8, ... (the middle
       of the ranking first, then the top and bottom quarters, ...); the opponent is the candidate
       with the fewest games against the new bot, then the nearest to the target position (ties:
       ``rng``).
    2. **Ordering.** Otherwise the pair goes to the two bots, adjacent in the ranking of the
       active bots, whose order is least certain, weighted by how much one more pair of games
       between them would tell. For adjacent bots ``a`` above ``b`` with estimated difference
       ``d``, ``v = Var(r_a - r_b)`` and ``P = P(a above b)`` (from the fit's joint estimate), one
       more pair adds the information ``w = 2 p (1 - p) k^2 / phi`` along ``r_a - r_b``
       (``p = L(d)``, ``k = ln 10 / 400``, ``phi`` the fit's dispersion), so the variance of the
       difference would become ``v' = v / (1 + w v)``. The pair with the highest::

           priority = min(P, 1 - P) * (1 - sqrt(v' / v))

       plays: the probability that the two are in the wrong order, times the fraction by which
       one more pair would shrink the standard deviation of their difference. Ties (equal
       priorities): ``rng``. A coin-flip pair that has played little comes first; two bots of
       equal strength that have already played each other very often do not take every pair
       (their share ``1 - sqrt(v'/v)`` falls like 1 / their games), so the other pairs are settled
       too. On ``benchmarks/ladder_model.py`` this rule needed fewer games than a one-step
       look-ahead (which keeps feeding a coin flip) and stopped in a wrong order less often than
       the unweighted "P closest to 1/2" (which brings every pair only just to the threshold).

    With fewer than 2 active bots there is no pair (``ValueError``).

Stopping: :func:`confident` holds when every two bots adjacent in the ranking (of the given
bots, all of the fit's by default) are ordered with probability at least ``threshold``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .elo import expected_score
from .ladder import ELO_PER_NATURAL_UNIT, LadderFit

__all__ = ["MIN_GAMES", "Pairing", "next_pair", "confident", "order_priority", "van_der_corput"]

MIN_GAMES = 10
"""Default number of games a bot plays before the ladder counts it as placed (5 pairs)."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class Pairing:
    """The next pair of games: ``a`` against ``b``, both seats of one map."""

    a: str
    b: str
    kind: str
    """``"placement"`` (``a`` is a new bot) or ``"order"`` (``a`` is ranked just above ``b``)."""
    reason: str
    """Why, in one line."""


def van_der_corput(k: int) -> float:
    """The ``k``-th term (k >= 1) of the base-2 van der Corput sequence: 1/2, 1/4, 3/4, 1/8, ..."""
    if k < 1:
        raise ValueError(f"the sequence starts at k = 1, not {k}")
    out, scale = 0.0, 0.5
    while k:
        out += scale * (k & 1)
        k >>= 1
        scale /= 2.0
    return out


def order_priority(prob: float, var: float, info: float) -> float:
    """``min(P, 1 - P) (1 - sqrt(v' / v))`` with ``v' = v / (1 + info v)``: the priority of an
    adjacent pair with ``P(upper above lower) = prob``, ``Var(difference) = var`` (Elo^2), that
    one more pair of games would inform by ``info`` (Elo^-2)."""
    if var <= 0.0 or info <= 0.0:
        return 0.0
    return min(prob, 1.0 - prob) * (1.0 - 1.0 / math.sqrt(1.0 + info * var))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ranked(fit: LadderFit, bots: Iterable[str]) -> list[str]:
    """``bots`` in the fit's ranking order (``ValueError`` for a bot the fit does not know)."""
    wanted = set(bots)
    unknown = sorted(wanted - set(fit.names))
    if unknown:
        raise ValueError(f"not in the ladder's fit: {', '.join(unknown)} (pass them to fit_ladder's bots)")
    return [name for name in fit.order if name in wanted]


def _pick(rng: random.Random, candidates: Sequence[_T]) -> _T:
    """The only candidate, or one drawn with ``rng``."""
    return candidates[0] if len(candidates) == 1 else candidates[rng.randrange(len(candidates))]


def _placement(fit: LadderFit, ranking: list[str], rng: random.Random, min_games: int) -> Pairing | None:
    games = {name: fit.rating(name).games for name in ranking}
    new = [name for name in ranking if games[name] < min_games]
    if not new:
        return None
    fewest = min(games[name] for name in new)
    bot = _pick(rng, sorted(name for name in new if games[name] == fewest))
    others = [name for name in ranking if name != bot]
    placed = [name for name in others if games[name] >= min_games]
    candidates = placed or others
    target = van_der_corput(games[bot] // 2 + 1) * (len(candidates) - 1)
    keys = {name: (fit.games_between(bot, name), abs(i - target)) for i, name in enumerate(candidates)}
    best = min(keys.values())
    opponent = _pick(rng, [name for name in candidates if keys[name] == best])
    rank = ranking.index(opponent) + 1 - (ranking.index(opponent) > ranking.index(bot))
    return Pairing(
        bot,
        opponent,
        "placement",
        f"new bot {bot} ({games[bot]} of {min_games} games): placement pair against {opponent}, "
        f"ranked {_ordinal(rank)} of {len(others)}",
    )


def next_pair(
    fit: LadderFit,
    active: Collection[str],
    rng: random.Random,
    *,
    min_games: int = MIN_GAMES,
) -> Pairing:
    """The next pair of games between two of the ``active`` bots and why (the rule is in the
    module docstring). Every active bot must be in ``fit`` (``fit_ladder(..., bots=active)``);
    ``rng`` only breaks exact ties."""
    ranking = _ranked(fit, active)
    if len(ranking) < 2:
        raise ValueError(f"a pair needs two active bots, there are {len(ranking)}")
    placement = _placement(fit, ranking, rng, min_games)
    if placement is not None:
        return placement
    scored: list[tuple[float, float, str, str]] = []
    for a, b in itertools.pairwise(ranking):
        prob = fit.prob_above(a, b)
        p = expected_score(fit.rating(a).elo - fit.rating(b).elo)
        info = 2.0 * p * (1.0 - p) / (fit.dispersion * ELO_PER_NATURAL_UNIT**2)
        scored.append((order_priority(prob, fit.diff_variance(a, b), info), prob, a, b))
    best = max(priority for priority, _, _, _ in scored)
    _, prob, a, b = _pick(rng, [entry for entry in scored if entry[0] == best])
    rank = ranking.index(a) + 1
    return Pairing(
        a,
        b,
        "order",
        f"least certain adjacent pair: P({a} above {b}) = {prob:.2f} (ranked {_ordinal(rank)} and "
        f"{_ordinal(rank + 1)} of {len(ranking)}), priority {best:.2g}",
    )


def confident(fit: LadderFit, threshold: float = 0.95, among: Iterable[str] | None = None) -> bool:
    """Whether every two bots adjacent in the ranking of ``among`` (default: every bot of the
    fit) are ordered with probability at least ``threshold`` (``P(upper above lower)`` from the
    joint estimate). True with fewer than two bots."""
    ranking = _ranked(fit, fit.names if among is None else among)
    return all(fit.prob_above(a, b) >= threshold for a, b in itertools.pairwise(ranking))
