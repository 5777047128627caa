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


_Events = tuple[tuple[str, bytes], ...]
"""(event file, key) pairs: ``memory.events`` and ``oom_kill``..."""


class _Cgroups:
    """The cgroup directories made for one bot (one per v1 hierarchy, or one v2 directory), and the
    event files whose keys count the kernel's kills for memory and refusals of tasks."""

    def __init__(
        self,
        dirs: list[Path],
        limits: TreeLimits,
        kind: str = "cgroup",
        memory_events: _Events = (),
        task_events: _Events = (),
        peak: Path | None = None,
        kill: Path | None = None,
    ) -> None:
        self.dirs = dirs
        self.limits = limits
        self.kind = kind
        self._memory_events, self._task_events = memory_events, task_events
        self._peak = peak
        """The file of the memory's peak (``memory.peak``, ``memory.max_usage_in_bytes``)."""
        self._kill = kill
        """cgroup v2's ``cgroup.kill``: writing ``1`` kills every member, forks in flight included."""
        self._open: dict[str, int] = {}
        self._open_lock = threading.Lock()
        self._base: dict[tuple[str, bytes], int] = {}
        """Event counts when this bot got the cgroup (a cgroup is reused, see :func:`_recycle`)."""
        self._owner = os.getpid()
        self._files = tuple(dict.fromkeys(path for path, _ in (*memory_events, *task_events)))
        self._quiet: tuple[bytes, ...] | None = None
        """The event files' texts at a look that found no breach (see :meth:`check`)."""

    def _breaks(self, events: _Events, texts: Mapping[str, bytes]) -> bool:
        """Whether one of ``events`` counts since this bot got the cgroup, from the files' texts."""
        return any(_count(texts[path], key) > self._base.get((path, key), 0) for path, key in events)

    def check(self, root: int, tree: Callable[[], list[int]]) -> Breach | None:
        """Whether the kernel refused or killed for a limit since the bot got the cgroup. The
        event files are read after every answer: when they read as at the last look, which found
        nothing (the usual case), nothing is parsed."""
        files, events = self._files, self._events
        texts = tuple([events(path) for path in files])
        if texts == self._quiet:
            return None
        breach, read = None, dict(zip(files, texts))
        if self._breaks(self._memory_events, read):
            # The peak is this bot's: an earlier bot of a reused cgroup stayed under the limit.
            peak = _read_int(self._peak) if self._peak is not None else None
            shown = f"{peak // (1024 * 1024)} MB at the peak, " if peak else ""
            breach = Breach(BreachKind.MEMORY, f"{shown}limit {self.limits.memory_mb} MB for all the bot's processes")
        elif self._breaks(self._task_events, read):
            breach = Breach(BreachKind.TASKS, f"more than {self.limits.tasks} processes and threads")
        self._quiet = texts if breach is None else None  # another thread's look may race: harmless
        return breach

    def _rebase(self) -> None:
        """Count events from now on (for the next bot of a reused cgroup)."""
        watched = (*self._memory_events, *self._task_events)
        self._base = {(path, key): _count(self._events(path), key) for path, key in watched}
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
        if self._kill is not None and self._kill.exists():
            try:
                _write(self._kill, "1")
            except OSError:
                pass
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


def _cgroup_v1(limits: TreeLimits, name: str) -> _Cgroups | None:
    own = _own_cgroups()
    memory = _v1_dir("memory", own, name) if limits.memory_mb else None
    pids = _v1_dir("pids", own, name) if limits.tasks else None
    if (limits.memory_mb and memory is None) or (limits.tasks and pids is None):
        for d in (memory, pids):
            if d is not None:
                d.rmdir()
        return None
    made = _Cgroups(
        [d for d in (memory, pids) if d is not None],
        limits,
        "cgroup v1",
        () if memory is None else ((str(memory / "memory.oom_control"), b"oom_kill"),),
        () if pids is None else ((str(pids / "pids.events"), b"max"),),
        None if memory is None else memory / "memory.max_usage_in_bytes",
    )
    try:
        if memory is not None and limits.memory_mb:
            nbytes = str(limits.memory_mb * 1024 * 1024)
            _write(memory / "memory.limit_in_bytes", nbytes)
            if (memory / "memory.memsw.limit_in_bytes").exists():
                _write(memory / "memory.memsw.limit_in_bytes", nbytes)  # no escape into swap
        if pids is not None and limits.tasks:
            _write(pids / "pids.max", str(limits.tasks))
    except OSError:
        made.close()
        return None
    return made


def _cgroup_v2(limits: TreeLimits, name: str) -> _Cgroups | None:
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
    events, pids = str(directory / "memory.events"), str(directory / "pids.events")
    memory_events = ((events, b"oom_kill"), (events, b"oom"))
    peak, kill = directory / "memory.peak", directory / "cgroup.kill"
    made = _Cgroups([directory], limits, "cgroup v2", memory_events, ((pids, b"max"),), peak, kill)
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
        made.close()
        return None
    return made


def cgroup_limiter(limits: TreeLimits) -> TreeLimiter | None:
    """The cgroups of one bot: an empty one kept with these limits, else a new one (v2, else v1);
    ``None`` where this machine lets us make none."""
    reused = _reused(limits)
    if reused is not None:
        return reused
    name = f"arena-{owners.tag()}-{next(_counter)}"
    return _cgroup_v2(limits, name) or _cgroup_v1(limits, name)
