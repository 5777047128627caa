"""Holding a bot's limits with cgroups: a cgroup (or one per v1 hierarchy) per bot, where the
kernel refuses or kills past the limits and its event files (``memory.events``,
``memory.oom_control``, ``pids.events``) tell that it happened: v2 where this process's cgroup
delegates the ``memory`` and ``pids`` controllers to its children, else v1 where those
hierarchies are writable (often as root). An empty cgroup is kept for the next bot with the same
limits, a few per process (making one costs milliseconds of the kernel's time).

A bot's cgroup is named ``arena-NS-PID-N`` (:mod:`arena.match.process.owners`): those of an arena
killed outright (SIGKILL, the out-of-memory killer) are removed, what is left in them killed, by
the next arena of the same PID namespace before it makes its first cgroup in that directory.
"""

from __future__ import annotations

import atexit
import errno
import itertools
import os
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from ..process import owners, plumbing
from . import Admission, Breach, BreachKind, TreeLimiter, TreeLimits

__all__ = ["CGROUP_ROOT", "cgroup_limiter", "stale_cgroups"]

CGROUP_ROOT = Path("/sys/fs/cgroup")
_counter = itertools.count()


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and ``""`` -> its v2 path."""
    found: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return found
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        for name in controllers.split(",") if controllers else [""]:
            found[name] = path
    return found


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _count(data: bytes, key: bytes) -> int:
    """The value of the ``key value`` line of an event file's text (0 when absent)."""
    at = data.find(key + b" ")
    while at > 0 and data[at - 1] != 0x0A:  # a key that only ends like this one
        at = data.find(key + b" ", at + 1)
    if at < 0:
        return 0
    end = data.find(b"\n", at)
    try:
        return int(data[at + len(key) + 1 : end if end >= 0 else len(data)])
    except ValueError:
        return 0


