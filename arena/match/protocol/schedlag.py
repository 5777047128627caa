"""Whether the machine, not the bot, is the reason an answer came late: the scheduling lag of an
answer window and the machine's load.

A window's *scheduling lag* is the larger of how long the bot was ready to run but waited for a
core (``/proc/PID/schedstat``) and how late the arena's own wait woke past its deadline; past
:data:`OVERLOAD_SHARE` of its limit the window is *overloaded*, and a timeout in it is the
machine's as much as the bot's (for users: docs/timing.md). :func:`arena.match.loop.play_match`
takes any :class:`LagProbe` in its options (:class:`SchedLagProbe` is the real one).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "OVERLOAD_SHARE",
    "MachineLoad",
    "LagWindow",
    "LagProbe",
    "SchedLagProbe",
    "machine_load",
    "timeout_message",
]

OVERLOAD_SHARE = 0.10
"""A window whose scheduling lag exceeds this share of its time limit is overloaded."""


@dataclass(frozen=True)
class MachineLoad:
    """What was measured of one answer window."""

    lag_ms: float
    """The window's scheduling lag (see the module's docstring)."""
    load: float
    """The machine's load average over the last minute."""
    cores: int
    """The cores this process may run on."""

    def overloaded(self, limit_ms: float) -> bool:
        """Whether the lag exceeds :data:`OVERLOAD_SHARE` of ``limit_ms`` (the limit applied)."""
        return self.lag_ms > OVERLOAD_SHARE * limit_ms

    def describe(self) -> str:
        """``scheduling lag 37 ms, load 6.2 on 2 cores``."""
        cores = f"{self.cores} core" + ("" if self.cores == 1 else "s")
        return f"scheduling lag {self.lag_ms:.0f} ms, load {self.load:.1f} on {cores}"


def timeout_message(load: MachineLoad | None, overloaded: bool) -> str:
    """A timeout's verdict message: in an overloaded window, it says so and what to do; otherwise
    it still names the lag and the load measured."""
    if load is not None and overloaded:
        return f"timeout in an overloaded window ({load.describe()}): run fewer workers or use --time-scale"
    return "no answer within the time limit" + (f" ({load.describe()})" if load is not None else "")


class LagWindow(Protocol):
    """One answer window being measured (from :meth:`LagProbe.open`)."""

    def close(self, late_ms: float) -> MachineLoad:
        """The window's measure; ``late_ms``: how late the arena's wait woke past the deadline."""


class LagProbe(Protocol):
    """Measures answer windows (the seam :class:`arena.match.loop.MatchOptions` carries)."""

    def open(self, pids: Sequence[int]) -> LagWindow:
        """A window starting now for the bot whose processes are ``pids``."""


def machine_load() -> tuple[float, int]:
    """(load average over the last minute, cores this process may use)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return load, cores


@dataclass
class _Window:
    probe: SchedLagProbe
    pids: tuple[int, ...]
    waited_ms: float

    def close(self, late_ms: float) -> MachineLoad:
        waited = max(0.0, self.probe.run_wait_ms(self.pids) - self.waited_ms)
        load, cores = machine_load()
        return MachineLoad(lag_ms=round(max(waited, late_ms), 3), load=round(load, 2), cores=cores)


class SchedLagProbe:
    """The real probe: the bot's run-queue wait over the window, and the arena's own lateness.

    Each process's ``schedstat`` stays open between windows, read with one ``pread`` (opening it
    costs ten times more) until :meth:`close`; a descriptor of a process that ended reads nothing
    (``ESRCH``) and is opened anew. A window that opens less than :attr:`REUSE_S` after the last
    reading starts from that reading (for bots that answer in microseconds)."""

    REUSE_S = 0.001

    def __init__(self) -> None:
        self._fds: dict[int, int] = {}
        self._last: dict[tuple[int, ...], tuple[float, _Window]] = {}
        """The last window opened with a reading, for each set of processes, and when."""

    def run_wait_ms(self, pids: Sequence[int]) -> float:
        """The time the processes ``pids`` (their main threads) have waited for a core since they
        started, in ms (``/proc/PID/schedstat``'s second field; 0 for those gone or unreadable)."""
        total = 0
        fds = self._fds
        for pid in pids:
            fd = fds.get(pid)
            for _ in (0, 1):
                if fd is None:
                    try:
                        fd = fds[pid] = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
                    except OSError:
                        break
                try:
                    total += int(os.pread(fd, 128, 0).split()[1])
                    break
                except (OSError, IndexError, ValueError):
                    os.close(fds.pop(pid))
                    fd = None
        return total / 1e6

    def open(self, pids: Sequence[int]) -> LagWindow:
        now = time.monotonic()
        key = pids if type(pids) is tuple else tuple(pids)
        last = self._last.get(key)
        if last is not None and now - last[0] < self.REUSE_S:
            return last[1]
        window = _Window(self, key, self.run_wait_ms(key))
        self._last[key] = (now, window)
        return window

    def close(self) -> None:
        """Close the descriptors kept open."""
        while self._fds:
            try:
                os.close(self._fds.popitem()[1])
            except OSError:
                pass
