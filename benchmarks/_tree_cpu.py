"""The CPU of this process and of every process it starts, however deep and wherever reaped.

A sandboxed bot's processes are reaped inside its PID namespace (bubblewrap's init, or the kernel
when the namespace ends), so ``RUSAGE_CHILDREN`` misses them, and the machine's CPU in
``/proc/stat`` counts in 10 ms ticks and counts every other process of a shared machine too. A
cgroup of the ``cpuacct`` controller (cgroup v1) that this process joins counts, in nanoseconds,
the CPU of every process started from it afterwards, whatever cgroups of other controllers they
move to (the arena moves bots into ``memory`` and ``pids`` groups, never ``cpuacct``).

Where no such group can be made (cgroup v2, no write access), :func:`open_tree_cpu` gives
``None`` and the benchmarks fall back to the machine's CPU.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["TreeCpu", "open_tree_cpu"]

_V1 = Path("/sys/fs/cgroup/cpuacct")


class TreeCpu:
    """A ``cpuacct`` cgroup that this process has joined: :meth:`seconds` is the CPU of
    everything run in it since; :meth:`close` leaves and removes it."""

    def __init__(self, group: Path, home: Path) -> None:
        self._group, self._home = group, home
        self._usage = os.open(group / "cpuacct.usage", os.O_RDONLY)

    def seconds(self) -> float:
        """CPU seconds of this process and its descendants since the group was made."""
        return int(os.pread(self._usage, 64, 0)) / 1e9

    def close(self) -> None:
        os.close(self._usage)
        (self._home / "cgroup.procs").write_text(str(os.getpid()))
        try:
            self._group.rmdir()
        except OSError:  # a process started here still runs: the group goes when it ends
            pass


def open_tree_cpu() -> TreeCpu | None:
    """Join a fresh ``cpuacct`` cgroup (v1) under this process's own; ``None`` where it cannot."""
    try:
        relative = next(
            line.split(":", 2)[2].strip()
            for line in Path("/proc/self/cgroup").read_text().splitlines()
            if "cpuacct" in line.split(":", 2)[1].split(",")
        )
    except (OSError, StopIteration, IndexError):
        return None
    home = _V1 / relative.lstrip("/")
    group = home / f"arena-bench-{os.getpid()}"
    try:
        group.mkdir()
    except OSError:
        return None
    try:
        (group / "cgroup.procs").write_text(str(os.getpid()))
        return TreeCpu(group, home)
    except OSError:
        group.rmdir()
        return None
