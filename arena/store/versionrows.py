"""The store's methods on bot versions, the ``versions`` table and ``bots.version``. They are
methods of :class:`arena.store.results.Store` that record, find, count and delete versions, in
one transaction each. What a version is, and the rules for recording and removing one:
:mod:`arena.versions.registry`."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .database import Database, guarded
from .records import VersionGames, VersionRow

__all__ = ["VersionRows"]

_SELECT_VERSION = "SELECT id, name, number, hash, created, origin, frozen FROM versions"

_SAME_GAME = "o.tournament_id = p.tournament_id AND o.comparison = p.comparison AND o.pair = p.pair AND o.leg = p.leg"
_VERSION_GAMES = f"""
SELECT version, COUNT(*), SUM(players = 2 AND rank < other), SUM(players = 2 AND rank = other),
       SUM(players = 2 AND rank > other)
FROM (
    SELECT b.version AS version, p.rank AS rank,
           (SELECT COUNT(*) FROM game_players o WHERE {_SAME_GAME}) AS players,
           (SELECT MIN(o.rank) FROM game_players o WHERE {_SAME_GAME} AND o.seat != p.seat) AS other
    FROM bots b JOIN game_players p ON p.tournament_id = b.tournament_id AND p.bot = b.name
    WHERE b.version IS NOT NULL
)
GROUP BY version ORDER BY version
"""
"""Each version's games, one per seat its bots played: all of them, and the two-player ones won,
drawn and lost (the other player's rank against its own)."""


def _version_row(row: Sequence[Any]) -> VersionRow:
    vid, name, number, digest, created, origin, frozen = row  # the columns of _SELECT_VERSION
    return VersionRow(vid, name, number, digest, created, origin, json.loads(frozen))


class VersionRows:
    """The methods of :class:`arena.store.results.Store` on bot versions (a mixin: the store opens
    the database)."""

    path: Path
    read_only: bool
    _database: Database
    _db: sqlite3.Connection

    @guarded
    def add_version(self, name: str, digest: str, frozen: dict[str, Any], origin: str) -> VersionRow:
        """The version of ``name`` whose content hash is ``digest``: the one recorded already,
        else a new one numbered after the name's others, in one transaction (processes recording
        the same version at once record it once)."""
        with self._database.transaction():
            row = self._db.execute(f"{_SELECT_VERSION} WHERE name = ? AND hash = ?", (name, digest)).fetchone()
            if row is not None:
                return _version_row(row)
            (number,) = self._db.execute(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE name = ?", (name,)
            ).fetchone()
            when = time.time()
            cur = self._db.execute(
                "INSERT INTO versions (name, number, hash, created, origin, frozen) VALUES (?, ?, ?, ?, ?, ?)",
                (name, number, digest, when, origin, json.dumps(frozen, sort_keys=True)),
            )
            assert cur.lastrowid is not None  # set by the INSERT just executed
            return VersionRow(cur.lastrowid, name, int(number), digest, when, origin, dict(frozen))

    @guarded
    def versions(self, name: str | None = None) -> list[VersionRow]:
        """Every recorded version (of ``name`` only, when given), by name and number."""
        where, args = ("", ()) if name is None else (" WHERE name = ?", (name,))
        return [_version_row(r) for r in self._db.execute(f"{_SELECT_VERSION}{where} ORDER BY name, number", args)]

    @guarded
    def version(self, vid: int) -> VersionRow | None:
        row = self._db.execute(f"{_SELECT_VERSION} WHERE id = ?", (vid,)).fetchone()
        return None if row is None else _version_row(row)

    @guarded
    def version_names(self) -> list[str]:
        """The names that have recorded versions, sorted."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT name FROM versions ORDER BY name")]

    @guarded
    def find_versions(self, name: str, *, number: int | None = None, prefix: str | None = None) -> list[VersionRow]:
        """The versions of ``name`` numbered ``number``, or whose hash starts with ``prefix``
        (hexadecimal digits, any case), by number."""
        where, args = ["name = ?"], [name]  # type: tuple[list[str], list[str | int]]
        if number is not None:
            where.append("number = ?")
            args.append(number)
        if prefix is not None:
            where.append("substr(hash, 1, ?) = ?")
            args += [len(prefix), prefix.lower()]
        sql = f"{_SELECT_VERSION} WHERE {' AND '.join(where)} ORDER BY number"
        return [_version_row(r) for r in self._db.execute(sql, args)]

    @guarded
    def versions_with_hash(self, digest: str) -> list[VersionRow]:
        """The versions, of any name, whose content hash is ``digest`` (they share one snapshot)."""
        return [_version_row(r) for r in self._db.execute(f"{_SELECT_VERSION} WHERE hash = ? ORDER BY id", (digest,))]

    @guarded
    def set_bot_version(self, tid: int, name: str, vid: int | None) -> None:
        """Note that bot ``name`` of tournament or ladder ``tid`` plays the version ``vid``."""
        with self._database.transaction():
            self._db.execute("UPDATE bots SET version = ? WHERE tournament_id = ? AND name = ?", (vid, tid, name))

    @guarded
    def version_bots(self) -> list[tuple[int, int, str]]:
        """``(version id, tournament id, bot name)`` for every bot that plays a recorded version,
        by version, tournament and the order the bots joined."""
        rows = self._db.execute(
            "SELECT version, tournament_id, name FROM bots WHERE version IS NOT NULL"
            " ORDER BY version, tournament_id, rowid"
        )
        return [(int(v), int(t), str(n)) for v, t, n in rows]

    @guarded
    def version_games(self) -> list[VersionGames]:
        """The stored games of each version that has any (its bots' rows in ``game_players``, by
        tournament and bot name), by version id."""
        return [VersionGames(*(int(x) for x in r)) for r in self._db.execute(_VERSION_GAMES)]

    @guarded
    def delete_version(self, vid: int) -> bool:
        """Delete the version ``vid`` unless a bot plays it (in one statement); whether it was."""
        with self._database.transaction():
            cur = self._db.execute(
                "DELETE FROM versions WHERE id = ? AND NOT EXISTS (SELECT 1 FROM bots WHERE version = ?)", (vid, vid)
            )
            return cur.rowcount == 1
