"""Tournament results in one SQLite file: tournaments, bots, comparisons and games, with one row
per player of each game (``game_players``: seat, bot, score, rank, status, timings) and one per bot
of each comparison (``comparison_bots``), so games of any number of players fit.

Each finished game is written in its own transaction (``INSERT OR IGNORE`` on its key: comparison,
pair, leg), so a tournament killed at any moment loses at most the games in progress and never
holds a half-written or duplicated game. The database runs in WAL mode: readers
(``arena results``) see a running tournament without blocking it.
"""

from __future__ import annotations

import array
import enum
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .schema import MIGRATIONS, SCHEMA_V1, SCHEMA_VERSION

__all__ = ["TournamentStatus", "StoreError", "Store", "TournamentRow", "BotRow", "ComparisonRow", "PlayerRecord",
           "GameRecord", "SCHEMA_VERSION"]

class TournamentStatus(str, enum.Enum):
    """A stored tournament's state (the value is what the database holds)."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"




class StoreError(RuntimeError):
    """The results database cannot be used (the message names the file and what to do)."""


@dataclass(frozen=True)
class TournamentRow:
    id: int
    key: str
    settings: dict[str, Any]
    status: str
    games_target: int
    referee_version: str
    created: float
    updated: float


@dataclass(frozen=True)
class BotRow:
    name: str
    command: tuple[str, ...]
    env: dict[str, str]
    source_hash: str
    files: tuple[str, ...]
    """The files the hash covers."""
    hash_scheme: int = 2
    """1: cgarena 0.1.0's hash (absolute file names), 2: names relative to the files' shared
    folder (see :mod:`arena.tournament.provenance`)."""


@dataclass(frozen=True)
class ComparisonRow:
    """A stored comparison: its bots in order and its SPRT decision, if any."""

    index: int
    bots: tuple[str, ...]
    decision: str | None = None
    decided_at_pair: int | None = None


@dataclass(frozen=True)
class PlayerRecord:
    """One player of a finished game, as stored."""

    seat: int
    bot: str
    score: int
    rank: int
    """0 = first; equal scores share a rank."""
    status: str
    """How the bot's match went (:class:`arena.match.Verdict` value)."""
    message: str = ""
    latencies_ms: Sequence[float] = ()
    near_limit: int = 0
    stderr: str = ""
    """A bounded stderr tail when the bot failed (empty for a bot that played normally)."""
    refused: int | None = 0
    """Well-formed but illegal actions the referee refused (the game went on); ``None`` for a game
    stored by a release that did not count them."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as stored; ``players[i]`` is player ``i``."""

    comparison: int
    pair: int
    leg: int
    seed: int
    players: tuple[PlayerRecord, ...]
    winner: int | None
    end_reason: str
    turns: int
    duration_s: float
    referee_version: str = ""
    finished: float = field(default_factory=time.time)
    replay: str | None = field(default=None, compare=False)
    """The game's replay file, when the tournament kept one."""
    id: int | None = field(default=None, compare=False)
    """The game's number in its database (``arena matches show ID``), once stored."""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.comparison, self.pair, self.leg)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.bot for p in self.players)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(p.rank for p in self.players)

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(p.status for p in self.players)


def _blob(values: Sequence[float]) -> bytes:
    return array.array("f", values).tobytes()


def _floats(blob: bytes) -> list[float]:
    out = array.array("f")
    out.frombytes(blob)
    return out.tolist()


