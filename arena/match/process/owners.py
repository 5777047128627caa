"""What an arena leaves behind when it is killed outright (SIGKILL, the out-of-memory killer), where
its own clean-up cannot run: its bots' cgroups (:mod:`arena.match.limits.cgroups`) and the sandbox's
folder (:mod:`arena.match.sandbox`). Each is named after the arena that made it, so that the next
arena removes those whose owner is gone.

A name holds the arena's PID namespace (the inode of ``/proc/self/ns/pid``) and its PID, after a
prefix: ``PREFIX-NS-PID-...`` (:func:`tag`). A thing is stale when its namespace is ours and its
PID no longer runs; a PID in use again keeps its things until it ends too. The things of another
namespace (another container sharing the hierarchy or ``/tmp``) are never touched: their PIDs
mean nothing here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["NAMESPACE", "tag", "alive", "stale"]


def _pid_namespace() -> int:
    """The inode of this process's PID namespace (0 where ``/proc`` does not tell)."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


NAMESPACE = _pid_namespace()


def tag() -> str:
    """``NS-PID``: this arena, as the names of what it makes hold it."""
    return f"{NAMESPACE}-{os.getpid()}"


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie counts). Asked of the kernel, not of ``/proc``: ``/proc`` may
    hide other users' processes (``hidepid``), and a live arena taken for dead would lose its
    things (its bots killed, with their cgroups)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive
        pass
    return True


def stale(parent: Path, name: re.Pattern[str]) -> list[Path]:
    """The entries of ``parent`` whose whole name matches ``name`` (its two groups: the namespace
    and the PID) and that arenas of this PID namespace left when they were killed, in order."""
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    found = []
    for entry in names:
        m = name.fullmatch(entry)
        if m is not None and NAMESPACE and int(m.group(1)) == NAMESPACE and not alive(int(m.group(2))):
            found.append(parent / entry)
    return sorted(found)
