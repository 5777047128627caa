"""Nothing outlives the arena: not when a match ends, not when ``arena play``, a tournament or one
of its workers is killed with SIGKILL, not when more signals come during the clean-up.

Every process of the test's bots carries a marker on its command line (see ``tests/helpers/sandboxing.py``), so
they are found on the machine whatever namespace they run in. With ``--sandbox off`` the bots
themselves die with the arena (parent-death signal) but a daemon a bot started in a session of
its own can only be killed by the arena while it lives (or, with cgroups, by the next arena, which
removes what a killed arena left); with the sandbox it dies in every case.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.match.replay import read_replay
from tests.helpers.paths import FAULT_BOTS, FAULTY
from tests.helpers.sandboxing import alive, cmdline, gone, marker, processes_with, require_sandbox, soon


def bot(mode: str, at: int, mark: str, script: Path = FAULTY) -> str:
    return f"{sys.executable} -u {script} {mode} {at} {mark}"


def arena(
    *args: str, tmp_path: Path, group: bool = False, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """The arena in a subprocess; for ``play``, returns once the match has started (its header
    is printed after the bots' start check, whose bots carry the marker too)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE if args[0] == "play" else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=group,
        env=env,
    )
    if args[0] == "play":
        assert proc.stdout is not None
        header = proc.stdout.readline()
        assert header.startswith(b"Spring Challenge 2021"), header
    return proc


