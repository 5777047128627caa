"""The run lock: one tournament of a results database is played by one process at a time.

Why a lock at all: the store keeps each game once (``INSERT OR IGNORE`` on its key), but two runs
of the same tournament would still both play every remaining game and one result of each would be
dropped. So a run takes its tournament's lock before it plays, and a second run of the same
tournament refuses while the first holds it (runs of other tournaments in the same database are
not hindered).

How. The lock is an ``fcntl`` record lock on one byte of a side file, ``<db>.lock`` beside the
database's real file (symbolic links followed, as SQLite follows them to the file it locks): byte
``id`` for tournament ``id``. Byte 0 is held, waiting if need be, while a run picks its tournament (finds
the one to resume or creates it and takes its lock), so two runs started at once cannot both
create the same new tournament nor both resume the same one. The kernel drops a process's record
locks when the process ends, however it ends (``SIGKILL`` included): a lock never outlives its
run, so no stale-lock detection (pids, hosts, clocks) is needed and a killed run is resumed at
once. On Linux the locks are open-file-description locks (``F_OFD_SETLK``): they also exclude a
second run inside the same process, and worker processes never hold them (the file is not
inherited). Elsewhere they are classic POSIX locks, which exclude other processes only.

Around the lock: the run that holds it notes its pid, host and start in the database (``meta``
row ``runner.<id>``, :meth:`arena.store.results.Store.set_runner`), only so that a refused run
can say who plays; :func:`held` asks whether a tournament is locked without taking the lock, so
that one stored as running whose run is gone (killed, or stopped on a full disk that let it write
nothing more) is reported interrupted.

Limits: the lock holds between processes of one machine, and across machines only on a network
file system whose lock service works (SQLite's own locking needs that there too). The side file
is left in place after the run (it stays empty): deleting it while another run waits on it would
let two runs lock two different files.
"""

from __future__ import annotations

import fcntl
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["RunLock", "lock_path", "held"]

_OFD: tuple[int, int] | None = (fcntl.F_OFD_SETLK, fcntl.F_OFD_SETLKW) if hasattr(fcntl, "F_OFD_SETLK") else None
"""Linux's open-file-description lock commands (set, set-and-wait), where there are any."""

_CHOOSING = 0
"""The byte held while a run finds or creates its tournament (tournament ids start at 1)."""


def lock_path(db: Path) -> Path:
    """The side file holding the run locks of the results database ``db``: beside the file it
    names, symbolic links followed, so that every name of one database (a link to it, a path
    through a linked folder) locks the same file."""
    real = Path(os.path.realpath(db))
    return real.with_name(real.name + ".lock")


def _flock(kind: int, offset: int) -> bytes:
    """Linux's ``struct flock`` for one byte at ``offset`` (``l_pid`` 0, as OFD locks require),
    with spare bytes beyond its end."""
    return struct.pack("@hhqqi", kind, os.SEEK_SET, offset, 1, 0) + bytes(16)


def held(db: Path, tournament_id: int) -> bool | None:
    """Whether a run holds tournament ``tournament_id``'s lock now, asked without taking it (and
    without creating the side file); ``None`` where that cannot be asked (no OFD locks: a classic
    lock cannot be tested from the process holding it)."""
    if _OFD is None:
        return None
    try:
        fd = os.open(lock_path(db), os.O_RDONLY)
    except FileNotFoundError:
        return False  # no run ever locked a tournament of this database
    except OSError:
        return None
    try:
        answer = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, _flock(fcntl.F_WRLCK, tournament_id))
    except OSError:
        return None
    finally:
        os.close(fd)
    (kind,) = struct.unpack_from("@h", answer)
    return bool(kind != fcntl.F_UNLCK)


class RunLock:
    """The run locks of one results database, as one run uses them: :meth:`choosing` while it
    picks its tournament, :meth:`acquire` for that tournament, :meth:`release` when it ends.
    Opening creates the side file if needed (:class:`OSError` when that cannot be done)."""

    def __init__(self, db: Path) -> None:
        self.path = lock_path(db)
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        self.held: int | None = None
        """The tournament whose lock this run holds."""

    def _lock(self, kind: int, offset: int, *, wait: bool) -> bool:
        """Lock (``F_WRLCK``) or unlock (``F_UNLCK``) byte ``offset``; ``False`` when another
        holder has it and ``wait`` is false."""
        assert self._fd is not None, "the run lock is released"
        try:
            if _OFD is not None:
                fcntl.fcntl(self._fd, _OFD[1] if wait else _OFD[0], _flock(kind, offset))
            else:
                how = fcntl.LOCK_UN if kind == fcntl.F_UNLCK else fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)
                fcntl.lockf(self._fd, how, 1, offset, os.SEEK_SET)
        except BlockingIOError:
            return False
        except PermissionError:  # EACCES: some systems report a held lock so
            if wait:
                raise
            return False
        return True

    @contextmanager
    def choosing(self) -> Iterator[None]:
        """Hold byte 0 (waiting for another run that is choosing) for the duration."""
        self._lock(fcntl.F_WRLCK, _CHOOSING, wait=True)
        try:
            yield
        finally:
            self._lock(fcntl.F_UNLCK, _CHOOSING, wait=False)

    def acquire(self, tournament_id: int) -> bool:
        """Take tournament ``tournament_id``'s lock without waiting; ``False`` when another run
        holds it."""
        assert self.held is None and tournament_id > _CHOOSING
        if not self._lock(fcntl.F_WRLCK, tournament_id, wait=False):
            return False
        self.held = tournament_id
        return True

    def release(self) -> None:
        """Give the lock back (closing the side file); safe to call twice."""
        if self._fd is not None:
            os.close(self._fd)  # drops every lock taken through it
            self._fd = None
            self.held = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
