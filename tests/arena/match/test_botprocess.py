"""BotProcess: kill_tree leaves nothing of a bot's process tree alive (a grandchild in a new
session, an orphan re-parented to us); writes to a bot that does not read give up at their
deadline."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.match.process.botprocess import BotProcess, BotStartError, resolve_program
from tests.helpers.paths import REPO_ROOT

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


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent, session, state) of a process from /proc, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[3]), fields[0]


def _tree(root: int) -> set[int]:
    """Every live process descending from ``root`` or in its session (a plain /proc scan)."""
    table = {int(d): st for d in os.listdir("/proc") if d.isdigit() and (st := _stat(int(d))) is not None}
    found = {pid for pid, (_, sid, _) in table.items() if sid == root and pid != root}
    frontier = [root, *found]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _, _) in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                frontier.append(pid)
    return found


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[2] != "Z"


def test_kill_tree_leaves_nothing_of_the_tree():
    bot = BotProcess([sys.executable, "-c", SPAWNER], name="spawner").start()
    try:
        assert bot.read_line(10).line == "ready"
        pid = bot.pid
        deadline = time.monotonic() + 5
        while len(_tree(pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)  # the setsid grandchild may still be starting
        tree = _tree(pid) | {pid}
        assert len(tree) >= 5, tree  # the bot, sleep 60, the middle python, its setsid sleep, sleep 61
    finally:
        bot.kill_tree()
    assert not [p for p in tree if _alive(p)]


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


# -- how a bot is started --------------------------------------------------------------------------


def test_a_bot_starts_with_no_signal_blocked():
    # A fresh process blocks no signal; one started while the arena blocked Ctrl-C would keep
    # them blocked through exec, and a blocked SIGTERM would not stop it.
    bot = BotProcess(["/bin/sh", "-c", "grep '^SigBlk' /proc/self/status; read x"], name="mask").start()
    try:
        line = bot.read_line(10).line
        assert line is not None and line.split() == ["SigBlk:", "0000000000000000"], line
    finally:
        bot.kill_tree()


DIES_WITH_PARENT = r"""
import os, sys
from arena.match.process import botprocess, plumbing
if sys.argv[1] == "no-setpriv":
    plumbing._setpriv = lambda: None  # the fallback: the signal is set from Python in the child
bot = botprocess.BotProcess(["sleep", sys.argv[2]], memory_limit_mb=None, task_limit=None).start()
print(bot.pid, flush=True)
os._exit(0)
"""


@pytest.mark.parametrize("how", ["setpriv", "no-setpriv"])
def test_a_bot_dies_with_the_process_that_started_it(how):
    seconds = f"{4000 + os.getpid() % 1000}.{len(how)}"  # a command line no other test runs
    done = subprocess.run(
        [sys.executable, "-c", DIES_WITH_PARENT, how, seconds],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
        check=True,
    )
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(pid), f"sleep {seconds} outlived the process that started it"


@pytest.mark.parametrize(
    "program,content,mode,error",
    [
        ("missing", None, None, "no such file or command"),
        ("./a-dir", "dir", None, "permission denied"),
        ("./plain.py", "print(1)\n", 0o644, "permission denied"),
        ("./no-shebang.py", "print(1)\n", 0o755, "neither a binary nor a script with a '#!' line"),
        ("./empty", "", 0o755, "neither a binary nor a script"),
    ],
)
def test_a_command_that_cannot_run_is_refused_before_anything_starts(tmp_path, program, content, mode, error):
    if content == "dir":
        (tmp_path / program).mkdir()
    elif content is not None:
        path = tmp_path / program
        path.write_text(content)
        path.chmod(mode)
    with pytest.raises(BotStartError, match=error):
        BotProcess([program], cwd=str(tmp_path)).start()


def test_a_missing_working_folder_is_named_rather_than_the_program(tmp_path):
    with pytest.raises(BotStartError, match=f"^{tmp_path / 'gone'}: the bot's working folder does not exist$"):
        BotProcess([sys.executable, "-c", "pass"], cwd=str(tmp_path / "gone")).start()


def test_a_command_is_found_the_way_exec_finds_it(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "echo-bot"
    script.write_text('#!/bin/sh\nread x; echo "got $x"\n')
    script.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    # in the bot's own PATH, then by a path relative to its working directory
    for argv, env in ((["echo-bot"], {"PATH": str(bin_dir)}), (["../bin/echo-bot"], None)):
        assert os.path.samefile(resolve_program(argv[0], str(work), env), script)
        bot = BotProcess(argv, cwd=str(work), env=env).start()
        try:
            bot.send(["ping"])
            assert bot.read_line(10).line == "got ping"
        finally:
            bot.kill_tree()