def wait_for(mark: str, count: int, proc: subprocess.Popen[bytes], timeout_s: float = 60.0) -> None:
    end = time.monotonic() + timeout_s
    while len(processes_with(mark)) < count:
        if proc.poll() is not None:
            raise AssertionError(f"the arena ended early: {proc.stderr.read().decode() if proc.stderr else ''}")
        if time.monotonic() > end:
            raise AssertionError(f"the bots did not start: {len(processes_with(mark))} processes")
        time.sleep(0.05)


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            children.setdefault(int(stat[stat.rfind(b")") + 2 :].split()[1]), []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        for kid in children.get(stack.pop(), []):
            found.append(kid)
            stack.append(kid)
    return found


def all_dead(pids: list[int]) -> bool:
    return soon(lambda: not any(alive(p) for p in pids))


MODES = [pytest.param("off", "hang", id="off"), pytest.param("on", "daemon", id="on-with-a-daemon")]


@pytest.mark.parametrize("mode,first", MODES)
def test_sigkill_of_arena_play_leaves_no_bot(tmp_path, mode, first):
    if mode == "on":
        require_sandbox()
    mark = marker()
    # the first bot (a daemon with the sandbox) waits for ever at its 2nd answer, the other at its 3rd
    proc = arena(
        "play",
        "spring2021",
        bot(first if first == "hang" else "daemon", 1, mark),
        bot("hang", 3, mark),
        "--no-timeout",
        "--sandbox",
        mode,
        tmp_path=tmp_path,
    )
    try:
        wait_for(mark, 3 if first == "daemon" else 2, proc)
        time.sleep(0.3)
        proc.kill()
        proc.wait()
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        proc.kill()


def cgroup_dirs(pid: int) -> list[Path]:
    """The bot cgroups ``pid`` is in, as ``/proc/PID/cgroup`` names them (v1: one per hierarchy)."""
    found = []
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "/arena-" in path:
            root = Path("/sys/fs/cgroup")
            found.append(root / (controllers or "") / path.lstrip("/") if controllers else root / path.lstrip("/"))
    return found


def test_the_next_arena_removes_the_cgroups_of_a_killed_one(tmp_path):
    """An arena killed by SIGKILL cannot remove its bots' cgroups, nor (without the sandbox) kill
    a daemon a bot started in a session of its own: the next arena does both."""
    from arena.match.limits.enforcement import enforcement

    if enforcement() == "watchdog":
        pytest.skip("this machine gives no cgroups to the arena (the watchdog makes none)")
    mark = marker()
    proc = arena(
        "play",
        "spring2021",
        bot("daemon", 1, mark),
        bot("hang", 2, mark),
        "--no-timeout",
        "--sandbox",
        "off",
        tmp_path=tmp_path,
    )
    try:
        wait_for(mark, 3, proc)

        def daemons() -> list[int]:
            return [p for p in processes_with(mark) if b"time.sleep" in cmdline(p) and b"faulty.py" not in cmdline(p)]

        assert soon(lambda: len(daemons()) == 1), processes_with(mark)
        (daemon,) = daemons()
        dirs = cgroup_dirs(daemon)
        assert dirs and all(d.is_dir() for d in dirs), dirs
        assert all(f"-{proc.pid}-" in d.name for d in dirs), dirs
        proc.kill()
        # Not reaped yet, the killed arena's pid still runs for the kernel: the arenas of other
        # tests (pytest -n) cannot take its cgroups for stale before they are looked at here.
        assert soon(lambda: not alive(proc.pid))  # a zombie
        # what the killed arena left: its cgroups, and the daemon in them
        assert all(d.is_dir() for d in dirs) and alive(daemon)
        proc.wait()
        sweep = (
            "from arena.match import limits\nfrom arena.match.limits import enforcement\n"
            "enforcement.tree_limiter(limits.TreeLimits()).close()"
        )
        subprocess.run(
            [sys.executable, "-c", sweep],
            check=True,
            timeout=60,
        )
        assert soon(lambda: not alive(daemon)), "the daemon in the stale cgroup is still running"
        assert not any(d.exists() for d in dirs), f"left: {[d for d in dirs if d.exists()]}"
    finally:
        proc.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def test_the_next_arena_removes_the_sandbox_folder_of_a_killed_one(tmp_path):
    """An arena killed by SIGKILL cannot remove its folder in the temporary directory (that of the
    empty file it binds over an opponent's files): the next arena that needs one removes it, and
    leaves alone those of running arenas, of other PID namespaces, and of unknown owners."""
    require_sandbox()
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    for name in ("faulty.py", "frames.py"):
        shutil.copy(FAULT_BOTS / name, tmp_path / name)
    other = tmp_path / "other.py"  # another file: each bot's is hidden from the other
    shutil.copy(FAULTY, other)
    ns = os.stat("/proc/self/ns/pid").st_ino
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(done.stdout)
    kept = [f"arena-sandbox-{ns}-{os.getpid()}-running", f"arena-sandbox-{ns + 1}-{dead}-other", "arena-sandbox-old"]
    for name in kept:
        (temp / name).mkdir()
    mark = marker()
    match = ["play", "spring2021", bot("hang", 3, mark, tmp_path / "faulty.py"), bot("hang", 3, mark, other)]
    proc = arena(*match, "--no-timeout", "--sandbox", "on", tmp_path=tmp_path, env=env)
    try:
        wait_for(mark, 2, proc)
        assert soon(lambda: len(list(temp.iterdir())) == len(kept) + 1), list(temp.iterdir())
        (left,) = set(temp.iterdir()) - {temp / name for name in kept}
        proc.kill()
        proc.wait()
        assert gone(mark), f"left running: {processes_with(mark)}"
        assert left.is_dir()  # what the killed arena left
        again = ["play", "spring2021", bot("crash", 1, mark, tmp_path / "faulty.py"), bot("crash", 1, mark, other)]
        subprocess.run([sys.executable, "-m", "cli", *again, "--sandbox", "on"], cwd=tmp_path, env=env, timeout=60)
        assert sorted(p.name for p in temp.iterdir()) == sorted(kept)
    finally:
        proc.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["off", "on"])
