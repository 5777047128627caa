"""A Python bot's fast start puts itself under its limits (issue #38): its bootstrap checks its
parent, limits its address space and joins its cgroups, as the launcher's shell does for any
other bot, so that no shell runs before it. The bot must see the same limits either way."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.match.launch import pystart
from arena.match.process import plumbing
from arena.match.process.botprocess import BotProcess

REPORT = """\
import json, os, resource, sys
sys.stdin.readline()
print(json.dumps({
    "cgroups": sorted(line.split(":", 2)[2].strip() for line in open("/proc/self/cgroup")),
    "address_space": resource.getrlimit(resource.RLIMIT_AS)[0],
    "parent": os.getppid(),
}), flush=True)
"""


def started(bot: Path, monkeypatch: pytest.MonkeyPatch, fast: bool) -> tuple[dict[str, Any], list[str], Any]:
    """What the bot saw of its limits, the command that started it, and its admission."""
    commands: list[list[str]] = []
    launch = plumbing.launch_command

    def recorded(command: Any, *args: Any, **kwargs: Any) -> Any:
        made = launch(command, *args, **kwargs)
        commands.append(made[0])
        return made

    monkeypatch.setattr(plumbing, "launch_command", recorded)
    monkeypatch.setenv(pystart.ENV_SWITCH, "1" if fast else "0")
    proc = BotProcess([sys.executable, "-u", str(bot)], cwd=str(bot.parent), memory_limit_mb=300).start()
    try:
        assert proc._limiter is not None
        admission = proc._limiter.admission()
        proc.send(["go"])
        read = proc.read_line(20)
        assert read.line is not None, (read, proc.stderr_tail())
        return json.loads(read.line), commands[-1], admission
    finally:
        proc.kill_tree()


def test_the_fast_start_admits_itself_and_sees_the_limits_the_shell_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(REPORT)
    seen, command, admission = started(bot, monkeypatch, fast=True)
    assert "/bin/sh" not in command and "-S" in command  # the fast start, no shell before it
    assert seen["parent"] == os.getpid()
    for procs in admission.cgroup_procs:  # each cgroup of the bot's, as the arena made it
        assert any(procs.endswith(f"{path.rstrip('/')}/cgroup.procs") for path in seen["cgroups"]), (procs, seen)
    if admission.address_space_kb:
        assert seen["address_space"] == admission.address_space_kb * 1024
    else:
        assert seen["address_space"] == resource.getrlimit(resource.RLIMIT_AS)[0]
    plain, plain_command, plain_admission = started(bot, monkeypatch, fast=False)
    assert plain_admission.cgroup_procs or not admission.cgroup_procs
    if admission.cgroup_procs:
        assert "/bin/sh" in plain_command  # the normal start: the shell admits it
    assert len(plain["cgroups"]) == len(seen["cgroups"]) and plain["address_space"] == seen["address_space"]


def fast_command(tmp_path: Path, admission: str) -> list[str]:
    bot = tmp_path / "bot.py"
    bot.write_text("print('ran')\n")
    argv = pystart.launch_argv([sys.executable, "-u", str(bot)], str(tmp_path), os.environ)
    admitted = pystart.admitting(argv, admission)
    if admitted is None:
        pytest.skip(f"no fast start here: {pystart.start_plan([sys.executable, '-u', str(bot)], None, None)}")
    return admitted


def test_a_bot_whose_parent_is_not_the_arena_any_more_never_runs(tmp_path: Path) -> None:
    """The parent's PID given is not the process's parent (the arena died before ``setpriv``'s
    parent-death signal was set): it exits with the launcher's code before the bot runs."""
    done = subprocess.run(fast_command(tmp_path, f"{os.getpid() + 1_000_000}\n"), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (plumbing.LAUNCHER_FAILED, "")
    done = subprocess.run(fast_command(tmp_path, f"{os.getpid()}\n"), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "ran\n")


def test_a_cgroup_it_cannot_join_stops_it_with_the_reason(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-cgroup" / "cgroup.procs"
    done = subprocess.run(fast_command(tmp_path, f"\n\n{missing}"), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (plumbing.LAUNCHER_FAILED, "")
    assert "could not be put under its limits" in done.stderr and str(missing) in done.stderr


def test_an_address_space_limit_is_set_before_the_bot_runs(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("import resource\nprint(resource.getrlimit(resource.RLIMIT_AS))\n")
    argv = pystart.admitting(pystart.launch_argv([sys.executable, "-u", str(bot)], None, os.environ), "\n2000000\n")
    if argv is None:
        pytest.skip("no fast start here")
    done = subprocess.run(argv, capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, str((2_000_000 * 1024, 2_000_000 * 1024))), done.stderr
