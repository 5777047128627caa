"""The results database as a file: opening it (for writing, or read-only beside a running
tournament), its schema created or migrated, transactions, and every failure of SQLite or of the
disk turned into one line (:class:`StoreError`). What is stored and how it is read is
:mod:`arena.store.results`'s. A file that is not an arena results database this release can
write (another program's SQLite database, a newer arena's) is refused before anything changes it.

Concurrency and faults. Every connection waits up to :data:`BUSY_TIMEOUT_S` for another
process's lock, and every write transaction starts with ``BEGIN IMMEDIATE`` (it takes the write
lock first, so it waits its turn instead of failing half-way); the schema of a new database is
created, and an old one migrated, inside one such transaction, so processes opening the same new
file at once create it exactly once. Read-only opening uses ``mode=ro`` (the ``-wal``/``-shm``
files SQLite adds to share a running tournament's writes are removed again when nothing else
uses them; in a folder that cannot be written, where no tournament can be writing, the file is
read as it is) and never changes the file: a database from an earlier release is migrated in a
private in-memory copy, an empty file is refused, no file is created.
"""

from __future__ import annotations

import errno
import functools
import os
import shlex
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from ..errors import ArenaError
from .schema import MIGRATIONS, SCHEMA_V1, SCHEMA_VERSION

__all__ = ["BUSY_TIMEOUT_S", "StoreError", "explain", "guarded", "Database"]

BUSY_TIMEOUT_S = 30.0
"""How long every connection waits for another process's lock on the database before failing."""


class StoreError(ArenaError):
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


class _OnFile(Protocol):
    """What :func:`guarded` needs of the object whose methods it guards."""

    path: Path
    read_only: bool


_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound=_OnFile)


def guarded(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """``method`` with the failures of SQLite turned into :class:`StoreError` lines."""

    @functools.wraps(method)
    def guarded_method(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise explain(self.path, exc, read_only=self.read_only) from None

    return guarded_method


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) with the busy timeout."""
    return sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=uri)


def _statements(script: str) -> list[str]:
    """The statements of ``script`` (none of the schema's statements holds a ``;``)."""
    return [s for s in script.split(";") if s.strip()]


class Database:
    """An open results database file (use :meth:`close`): :attr:`conn` is its connection, in
    autocommit mode; :meth:`transaction` is a write transaction."""

    def __init__(self, path: str | Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open ``path`` as :class:`arena.store.results.Store` does."""
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
            self.conn = self._open_read_only() if read_only else _connect(str(self.path))
        except sqlite3.Error as exc:
            raise explain(self.path, exc, read_only=read_only) from None
        try:
            if not read_only:
                self._check_not_newer(self._schema_version())  # before anything (WAL mode too) changes the file
                self._enable_wal()
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.execute("PRAGMA foreign_keys=ON")
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
                self.conn.execute("PRAGMA journal_mode=WAL").fetchall()
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
        with suppress(OSError, sqlite3.Error):
            if self._wal().stat().st_size:
                return
            db = _connect(str(self.path))
            try:
                db.execute("PRAGMA query_only=ON")
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                db.close()

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
                what = "an empty file" if self.path.stat().st_size == 0 else "an SQLite file without tables"
                raise StoreError(
                    f"{self.path}: {what}, not a tournament results database",
                    "pass the --db a tournament wrote (arena tournament ... --db FILE creates one)",
                )
            copy = _connect(":memory:")  # migrated in a private copy: the file is never written
            self.conn.backup(copy)
            self.conn.close()
            self.conn = copy
            with self.transaction():
                self._migrate(version)
            return
        with self.transaction():
            version = self._schema_version()
            if version is None:
                for statement in _statements(SCHEMA_V1):
                    self.conn.execute(statement)
                self.conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
                version = 1
            self._check_not_newer(version)
            self._migrate(version)

    def _schema_version(self) -> int | None:
        """The stored schema version; ``None`` for an empty database (no table at all)."""
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            if tables:
                raise StoreError(
                    f"{self.path}: an SQLite file that is not an arena results database (use another --db)"
                )
            return None
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        try:
            return int(row[0])
        except (TypeError, ValueError):
            raise StoreError(
                f"{self.path}: results database without a valid schema version (use another --db)"
            ) from None

    def _check_not_newer(self, version: int | None) -> None:
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer arena (results schema {version}, this "
                f"one reads up to {SCHEMA_VERSION}); upgrade cgarena or use another --db"
            )

    def _migrate(self, version: int) -> None:
        """Bring the database from schema ``version`` to :data:`SCHEMA_VERSION`, inside the
        caller's transaction."""
        for step in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[step]):
                self.conn.execute(statement)
        if version < SCHEMA_VERSION:
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """``with database.transaction():`` a write transaction, ``BEGIN IMMEDIATE`` ... ``COMMIT``
        (``ROLLBACK`` on error)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled it back already (a full disk does; a failed COMMIT leaves it
            # open), and a failing ROLLBACK must not hide the error that led here
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.conn.close()
        if self._tidy:
            self._tidy = False
            self._remove_companions()
