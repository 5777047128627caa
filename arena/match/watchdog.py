"""Holding a bot's limits without cgroups: a watchdog that walks the bot's process tree every
:data:`arena.match.limits.WATCH_INTERVAL_S` (the bot's limits thread asks it, see
:class:`arena.match.botprocess.BotProcess`) and sums the memory of its processes: resident sizes,
then, past the limit, proportional sizes, so that pages forked children share with their parent
count once. ``RLIMIT_AS`` on each process, at a few times the limit, is the backstop against one
process growing faster than the watchdog looks.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from . import proctree
from .limits import Admission, Breach, BreachKind, TreeLimits

__all__ = ["Watchdog"]

_PAGE = os.sysconf("SC_PAGE_SIZE")


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
    """Sums the tree's resident memory and tasks each time it is asked."""

    kind = "watchdog"

    def __init__(self, limits: TreeLimits) -> None:
        self.limits = limits

    def admission(self) -> Admission:
        if not self.limits.memory_mb:
            return Admission()
        # A backstop for one process growing faster than the watchdog looks (gigabytes in a few
        # milliseconds): its address space, which counts reserved as well as used memory, may
        # not pass a few times the limit.
        return Admission(address_space_kb=max(4 * self.limits.memory_mb, self.limits.memory_mb + 1024) * 1024)

    def check(self, root: int, tree: Callable[[], list[int]]) -> Breach | None:
        members = [root, *tree()]
        rss, tasks = _usage(members)
        if self.limits.tasks and tasks > self.limits.tasks:
            return Breach(BreachKind.TASKS, f"{tasks} processes and threads, more than {self.limits.tasks}")
        limit = self.limits.memory_mb
        # Resident sizes count a page shared by forked processes once per process: when their
        # sum is past the limit, the proportional sizes (slower to read) decide.
        if limit and rss > limit * 1024 * 1024:
            used = _proportional(members)
            if used > limit * 1024 * 1024:
                return Breach(
                    BreachKind.MEMORY,
                    f"{used // (1024 * 1024)} MB in {len(members)} "
                    f"processes, limit {limit} MB for all the bot's processes",
                )
        return None

    def members(self) -> list[int]:
        return []

    def kill_all(self) -> None:
        pass

    def close(self) -> None:
        pass
