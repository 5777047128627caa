"""Holding a bot's limits without cgroups: a watchdog, asked every
:data:`arena.match.limits.WATCH_INTERVAL_S` (:mod:`arena.match.limits.limitwatch`), walks the bot's
process tree and sums the memory of its processes: resident sizes, then, past the limit,
proportional sizes (pages forked children share with their parent count once), plus what the bot
holds in a sandbox's in-memory ``/tmp`` and ``/dev/shm`` where the caller says. ``RLIMIT_AS`` on
each process, at a few times the limit, is the backstop against one process growing faster than
the watchdog looks; its value is the bot's own, so that a process that left the bot's tree and
session is still known as the bot's (:func:`arena.match.process.proctree.tree_of`).

Approximate (:func:`arena.match.limits.enforcement.limits_note`): it does not see memory used
between two looks, what the kernel holds for the bot (pipes, sockets, unmapped memory files),
files written elsewhere, nor a bot that lowered its own address-space limit and then left.
"""

from __future__ import annotations

import itertools
import os
import resource
from collections.abc import Callable, Iterable

from ..process import proctree
from . import Admission, Breach, BreachKind, TreeLimits

__all__ = ["Watchdog"]

_PAGE = os.sysconf("SC_PAGE_SIZE")
_MARKS = itertools.count()
"""Each watchdog's share of the address-space limits it gives (see :meth:`Watchdog.admission`)."""
_SPREAD_KB = 1 << 16
"""The address-space limits of the bots of a memory limit differ by up to this (64 MiB)."""
_NO_MEMORY_LIMIT_KB = 1 << 40
"""The address-space limit of a bot without a memory limit (1 PiB: none in effect)."""


def _usage(pids: Iterable[int]) -> tuple[int, int]:
    """(resident bytes, tasks) of these processes (the ones gone meanwhile count nothing)."""
    rss = tasks = 0
    for pid in pids:
        st = proctree.stat(pid)
        if st is not None:
            tasks += st.threads
            rss += st.rss_pages * _PAGE
    return rss, tasks


def _proportional(pids: Iterable[int]) -> int:
    """The proportional set size of these processes together, in bytes: shared pages (a forked
    child's, still its parent's) count once in all (``/proc/PID/smaps_rollup``)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, ValueError, IndexError):
            continue
    return total


class Watchdog:
    """Sums the tree's resident memory and tasks each time it is asked (and the memory ``held``
    by the bot outside its processes, a function of its root's PID, where there is such)."""

    kind = "watchdog"

    def __init__(self, limits: TreeLimits, held: Callable[[int], int] | None = None) -> None:
        self.limits = limits
        self.held = held
        self._address_space_kb = self._backstop() if limits.memory_mb or limits.tasks else None

    def _backstop(self) -> int:
        """The bot's own address-space limit, KiB: a few times the memory limit (or none in effect
        without one), plus this watchdog's share, never the arena's own limit (which its other
        children have)."""
        limit = self.limits.memory_mb
        base = max(4 * limit, limit + 1024) * 1024 if limit else _NO_MEMORY_LIMIT_KB
        ours = resource.getrlimit(resource.RLIMIT_AS)[1]
        while True:
            value = base + next(_MARKS) % _SPREAD_KB
            if value * 1024 != ours:
                return value

    def admission(self) -> Admission:
        return Admission(address_space_kb=self._address_space_kb)

    def check(self, root: int, tree: Callable[[], list[int]]) -> Breach | None:
        members = [root, *tree()]
        rss, tasks = _usage(members)
        if self.limits.tasks and tasks > self.limits.tasks:
            return Breach(BreachKind.TASKS, f"{tasks} processes and threads, more than {self.limits.tasks}")
        limit = self.limits.memory_mb
        if not limit:
            return None
        held = self.held(root) if self.held is not None else 0
        # Resident sizes count a page shared by forked processes once per process: when their
        # sum is past the limit, the proportional sizes (slower to read) decide.
        if rss + held > limit * 1024 * 1024:
            used = _proportional(members) + held
            if used > limit * 1024 * 1024:
                files = f" and {held // (1024 * 1024)} MB of files in its /tmp and /dev/shm" if held else ""
                return Breach(
                    BreachKind.MEMORY,
                    f"{used // (1024 * 1024)} MB in {len(members)} processes{files}, "
                    f"limit {limit} MB for all the bot's processes",
                )
        return None

    def kill_all(self) -> None:
        pass

    def close(self) -> None:
        pass
