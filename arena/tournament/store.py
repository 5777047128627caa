"""Tournament results in one SQLite file: tournaments, bots, comparisons and games, with one row
per player of each game (``game_players``: seat, bot, score, rank, status, timings) and one per bot
of each comparison (``comparison_bots``), so games of any number of players fit.

Each finished game is written in its own transaction (``INSERT OR IGNORE`` on its key: comparison,
pair, leg), so a tournament killed at any moment loses at most the games in progress and never
holds a half-written or duplicated game. The database runs in WAL mode: readers
(``arena results``) see a running tournament without blocking it.

Concurrency and faults. Every connection waits up to :data:`BUSY_TIMEOUT_S` for another
process's lock, and every write transaction starts with ``BEGIN IMMEDIATE`` (it takes the write
lock first, so it waits its turn instead of failing half-way); the schema of a new database is
created, and an old one migrated, inside one such transaction, so processes opening the same new
file at once create it exactly once. Read-only commands open the file with ``mode=ro`` (the
``-wal``/``-shm`` files SQLite adds to share a running tournament's writes are removed again when
nothing else uses them; in a folder that cannot be written, where no tournament can be writing,
the file is read as it is) and never change it: a database from an earlier release is migrated in
a private in-memory copy, an empty file is refused, no file is created. A tournament stored as
running that no run holds is reported interrupted (its run was killed, or could not write). Any
failure of SQLite (damaged file, full disk, read-only file or folder, a lock held too long)
becomes a :class:`StoreError`, one line saying what happened and what to do. Which process plays
a tournament is kept by :mod:`.runlock`.
"""

from __future__ import annotations

import array
import enum
import errno
import functools
import json
import os
import shlex
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from .runlock import held
from .schema import MIGRATIONS, SCHEMA_V1, SCHEMA_VERSION

__all__ = [
    "TournamentStatus",
    "StoreError",
    "Store",
    "TournamentRow",
    "BotRow",
    "ComparisonRow",
    "PlayerRecord",
    "GameRecord",
    "RunnerRow",
    "SCHEMA_VERSION",
    "BUSY_TIMEOUT_S",
    "explain",
]

BUSY_TIMEOUT_S = 30.0
"""How long every connection waits for another process's lock on the database before failing."""


class TournamentStatus(str, enum.Enum):
    """A stored tournament's state (the value is what the database holds)."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"


class StoreError(RuntimeError):
    """The results database cannot be used. Its text is one line naming the file: what happened
    (:attr:`problem`) and, when there is something to do, what (:attr:`advice`)."""

    def __init__(self, problem: str, advice: str = "") -> None:
        super().__init__(f"{problem}; {advice}" if advice else problem)
        self.problem = problem
        self.advice = advice


def _code(exc: sqlite3.Error) -> int:
    """The primary SQLite result code of ``exc`` (0 when it carries none)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


_OS_CODES = {
    errno.ENOSPC: sqlite3.SQLITE_FULL,
    errno.EDQUOT: sqlite3.SQLITE_FULL,
    errno.EROFS: sqlite3.SQLITE_READONLY,
    errno.EACCES: sqlite3.SQLITE_PERM,
    errno.EPERM: sqlite3.SQLITE_PERM,
}
"""System errors met around the database (its lock file, the replays folder) as SQLite codes."""