def test_more_signals_during_the_clean_up_do_not_cut_it_short(tmp_path, mode):
    if mode == "on":
        require_sandbox()
    for trial in range(3):
        mark = marker()
        # both bots ignore SIGTERM (the clean-up waits its grace period for them) and start a daemon
        proc = arena(
            "play",
            "spring2021",
            bot("daemon-noterm", 1, mark),
            bot("daemon-noterm", 1, mark),
            "--time-scale",
            "50",
            "--sandbox",
            mode,
            tmp_path=tmp_path,
        )
        try:
            wait_for(mark, 4, proc)
            proc.send_signal(signal.SIGINT)
            time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)
            assert gone(mark), f"trial {trial}: left running: {processes_with(mark)}"
        finally:
            proc.kill()


def hold_ctrl_c(proc: subprocess.Popen[bytes], group: bool) -> int:
    """Ctrl-C every few milliseconds until ``proc`` ends, as a user holding it down; its exit status."""
    while proc.poll() is None:
        try:
            if group:
                os.killpg(proc.pid, signal.SIGINT)
            else:
                proc.send_signal(signal.SIGINT)
        except ProcessLookupError:
            break
        time.sleep(0.003)
    return proc.wait()


@pytest.mark.parametrize("mode", ["off", "on"])
def test_ctrl_c_held_down_through_a_match_s_end_still_exits_130(tmp_path, mode):
    # Python puts its signal handlers back to the default as it exits: a Ctrl-C then would kill
    # the arena by SIGINT (-2) instead of its exit status 130, unless Ctrl-C is ignored by then
    if mode == "on":
        require_sandbox()
    mark = marker()
    # the first bot ignores SIGTERM (the clean-up waits its grace period) and starts a daemon; the
    # second waits for ever at its 3rd answer, so the match ends only by Ctrl-C
    proc = arena(
        "play",
        "spring2021",
        bot("daemon-noterm", 1, mark),
        bot("hang", 3, mark),
        "--no-timeout",
        "--sandbox",
        mode,
        tmp_path=tmp_path,
    )
    try:
        wait_for(mark, 3, proc)
        status = hold_ctrl_c(proc, group=False)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
        assert status == 130, f"exit status {status}; its output: {out}{err}"
        assert "interrupted after" in out
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        proc.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def tournament(mark: str, mode: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    # two workers, each in a game whose bots start a daemon and then hang for ~100 s
    return arena(
        "tournament",
        "spring2021",
        f"a={bot('daemon', 1, mark)}",
        f"b={bot('hang', 2, mark)}",
        "--games",
        "4",
        "--workers",
        "2",
        "--time-scale",
        "1000",
        "--sandbox",
        mode,
        "--db",
        str(tmp_path / "t.sqlite"),
        tmp_path=tmp_path,
        group=True,
    )


@pytest.mark.parametrize("mode", ["off", "on"])
def test_sigkill_of_the_tournament_process_group_leaves_no_bot(tmp_path, mode):
    if mode == "on":
        require_sandbox()
    mark = marker()
    proc = tournament(mark, mode, tmp_path)
    try:
        wait_for(mark, 6, proc)  # two games: two bots and a daemon each
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if mode == "on":
            assert gone(mark), f"left running: {processes_with(mark)}"
        else:  # the bots die with their worker; a daemon in a session of its own cannot
            assert gone_except_daemons(mark), f"left running: {processes_with(mark)}"
    finally:
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def gone_except_daemons(mark: str) -> bool:
    """Whether every process with ``mark`` is gone but the daemons (``python -c ... time.sleep``)."""
    return soon(lambda: not [p for p in processes_with(mark) if b"faulty.py" in cmdline(p)])


def worker_with_a_daemon(proc: subprocess.Popen[bytes], mark: str) -> tuple[int, list[int]]:
    """A worker of the tournament ``proc`` whose game's bot started its daemon, and the processes
    below it (bots, their sandbox, the daemon)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        assert proc.poll() is None, "the tournament ended early"
        for worker in descendants(proc.pid):
            try:
                if b"arena.runner.worker" not in Path(f"/proc/{worker}/cmdline").read_bytes():
                    continue
                below = descendants(worker)
                lines = [Path(f"/proc/{p}/cmdline").read_bytes() for p in below]
            except OSError:
                continue
            if any(mark.encode() in line and b"time.sleep" in line and b"faulty.py" not in line for line in lines):
                return worker, below
        time.sleep(0.05)
    raise AssertionError("no worker started a game whose bot has a daemon")


@pytest.mark.parametrize("mode", ["off", "on"])
def test_a_killed_worker_leaves_nothing(tmp_path, mode):
    if mode == "on":
        require_sandbox()
    mark = marker()
    proc = tournament(mark, mode, tmp_path)
    try:
        victim, its_processes = worker_with_a_daemon(proc, mark)
        os.kill(victim, signal.SIGKILL)
        assert all_dead(its_processes), "the dead worker's bots (or their daemons) are still running"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def slow_to_stop_tournament(mark: str, mode: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    """A tournament whose games end only when it is stopped (the second bot hangs) and take their
    grace period to stop (the first bot ignores SIGTERM, and starts a daemon)."""
    return arena(
        "tournament",
        "spring2021",
        f"a={bot('daemon-noterm', 1, mark)}",
        f"b={bot('hang', 2, mark)}",
        "--games",
        "4",
        "--workers",
        "2",
        "--time-scale",
        "1000",
        "--sandbox",
        mode,
        "--db",
        str(tmp_path / "t.sqlite"),
        tmp_path=tmp_path,
        group=True,
    )


@pytest.mark.parametrize("mode", ["off", "on"])
@pytest.mark.parametrize("signals", ["two-ctrl-c-then-sigterm", "ctrl-c-held-down"])
def test_more_signals_while_a_tournament_stops_do_not_cut_it_short(tmp_path, mode, signals):
    if mode == "on":
        require_sandbox()
    mark = marker()
    proc = slow_to_stop_tournament(mark, mode, tmp_path)
    try:
        worker_with_a_daemon(proc, mark)
        if signals == "ctrl-c-held-down":
            # Ctrl-C is ignored once the first came, even as Python exits (which would otherwise
            # put the default handler back: death by SIGINT, -2): the exit status is 130
            assert hold_ctrl_c(proc, group=True) == 130
        else:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole group
            time.sleep(0.05)
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
            # 130 (interrupted), or SIGTERM itself when it came after the clean-up, as Python exits
            assert proc.wait(timeout=30) in (130, -signal.SIGTERM)
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


# -- issue #31, point 15: Ctrl-C before and after the match behaves as during it ---------------------


@pytest.mark.parametrize("mode", ["off", "on"])
def test_ctrl_c_held_down_during_the_start_check_exits_130_with_the_bots_stopped(tmp_path, mode):
    """Ctrl-C while ``arena play`` checks that its bots start (a bot busy at its start keeps the check
    running for seconds) stops as during the match: bots killed, the interrupted result (one JSON line
    with --json), exit 130 however often it is pressed; not click's ``Aborted!``."""
    if mode == "on":
        require_sandbox()
    mark = marker()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "play", "spring2021", bot("busystart", 20, mark), bot("hang", 3, mark),
         "--no-timeout", "--json", "--sandbox", mode],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        wait_for(mark, 2, proc)  # both bots started by the check, which waits for the busy one
        status = hold_ctrl_c(proc, group=False)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
        assert status == 130, f"exit status {status}; its output: {out}{err}"
        assert "Aborted!" not in err and "Spring Challenge 2021" not in out, out + err  # no match started
        assert "interrupted during the bots' start check: bots stopped, no game played" in err
        result = json.loads(out.splitlines()[-1])
        assert result["interrupted"] and result["turns"] == 0 and result["scores"] is None
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        proc.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def test_ctrl_c_held_down_during_the_end_of_game_clean_up_keeps_the_result_and_exits_130(tmp_path):
    """Ctrl-C once the game has ended, while its bots are stopped, stops as during the match: bots
    killed, exit 130 however often it is pressed; and the result, whole, is printed (marked
    interrupted) and its replay file written. Unsandboxed: a bot that ignores SIGTERM makes the
    clean-up wait its grace period (in the sandbox, its end kills it at once)."""
    for _trial in range(3):  # until Ctrl-C comes while the clean-up waits for the bot
        mark = marker()
        # the first bot crashes at its 2nd answer, which ends the game; the second ignores SIGTERM
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "play", "spring2021", bot("crash", 2, mark), bot("daemon-noterm", 1, mark),
             "--replay", "game.json", "--json", "--sandbox", "off"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            assert proc.stdout is not None and proc.stderr is not None
            ended = b""  # with --json, what is printed as the match goes is on stderr
            while b"disqualified" not in ended:  # the game's end, just before the clean-up
                ended = proc.stderr.readline()
                assert ended, "the game did not end by the crash"
            time.sleep(0.03)  # into the clean-up, which waits 0.2 s for the bot that ignores SIGTERM
            if not any(b"daemon-noterm" in cmdline(p) for p in processes_with(mark)):
                proc.wait(timeout=30)  # the clean-up is over already (a loaded machine): again
                continue
            status = hold_ctrl_c(proc, group=False)
            out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
            assert status == 130, f"exit status {status}; its output: {out}{err}"
            assert "Aborted!" not in err and "result: player 1 (" in err, err
            result = json.loads(out.splitlines()[-1])
            assert result["interrupted"] and result["winner"] == 1 and result["end_reason"] == "player_deactivated"
            assert read_replay(tmp_path / "game.json")["result"]["winner"] == 1
            assert gone(mark), f"left running: {processes_with(mark)}"
            return
        finally:
            proc.kill()
            for pid in processes_with(mark):
                os.kill(pid, signal.SIGKILL)
    pytest.fail("the clean-up was over before Ctrl-C three times")


