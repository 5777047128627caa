"""The sandbox against a bot that attacks everything around it (``fault_bots/attacker.py``).

Without the sandbox each attack works (the problems the sandbox is for: these runs show them);
with it each one fails and the attacked bot plays its game untouched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.match import MatchOptions, Verdict, play_match, sandbox
from arena.match.launch.botspec import REPO_ROOT, BotSpec
from arena.match.process.botprocess import BotProcess
from tests.helpers.paths import FAULT_BOTS
from tests.helpers.sandboxing import marker, require_sandbox
from tests.helpers.spring_text_bots import write_spring_bot

BOTS = FAULT_BOTS
REPORT = "ATTACK-REPORT "
SECRET = "ARENA_TEST_SECRET"


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts connections; yields its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                server.accept()[0].close()
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


def attack(tmp_path: Path, mode: str, port: int, monkeypatch: pytest.MonkeyPatch, targets: list[Path]):
    """The attacker (copied beside its victim, with the input reader it imports) against a plain
    bot; returns the attacker's report, the match result and the database's bytes before and after.

    The attacker looks for two secrets in what it can see of other processes: the value of a
    variable of the arena's environment, and the path of a folder the arena hides (as it hides the
    replays), neither of which it is given."""
    for name in ("attacker.py", "frames.py"):
        shutil.copy(BOTS / name, tmp_path / name)
    attacker = tmp_path / "attacker.py"
    victim = write_spring_bot(tmp_path, "victim.py", "WAIT")
    db = tmp_path / "results.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE games (winner TEXT)")
        conn.executemany("INSERT INTO games VALUES (?)", [("a",), ("b",)])
    conn.close()
    before = db.read_bytes()
    monkeypatch.setenv(SECRET, "hunter2")
    hidden = tmp_path / f"hidden-{marker()}"
    hidden.mkdir()
    secrets = " ".join(s.encode().hex() for s in ("hunter2", str(hidden)))
    mark = marker()
    bots = [
        BotSpec(
            "attacker",
            (sys.executable, "-u", str(attacker), REPORT, mark, str(port), *map(str, targets)),
            env={"OPPONENT": str(victim), "DB": str(db), "LOOK_FOR": secrets},
        ),
        BotSpec("victim", (sys.executable, "-u", str(victim), mark)),
    ]
    result = play_match("spring2021", 7, bots, MatchOptions(sandbox=mode, hide=(str(db), str(hidden)), time_scale=3.0))
    lines = [line for line in result.players[0].stderr_tail.splitlines() if line.startswith(REPORT)]
    assert lines, f"the attacker sent no report: {result.players[0].message} {result.players[0].stderr_tail}"
    return json.loads(lines[0][len(REPORT) :]), result, before, db.read_bytes()


def test_without_the_sandbox_every_attack_works(tmp_path, listener, monkeypatch):
    outside = Path(tempfile.gettempdir()) / f"owned-{marker()}"
    targets = [tmp_path / "owned.txt", outside]
    try:
        report, result, before, after = attack(tmp_path, "off", listener, monkeypatch, targets)
    finally:
        outside.unlink(missing_ok=True)
    assert not result.sandboxed and result.to_dict()["sandbox"] == "off"
    assert "int(input())" in report["source"]
    assert SECRET in report["environment"]
    assert "environ" in report["exposed"] and "mem" in report["exposed"]  # the victim's
    assert report["processes"] and report["killed"]
    assert result.players[1].verdict is not Verdict.OK  # killed, robbed or fed garbage
    assert report["network"] is True
    assert report["written"] == [str(t) for t in targets]
    assert report["database"] == {"rows": 2, "inserted": True} and after != before


def test_the_sandbox_stops_every_attack(tmp_path, listener, monkeypatch):
    require_sandbox()
    outside = Path(tempfile.gettempdir()) / f"owned-{marker()}"
    project = REPO_ROOT / f"owned-{marker()}"
    home = Path.home() / f"owned-{marker()}"
    targets = [tmp_path / "owned.txt", outside, project, home]
    report, result, before, after = attack(tmp_path, "on", listener, monkeypatch, targets)
    assert result.sandboxed and result.to_dict()["sandbox"] == "on"
    assert report["source"] == ""  # the opponent's file reads as empty
    assert set(report["environment"]) <= {"PATH", "LANG", "HOME", "TMPDIR", "PWD", "OPPONENT", "DB", "LOOK_FOR"}
    # the sandbox's first process (its init) shows its environment, command line and memory, which
    # hold neither the arena's environment nor the paths the sandbox hides
    assert report["peeked"] == ["cmdline", "environ", "mem"] and report["exposed"] == []
    assert report["processes"] == [] and not report["killed"]
    assert report["stolen"] == 0 and report["injected"] == 0
    assert report["network"] is False
    assert report["written"] == [str(outside)]  # in its private /tmp, gone with the game
    assert not any(t.exists() for t in targets)
    assert "rows" not in report["database"] and after == before
    victim = result.players[1]
    assert victim.verdict is Verdict.OK and result.players[0].verdict is Verdict.OK
    assert result.outcome is not None and result.outcome.end_reason.value == "max_rounds"


def test_a_bot_reads_its_own_files_and_writes_its_home(tmp_path):
    require_sandbox()
    bot = tmp_path / "reader.py"
    (tmp_path / "weights.txt").write_text("WAIT from weights\n")
    bot.write_text(
        "import os, pathlib\n"
        "answer = pathlib.Path(__file__).with_name('weights.txt').read_text().strip()\n"
        "home = pathlib.Path(os.environ['HOME'])\n"
        "(home / 'cache').write_text('x')\n"
        "open('/tmp/scratch', 'w').write('y')\n"
        + write_spring_bot(tmp_path, "tmp.py", "WAIT").read_text().replace("print('WAIT'", "print(answer")
    )
    result = play_match(
        "spring2021",
        3,
        [
            BotSpec("reader", (sys.executable, "-u", str(bot))),
            BotSpec("plain", (sys.executable, "-u", str(tmp_path / "tmp.py"))),
        ],
        MatchOptions(sandbox="on", time_scale=3.0, record=True),
    )
    assert result.players[0].verdict is Verdict.OK, result.players[0].message + result.players[0].stderr_tail
    answers = {e.output for f in result.frames for e in f.executions if e.player == 0 and e.output}
    assert answers == {("WAIT from weights",)}
    assert sandbox.SCRATCH == "/tmp/home"


def test_a_sandboxed_match_leaves_no_process_to_the_arena(tmp_path):
    """At a match's end the arena kills each sandbox's ``bwrap`` process, whose init then dies
    with it and is re-parented to the arena, in a session of its own: it must be reaped, not left
    a zombie of the arena (one a bot: a worker playing hundreds of games ran out of PIDs and slowed
    down looking through them)."""
    require_sandbox()
    from arena.match.process import proctree

    def ours() -> set[int]:
        return set(proctree.children(os.getpid()) or [])

    before = ours()
    bot = write_spring_bot(tmp_path, "wait.py", "WAIT")
    specs = [BotSpec(f"w{i}", (sys.executable, "-u", str(bot))) for i in range(2)]
    for seed in (1, 2, 3):
        result = play_match("spring2021", seed, specs, MatchOptions(sandbox="on", time_scale=3.0))
        assert result.outcome is not None, [p.message for p in result.players]
    left = {pid: proctree.stat(pid) for pid in ours() - before}
    assert not left, f"processes left to the arena: {left}"


def test_on_refuses_where_there_is_no_sandbox_and_auto_says_why(monkeypatch):
    monkeypatch.setenv("ARENA_BWRAP", "")
    sandbox.support.cache_clear()
    try:
        with pytest.raises(
            sandbox.SandboxUnavailable,
            match=re.escape("--sandbox on: cannot sandbox bots here: bubblewrap (bwrap) is not installed"),
        ):
            sandbox.decide("on")
        used, why = sandbox.decide("auto")
        assert not used and why is not None and "bots run without a sandbox" in why
        assert sandbox.decide("off") == (False, None)
    finally:
        monkeypatch.delenv("ARENA_BWRAP")
        sandbox.support.cache_clear()


def test_the_bot_gets_exactly_its_environment_under_the_sandbox_s_init(tmp_path):
    """The sandbox's init (a shell, which sets variables of its own) runs the bot with exactly the
    environment the prefix says, a program whose path holds a ``=`` too; the bot's parent is the
    init, the first process of its namespace, whose environment holds nothing of the arena's."""
    require_sandbox()
    folder = tmp_path / "a=b"
    folder.mkdir()
    bot = folder / "env.py"
    bot.write_text(
        f"#!{sys.executable}\n"
        "import json, os\n"
        "init = open('/proc/1/environ', 'rb').read().split(b'\\0')\n"
        "print(json.dumps([dict(os.environ), os.getppid(), [v.decode() for v in init if v]]))\n"
    )
    bot.chmod(0o755)
    argv = [str(bot)]
    wrapper = sandbox.confine(argv, str(tmp_path), {"SEED": "7"}, own=sandbox.bot_files(argv, str(tmp_path)))
    process = BotProcess(argv, cwd=str(tmp_path), wrapper=wrapper).start()
    try:
        read = process.read_line(10)
    finally:
        process.kill_tree()
    assert read.line is not None, process.stderr_tail()
    env, parent, init = json.loads(read.line)
    assert parent == 1 and [v.split("=")[0] for v in init] in ([], ["PWD"])
    assert env == sandbox.environment_of(wrapper) and env["SEED"] == "7"


