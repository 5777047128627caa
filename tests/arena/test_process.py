"""BotProcess: the fast process-tree lookup (kernel ``children`` lists) finds what a full scan of
/proc finds, including a grandchild in a new session and an orphan re-parented to us; writes to a
bot that does not read give up at their deadline."""

from __future__ import annotations

import sys
import time

from arena.match import process
from arena.match.process import BotProcess

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


def test_send_to_a_bot_that_never_reads_gives_up_at_the_deadline():
    bot = BotProcess([sys.executable, "-c", "import time; time.sleep(60)"], name="deaf").start()
    try:
        assert bot.send(["x" * 1000], time.monotonic() + 1)  # fits in the pipe
        start = time.monotonic()
        assert not bot.send(["y" * 4 * 1024 * 1024], start + 0.3)  # 4 MB never fits
        assert 0.25 < time.monotonic() - start < 1.5
    finally:
        bot.kill_tree()


def test_send_waits_for_a_slow_reader_then_succeeds():
    reader = "import sys, time; time.sleep(0.2); sys.stdin.buffer.read(); print('done', flush=True)"
    bot = BotProcess([sys.executable, "-c", reader], name="slow").start()
    try:
        payload = ["z" * 1023] * 1024  # 1 MB: more than a pipe holds
        assert bot.send(payload, time.monotonic() + 10)
        bot._proc.stdin.close()
        assert bot.read_line(10).line == "done"
    finally:
        bot.kill_tree()
