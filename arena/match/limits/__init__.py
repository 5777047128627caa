"""Limits on a bot's whole process tree: its memory and its number of tasks (processes and threads).

A limit is per bot, not per process: three children of 600 MB each break a 768 MB limit together.
This module says what the limits are (:class:`TreeLimits`), what going past one is
(:class:`Breach`, "memory limit", like CodinGame) and what enforcing them takes
(:class:`TreeLimiter`): cgroups where the machine allows them (:mod:`.cgroups`), else a watchdog
(:mod:`.watchdog`, approximate), as :func:`arena.match.limits.enforcement.tree_limiter` picks. The
bot joins its cgroup before it runs anything of its own (:meth:`TreeLimiter.admission`), so
nothing it starts escapes; whoever breaks a limit is killed whole by
:class:`arena.match.process.botprocess.BotProcess` and reported with a :class:`Breach`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "DEFAULT_MEMORY_LIMIT_MB",
    "DEFAULT_TASK_LIMIT",
    "WATCH_INTERVAL_S",
    "TreeLimits",
    "BreachKind",
    "Breach",
    "TreeLimiter",
    "Admission",
]

DEFAULT_MEMORY_LIMIT_MB = 768
DEFAULT_TASK_LIMIT = 256
"""Processes and threads of one bot (a Java bot has a few dozen threads; a fork bomb has more)."""
WATCH_INTERVAL_S = 0.02


@dataclass(frozen=True)
class TreeLimits:
    """What one bot may use, all its processes together (``None``: no limit)."""

    memory_mb: int | None = DEFAULT_MEMORY_LIMIT_MB
    tasks: int | None = DEFAULT_TASK_LIMIT


class BreachKind(str, enum.Enum):
    MEMORY = "memory limit"
    TASKS = "process limit"


@dataclass(frozen=True)
class Breach:
    """A limit the bot went past (it is then killed)."""

    kind: BreachKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind.value} exceeded ({self.detail})"


class TreeLimiter(Protocol):
    """One bot's limits, from before its start to after its end."""

    kind: str
    """``cgroup v2``, ``cgroup v1`` or ``watchdog``."""

    def admission(self) -> Admission:
        """What the bot's process must do before it runs (join the cgroups, set the backstop)."""

    def check(self, root: int, tree: Callable[[], list[int]]) -> Breach | None:
        """Whether the bot (``root`` and the processes ``tree()`` lists) broke a limit."""

    def kill_all(self) -> None:
        """SIGKILL every member (nothing for the watchdog: the process tree is killed instead)."""

    def close(self) -> None:
        """Release what was made for the bot (its cgroups), once its processes are gone."""


@dataclass(frozen=True)
class Admission:
    """What the bot's own process does before it runs anything of the bot's (see
    :meth:`arena.match.process.botprocess.BotProcess.start`, which does it with a few lines of ``/bin/sh``,
    or a Python bot's fast start with its bootstrap)."""

    cgroup_procs: tuple[str, ...] = ()
    """``cgroup.procs`` files to join (writing ``0`` moves the writer)."""
    address_space_kb: int | None = None
    """A limit on its address space (``RLIMIT_AS``), in KiB: the watchdog's backstop, which it
    makes the bot's own, so that the processes that carry it are known as the bot's."""
