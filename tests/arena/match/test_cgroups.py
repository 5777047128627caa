"""Cgroups (arena.match.limits.cgroups): event counts are read from the right line, a cgroup kept for the
next bot counts only that bot's events, and the cgroups dead arenas left are found and removed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.match.limits import BreachKind, cgroups
from arena.match.limits.cgroups import _count
from arena.match.limits.enforcement import enforcement
from arena.match.process.botprocess import BotProcess


def test_event_counts_are_read_from_the_start_of_a_line() -> None:
    """cgroup event files are ``key value`` lines; a key that is the end of another key
    (``oom`` in ``under_oom``) or its start (``oom`` in ``oom_kill``) must not be read instead."""
    v1 = b"oom_kill_disable 0\nunder_oom 1\noom_kill 3\n"
    assert (_count(v1, b"oom_kill"), _count(v1, b"under_oom"), _count(v1, b"oom")) == (3, 1, 0)
    v2 = b"low 0\nhigh 0\nmax 7\noom 2\noom_kill 0\noom_group_kill 0\n"
    assert (_count(v2, b"oom"), _count(v2, b"max"), _count(v2, b"oom_kill")) == (2, 7, 0)
    assert (_count(b"max 4", b"max"), _count(b"", b"max"), _count(b"max x\n", b"max")) == (4, 0, 0)


def test_a_kept_cgroup_counts_only_the_events_of_its_next_bot() -> None:
    """An empty cgroup is kept for the next bot; the events of the bot before (here: forks
    refused at the task limit) must not be taken for the next bot's."""
    if enforcement() == "watchdog":
        pytest.skip("this machine gives no cgroups to the arena (the watchdog keeps no state)")
    bomb = BotProcess(
        [
            sys.executable,
            "-c",
            "import os, time\nfor _ in range(20):\n"
            "    try:\n        os.fork() or time.sleep(60)\n    except OSError:\n        pass\n"
            "time.sleep(60)",
        ],
        memory_limit_mb=None,
        task_limit=8,
    ).start()
    end = time.monotonic() + 10
    while bomb.limit_breach() is None and time.monotonic() < end:
        time.sleep(0.05)
    assert bomb.breach is not None and bomb.breach.kind is BreachKind.TASKS
    used = bomb._limiter
    bomb.kill_tree()
    calm = BotProcess(
        [sys.executable, "-c", "import sys; sys.stdin.readline()"], memory_limit_mb=None, task_limit=8
    ).start()
    try:
        assert calm._limiter is used  # the same cgroup, kept
        time.sleep(0.2)
        assert calm.limit_breach() is None
    finally:
        calm.kill_tree()


def test_stale_cgroups_are_those_of_dead_arenas_of_this_pid_namespace(tmp_path: Path) -> None:
    """Only ``arena-NS-PID-N`` with this PID namespace and a PID that no longer runs is stale:
    a running PID keeps its cgroups, and the PIDs of another namespace (a container sharing the
    hierarchy) mean nothing here; older names and other directories are left alone."""
    ns = os.stat("/proc/self/ns/pid").st_ino
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(done.stdout)  # ended: waited for above
    names = {
        f"arena-{ns}-{dead}-0": True,
        f"arena-{ns}-{dead}-7": True,
        f"arena-{ns}-{os.getpid()}-0": False,
        f"arena-{ns + 1}-{dead}-0": False,
        f"arena-{dead}-0": False,
        f"arena-{ns}-{dead}-x": False,
        "system.slice": False,
    }
    for name in names:
        (tmp_path / name).mkdir()
    expected = sorted(tmp_path / name for name, stale in names.items() if stale)
    assert cgroups.stale_cgroups(tmp_path) == expected
    cgroups._sweep(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for n, stale in names.items() if not stale)