def explain(path: Path, exc: sqlite3.Error | OSError, *, read_only: bool = False) -> StoreError:
    """The one line for a failure of SQLite on the results database ``path`` (opened for reading
    only when ``read_only``), or of the system on the file the :class:`OSError` names (``path``
    when it names none)."""
    if isinstance(exc, sqlite3.Error):
        code, reason = _code(exc), str(exc)
    else:
        code = _OS_CODES.get(exc.errno or 0, sqlite3.SQLITE_IOERR)
        reason = exc.strerror or str(exc)
        if isinstance(exc.filename, (str, bytes, os.PathLike)):
            path = Path(os.fsdecode(exc.filename))
    if code == sqlite3.SQLITE_FULL:
        return StoreError(f"{path}: the disk is full ({reason})", "free some space on it")
    if code == sqlite3.SQLITE_NOTADB:
        return StoreError(
            f"{path}: not a usable results database ({reason}): not an SQLite file, or one whose first page is damaged",
            "use another --db",
        )
    if code == sqlite3.SQLITE_CORRUPT:
        return StoreError(
            f"{path}: the results database is damaged ({reason})",
            f"copy what can still be read with: sqlite3 {shlex.quote(str(path))} .recover | "
            "sqlite3 recovered.sqlite, or use another --db",
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreError(
            f"{path}: another process kept the database locked for over {BUSY_TIMEOUT_S:g} s ({reason})",
            "let it finish, or stop it, and try again",
        )
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH):
        folder = path.parent
        if read_only:
            return StoreError(f"{path}: cannot read it ({reason})", "check that you may read the file and its folder")
        if not os.access(folder, os.W_OK):
            return StoreError(
                f"{path}: cannot write in its folder {folder}, which is read-only or not yours ({reason})",
                "make the folder writable, or pass --db with a file in a folder you can write",
            )
        if path.exists() and not os.access(path, os.W_OK):
            return StoreError(f"{path}: the file is read-only ({reason})", "make it writable, or use another --db")
        return StoreError(f"{path}: cannot write it ({reason})", "check that the file and its folder can be written")
    if code == sqlite3.SQLITE_IOERR:
        return StoreError(f"{path}: the disk failed to read or write it ({reason})", "check the disk and the file")
    return StoreError(f"{path}: SQLite failed ({reason})")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _guarded(method: Callable[Concatenate[Store, _P], _R]) -> Callable[Concatenate[Store, _P], _R]:
    """``method`` with the failures of SQLite turned into :class:`StoreError` lines."""

    @functools.wraps(method)
    def guarded(self: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise explain(self.path, exc, read_only=self.read_only) from None

    return guarded


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) with the busy timeout."""
    return sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=uri)


def _statements(script: str) -> list[str]:
    """The statements of ``script`` (none of the schema's statements holds a ``;``)."""
    return [s for s in script.split(";") if s.strip()]


@dataclass(frozen=True)
class RunnerRow:
    """The process playing a tournament, as it noted itself (for the message of a second run)."""

    pid: int
    host: str
    since: float


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
    sandboxed: bool | None = None
    """Whether the bots ran in the sandbox (``None``: stored by a release that did not say)."""
    worker: str | None = field(default=None, compare=False)
    """The Dask worker that played the game (its address); ``None`` when it was played on this
    machine (or stored by a release that did not say)."""
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

    def __init__(self, path: str | Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open the results database ``path``, creating it (and its schema) unless ``create`` is
        false or ``read_only``; ``read_only`` opens it for reading and never writes to it."""
        self.path = Path(path)
        self.read_only = read_only
        self._tidy = False
        """Whether closing should remove the ``-wal``/``-shm`` files this read-only opening made."""
        if (read_only or not create) and not self.path.is_file():
            raise StoreError(f"{self.path}: no results database here (run a tournament first, or pass --db)")
        folder = self.path.parent
        if not read_only and create and not folder.is_dir():
            if folder.exists():
                raise StoreError(f"{self.path}: {folder} is a file, not a directory")
            raise StoreError(f"{self.path}: the directory {folder} does not exist")
        try:
            self._db = self._open_read_only() if read_only else _connect(str(self.path))
        except sqlite3.Error as exc:
            raise explain(self.path, exc, read_only=read_only) from None
        try:
            if not read_only:
                self._enable_wal()
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("PRAGMA foreign_keys=ON")
            self._ensure_schema()
        except (sqlite3.Error, StoreError) as exc:
            self.close()
            if isinstance(exc, StoreError):
                raise
            raise explain(self.path, exc, read_only=read_only) from None

    def _enable_wal(self) -> None:
        """Switch the database to WAL mode. When processes switch a new file at once, SQLite
        answers some of them "database is locked" at once instead of waiting (the lock upgrade
        could deadlock), so this waits and tries again, up to the busy timeout."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = 0.005
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL").fetchall()
                return
            except sqlite3.OperationalError as exc:
                if _code(exc) not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or time.monotonic() > deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.2)

    def _open_read_only(self) -> sqlite3.Connection:
        """A connection that cannot write (``mode=ro``). To read a WAL database alongside a
        running tournament, SQLite adds its ``-wal`` and ``-shm`` files when they are missing
        (:meth:`close` removes them again). In a folder that cannot be written it cannot: there,
        with no ``-wal`` file, no tournament can be writing, so the file is read as it is
        (``immutable``)."""
        uri = self.path.resolve().as_uri()
        had_wal = self._wal().exists()
        db = _connect(f"{uri}?mode=ro", uri=True)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            db.close()
            cannot_share = _code(exc) in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY)
            if not cannot_share or self._wal().exists():
                raise
            db = _connect(f"{uri}?mode=ro&immutable=1", uri=True)
        else:
            self._tidy = not had_wal
        db.execute("PRAGMA query_only=ON")
        return db

    def _wal(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    def _remove_companions(self) -> None:
        """Remove the ``-wal`` and ``-shm`` files a read-only opening made SQLite add (a read-only
        connection leaves them). As a tournament does when it ends, a connection that may write
        removes them when it closes as the last one; with the ``-wal`` file empty it writes
        nothing to the database. Anything in the way (another process has the database open, the
        file is read-only) leaves them, harmlessly."""
        try:
            if self._wal().stat().st_size:
                return
            db = _connect(str(self.path))
            try:
                db.execute("PRAGMA query_only=ON")
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                db.close()
        except (OSError, sqlite3.Error):
            pass

    def _ensure_schema(self) -> None:
        """Check the database is an arena results database this release reads; create its schema
        if it is new (empty) and migrate it if it is older. Creation and migration are one
        ``BEGIN IMMEDIATE`` transaction that reads the version again inside, so processes opening
        the same new file at once create it once. Read-only, an older database is migrated in a
        private in-memory copy and an empty file is refused."""
        version = self._schema_version()
        if version is not None and version >= SCHEMA_VERSION:
            self._check_not_newer(version)
            return
        if self.read_only:
            if version is None:
                raise self._not_results()
            self._db = self._in_memory_copy()
            with self._transaction():
                self._migrate(version)
            return
        with self._transaction():
            version = self._schema_version()
            if version is None:
                for statement in _statements(SCHEMA_V1):
                    self._db.execute(statement)
                self._db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
                version = 1
            self._check_not_newer(version)
            self._migrate(version)

    def _schema_version(self) -> int | None:
        """The stored schema version; ``None`` for an empty database (no table at all)."""
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            if tables:
                raise StoreError(
                    f"{self.path}: an SQLite file that is not an arena results database (use another --db)"
                )
            return None
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        try:
            return int(row[0])
        except (TypeError, ValueError):
            raise StoreError(
                f"{self.path}: results database without a valid schema version (use another --db)"
            ) from None

    def _check_not_newer(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer arena (results schema {version}, this "
                f"one reads up to {SCHEMA_VERSION}); upgrade cgarena or use another --db"
            )

    def _not_results(self) -> StoreError:
        """The error for a file opened read-only that holds no results schema (never written)."""
        what = "an empty file" if self.path.stat().st_size == 0 else "an SQLite file without tables"
        return StoreError(
            f"{self.path}: {what}, not a tournament results database",
            "pass the --db a tournament wrote (arena tournament ... --db FILE creates one)",
        )

    def _in_memory_copy(self) -> sqlite3.Connection:
        """A private in-memory copy of the database (which is closed), to migrate without
        writing the file."""
        copy = _connect(":memory:")
        self._db.backup(copy)
        self._db.close()
        return copy

    def _migrate(self, version: int) -> None:
        """Bring the database from schema ``version`` to :data:`SCHEMA_VERSION`, inside the
        caller's transaction."""
        if version >= SCHEMA_VERSION:
            return
        while version < SCHEMA_VERSION:
            for statement in _statements(MIGRATIONS[version]):
                self._db.execute(statement)
            version += 1
        self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        self._db.close()
        if self._tidy:
            self._tidy = False
            self._remove_companions()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tournaments -----------------------------------------------------------------------------

    @_guarded
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
                (key, json.dumps(settings), TournamentStatus.RUNNING.value, games_target, referee_version, now, now),
            )
            assert cur.lastrowid is not None  # set by the INSERT just executed
            tid = cur.lastrowid
            self._db.executemany(
                "INSERT INTO bots (tournament_id, name, command, env, source_hash, files, hash_scheme)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tid,
                        b.name,
                        json.dumps(list(b.command)),
                        json.dumps(b.env),
                        b.source_hash,
                        json.dumps(list(b.files)),
                        b.hash_scheme,
                    )
                    for b in bots
                ],
            )
            comparisons = list(comparisons)
            self._db.executemany(
                "INSERT INTO comparisons (tournament_id, idx) VALUES (?, ?)", [(tid, i) for i, _ in comparisons]
            )
            self._db.executemany(
                "INSERT INTO comparison_bots (tournament_id, idx, position, bot) VALUES (?, ?, ?, ?)",
                [(tid, i, position, bot) for i, group in comparisons for position, bot in enumerate(group)],
            )
        return tid

    @_guarded
    def update_tournament(
        self,
        tid: int,
        *,
        status: TournamentStatus | None = None,
        games_target: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
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

    @_guarded
    def tournament(self, tid: int) -> TournamentRow | None:
        row = self._db.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
        return self._tournament_row(row) if row else None

    @_guarded
    def tournaments(self) -> list[TournamentRow]:
        return [self._tournament_row(r) for r in self._db.execute("SELECT * FROM tournaments ORDER BY id")]

    @_guarded
    def latest(self, key: str | None = None) -> TournamentRow | None:
        if key is None:
            row = self._db.execute("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self._db.execute(
                "SELECT * FROM tournaments WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)
            ).fetchone()
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

    @_guarded
    def bots(self, tid: int) -> list[BotRow]:
        return [
            BotRow(
                name=r[0],
                command=tuple(json.loads(r[1])),
                env=json.loads(r[2]),
                source_hash=r[3],
                files=tuple(json.loads(r[4])),
                hash_scheme=r[5],
            )
            for r in self._db.execute(
                "SELECT name, command, env, source_hash, files, hash_scheme FROM bots"
                " WHERE tournament_id = ? ORDER BY rowid",
                (tid,),
            )
        ]

    @_guarded
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

    @_guarded
    def set_decision(self, tid: int, comparison: int, decision: str, at_pair: int) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE comparisons SET decision = ?, decided_at_pair = ? WHERE tournament_id = ? AND idx = ?",
                (decision, at_pair, tid, comparison),
            )

    # -- runs ------------------------------------------------------------------------------------

    @_guarded
    def set_runner(self, tid: int, runner: RunnerRow | None) -> None:
        """Note the process now playing tournament ``tid`` (``None``: no process). Only what a
        second run says when it refuses; the lock itself is :mod:`.runlock`'s."""
        key = f"runner.{tid}"
        with self._transaction():
            if runner is None:
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._db.execute(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                    (key, json.dumps({"pid": runner.pid, "host": runner.host, "since": runner.since})),
                )

    @_guarded
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

    @_guarded
    def record_game(self, tid: int, g: GameRecord) -> int | None:
        """Store one finished game in its own transaction. Returns its id, or ``None`` if it was
        already there."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT OR IGNORE INTO games VALUES (" + ", ".join("?" * 14) + ")",
                (
                    tid,
                    g.comparison,
                    g.pair,
                    g.leg,
                    g.seed,
                    g.winner,
                    g.end_reason,
                    g.turns,
                    g.duration_s,
                    g.referee_version,
                    g.finished,
                    g.replay,
                    None if g.sandboxed is None else int(g.sandboxed),
                    g.worker,
                ),
            )
            if cur.rowcount != 1:
                return None
            game_id = cur.lastrowid
            self._db.executemany(
                "INSERT INTO game_players VALUES (" + ", ".join("?" * 14) + ")",
                [
                    (
                        tid,
                        g.comparison,
                        g.pair,
                        g.leg,
                        p.seat,
                        p.bot,
                        p.score,
                        p.rank,
                        p.status,
                        p.message,
                        _blob(p.latencies_ms),
                        p.near_limit,
                        p.stderr,
                        p.refused,
                    )
                    for p in g.players
                ],
            )
            return game_id

    @_guarded
    def set_replay(self, game_id: int, path: str) -> None:
        """Record where a stored game's replay file is."""
        with self._transaction():
            self._db.execute("UPDATE games SET replay = ? WHERE rowid = ?", (path, game_id))

    @_guarded
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

    @_guarded
    def game_keys(self, tid: int) -> set[tuple[int, int, int]]:
        return {
            tuple(r)
            for r in self._db.execute("SELECT comparison, pair, leg FROM games WHERE tournament_id = ?", (tid,))
        }

    @_guarded
    def count_games(self, tid: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games WHERE tournament_id = ?", (tid,)).fetchone()[0])

    @_guarded
    def games(self, tid: int, key: tuple[int, int, int] | None = None) -> list[GameRecord]:
        """The tournament's games in key order (only the game ``key``, when given)."""
        where, args = "tournament_id = ?", [tid]
        if key is not None:
            where, args = where + " AND comparison = ? AND pair = ? AND leg = ?", [tid, *key]
        players: dict[tuple[int, int, int], list[PlayerRecord]] = {}
        for r in self._db.execute(
            "SELECT comparison, pair, leg, seat, bot, score, rank, status, message, latency, near_limit, stderr,"
            f" refused FROM game_players WHERE {where} ORDER BY comparison, pair, leg, seat",
            args,
        ):
            players.setdefault((r[0], r[1], r[2]), []).append(
                PlayerRecord(
                    seat=r[3],
                    bot=r[4],
                    score=r[5],
                    rank=r[6],
                    status=r[7],
                    message=r[8],
                    latencies_ms=_floats(r[9]),
                    near_limit=r[10],
                    stderr=r[11],
                    refused=r[12],
                )
            )
        rows = self._db.execute(
            "SELECT comparison, pair, leg, seed, winner, end_reason, turns, duration_s, referee_version, finished,"
            f" replay, sandbox, worker, rowid FROM games WHERE {where} ORDER BY comparison, pair, leg",
            args,
        )
        return [
            GameRecord(
                comparison=r[0],
                pair=r[1],
                leg=r[2],
                seed=r[3],
                players=tuple(players.get(r[:3], ())),
                winner=r[4],
                end_reason=r[5],
                turns=r[6],
                duration_s=r[7],
                referee_version=r[8],
                finished=r[9],
                replay=r[10],
                sandboxed=None if r[11] is None else bool(r[11]),
                worker=r[12],
                id=r[13],
            )
            for r in rows
        ]


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is not None:
            self._rollback()
            return
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error:  # a full disk, say: the transaction stays open
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Roll back what is left of the transaction: SQLite may have rolled it back already (a
        full disk does), and a failing ``ROLLBACK`` must not hide the error that led here."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
