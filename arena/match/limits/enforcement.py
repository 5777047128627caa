"""How a bot's limits are enforced on this machine: with cgroups where it lets us make them
(:mod:`arena.match.limits.cgroups`), else with the watchdog (:mod:`arena.match.limits.watchdog`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import WATCH_INTERVAL_S, TreeLimiter, TreeLimits
from .cgroups import cgroup_limiter
from .watchdog import Watchdog

__all__ = ["tree_limiter", "enforcement", "limits_note"]

_forced: str | None = os.environ.get("ARENA_LIMITS") or None
"""``watchdog`` forces the watchdog (tests of the fallback, machines with odd cgroups)."""


def tree_limiter(limits: TreeLimits, held: Callable[[int], int] | None = None) -> TreeLimiter:
    """The limiter for one bot: cgroups where this machine lets us make them, else the watchdog.

    ``held``: the memory the bot holds outside its processes, in bytes, given its root's PID (a
    sandbox's files in memory), which the watchdog adds (the kernel charges them to a cgroup).
    """
    if (limits.memory_mb or limits.tasks) and _forced != "watchdog":
        made = cgroup_limiter(limits)
        if made is not None:
            return made
    return Watchdog(limits, held)


def enforcement() -> str:
    """How limits are enforced on this machine: ``cgroup v2``, ``cgroup v1`` or ``watchdog``."""
    limiter = tree_limiter(TreeLimits())
    limiter.close()
    return limiter.kind


def limits_note(limits: TreeLimits) -> str | None:
    """The line to show where ``limits`` are only approximate on this machine (the watchdog holds
    them: see :mod:`arena.match.limits.watchdog`), ``None`` where cgroups hold them or there are none."""
    if not (limits.memory_mb or limits.tasks) or enforcement() != "watchdog":
        return None
    return (
        "the memory and process limits are approximate here: without cgroups for the bots, a "
        f"watchdog sums their processes every {WATCH_INTERVAL_S * 1000:.0f} ms (what they use "
        "between two looks or hold in the kernel escapes it; see docs/how-to/sandbox.md)"
    )
