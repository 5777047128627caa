"""The results database under concurrency and faults (issue #16, part 3): processes creating one
new database at once, the same tournament started twice, a run killed with SIGKILL, a damaged
file, an empty file, a read-only folder or file, a full disk. Each ends in one line (no
traceback), never plays a game twice and never loses a stored one."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.store.results import SCHEMA_VERSION, Store, StoreError
from arena.store.runlock import RunLock
from cli.arena import main
from tests.helpers.paths import FIXTURES
from tests.helpers.spring_text_bots import spring_bot_text
from tests.helpers.storage import (
    ARENA,
    FAST,
    expected_keys,
    held_bot,
    one_line_error,
    one_line_stderr,
    playing,
    rows,
    stored_keys,
    tournament_argv,
    wait_for,
)

FIXTURE = FIXTURES / "store_v1"


# -- helpers -----------------------------------------------------------------------------------------


def small_tournament(folder: Path, games: int = 6) -> Path:
    """A finished tournament of draws (two WAIT bots) in ``folder/r.sqlite``."""
    bot, _ = held_bot(folder)
    db = folder / "r.sqlite"
    result = CliRunner().invoke(main, tournament_argv(bot, db, games, "--workers", "2"))
    assert result.exit_code == 0, result.output
    assert len(stored_keys(db)) == games
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (by its path there) with its digest."""
    return {p.relative_to(folder).as_posix(): digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


# -- creating one new database from several processes at once --------------------------------------


def _open_and_create(path: str, barrier: Any, results: Any) -> None:
    """A process opening the new database when all the others do, then creating a tournament."""
    try:
        barrier.wait(30)
        with Store(path) as store:
            store.create_tournament(f"k{os.getpid()}", {}, 2, "v", [], [])
        results.put("ok")
    except Exception as exc:  # reported to the test, which names it
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_creating_the_same_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    """Observed: 'UNIQUE constraint failed: meta.key' or 'database is locked' in 1 to 3 of 5 tries."""
    ctx = multiprocessing.get_context("fork")
    processes = 4
    for attempt in range(10):
        path = tmp_path / f"new{attempt}.sqlite"
        barrier, results = ctx.Barrier(processes), ctx.Queue()
        workers = [ctx.Process(target=_open_and_create, args=(str(path), barrier, results)) for _ in range(processes)]
        for w in workers:
            w.start()
        outcomes = [results.get(timeout=120) for _ in workers]
        for w in workers:
            w.join(30)
        assert outcomes == ["ok"] * processes, (attempt, outcomes)
        assert rows(path, "SELECT key, value FROM meta") == [("schema_version", str(SCHEMA_VERSION))]
        assert rows(path, "SELECT count(*) FROM tournaments") == [(processes,)]


# -- one tournament, one run at a time ---------------------------------------------------------------


def test_the_same_tournament_started_twice_at_once_is_played_once(tmp_path: Path) -> None:
    """Both runs start together on a new database: one plays every game, the other refuses in
    one line before it starts anything."""
    bot, hold = held_bot(tmp_path)
    db = tmp_path / "r.sqlite"
    games = 6
    hold.touch()  # the run that plays is held in its first games until the other has answered
    argv = [*ARENA, *tournament_argv(bot, db, games, "--workers", "2")]
    runs = [
        subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    try:  # without a run lock both would play: then both finish once the hold is lifted
        wait_for(lambda: any(r.poll() is not None for r in runs), "one run to refuse", timeout=60, fail=False)
    finally:
        hold.unlink()
    outcomes = [(r.wait(timeout=300), *r.communicate()) for r in runs]
    assert sorted(code for code, _, _ in outcomes) == [0, 1], outcomes
    _, out, err = next(o for o in outcomes if o[0] == 1)
    line = one_line_stderr(subprocess.CompletedProcess(argv, 1, out, err))
    assert "tournament 1 is already being played by process" in line
    assert "run this command again to resume it" in line
    assert out == ""  # it never started: no "tournament 1 (...)" line, no game
    assert stored_keys(db) == expected_keys(games)
    assert rows(db, "SELECT id, status FROM tournaments") == [(1, "finished")]


def test_a_second_run_of_a_running_tournament_refuses_and_no_game_is_played_twice(tmp_path: Path) -> None:
    """Observed: the same tournament started twice played every game twice (duplicates then
    dropped). Here it is resumed (extended) while a first run plays it."""
    bot, hold = held_bot(tmp_path)
    db = tmp_path / "r.sqlite"
    assert CliRunner().invoke(main, tournament_argv(bot, db, 2, "--workers", "1")).exit_code == 0
    hold.touch()
    argv = [*ARENA, *tournament_argv(bot, db, 8, "--workers", "2")]
    first = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(
            lambda: rows(db, "SELECT games_target FROM tournaments") == [(8,)], "the first run to resume the tournament"
        )  # it has taken the lock by then
        second = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            second.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass  # it plays too (the bug): let both finish, the checks below tell
    finally:
        hold.unlink()
    out, err = second.communicate(timeout=300)
    first_out, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert "tournament 1 (resumed, 2 games already stored)" in first_out
    line = one_line_stderr(subprocess.CompletedProcess(argv, second.returncode, out, err))
    assert f"tournament 1 is already being played by process {first.pid} on " in line
    assert out == ""  # it never started: no "tournament 1 (...)" line, no game
    assert stored_keys(db) == expected_keys(8)
    assert not playing(db)  # the run forgot itself when it ended


def test_a_run_killed_with_sigkill_leaves_no_lock_and_is_resumed(tmp_path: Path) -> None:
    """The lock dies with its process: no stale lock, the next run resumes at once."""
    bot, hold = held_bot(tmp_path)
    db = tmp_path / "r.sqlite"
    hold.touch()
    argv = [*ARENA, *tournament_argv(bot, db, 6, "--workers", "2")]
    run = subprocess.Popen(
        argv, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_for(lambda: playing(db), "the run to take the tournament")
        with RunLock(db) as lock:
            assert not lock.acquire(1)  # the running tournament holds it
        os.killpg(run.pid, signal.SIGKILL)  # the main process, its workers and the bots
        run.wait()
    finally:
        hold.unlink()
    assert playing(db)  # its note stays behind: only the lock counts
    assert rows(db, "SELECT status FROM tournaments") == [("running",)]  # as the killed run left it
    listed = CliRunner().invoke(main, ["tournaments", "--db", str(db)])
    assert " interrupted " in listed.output and "running" not in listed.output  # nobody runs it
    resumed = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "tournament 1 (resumed, 0 games already stored)" in resumed.stdout
    assert stored_keys(db) == expected_keys(6)


def test_a_run_lock_taken_in_this_process_is_refused_too(tmp_path: Path) -> None:
    """In-process: the lock is per open file, not per process (open-file-description locks)."""
    if not hasattr(__import__("fcntl"), "F_OFD_SETLK"):
        pytest.skip("open-file-description locks are Linux's")
    db = tmp_path / "r.sqlite"
    with RunLock(db) as held:
        assert held.acquire(3)
        with RunLock(db) as other:
            assert not other.acquire(3)
            assert other.acquire(4)  # another tournament of the same database
        with RunLock(db) as again:  # closing `other` did not drop `held`'s lock
            assert not again.acquire(3)
    with RunLock(db) as after:
        assert after.acquire(3)


# -- a damaged file, an empty file, a file not in a folder ------------------------------------------


def test_a_damaged_database_gives_one_line_not_a_traceback(tmp_path: Path) -> None:
    """Observed: a traceback. The first pages of the games and their players are overwritten
    with junk; the schema and the tournaments are intact, so the database opens."""
    db = small_tournament(tmp_path)
    assert not (tmp_path / "r.sqlite-wal").exists()  # everything is in the file itself
    page = int.from_bytes(db.read_bytes()[16:18], "big")
    roots = [r for (r,) in rows(db, "SELECT rootpage FROM sqlite_master WHERE tbl_name IN ('games', 'game_players')")]
    assert len(roots) == 4  # the tables and their primary-key indexes
    with open(db, "r+b") as f:
        for root in roots:
            f.seek((root - 1) * page)
            f.write(b"\x5a" * page)
    runner = CliRunner()
    for args in (
        ["results"],
        ["results", "--format", "json"],
        ["matches", "list"],
        ["matches", "show", "1"],
        ["tournaments"],
    ):
        line = one_line_error(runner.invoke(main, [*args, "--db", str(db)]))
        assert f"{db}: the results database is damaged (database disk image is malformed)" in line, args
        assert ".recover" in line
    bot = tmp_path / "held.py"
    line = one_line_error(runner.invoke(main, tournament_argv(bot, db, 8, "--workers", "1")))
    assert f"{db}: the results database is damaged (database disk image is malformed); tournament 1 " in line
    assert "copy what can still be read with: sqlite3 " in line and ", then resume with: arena " in line


def test_read_only_commands_on_an_empty_file_leave_it_empty(tmp_path: Path) -> None:
    """Observed: `arena results` on an empty file wrote a schema into it."""
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    for args in (["results"], ["matches", "list"], ["matches", "show", "1"], ["tournaments"]):
        result = CliRunner().invoke(main, [*args, "--db", str(empty)])
        assert empty.stat().st_size == 0, args
        line = one_line_error(result)
        assert f"{empty}: an empty file, not a tournament results database" in line, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite"]
    missing = tmp_path / "missing.sqlite"
    line = one_line_error(CliRunner().invoke(main, ["results", "--db", str(missing)]))
    assert "no results database here" in line and not missing.exists()


def test_read_only_commands_never_change_the_file(tmp_path: Path) -> None:
    """Not a byte of the database changes, even one from an earlier release, which an opening
    for writing migrates (here it is migrated in memory to be read)."""
    old = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE / "results.sqlite", old)
    new = small_tournament(tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    for db in (old, new):
        before = digest(db)
        for args in (["results"], ["matches", "list"], ["matches", "show", "1"], ["tournaments"]):
            result = CliRunner().invoke(main, [*args, "--db", str(db)])
            assert result.exit_code == 0, (args, result.output)
            assert sorted(p.name for p in tmp_path.iterdir()) == files, args  # no -wal or -shm left
        assert digest(db) == before, db
    assert rows(old, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert "24 games stored" in CliRunner().invoke(main, ["results", "--db", str(old)]).output


def test_a_database_path_under_a_file_gives_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    bot, _ = held_bot(tmp_path)
    line = one_line_error(CliRunner().invoke(main, tournament_argv(bot, tmp_path / "afile" / "r.sqlite", 2)))
    assert "afile is a file, not a directory" in line


# -- a read-only folder or file ----------------------------------------------------------------------


def unprivileged(path: Path) -> list[str]:
    """A command prefix under which ``path`` (made read-only) cannot be written. Root writes
    anywhere, so for root the capability that allows it is dropped (``setpriv``); skips when
    that cannot be done here."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: nothing can be made read-only")
        prefix = ["setpriv", "--bounding-set", "-dac_override", "--"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", f"import os, sys; sys.exit(os.access({str(path)!r}, os.W_OK))"]
    )
    if probe.returncode != 0:
        pytest.skip(f"{path} stays writable here")
    return prefix


@pytest.fixture()
def read_only_folder(tmp_path: Path) -> Any:
    """A folder for the test to make read-only; made writable again afterwards."""
    folder = tmp_path / "ro"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)
    for p in folder.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)


def test_a_read_only_folder(tmp_path: Path, read_only_folder: Path) -> None:
    """Observed: a misleading message or a traceback. Results copied to a read-only place: they
    can be read; a run says in one line that the folder cannot be written."""
    db = small_tournament(read_only_folder)
    assert not (read_only_folder / "r.sqlite-wal").exists()
    for p in read_only_folder.rglob("*"):  # the database and the frozen versions beside it
        p.chmod(0o555 if p.is_dir() else 0o444)
    read_only_folder.chmod(0o555)
    prefix = unprivileged(read_only_folder)
    before = tree_digest(read_only_folder)

    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, *ARENA, *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)

    results = arena("results", "--db", str(db))
    assert results.returncode == 0, results.stderr
    assert "tournament 1 (finished): spring2021, gauntlet, 6 games stored" in results.stdout
    listed = arena("matches", "list", "--db", str(db))
    assert listed.returncode == 0 and "tournament 1: 6 of 6 games" in listed.stdout, listed.stderr
    bot = read_only_folder / "held.py"
    line = one_line_stderr(arena(*tournament_argv(bot, db, 8, "--workers", "1")))
    assert f"{db}: cannot write in its folder {read_only_folder}, which is read-only or not yours" in line
    assert "make the folder writable, or pass --db with a file in a folder you can write" in line
    line = one_line_stderr(arena(*tournament_argv(bot, read_only_folder / "new.sqlite", 2, "--workers", "1")))
    assert "cannot write in its folder" in line
    assert tree_digest(read_only_folder) == before


def test_a_read_only_database_file(tmp_path: Path) -> None:
    db = small_tournament(tmp_path)
    bot = tmp_path / "held.py"
    db.chmod(0o444)
    try:
        prefix = unprivileged(db)
        resume = subprocess.run(
            [*prefix, *ARENA, *tournament_argv(bot, db, 8, "--workers", "1")],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        db.chmod(0o644)
    line = one_line_stderr(resume)
    assert f"{db}: the file is read-only (attempt to write a readonly database)" in line
    assert "make it writable" in line
    assert len(stored_keys(db)) == 6


# -- a full disk ---------------------------------------------------------------------------------------


def make_disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, a database opened for writing cannot grow by a single page: SQLite answers
    "database or disk is full" (SQLITE_FULL) as soon as a write needs one, as on a full disk."""
    opened = Store.__init__

    def tight(self: Store, *args: Any, **kwargs: Any) -> None:
        opened(self, *args, **kwargs)
        if not getattr(self, "read_only", False):  # (getattr: the test also runs on releases without it)
            db = self._db
            (pages,) = db.execute("PRAGMA page_count").fetchone()
            db.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(Store, "__init__", tight)


def test_a_full_disk_stops_the_run_in_one_line_and_the_resume_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Observed: a traceback (no game lost, resume worked). The bot crashes at its first turn
    after writing 10 kB to stderr, of which each game keeps 4 kB: more than a page, so every game
    needs new pages."""
    bot = tmp_path / "crash.py"
    bot.write_text(spring_bot_text("(sys.stderr.write('x' * 10000), sys.exit(1))", imports="import sys\n"))
    db = tmp_path / "r.sqlite"
    argv = ["tournament", "spring2021", str(bot), "wait", "--db", str(db), "--max-failures", "1", *FAST]
    first = CliRunner().invoke(main, [*argv, "--games", "4", "--workers", "1"])
    assert first.exit_code == 0, first.output
    conn = sqlite3.connect(db)
    conn.execute("VACUUM")  # no free page left to reuse
    conn.close()
    columns = "comparison, pair, leg, seed, winner, turns"
    before = rows(db, f"SELECT {columns} FROM games ORDER BY 1, 2, 3")
    make_disk_full(monkeypatch)
    line = one_line_error(CliRunner().invoke(main, [*argv, "--games", "40", "--workers", "2"]))
    assert f"{db}: the disk is full (database or disk is full)" in line
    assert "; 4 games of tournament 1 are stored and it is marked interrupted; " in line
    assert "free some space on it, then resume with: arena " in line  # the command as this process was run
    assert len(stored_keys(db)) == 4
    assert rows(db, "SELECT status FROM tournaments") == [("interrupted",)]
    monkeypatch.undo()  # space again
    resumed = CliRunner().invoke(main, [*argv, "--games", "40", "--workers", "2"])
    assert resumed.exit_code == 0, resumed.output
    assert "tournament 1 (resumed, 4 games already stored)" in resumed.output
    assert stored_keys(db) == expected_keys(40)
    assert rows(db, f"SELECT {columns} FROM games ORDER BY 1, 2, 3")[:4] == before
    assert rows(db, "SELECT status FROM tournaments") == [("finished",)]


def test_a_really_full_disk(tmp_path: Path) -> None:
    """The database on a 288 kB file system (tmpfs, mounted in a private mount namespace; room for
    the bots' frozen versions beside the database, then a few games before it is full): the run
    stops in one line when the disk is full; the file system made larger, the same command
    resumes and plays the rest."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare here")
    disk = tmp_path / "disk"
    disk.mkdir()
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {disk}"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("cannot mount a small file system here (unshare -m, mount -t tmpfs)")
    bot = tmp_path / "crash.py"  # 4 kB of stderr kept per game: the disk fills within a few games
    bot.write_text(spring_bot_text("(sys.stderr.write('x' * 10000), sys.exit(1))", imports="import sys\n"))
    run = shlex.join(
        [
            *ARENA,
            "tournament",
            "spring2021",
            str(bot),
            "wait",
            "--db",
            "r.sqlite",
            "--games",
            "60",
            "--workers",
            "2",
            "--max-failures",
            "1",
            *FAST,
        ]
    )
    listing = shlex.join([*ARENA, "tournaments", "--db", "r.sqlite"])
    script = (
        f"mount -t tmpfs -o size=288k tmpfs {disk} && cd {disk} || exit 99\n"
        f'{run} 2>full.err >/dev/null; echo "full: $?"; tail -n 1 full.err; {listing}\n'
        f"mount -o remount,size=16m {disk} || exit 99\n"
        f'{run} >/dev/null 2>&1; echo "again: $?"; {listing}\n'
    )
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode != 99, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "full: 1", done.stdout
    line = lines[1]
    assert "Traceback" not in done.stdout
    assert line.startswith("Error: r.sqlite: the disk is full (database or disk is full); "), line
    stored = int(line.split("; ")[1].split()[0])
    assert 0 < stored < 60
    kept = "1 game of tournament 1 is stored" if stored == 1 else f"{stored} games of tournament 1 are stored"
    assert f"; {kept} and " in line
    assert line.endswith(f"free some space on it, then resume with: arena {run.split(' ', 3)[3]}")
    assert f" interrupted  spring2021  gauntlet  {stored} games stored" in lines[2]  # marked, or no run holds it
    assert lines[3] == "again: 0", done.stdout
    assert " finished     spring2021  gauntlet  60 games stored" in lines[4]


def test_a_store_error_names_the_file_and_what_to_do() -> None:
    error = StoreError("x.sqlite: the disk is full", "free some space on it")
    assert str(error) == "x.sqlite: the disk is full; free some space on it"
    assert (error.problem, error.advice) == ("x.sqlite: the disk is full", "free some space on it")
