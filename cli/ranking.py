"""How a ranking (:class:`arena.standings.ranking.Ranking`) is printed: one table, the same for a
tournament's report (``arena results``, ``arena tournament``) and a ladder (``arena ladder
show``), and the same cells on the dashboard.

Two-player games are ranked by a Bradley-Terry fit: the rating and its 95% interval are Elo
(mean 0 over the ranked bots), rounded to a whole point. N-player games are ranked with
openskill: the rating is ``mu``, with two decimals. ``P(above next)`` is the probability that the
bot is above the one ranked next.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .common import fmt
from .tables import Column, render

if TYPE_CHECKING:
    from arena.standings.ranking import RankedBot, Ranking

__all__ = ["RANKING_COLUMNS", "STATE_COLUMN", "model_name", "heading", "ranking_cells", "ranking_table"]

RANKING_COLUMNS = (
    Column("rank"),
    Column("bot", "<"),
    Column("rating"),
    Column("95% interval", "<"),
    Column("games"),
    Column("score"),
    Column("P(above next)"),
)
STATE_COLUMN = Column("state", "<")
"""A ladder's bots are active or retired; a tournament's have no state (no such column)."""


def model_name(ranking: Ranking) -> str:
    """The model that ranks, in two words: ``Bradley-Terry, Elo scale`` or ``openskill,
    Plackett-Luce``."""
    return "Bradley-Terry, Elo scale" if ranking.fit is not None else "openskill, Plackett-Luce"


def heading(ranking: Ranking, counted_only: bool = False) -> str:
    """The line above a tournament's ranking: ``ranking (Bradley-Terry, Elo scale):``, with
    ``counted games only`` when some stored games are not counted."""
    return f"ranking ({model_name(ranking)}{', counted games only' if counted_only else ''}):"


def ranking_cells(b: RankedBot, two_player: bool) -> list[str]:
    """One bot's cells under :data:`RANKING_COLUMNS`: ``1``, ``greedy``, ``+134``,
    ``[-150, +418]``, ``4``, ``100.0%``, ``0.88`` (the last one's ``P(above next)`` is empty, as
    is the score of a bot without games)."""
    spec = "+.0f" if two_player else ".2f"
    rating, interval = fmt(b.rating, spec), f"[{fmt(b.low, spec)}, {fmt(b.high, spec)}]"
    return [
        str(b.rank),
        b.name,
        rating,
        interval,
        str(b.games),
        "" if b.score is None else f"{100 * b.score:.1f}%",
        "" if b.above_next is None else f"{b.above_next:.2f}",
    ]


def ranking_table(ranking: Ranking, shown: Iterable[str] | None = None, *, states: bool = False) -> list[str]:
    """The header and one line per bot of ``ranking`` (of ``shown``, default all), best first;
    with ``states`` a last column says which bots are not active (a ladder's retired ones)."""
    keep = None if shown is None else set(shown)
    two = ranking.fit is not None
    rows = []
    for b in ranking.bots:
        if keep is None or b.name in keep:
            cells = ranking_cells(b, two)
            rows.append([*cells, "" if b.state == "active" else b.state] if states else cells)
    return render([*RANKING_COLUMNS, STATE_COLUMN] if states else list(RANKING_COLUMNS), rows)
