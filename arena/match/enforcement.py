"""How a bot's limits are enforced on this machine: with cgroups where it lets us make them
(:mod:`arena.match.cgroups`), else with the watchdog (:mod:`arena.match.watchdog`).
"""

from __future__ import annotations

import os

from .cgroups import cgroup_limiter
from .limits import TreeLimiter, TreeLimits
from .watchdog import Watchdog

__all__ = ["tree_limiter", "enforcement"]

_forced: str | None = os.environ.get("ARENA_LIMITS") or None
"""``watchdog`` forces the watchdog (tests of the fallback, machines with odd cgroups)."""


def tree_limiter(limits: TreeLimits, force: str | None = None) -> TreeLimiter:
    """The limiter for one bot: cgroups where this machine lets us make them, else the watchdog.

    ``force="watchdog"`` (or the environment variable ``ARENA_LIMITS=watchdog``) skips cgroups.
    """
    force = force or _forced
    if (limits.memory_mb or limits.tasks) and force != "watchdog":
        made = cgroup_limiter(limits)
        if made is not None:
            return made
    return Watchdog(limits)


def enforcement(force: str | None = None) -> str:
    """How limits are enforced on this machine: ``cgroup v2``, ``cgroup v1`` or ``watchdog``."""
    limiter = tree_limiter(TreeLimits(), force)
    limiter.close()
    return limiter.kind
