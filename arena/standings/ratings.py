"""How a ladder's ratings moved as its games came in: the ranking refitted over the first ``n``
games stored, for a few ``n`` up to all of them (the last point is the ranking ``arena ladder
show`` gives). The ladder's games are read by :func:`arena.ladder.commands.rating_history`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .ranking import Played, rank

__all__ = ["RatingPoint", "rating_history"]


@dataclass(frozen=True)
class RatingPoint:
    """Each ranked bot's rating (``None`` before its first game) after ``games`` stored games."""

    games: int
    ratings: dict[str, float | None]


def rating_history(
    played: Sequence[Played],
    ranked: Sequence[tuple[str, str]],
    *,
    players: int = 2,
    bots_of: Mapping[int, tuple[str, ...]] | None = None,
    points: int = 20,
) -> list[RatingPoint]:
    """The ratings of the ``ranked`` bots ((name, state), as :func:`.ranking.rank` takes them)
    after each ``len(played) / points`` of the games ``played``, in the order given (the order
    they were stored)."""
    step = max(1, math.ceil(len(played) / max(1, points)))
    out = []
    for n in range(step, len(played) + step, step):
        n = min(n, len(played))
        ranking = rank(played[:n], ranked, players=players, bots_of=bots_of)
        ratings = {b.name: (b.rating if b.games and math.isfinite(b.rating) else None) for b in ranking.bots}
        out.append(RatingPoint(n, ratings))
    return out
