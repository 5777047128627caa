"""How a ladder's ratings moved as its games came in: the ranking refitted over the first ``n``
games stored, for a few ``n`` up to all of them (the last point is the ranking ``arena ladder
show`` gives)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import referee

from ..store.records import BotState
from ..store.results import Store, StoreError
from .errors import LadderError
from .ranking import Played, rank
from .stored import find_ladder

__all__ = ["RatingPoint", "rating_history"]


@dataclass(frozen=True)
class RatingPoint:
    """Each ranked bot's rating (``None`` before its first game) after ``games`` stored games."""

    games: int
    ratings: dict[str, float | None]


def rating_history(db: str | Path, ladder_id: int | None = None, points: int = 20) -> list[RatingPoint]:
    """The ratings of ladder ``ladder_id`` (the latest of ``db``, opened read-only) after each
    ``len(games) / points`` games, in the order they were stored."""
    try:
        with Store(db, read_only=True) as store:
            ladder = find_ladder(store, ladder_id)
            records = sorted(store.games(ladder.id), key=lambda g: g.id or 0)
    except StoreError as exc:
        raise LadderError(str(exc)) from None
    played = [Played.of(r) for r in records]
    ranked = [(b.name, b.state) for b in ladder.in_state(BotState.ACTIVE, BotState.RETIRED)]
    players = referee.get(ladder.settings.game).player_count
    bots_of = {c.index: c.bots for c in ladder.comparisons}
    step = max(1, math.ceil(len(played) / max(1, points)))
    out = []
    for n in range(step, len(played) + step, step):
        n = min(n, len(played))
        ranking = rank(played[:n], ranked, players=players, bots_of=bots_of)
        ratings = {b.name: (b.rating if b.games and math.isfinite(b.rating) else None) for b in ranking.bots}
        out.append(RatingPoint(n, ratings))
    return out
