"""Tournament results in one SQLite file: tournaments, bots, comparisons and games, with one row
per player of each game (``game_players``: seat, bot, score, rank, status, timings) and one per bot
of each comparison (``comparison_bots``), so games of any number of players fit, and the bot
versions the arena froze (``versions``: the store's methods on them are :mod:`.versionrows`). The
records it reads and writes are :mod:`arena.store.records`; the file itself (opening, schema,
migrations, transactions, errors) is :mod:`arena.store.database`.

Each finished game is written in its own transaction (``INSERT OR IGNORE`` on its key: comparison,
pair, leg), so a tournament killed at any moment loses at most the games in progress and never
holds a half-written or duplicated game; a kept replay file is written under its final name
inside that transaction, so no stored game points to a missing file. The database runs in WAL
mode: readers (``arena results``) see a running tournament without blocking it. A tournament
stored as running that no run holds is reported interrupted (its run was killed, or could not
write). Which process plays a tournament is kept by :mod:`.runlock`.

Every column of ``games``, ``game_players`` and ``bots`` is named once, beside the record field it
holds (:mod:`.columns`): the INSERTs and SELECTs are made from them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from .columns import (
    BOT_COLUMNS,
    GAME_COLUMNS,
    INSERT_BOT,
    INSERT_GAME,
    INSERT_PLAYER,
    KEY,
    PLAYER_COLUMNS,
    SqlColumn,
    names,
)
from .database import BUSY_TIMEOUT_S, Database, StoreError, explain, guarded
from .records import (
    BotRow,
    BotState,
    ComparisonRow,
    GameRecord,
    PickRow,
    PlayerRecord,
    RunnerRow,
    TournamentRow,
    TournamentStatus,
)
from .runlock import held
from .schema import SCHEMA_VERSION
from .versionrows import VersionRows

__all__ = [
    "Store",
    "StoreError",
    "SCHEMA_VERSION",
    "BUSY_TIMEOUT_S",
    "explain",
    "SqlColumn",
    "GAME_COLUMNS",
    "PLAYER_COLUMNS",
    "KeptReplay",
]


KeptReplay = Callable[[int, GameRecord], str]
"""Writes a game's replay file once the game has its id (``(id, record) -> path``), inside the
transaction that stores the game: if it fails, the game is not stored either."""


class Store(VersionRows):
    """An open results database. Use as a context manager, or call :meth:`close`. Its methods on
    bot versions are :class:`.versionrows.VersionRows`'s."""

    def __init__(self, path: str | Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open the results database ``path``, creating it (and its schema) unless ``create`` is
        false or ``read_only``; ``read_only`` opens it for reading and never writes to it."""
        self._database = Database(path, create=create, read_only=read_only)
        self.path = self._database.path
        self.read_only = read_only
        self._db = self._database.conn

    def close(self) -> None:
        self._database.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tournaments -----------------------------------------------------------------------------

    @guarded
    def create_tournament(
        self,
        key: str,
        settings: dict[str, Any],
        games_target: int,
        referee_version: str,
        bots: Iterable[BotRow],
        comparisons: Iterable[tuple[int, Sequence[str]]],
    ) -> int:
        now = time.time()
        with self._database.transaction():
            cur = self._db.execute(
                "INSERT INTO tournaments (key, settings, status, games_target, referee_version, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, json.dumps(settings), TournamentStatus.RUNNING.value, games_target, referee_version, now, now),
            )
            assert cur.lastrowid is not None  # set by the INSERT just executed
            tid = cur.lastrowid
            self._insert_bots(tid, bots)
            self._insert_comparisons(tid, comparisons)
        return tid

    def _insert_bots(self, tid: int, bots: Iterable[BotRow]) -> None:
        rows = [(tid, *(c.to_sql(getattr(b, c.field)) for c in BOT_COLUMNS)) for b in bots]
        self._db.executemany(INSERT_BOT, rows)

    def _insert_comparisons(self, tid: int, comparisons: Iterable[tuple[int, Sequence[str]]]) -> None:
        comparisons = list(comparisons)
        self._db.executemany(
            "INSERT INTO comparisons (tournament_id, idx) VALUES (?, ?)", [(tid, i) for i, _ in comparisons]
        )
        self._db.executemany(
            "INSERT INTO comparison_bots (tournament_id, idx, position, bot) VALUES (?, ?, ?, ?)",
            [(tid, i, position, bot) for i, group in comparisons for position, bot in enumerate(group)],
        )

    @guarded
    def update_tournament(
        self,
        tid: int,
        *,
        status: TournamentStatus | None = None,
        games_target: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        sets: dict[str, float | str] = {"updated": time.time()}
        if status is not None:
            sets["status"] = status.value
        if games_target is not None:
            sets["games_target"] = games_target
        if settings is not None:
            sets["settings"] = json.dumps(settings)
        columns = ", ".join(f"{name} = ?" for name in sets)
        with self._database.transaction():
            self._db.execute(f"UPDATE tournaments SET {columns} WHERE id = ?", (*sets.values(), tid))

    @guarded
    def tournament(self, tid: int) -> TournamentRow | None:
        row = self._db.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
        return self._tournament_row(row) if row else None

    @guarded
    def tournaments(self) -> list[TournamentRow]:
        return [self._tournament_row(r) for r in self._db.execute("SELECT * FROM tournaments ORDER BY id")]

    @guarded
    def latest(self) -> TournamentRow | None:
        row = self._db.execute("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
        return self._tournament_row(row) if row else None

    def _tournament_row(self, row: Sequence[Any]) -> TournamentRow:
        """A stored tournament. One stored as running that no run holds (see :mod:`.runlock`)
        is reported interrupted: its run ended without saying so (killed, or on a full disk)."""
        status = row[3]
        if status == TournamentStatus.RUNNING.value and held(self.path, row[0]) is False:
            status = TournamentStatus.INTERRUPTED.value
        return TournamentRow(
            id=row[0],
            key=row[1],
            settings=json.loads(row[2]),
            status=status,
            games_target=row[4],
            referee_version=row[5],
            created=row[6],
            updated=row[7],
        )

    @guarded
    def bots(self, tid: int) -> list[BotRow]:
        """The bots of tournament or ladder ``tid``, in the order they joined."""
        sql = f"SELECT {names(BOT_COLUMNS)} FROM bots WHERE tournament_id = ? ORDER BY rowid"
        return [
            BotRow(**{c.field: c.from_sql(v) for c, v in zip(BOT_COLUMNS, r)}) for r in self._db.execute(sql, (tid,))
        ]

    # -- ladders: bots that come and go, comparisons made as pairs are met --------------------------

    @guarded
    def add_bot(self, tid: int, bot: BotRow) -> None:
        """Add a bot to ladder ``tid`` (its name must be new there)."""
        with self._database.transaction():
            self._insert_bots(tid, [bot])

    @guarded
    def set_bot_state(self, tid: int, name: str, state: BotState) -> None:
        with self._database.transaction():
            self._db.execute("UPDATE bots SET state = ? WHERE tournament_id = ? AND name = ?", (state.value, tid, name))

    @guarded
    def rename_bot(self, tid: int, old: str, new: str) -> None:
        """Rename a bot everywhere in ladder ``tid`` (its row, its comparisons, its games), in
        one transaction."""
        with self._database.transaction():
            for table in ("comparison_bots", "game_players"):
                self._db.execute(f"UPDATE {table} SET bot = ? WHERE tournament_id = ? AND bot = ?", (new, tid, old))
            self._db.execute("UPDATE bots SET name = ? WHERE tournament_id = ? AND name = ?", (new, tid, old))

    @guarded
    def add_comparison(self, tid: int, index: int, bots: Sequence[str]) -> None:
        with self._database.transaction():
            self._insert_comparisons(tid, [(index, bots)])

    @guarded
    def add_pick(self, tid: int, pick: PickRow) -> None:
        """Note why a pair of games was chosen (kept: a pick already noted is not changed)."""
        with self._database.transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO picks (tournament_id, comparison, pair, reason, picked) VALUES (?, ?, ?, ?, ?)",
                (tid, pick.comparison, pick.pair, pick.reason, pick.picked),
            )

    @guarded
    def picks(self, tid: int, limit: int | None = None) -> list[PickRow]:
        """The picks of ladder ``tid``, latest first (the ``limit`` latest)."""
        rows = self._db.execute(
            "SELECT comparison, pair, reason, picked FROM picks WHERE tournament_id = ?"
            " ORDER BY picked DESC, comparison DESC, pair DESC LIMIT ?",
            (tid, -1 if limit is None else limit),
        )
        return [PickRow(*r) for r in rows]

    @guarded
    def comparisons(self, tid: int) -> list[ComparisonRow]:
        bots: dict[int, list[str]] = {}
        for idx, bot in self._db.execute(
            "SELECT idx, bot FROM comparison_bots WHERE tournament_id = ? ORDER BY idx, position", (tid,)
        ):
            bots.setdefault(idx, []).append(bot)
        return [
            ComparisonRow(idx, tuple(bots.get(idx, ())), decision, at)
            for idx, decision, at in self._db.execute(
                "SELECT idx, decision, decided_at_pair FROM comparisons WHERE tournament_id = ? ORDER BY idx", (tid,)
            )
        ]

    @guarded
    def set_decision(self, tid: int, comparison: int, decision: str, at_pair: int) -> None:
        with self._database.transaction():
            self._db.execute(
                "UPDATE comparisons SET decision = ?, decided_at_pair = ? WHERE tournament_id = ? AND idx = ?",
                (decision, at_pair, tid, comparison),
            )

    # -- runs ------------------------------------------------------------------------------------

    @guarded
    def set_runner(self, tid: int, runner: RunnerRow | None) -> None:
        """Note the process now playing tournament ``tid`` (``None``: no process). Only what a
        second run says when it refuses; the lock itself is :mod:`.runlock`'s."""
        key = f"runner.{tid}"
        with self._database.transaction():
            if runner is None:
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._db.execute(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                    (key, json.dumps({"pid": runner.pid, "host": runner.host, "since": runner.since})),
                )

    @guarded
    def runner(self, tid: int) -> RunnerRow | None:
        """The process that last noted it plays tournament ``tid``, if any."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"runner.{tid}",)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            return RunnerRow(pid=int(data["pid"]), host=str(data["host"]), since=float(data["since"]))
        except (ValueError, KeyError, TypeError):
            return None

    # -- games -----------------------------------------------------------------------------------

    @guarded
    def record_game(self, tid: int, g: GameRecord, keep_replay: KeptReplay | None = None) -> int | None:
        """Store one finished game in its own transaction. Returns its id, or ``None`` if it was
        already there. When the record carries a replay (:attr:`GameRecord.replay_text`),
        ``keep_replay`` writes it once the game has its id, and its path is stored with the game,
        in the same transaction: if the file cannot be written, or the transaction cannot be
        committed, nothing is stored and no file is left."""
        kept: str | None = None
        try:
            with self._database.transaction():
                values = (c.to_sql(getattr(g, c.field)) for c in GAME_COLUMNS)
                cur = self._db.execute(INSERT_GAME, (tid, *values))
                if cur.rowcount != 1:
                    return None
                game_id = cur.lastrowid
                assert game_id is not None  # set by the INSERT just executed
                self._db.executemany(
                    INSERT_PLAYER,
                    [(tid, *g.key, *(c.to_sql(getattr(p, c.field)) for c in PLAYER_COLUMNS)) for p in g.players],
                )
                if g.replay_text is not None and keep_replay is not None:
                    kept = keep_replay(game_id, g)
                    self._db.execute("UPDATE games SET replay = ? WHERE rowid = ?", (kept, game_id))
                return game_id
        except BaseException:
            if kept is not None:
                with suppress(OSError):
                    os.unlink(kept)
            raise

    @guarded
    def game(self, game_id: int) -> tuple[int, GameRecord] | None:
        """A stored game by its id: (its tournament's id, the game), or ``None``."""
        row = self._db.execute(
            "SELECT tournament_id, comparison, pair, leg FROM games WHERE rowid = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None
        tid, key = row[0], tuple(row[1:])
        (record,) = self.games(tid, key)
        return tid, record

    @guarded
    def set_replay(self, game_id: int, path: str) -> None:
        """Note where the replay of the stored game ``game_id`` is (one made after it was played)."""
        with self._database.transaction():
            self._db.execute("UPDATE games SET replay = ? WHERE rowid = ?", (path, game_id))

    @guarded
    def game_keys(self, tid: int) -> set[tuple[int, int, int]]:
        return {
            tuple(r)
            for r in self._db.execute("SELECT comparison, pair, leg FROM games WHERE tournament_id = ?", (tid,))
        }

    @guarded
    def select(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read-only query (for views that page through the games in SQL)."""
        return [tuple(r) for r in self._db.execute(sql, list(args))]

    @guarded
    def count_games(self, tid: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games WHERE tournament_id = ?", (tid,)).fetchone()[0])

    @guarded
    def games(self, tid: int, key: tuple[int, int, int] | None = None) -> list[GameRecord]:
        """The tournament's games in key order (only the game ``key``, when given)."""
        where, args = "tournament_id = ?", [tid]
        if key is not None:
            where, args = where + " AND comparison = ? AND pair = ? AND leg = ?", [tid, *key]
        order = ", ".join(KEY)
        players: dict[tuple[int, int, int], list[PlayerRecord]] = {}
        for r in self._db.execute(
            f"SELECT {order}, {names(PLAYER_COLUMNS)} FROM game_players WHERE {where} ORDER BY {order}, seat", args
        ):
            values = {c.field: c.from_sql(v) for c, v in zip(PLAYER_COLUMNS, r[3:])}
            players.setdefault((r[0], r[1], r[2]), []).append(PlayerRecord(**values))
        rows = self._db.execute(f"SELECT {names(GAME_COLUMNS)}, rowid FROM games WHERE {where} ORDER BY {order}", args)
        out = []
        for r in rows:
            values = {c.field: c.from_sql(v) for c, v in zip(GAME_COLUMNS, r)}
            key_of = (values["comparison"], values["pair"], values["leg"])
            out.append(GameRecord(**values, players=tuple(players.get(key_of, ())), id=r[-1]))
        return out
