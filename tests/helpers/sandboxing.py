"""Test helpers for the sandbox: which modes to run, and finding a bot's processes by a marker.

Sandboxed bots live in their own PID namespace, so the pids they see are not the machine's: tests
give each bot a unique marker on its command line and look for it in every ``/proc/*/cmdline``.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable

import pytest

from arena.match import sandbox

from .environment import missing


def marker() -> str:
    return f"arena-test-{uuid.uuid4().hex}"


def cmdline(pid: int) -> bytes:
    """The command line of ``pid`` (NUL-separated), empty once it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def processes_with(mark: str) -> list[int]:
    """Live (not zombie) processes of the machine whose command line contains ``mark``."""
    needle = mark.encode()
    return [int(e) for e in os.listdir("/proc") if e.isdigit() and needle in cmdline(int(e)) and alive(int(e))]


def soon(condition: Callable[[], bool], wait_s: float = 3.0) -> bool:
    """Whether ``condition`` holds within ``wait_s`` (a process's death is not instant)."""
    end = time.monotonic() + wait_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def gone(mark: str, wait_s: float = 3.0) -> bool:
    """Whether every process carrying ``mark`` ends within ``wait_s``."""
    return soon(lambda: not processes_with(mark), wait_s)


def require_sandbox() -> None:
    """Skip where bubblewrap cannot sandbox (the reason says how to install it), except under CI,
    which installs it: fail there."""
    found = sandbox.support()
    if not found.works:
        missing(f"no sandbox here: {found.reason}")


@pytest.fixture(params=["off", "on"])
def sandbox_mode(request: pytest.FixtureRequest) -> str:
    """Run a test without and with the sandbox."""
    if request.param == "on":
        require_sandbox()
    return str(request.param)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :][:1] != b"Z"