class Store:
    """An open results database. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"{self.path}: no results database here (run a tournament first, or pass --db)")
        if create and not self.path.parent.is_dir():
            raise StoreError(f"{self.path}: the directory {self.path.parent} does not exist")
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._ensure_schema()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable results database ({exc})") from None

    def _ensure_schema(self) -> None:
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            if tables:
                raise StoreError(f"{self.path}: an SQLite file that is not an arena results database "
                                 "(use another --db)")
            self._db.executescript("BEGIN;" + SCHEMA_V1 +
                                   "INSERT INTO meta VALUES ('schema_version', '1');COMMIT;")
        version = self._schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer arena (results schema {version}, this "
                             f"one reads up to {SCHEMA_VERSION}); upgrade cgarena or use another --db")
        if version < SCHEMA_VERSION:
            self._migrate()

    def _schema_version(self) -> int:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        try:
            return int(row[0])
        except (TypeError, ValueError):
            raise StoreError(f"{self.path}: results database without a valid schema version "
                             "(use another --db)") from None

    def _migrate(self) -> None:
        """Bring the database to :data:`SCHEMA_VERSION`, all steps in one transaction (another
        process may be migrating it at the same moment: the version is read again inside)."""
        with self._transaction():
            version = self._schema_version()
            while version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                version += 1
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tournaments -----------------------------------------------------------------------------

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
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO tournaments (key, settings, status, games_target, referee_version, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, json.dumps(settings), TournamentStatus.RUNNING.value, games_target, referee_version,
                 now, now),
            )
            assert cur.lastrowid is not None  # set by the INSERT just executed
            tid = cur.lastrowid
            self._db.executemany(
                "INSERT INTO bots (tournament_id, name, command, env, source_hash, files, hash_scheme)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tid, b.name, json.dumps(list(b.command)), json.dumps(b.env), b.source_hash,
                  json.dumps(list(b.files)), b.hash_scheme) for b in bots],
            )
            comparisons = list(comparisons)
            self._db.executemany("INSERT INTO comparisons (tournament_id, idx) VALUES (?, ?)",
                                 [(tid, i) for i, _ in comparisons])
            self._db.executemany(
                "INSERT INTO comparison_bots (tournament_id, idx, position, bot) VALUES (?, ?, ?, ?)",
                [(tid, i, position, bot) for i, group in comparisons for position, bot in enumerate(group)],
            )
        return tid

    def update_tournament(self, tid: int, *, status: TournamentStatus | None = None, games_target: int | None = None,
                          settings: dict[str, Any] | None = None) -> None:
        sets: list[str] = ["updated = ?"]
        values: list[float | str] = [time.time()]
        if status is not None:
            sets.append("status = ?")
            values.append(status.value)
        if games_target is not None:
            sets.append("games_target = ?")
            values.append(games_target)
        if settings is not None:
            sets.append("settings = ?")
            values.append(json.dumps(settings))
        with self._transaction():
            self._db.execute(f"UPDATE tournaments SET {', '.join(sets)} WHERE id = ?", (*values, tid))

    def tournament(self, tid: int) -> TournamentRow | None:
        row = self._db.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
        return self._tournament_row(row) if row else None

    def tournaments(self) -> list[TournamentRow]:
        return [self._tournament_row(r) for r in self._db.execute("SELECT * FROM tournaments ORDER BY id")]

    def latest(self, key: str | None = None) -> TournamentRow | None:
        if key is None:
            row = self._db.execute("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self._db.execute(
                "SELECT * FROM tournaments WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)
            ).fetchone()
        return self._tournament_row(row) if row else None

    @staticmethod
    def _tournament_row(row: Sequence[Any]) -> TournamentRow:
        return TournamentRow(
            id=row[0], key=row[1], settings=json.loads(row[2]), status=row[3], games_target=row[4],
            referee_version=row[5], created=row[6], updated=row[7],
        )

    def bots(self, tid: int) -> list[BotRow]:
        return [
            BotRow(name=r[0], command=tuple(json.loads(r[1])), env=json.loads(r[2]), source_hash=r[3],
                   files=tuple(json.loads(r[4])), hash_scheme=r[5])
            for r in self._db.execute(
                "SELECT name, command, env, source_hash, files, hash_scheme FROM bots"
                " WHERE tournament_id = ? ORDER BY rowid",
                (tid,),
            )
        ]

    def comparisons(self, tid: int) -> list[ComparisonRow]:
        bots: dict[int, list[str]] = {}
        for idx, bot in self._db.execute(
                "SELECT idx, bot FROM comparison_bots WHERE tournament_id = ? ORDER BY idx, position", (tid,)):
            bots.setdefault(idx, []).append(bot)
        return [ComparisonRow(idx, tuple(bots.get(idx, ())), decision, at)
                for idx, decision, at in self._db.execute(
                    "SELECT idx, decision, decided_at_pair FROM comparisons WHERE tournament_id = ? ORDER BY idx",
                    (tid,))]

    def set_decision(self, tid: int, comparison: int, decision: str, at_pair: int) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE comparisons SET decision = ?, decided_at_pair = ? WHERE tournament_id = ? AND idx = ?",
                (decision, at_pair, tid, comparison),
            )

    # -- games -----------------------------------------------------------------------------------

    def record_game(self, tid: int, g: GameRecord) -> int | None:
        """Store one finished game in its own transaction. Returns its id, or ``None`` if it was
        already there."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT OR IGNORE INTO games VALUES (" + ", ".join("?" * 12) + ")",
                (tid, g.comparison, g.pair, g.leg, g.seed, g.winner, g.end_reason, g.turns, g.duration_s,
                 g.referee_version, g.finished, g.replay),
            )
            if cur.rowcount != 1:
                return None
            game_id = cur.lastrowid
            self._db.executemany(
                "INSERT INTO game_players VALUES (" + ", ".join("?" * 14) + ")",
                [(tid, g.comparison, g.pair, g.leg, p.seat, p.bot, p.score, p.rank, p.status, p.message,
                  _blob(p.latencies_ms), p.near_limit, p.stderr, p.refused) for p in g.players],
            )
            return game_id

    def set_replay(self, game_id: int, path: str) -> None:
        """Record where a stored game's replay file is."""
        with self._transaction():
            self._db.execute("UPDATE games SET replay = ? WHERE rowid = ?", (path, game_id))

    def game(self, game_id: int) -> tuple[int, GameRecord] | None:
        """A stored game by its id: (its tournament's id, the game), or ``None``."""
        row = self._db.execute("SELECT tournament_id, comparison, pair, leg FROM games WHERE rowid = ?",
                               (game_id,)).fetchone()
        if row is None:
            return None
        tid, key = row[0], tuple(row[1:])
        (record,) = self.games(tid, key)
        return tid, record

    def game_keys(self, tid: int) -> set[tuple[int, int, int]]:
        return {tuple(r) for r in self._db.execute(
            "SELECT comparison, pair, leg FROM games WHERE tournament_id = ?", (tid,))}

    def count_games(self, tid: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games WHERE tournament_id = ?", (tid,)).fetchone()[0])

    def games(self, tid: int, key: tuple[int, int, int] | None = None) -> list[GameRecord]:
        """The tournament's games in key order (only the game ``key``, when given)."""
        where, args = "tournament_id = ?", [tid]
        if key is not None:
            where, args = where + " AND comparison = ? AND pair = ? AND leg = ?", [tid, *key]
        players: dict[tuple[int, int, int], list[PlayerRecord]] = {}
        for r in self._db.execute(
            "SELECT comparison, pair, leg, seat, bot, score, rank, status, message, latency, near_limit, stderr,"
            f" refused FROM game_players WHERE {where} ORDER BY comparison, pair, leg, seat", args
        ):
            players.setdefault((r[0], r[1], r[2]), []).append(PlayerRecord(
                seat=r[3], bot=r[4], score=r[5], rank=r[6], status=r[7], message=r[8],
                latencies_ms=_floats(r[9]), near_limit=r[10], stderr=r[11], refused=r[12]))
        rows = self._db.execute(
            "SELECT comparison, pair, leg, seed, winner, end_reason, turns, duration_s, referee_version, finished,"
            f" replay, rowid FROM games WHERE {where} ORDER BY comparison, pair, leg", args
        )
        return [
            GameRecord(comparison=r[0], pair=r[1], leg=r[2], seed=r[3], players=tuple(players.get(r[:3], ())),
                       winner=r[4], end_reason=r[5], turns=r[6], duration_s=r[7], referee_version=r[8],
                       finished=r[9], replay=r[10], id=r[11])
            for r in rows
        ]


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
