"""Finding a bot's process tree: the fast path (kernel ``children`` lists) finds what a full scan
of /proc finds, including a grandchild in a new session and an orphan re-parented to us."""

from __future__ import annotations

import sys
import time

from arena import process
from arena.process import BotProcess

# Starts a child (same session) that starts a grandchild in a new session, and a second child
# that exits at once leaving its own child (an orphan, re-parented to us, still in the session).
SPAWNER = r"""
import subprocess, sys, time
subprocess.Popen(["sleep", "60"])
subprocess.Popen([sys.executable, "-c",
    "import subprocess, time; subprocess.Popen(['setsid', 'sleep', '60']); time.sleep(60)"])
subprocess.Popen([sys.executable, "-c",
    "import subprocess; subprocess.Popen(['sleep', '61'])"]).wait()
print("ready", flush=True)
time.sleep(60)
"""


def test_fast_tree_matches_a_full_scan_and_kill_leaves_nothing():
    bot = BotProcess([sys.executable, "-c", SPAWNER], name="spawner").start()
    try:
        assert bot.read_line(10).line == "ready"
        pid = bot.pid
        deadline = time.monotonic() + 5
        while len(process._tree_by_scan(pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)  # the setsid grandchild may still be starting
        fast = sorted(process._tree_of(pid))
        scan = sorted(process._tree_by_scan(pid))
        assert len(scan) >= 4, scan  # sleep 60, the middle python, its setsid sleep, orphan sleep 61
        assert fast == scan
    finally:
        bot.kill_tree()
    assert not [p for p in fast if BotProcess._alive(p)]
