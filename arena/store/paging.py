"""One page of a tournament's games, filtered in SQL: what a list of 100,000 games shows without
reading them all. The filters mean what :class:`arena.store.browse.GameFilter` means (a
bot, its result, a player's status), plus a seed and conditions on the referee's facts about the
game (:mod:`arena.store.where`); the games come in id order, as ``arena matches list`` lists
them. The database is opened read-only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .browse import GameFilter, UnknownBot, find_tournament
from .records import GameRecord, TournamentRow
from .results import Store
from .where import Condition, matches

__all__ = ["GamePage", "game_page"]

_SHARED_FIRST = (
    "SELECT q.comparison, q.pair, q.leg FROM game_players q WHERE q.tournament_id = ? AND q.rank = 0"
    " GROUP BY q.comparison, q.pair, q.leg HAVING COUNT(*) > 1"
)
"""The games (keys) whose first place is shared: a draw for those ranked first."""
_RESULT = {
    "win": f"p.rank = 0 AND (p.comparison, p.pair, p.leg) NOT IN ({_SHARED_FIRST})",
    "draw": f"p.rank = 0 AND (p.comparison, p.pair, p.leg) IN ({_SHARED_FIRST})",
    "loss": "p.rank > 0",
}
_NEEDS_TID = {"win": 1, "draw": 1, "loss": 0}


@dataclass(frozen=True)
class GamePage:
    """The games of one page, the number of games the filter chose in all, and the tournament's
    number of games."""

    tournament: TournamentRow
    games: tuple[GameRecord, ...]
    matching: int
    total: int
    offset: int
    limit: int


def _facts(text: str | None) -> dict[str, int | str] | None:
    """A game's stored ``meta`` column (JSON) as the referee's facts."""
    value = json.loads(text) if text else None
    return value if isinstance(value, dict) else None


def _where(tid: int, which: GameFilter, seed: int | None) -> tuple[str, list[Any]]:
    """The SQL condition on ``games g`` for the filter, and its arguments. A condition on the
    players is a set of game keys chosen from ``game_players`` once (not a subquery per game)."""
    clauses: list[str] = ["g.tournament_id = ?"]
    args: list[Any] = [tid]
    if seed is not None:
        clauses.append("g.seed = ?")
        args.append(seed)
    bot, bot_args = ("", []) if which.bot is None else (" AND p.bot = ?", [which.bot])
    chosen: list[tuple[str, list[Any]]] = []
    if which.status is not None:
        chosen.append((f"p.status = ?{bot}", [which.status, *bot_args]))
    if which.result is not None:
        chosen.append((f"{_RESULT[which.result]}{bot}", [tid] * _NEEDS_TID[which.result] + bot_args))
    if not chosen and which.bot is not None:
        chosen.append(("p.bot = ?", bot_args))
    for condition, values in chosen:
        clauses.append(
            "(g.comparison, g.pair, g.leg) IN (SELECT p.comparison, p.pair, p.leg FROM game_players p"
            f" WHERE p.tournament_id = ? AND {condition})"
        )
        args += [tid, *values]
    return " AND ".join(clauses), args


def game_page(
    db: str | Path,
    tid: int | None = None,
    which: GameFilter | None = None,
    *,
    seed: int | None = None,
    facts: Sequence[Condition] = (),
    offset: int = 0,
    limit: int = 50,
) -> GamePage:
    """The games ``offset`` to ``offset + limit`` of tournament ``tid`` (default: the latest) of
    ``db`` that ``which``, ``seed`` and the conditions ``facts`` on the referee's facts choose.
    Raises :class:`UnknownBot` for a bot the tournament does not have, and
    :class:`arena.store.results.StoreError` (one line) when the database cannot be read."""
    which = which or GameFilter()
    with Store(db, read_only=True) as store:
        row = find_tournament(store, tid)
        if which.bot is not None and which.bot not in {b.name for b in store.bots(row.id)}:
            names = ", ".join(sorted(b.name for b in store.bots(row.id)))
            raise UnknownBot(f"no bot {which.bot!r} in tournament {row.id} (bots: {names})")
        where, args = _where(row.id, which, seed)
        if facts:
            rows = store.select(f"SELECT g.rowid, g.meta FROM games g WHERE {where} ORDER BY g.rowid", args)
            ids = [r[0] for r in rows if matches(facts, _facts(r[1]))]
            matching, chosen = len(ids), ids[offset : offset + limit]
        else:
            matching = int(store.select(f"SELECT COUNT(*) FROM games g WHERE {where}", args)[0][0])
            page = f"SELECT g.rowid FROM games g WHERE {where} ORDER BY g.rowid LIMIT ? OFFSET ?"
            chosen = [r[0] for r in store.select(page, [*args, limit, offset])]
        games = []
        for game_id in chosen:
            found = store.game(game_id)
            if found is not None:
                games.append(found[1])
        total = store.count_games(row.id)
    return GamePage(row, tuple(games), matching, total, offset, limit)
