"""Processes as ``/proc`` shows them: one process's state, a process's children, a bot's tree,
who holds a file open.

Read only (acting on processes, signals and reaping, is :mod:`arena.match.process.plumbing`'s).
Linux only; a process that ends while it is read counts as gone, never as an error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Stat", "stat", "table", "children", "descendants", "holds_open", "tree_of", "address_space"]


@dataclass(frozen=True, slots=True)
class Stat:
    """What the arena reads of ``/proc/PID/stat``."""

    state: str
    """``R`` running, ``S`` sleeping, ``Z`` zombie... (one letter)."""
    ppid: int
    session: int
    cpu_ticks: int
    """User and system time, in clock ticks (``os.sysconf("SC_CLK_TCK")`` a second)."""
    threads: int
    rss_pages: int


def stat(pid: int | str) -> Stat | None:
    """The state of process ``pid``, or ``None`` once it is gone (or unreadable)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    # after the command name, which may hold spaces and parentheses: state(0) ppid(1) pgrp(2)
    # session(3) ... utime(11) stime(12) ... num_threads(17) ... rss(21)
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return Stat(
            fields[0].decode(),
            int(fields[1]),
            int(fields[3]),
            int(fields[11]) + int(fields[12]),
            int(fields[17]),
            int(fields[21]),
        )
    except (IndexError, ValueError):
        return None


def table() -> list[tuple[int, Stat]]:
    """Every process, from one pass over /proc."""
    found: list[tuple[int, Stat]] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if entry.isdigit() and (st := stat(entry)) is not None:
            found.append((int(entry), st))
    return found


def children(pid: int) -> list[int] | None:
    """Direct children of ``pid`` (of all its threads), from ``/proc/PID/task/*/children``;
    ``None`` when the kernel does not offer those files."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []  # gone
    found: list[int] = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found += [int(x) for x in f.read().split()]
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended meanwhile
            return None
        except OSError:
            continue
    return found


def descendants(roots: list[int]) -> list[int] | None:
    """Every descendant of ``roots`` (``None`` without the ``children`` files)."""
    found: dict[int, None] = {}
    stack = list(roots)
    while stack:
        kids = children(stack.pop())
        if kids is None:
            return None
        for kid in kids:
            if kid not in found:
                found[kid] = None
                stack.append(kid)
    return list(found)


def holds_open(pids: list[int], target: str, except_exe: str | None = None) -> bool:
    """Whether one of ``pids`` has a descriptor open on ``target`` (as ``/proc/PID/fd`` links
    name it: ``pipe:[INODE]``...), the processes running ``except_exe`` (a real path) aside."""
    for pid in pids:
        try:
            if except_exe is not None and os.path.realpath(f"/proc/{pid}/exe") == except_exe:
                continue
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
            except OSError:
                continue
    return False


def tree_of(root: int, subreaper: bool, mark: int | None = None) -> list[int]:
    """Descendants of ``root`` and the orphans of its session (a bot leads its own session), or
    that carry ``mark``.

    A grandchild that called setsid is still a descendant; one whose parent died was re-parented
    to this process when it is a ``subreaper``, and is the bot's when it still belongs to the
    bot's session or when its address-space limit is ``mark`` (bytes: see :func:`address_space`),
    a limit its launcher gave the bot alone, which every process it starts inherits whatever
    session it moves to. Fast path (subreaper): follow the kernel's per-thread ``children`` lists
    from the bot and from us (a few small files); otherwise one pass over the whole of /proc.
    """
    if subreaper:
        found = descendants([root])
        ours = children(os.getpid())
        if found is not None and ours is not None:
            seen = set(found)
            orphans = [p for p in ours if p != root and p not in seen and _belongs(p, root, mark)]
            below = descendants(orphans) if orphans else []
            if below is not None:
                return list(dict.fromkeys(found + orphans + below))
    return _tree_by_scan(root, mark)


def address_space(pid: int) -> int | None:
    """The hard limit of ``pid``'s address space (``RLIMIT_AS``) in bytes, from
    ``/proc/PID/limits``; ``None`` when unlimited, unknown or gone."""
    try:
        with open(f"/proc/{pid}/limits", "rb") as f:
            for line in f:
                if line.startswith(b"Max address space"):
                    hard = line.split()[-2]
                    return int(hard) if hard.isdigit() else None
    except (OSError, IndexError):
        pass
    return None


def _belongs(orphan: int, root: int, mark: int | None) -> bool:
    """Whether ``orphan``, re-parented to us, is of the bot ``root``: of its session, or marked."""
    st = stat(orphan)
    return (st is not None and st.session == root) or (mark is not None and address_space(orphan) == mark)


def _tree_by_scan(root: int, mark: int | None) -> list[int]:
    """:func:`tree_of` from one pass over /proc."""
    everything = table()
    kids: dict[int, list[int]] = {}
    for pid, st in everything:
        kids.setdefault(st.ppid, []).append(pid)
    me = os.getpid()
    found = {
        pid: None
        for pid, st in everything
        if pid != root and (st.session == root or (mark is not None and st.ppid == me and address_space(pid) == mark))
    }
    stack = [root, *found]  # an orphan of the session may have children in other sessions
    while stack:
        for child in kids.get(stack.pop(), []):
            if child not in found and child != root:
                found[child] = None
                stack.append(child)
    return list(found)