def test_the_init_adds_nothing_to_the_bot_s_stderr(tmp_path):
    """A bot killed by a signal: the sandbox's init, a shell, which tells how a command it waited
    for died ("Terminated"), writes nothing in the bot's stderr (it would change the replays); the
    exit status is the signal's, 128 + its number, as with bubblewrap's own init."""
    require_sandbox()
    argv = [sys.executable, "-c", "import os, sys; sys.stderr.write('mine\\n'); os.kill(os.getpid(), 15)"]
    wrapper = sandbox.confine(argv, str(tmp_path), {}, own=sandbox.bot_files(argv, str(tmp_path)))
    process = BotProcess(argv, cwd=str(tmp_path), wrapper=wrapper).start()
    try:
        info = process.wait_exit(10)
        last = process.last_stderr_line(10)
    finally:
        process.kill_tree()
    assert info.returncode == 128 + signal.SIGTERM
    assert last == "mine"
    assert process.stderr_tail() == "mine\n"


def test_the_environment_a_sandbox_prefix_sets_is_read_back(tmp_path, monkeypatch):
    """``environment_of`` reads what ``confine`` gives the bot: the fixed variables (PATH and
    LANG from ours, HOME the scratch folder, TMPDIR /tmp), then the bot's own, which win, then its
    working folder's PWD."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("LANG", "C.UTF-8")
    argv = [sys.executable, str(tmp_path / "bot.py")]
    wrapper = sandbox.confine(
        argv,
        str(tmp_path),
        {"SEED": "7", "LANG": "fr_FR.UTF-8"},
        own=sandbox.bot_files(argv, str(tmp_path)),
        bwrap="bwrap",
    )
    assert sandbox.environment_of(wrapper) == {
        "PATH": "/usr/bin:/bin",
        "LANG": "fr_FR.UTF-8",
        "HOME": "/tmp/home",
        "TMPDIR": "/tmp",
        "SEED": "7",
        "PWD": str(tmp_path),
    }
    assert sandbox.environment_of(["env", "A=1"]) is None  # does not clear: not known from its words


def test_inside_agrees_with_path_is_relative_to() -> None:
    places = ["/", "/usr", "/usr/", "/usr/lib/python3", "/tmp", "//x", "/a/b"]
    paths = ["/usr", "/usr/bin/x", "/usrx", "/", "/tmp/a", "/a/b", "/a/bc", "/a/b/c", "/x", "//x/y"]
    for path in map(Path, paths):
        for place in places:
            expected = path == Path(place) or path.is_relative_to(place)
            assert sandbox._inside(path, [place]) is expected, (path, place)
        assert sandbox._inside(path, places) is any(path == Path(p) or path.is_relative_to(p) for p in places)