def _procs(directory: Path) -> list[int]:
    try:
        return [int(x) for x in (directory / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


class _Cgroups:
    """The cgroup directories made for one bot (one per v1 hierarchy, or one v2 directory)."""

    kind = "cgroup"

    def __init__(self, dirs: list[Path], limits: TreeLimits) -> None:
        self.dirs = dirs
        self.limits = limits
        self._open: dict[str, int] = {}
        self._open_lock = threading.Lock()
        self._base: dict[tuple[str, bytes], int] = {}
        """Event counts when this bot got the cgroup (a cgroup is reused, see :func:`_recycle`)."""
        self._owner = os.getpid()
        self._files: tuple[str, ...] | None = None
        self._quiet: tuple[bytes, ...] | None = None
        """The event files' texts at a look that found no breach (see :meth:`check`)."""

    def _count(self, path: str, key: bytes, texts: Mapping[str, bytes]) -> int:
        """How many ``key`` events an event file counts since this bot got the cgroup, from its
        text as read (``texts``)."""
        return _count(texts[path], key) - self._base.get((path, key), 0)

    def check(self, root: int, tree: Callable[[], list[int]]) -> Breach | None:
        """Whether the kernel refused or killed for a limit since the bot got the cgroup. The
        event files are read after every answer: when they read as at the last look, which found
        nothing (the usual case), nothing is parsed."""
        files = self._files
        if files is None:
            files = self._files = tuple(dict.fromkeys(path for path, _ in self._events_watched()))
        events = self._events
        texts = tuple([events(path) for path in files])
        if texts == self._quiet:
            return None
        breach = self._check_events(dict(zip(files, texts)))
        self._quiet = texts if breach is None else None  # another thread's look may race: harmless
        return breach

    def _check_events(self, texts: Mapping[str, bytes]) -> Breach | None:
        """The breach the event files' ``texts`` tell of, if any."""
        raise NotImplementedError

    def _events_watched(self) -> tuple[tuple[str, bytes], ...]:
        """The (event file, key) pairs :meth:`check` looks at."""
        return ()

    def _rebase(self) -> None:
        """Count events from now on (for the next bot of a reused cgroup)."""
        self._base = {(path, key): _count(self._events(path), key) for path, key in self._events_watched()}
        self._quiet = None

    def _events(self, path: str) -> bytes:
        """The text of an event file (``memory.events``, ``memory.oom_control``, ``pids.events``;
        empty when it cannot be read), from a descriptor kept open: the limits are read after
        every answer, and a ``pread`` costs a few microseconds where opening the file costs
        fifty."""
        fd = self._open.get(path)
        if fd is None:
            with self._open_lock:
                fd = self._open.get(path)
                if fd is None:
                    try:
                        fd = self._open[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
                    except OSError:
                        return b""
        try:
            return os.pread(fd, 4096, 0)
        except OSError:
            return b""

    def admission(self) -> Admission:
        return Admission(cgroup_procs=tuple(str(d / "cgroup.procs") for d in self.dirs))

    def members(self) -> list[int]:
        """Every process in the bot's cgroups."""
        return sorted({pid for d in self.dirs for pid in _procs(d)})

    def kill_all(self) -> None:
        """SIGKILL every member until none is left (a fork in flight shows up on the next pass)."""
        for _ in range(100):
            members = self.members()
            if not members:
                return
            plumbing.send(members)
            threading.Event().wait(0.002)

    def close(self) -> None:
        """Keep the cgroup for the next bot when it is empty (making one costs milliseconds of the
        kernel's time, a few per game), else remove it."""
        if os.getpid() == self._owner and not self.members() and _recycle(self):
            return
        self._remove()

    def _remove(self) -> None:
        with self._open_lock:
            for fd in self._open.values():
                os.close(fd)
            self._open.clear()
        for d in self.dirs:
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY:
                        break
                    plumbing.send(_procs(d))  # a member left: the bot is being killed
                    threading.Event().wait(0.01)

    def _memory_detail(self, peak_bytes: int | None) -> str:
        limit = self.limits.memory_mb
        peak = f"{peak_bytes // (1024 * 1024)} MB at the peak, " if peak_bytes else ""
        return f"{peak}limit {limit} MB for all the bot's processes"

    def _tasks_detail(self) -> str:
        return f"more than {self.limits.tasks} processes and threads"


class _CgroupV1(_Cgroups):
    kind = "cgroup v1"

    def __init__(self, memory: Path | None, pids: Path | None, limits: TreeLimits) -> None:
        super().__init__([d for d in (memory, pids) if d is not None], limits)
        self.memory = memory
        self.pids = pids
        self._oom_control = None if memory is None else str(memory / "memory.oom_control")
        self._pids_events = None if pids is None else str(pids / "pids.events")

    def _events_watched(self) -> tuple[tuple[str, bytes], ...]:
        watched = []
        if self._oom_control is not None:
            watched.append((self._oom_control, b"oom_kill"))
        if self._pids_events is not None:
            watched.append((self._pids_events, b"max"))
        return tuple(watched)

    def _check_events(self, texts: Mapping[str, bytes]) -> Breach | None:
        if self._oom_control is not None and self._count(self._oom_control, b"oom_kill", texts) > 0:
            assert self.memory is not None
            peak = _read_int(self.memory / "memory.max_usage_in_bytes")
            return Breach(BreachKind.MEMORY, self._memory_detail(peak))
        if self._pids_events is not None and self._count(self._pids_events, b"max", texts) > 0:
            return Breach(BreachKind.TASKS, self._tasks_detail())
        return None


class _CgroupV2(_Cgroups):
    kind = "cgroup v2"

    def __init__(self, directory: Path, limits: TreeLimits) -> None:
        super().__init__([directory], limits)
        self.directory = directory
        self._memory_events = str(directory / "memory.events")
        self._pids_events = str(directory / "pids.events")

    def _events_watched(self) -> tuple[tuple[str, bytes], ...]:
        return ((self._memory_events, b"oom_kill"), (self._memory_events, b"oom"), (self._pids_events, b"max"))

    def _check_events(self, texts: Mapping[str, bytes]) -> Breach | None:
        events = self._memory_events
        if self._count(events, b"oom_kill", texts) > 0 or self._count(events, b"oom", texts) > 0:
            # The peak is this bot's: an earlier bot of a reused cgroup stayed under the limit.
            return Breach(BreachKind.MEMORY, self._memory_detail(_read_int(self.directory / "memory.peak")))
        if self._count(self._pids_events, b"max", texts) > 0:
            return Breach(BreachKind.TASKS, self._tasks_detail())
        return None

    def kill_all(self) -> None:
        kill = self.directory / "cgroup.kill"
        if kill.exists():
            try:
                _write(kill, "1")  # the kernel kills every member, forks in flight included
            except OSError:
                pass
        super().kill_all()


_POOL_SIZE = 8
"""Empty cgroups kept per set of limits (a tournament worker needs two at a time)."""
_pool: dict[TreeLimits, list[_Cgroups]] = {}
_pool_lock = threading.Lock()
_pool_drained_at_exit = False


def _recycle(cgroups: _Cgroups) -> bool:
    """Keep an empty cgroup for the next bot with the same limits; False when the pool is full."""
    global _pool_drained_at_exit
    with _pool_lock:
        kept = _pool.setdefault(cgroups.limits, [])
        if len(kept) >= _POOL_SIZE:
            return False
        kept.append(cgroups)
        if not _pool_drained_at_exit:
            _pool_drained_at_exit = True
            atexit.register(_drain_pool)
    return True


def _reused(limits: TreeLimits) -> _Cgroups | None:
    """An empty cgroup kept with these limits (its events counted from now on), if any."""
    with _pool_lock:
        kept = _pool.get(limits)
        cgroups = kept.pop() if kept else None
    if cgroups is not None:
        cgroups._rebase()
    return cgroups


def _drain_pool() -> None:
    """Remove the kept cgroups (at exit)."""
    with _pool_lock:
        kept = [c for group in _pool.values() for c in group]
        _pool.clear()
    for cgroups in kept:
        cgroups._remove()


def _forget_pool() -> None:
    # A forked child must not use (or remove) its parent's cgroups.
    _pool.clear()


os.register_at_fork(after_in_child=_forget_pool)


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


_NAME = re.compile(r"arena-(\d+)-(\d+)-\d+")
"""A bot's cgroup: ``arena-NS-PID-N`` (see the module's documentation)."""
_swept: set[Path] = set()
"""The directories this process (or its parent, before a fork) has swept."""


def stale_cgroups(parent: Path) -> list[Path]:
    """The cgroups under ``parent`` that arenas of this PID namespace left when they were killed
    (their PID no longer runs); a PID in use again keeps its cgroups until it ends too."""
    return owners.stale(parent, _NAME)


def _sweep(parent: Path) -> None:
    """Remove the :func:`stale_cgroups` under ``parent`` once per process, killing what is still
    in them first (another arena sweeping at the same time is no harm)."""
    if parent in _swept:
        return
    _swept.add(parent)
    for directory in stale_cgroups(parent):
        stale = _Cgroups([directory], TreeLimits())
        stale.kill_all()
        stale._remove()


def _make_dir(parent: Path, name: str) -> Path | None:
    _sweep(parent)
    directory = parent / name
    try:
        directory.mkdir()
    except OSError:
        return None
    return directory


def _v1_dir(controller: str, own: dict[str, str], name: str) -> Path | None:
    if controller not in own:
        return None
    parent = CGROUP_ROOT / controller / own[controller].lstrip("/")
    if not (parent / "cgroup.procs").exists() or not os.access(parent, os.W_OK):
        return None
    return _make_dir(parent, name)


def _cgroup_v1(limits: TreeLimits, name: str) -> _CgroupV1 | None:
    own = _own_cgroups()
    memory = _v1_dir("memory", own, name) if limits.memory_mb else None
    pids = _v1_dir("pids", own, name) if limits.tasks else None
    if (limits.memory_mb and memory is None) or (limits.tasks and pids is None):
        for d in (memory, pids):
            if d is not None:
                d.rmdir()
        return None
    try:
        if memory is not None and limits.memory_mb:
            nbytes = str(limits.memory_mb * 1024 * 1024)
            _write(memory / "memory.limit_in_bytes", nbytes)
            if (memory / "memory.memsw.limit_in_bytes").exists():
                _write(memory / "memory.memsw.limit_in_bytes", nbytes)  # no escape into swap
        if pids is not None and limits.tasks:
            _write(pids / "pids.max", str(limits.tasks))
    except OSError:
        _CgroupV1(memory, pids, limits).close()
        return None
    return _CgroupV1(memory, pids, limits)


def _cgroup_v2(limits: TreeLimits, name: str) -> _CgroupV2 | None:
    own = _own_cgroups()
    if "" not in own or not (CGROUP_ROOT / "cgroup.controllers").exists():
        return None  # no unified hierarchy at /sys/fs/cgroup
    parent = CGROUP_ROOT / own[""].lstrip("/")
    try:
        delegated = (parent / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    needed = {"memory"} if limits.memory_mb else set()
    needed |= {"pids"} if limits.tasks else set()
    if not needed <= set(delegated):
        return None
    directory = _make_dir(parent, name)
    if directory is None:
        return None
    try:
        if limits.memory_mb:
            _write(directory / "memory.max", str(limits.memory_mb * 1024 * 1024))
            if (directory / "memory.swap.max").exists():
                _write(directory / "memory.swap.max", "0")
            if (directory / "memory.oom.group").exists():
                _write(directory / "memory.oom.group", "1")
        if limits.tasks:
            _write(directory / "pids.max", str(limits.tasks))
    except OSError:
        _CgroupV2(directory, limits).close()
        return None
    return _CgroupV2(directory, limits)


def cgroup_limiter(limits: TreeLimits) -> TreeLimiter | None:
    """The cgroups of one bot: an empty one kept with these limits, else a new one (v2, else v1);
    ``None`` where this machine lets us make none."""
    reused = _reused(limits)
    if reused is not None:
        return reused
    name = f"arena-{owners.tag()}-{next(_counter)}"
    return _cgroup_v2(limits, name) or _cgroup_v1(limits, name)