def test_ctrl_c_while_the_start_check_stops_its_bots_stops_arena_play(tmp_path):
    """The start check ends by killing the bots it started: a Ctrl-C then (a bot that ignores
    SIGTERM makes it wait its grace period) stops ``arena play`` once they are dead, exit 130,
    instead of being lost (the match then played on)."""
    mark = marker()
    flag = tmp_path / "terminated"
    slow = tmp_path / "slow_to_stop.py"  # says when it is asked to stop, and does not
    slow.write_text(
        "import pathlib, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *_: pathlib.Path(sys.argv[1]).touch())\n"
        "time.sleep(10_000)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "play", "spring2021", f"{sys.executable} {slow} {flag} {mark}", "wait",
         "--sandbox", "off"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        end = time.monotonic() + 60
        while not flag.exists():  # the check is killing it: 0.2 s before SIGKILL
            assert proc.poll() is None and time.monotonic() < end, "the start check did not stop the bot"
            time.sleep(0.002)
        status = hold_ctrl_c(proc, group=False)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
        assert status == 130, f"exit status {status}; its output: {out}{err}"
        assert "Spring Challenge 2021" not in out, out  # no match started
        assert "interrupted during the bots' start check: bots stopped, no game played" in out
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        proc.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)


def test_ctrl_c_held_down_during_a_tournaments_start_check_exits_130(tmp_path):
    """The tournament checks its bots' start before it makes its database: Ctrl-C then exits 130,
    not click's ``Aborted!``, and leaves no bot and no database."""
    mark = marker()
    proc = arena(
        "tournament", "spring2021", f"a={bot('busystart', 20, mark)}", f"b={bot('hang', 3, mark)}", "--games", "2",
        "--sandbox", "off", "--db", str(tmp_path / "t.sqlite"), tmp_path=tmp_path, group=True,
    )  # fmt: skip
    try:
        wait_for(mark, 2, proc)
        assert hold_ctrl_c(proc, group=True) == 130
        assert proc.stderr is not None and "Aborted!" not in proc.stderr.read().decode()
        assert not (tmp_path / "t.sqlite").exists()
        assert gone(mark), f"left running: {processes_with(mark)}"
    finally:
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)
