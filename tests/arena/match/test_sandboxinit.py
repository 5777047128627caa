"""What the arena reads through a sandbox's init (arena.match.sandboxinit)."""

from __future__ import annotations

import subprocess
import time

from arena.match import proctree
from arena.match.sandboxinit import scratch_bytes


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
