"""What the arena reads through a sandbox's init (arena.match.sandbox.init)."""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import subprocess
import termios
import time

from arena.match import sandbox
from arena.match.process import plumbing, proctree
from arena.match.sandbox.init import InitPid, scratch_bytes
from tests.helpers.sandboxing import require_sandbox


def test_a_sandbox_in_the_making_holds_no_scratch_bytes() -> None:
    """While bwrap is still making the sandbox, its future init's root is the host's: its /tmp
    is ours, whose use (a whole disk, often) must not be counted as the bot's memory (a bot was
    killed for it at its start now and then). A process whose child runs in our own root stands
    for it here."""
    parent = subprocess.Popen(["/bin/sh", "-c", "sleep 30; :"])
    try:
        end = time.monotonic() + 10
        while not proctree.children(parent.pid) and time.monotonic() < end:
            time.sleep(0.01)
        assert proctree.children(parent.pid), "the stand-in init did not start"
        assert scratch_bytes(parent.pid) == 0
    finally:
        parent.kill()
        parent.wait()


def test_bwrap_tells_its_init_s_pid_and_nothing_when_it_made_none() -> None:
    """The PID ``bwrap --info-fd`` gives is the one child seen from out here (in /proc); a
    ``bwrap`` that fails before making its init gives none, and reading it never waits."""
    require_sandbox()
    bwrap = sandbox.support().bwrap
    assert bwrap is not None
    sleeper = ["--ro-bind", "/", "/", "--unshare-pid", "--die-with-parent", "/bin/sh", "-c", "sleep 30"]
    info = InitPid()
    proc = subprocess.Popen([bwrap, *info.words(), *sleeper], pass_fds=(info.write_fd,))
    info.started()
    try:
        end = time.monotonic() + 10
        while not proctree.children(proc.pid) and time.monotonic() < end:
            time.sleep(0.01)
        seen = proctree.children(proc.pid)
        # bwrap writes the PID once its child is set up, a moment after the child appears here, and
        # in pieces ("{", the PID, "}"): wait until what it wrote stops growing
        written = -1
        while time.monotonic() < end:
            size = struct.unpack("i", fcntl.ioctl(info._read_fd, termios.FIONREAD, b"\0\0\0\0"))[0]
            if size and size == written:
                break
            written = size
            time.sleep(0.2)
    finally:
        proc.kill()
        proc.wait()
    assert seen and info.pid() == seen[0]
    left = proctree.stat(seen[0])
    if left is not None and left.ppid == os.getpid():  # we are a subreaper: its init is ours to reap
        os.kill(seen[0], signal.SIGKILL)
        plumbing.reap_when_gone(seen[0], 5)
    failed = InitPid()
    broken = subprocess.Popen(
        [bwrap, *failed.words(), "--no-such-option"], pass_fds=(failed.write_fd,), stderr=subprocess.DEVNULL
    )
    failed.started()
    assert broken.wait(10) != 0
    assert failed.pid() is None
