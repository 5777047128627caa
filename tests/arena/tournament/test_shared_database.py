"""The results database shared with other programs and other names (issue #31): a bot whose data
folder holds the database, read meanwhile by a plain ``sqlite3`` reader, then killed; the same
tournament through a symbolic link to its database; another program's SQLite file given as
``--db``; the replays folder replaced by a file mid-run. Each keeps every game it reported stored
and ends in one line."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.arena import main
from tests.helpers.storage import (
    ARENA,
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

DATA_IN_DB_FOLDER = """\
game: spring2021
bots: [{name: mine, bot: wait, data: [.]}, {name: other, bot: wait}]
games: GAMES
workers: 2
seed: 5
params: {MAX_ROUNDS: 3}
db: arena.sqlite
"""
"""Two waiting bots, one of which declares as its data the folder that holds the database."""


def data_in_db_folder(folder: Path, games: int) -> Path:
    config = folder / "t.yaml"
    config.write_text(DATA_IN_DB_FOLDER.replace("GAMES", str(games)))
    return config


def _read_every_table(db: str, times: int, results: Any) -> None:
    """Another program: open the database with the ``sqlite3`` module, read every table, close;
    ``times`` times. Reports the games it saw stored, each time."""
    seen = []
    for _ in range(times):
        conn = sqlite3.connect(db, timeout=30)
        try:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                conn.execute(f'SELECT * FROM "{table}"').fetchall()
            seen.append(conn.execute("SELECT count(*) FROM games").fetchone()[0])
        finally:
            conn.close()
        time.sleep(0.02)
    results.put(seen)


def progress_counts(log: Path) -> list[int]:
    """The games done in each ``progress:`` line the run wrote so far."""
    return [int(n) for n in re.findall(r"^progress: (\d+)/", log.read_text(), re.MULTILINE)]


def test_games_reported_stored_survive_a_reader_and_sigkill(tmp_path: Path) -> None:
    """Observed: progress said 300 games, the database kept 237 after SIGKILL. Hashing the bot's
    data folder opened and closed ``arena.sqlite`` and its ``-shm`` file, which dropped SQLite's
    locks in the arena; the reader's connection, closing, then took itself for the last one and
    deleted the write-ahead log the arena was still writing."""
    config = data_in_db_folder(tmp_path, 4000)
    db, log = tmp_path / "arena.sqlite", tmp_path / "err.txt"
    with log.open("w") as err:
        run = subprocess.Popen(
            [*ARENA, "tournament", str(config)],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    try:
        wait_for(lambda: playing(db), "the run to take its tournament")  # its bots are hashed by then
        ctx = multiprocessing.get_context("fork")
        results = ctx.Queue()
        reader = ctx.Process(target=_read_every_table, args=(str(db), 100, results))
        reader.start()
        seen = results.get(timeout=300)
        reader.join(30)
        assert reader.exitcode == 0
        lines = len(progress_counts(log))
        wait_for(lambda: len(progress_counts(log)) > lines, "a progress line after the reader")
        assert run.poll() is None, log.read_text()
        os.killpg(run.pid, signal.SIGKILL)  # the arena, its workers, the bots
        run.wait()
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    reported = max([*progress_counts(log), *seen])
    assert reported > 0
    kept = rows(db, "SELECT count(*) FROM games")[0][0]
    assert kept >= reported, f"{reported} games reported stored, {kept} kept"
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert "failed for the first time" not in log.read_text()  # no bot lost its sandbox to a vanished -wal file


def test_a_bot_whose_data_folder_holds_the_database_resumes(tmp_path: Path) -> None:
    """Observed: every resume refused as "bot changed": the hash covered the database, its side
    files and the replays kept in that folder."""
    config = data_in_db_folder(tmp_path, 2)
    argv = ["tournament", str(config), "--replays", str(tmp_path / "replays"), "--keep", "all", "--no-progress"]
    first = CliRunner().invoke(main, argv)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, [*argv, "--games", "4"])
    assert again.exit_code == 0, again.output
    assert "tournament 1 (resumed, 2 games already stored)" in again.output
    (files,) = rows(tmp_path / "arena.sqlite", "SELECT files FROM bots WHERE name = 'mine'")[0]
    ours = sorted(
        Path(f).relative_to(tmp_path).as_posix() for f in json.loads(files) if Path(f).is_relative_to(tmp_path)
    )
    assert ours == ["t.yaml"]  # not arena.sqlite*, nor the replays


def test_the_same_tournament_through_a_symlinked_db_is_played_once(tmp_path: Path) -> None:
    """Observed: a run through ``link.sqlite`` locked ``link.sqlite.lock`` while the run through
    the real name held ``real.sqlite.lock``: both played every game."""
    bot, hold = held_bot(tmp_path)
    real, link = tmp_path / "real.sqlite", tmp_path / "link.sqlite"
    link.symlink_to(real.name)
    hold.touch()
    first = subprocess.Popen(
        [*ARENA, *tournament_argv(bot, real, 6, "--workers", "2")],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    argv = [*ARENA, *tournament_argv(bot, link, 6, "--workers", "2")]
    try:
        wait_for(lambda: playing(real), "the first run to take the tournament")
        second = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            second.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass  # it plays too (the bug): let both finish, the checks below tell
    finally:
        hold.unlink()
    out, err = second.communicate(timeout=300)
    _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    line = one_line_stderr(subprocess.CompletedProcess(argv, second.returncode, out, err))
    assert f"tournament 1 is already being played by process {first.pid} on " in line
    assert out == ""
    assert stored_keys(real) == expected_keys(6)
    assert not (tmp_path / "link.sqlite.lock").exists()


def test_another_programs_database_is_refused_unchanged(tmp_path: Path) -> None:
    """Observed: refused, but left switched to WAL mode (its header says so from then on)."""
    db = tmp_path / "notes.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    assert before[18:20] == b"\x01\x01"  # a rollback-journal database
    bot, _ = held_bot(tmp_path)
    result = CliRunner().invoke(main, tournament_argv(bot, db, 2))
    line = one_line_error(result)
    assert "an SQLite file that is not an arena results database" in line and str(db) in line
    assert db.read_bytes() == before  # not even switched to WAL mode
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("notes")) == ["notes.sqlite"]


def test_a_replays_folder_replaced_by_a_file_stops_in_one_line(tmp_path: Path) -> None:
    """Observed (before replays were written by the main process): worker tracebacks and an
    error blaming the bots; then a line blaming the disk and naming a temporary file. Now: what
    happened to the folder, the games stored, the command that resumes."""
    bot, _ = held_bot(tmp_path)
    db, replays = tmp_path / "r.sqlite", tmp_path / "replays"
    argv = tournament_argv(bot, db, 400, "--workers", "2", "--replays", str(replays), "--keep", "all")
    run = subprocess.Popen([*ARENA, *argv], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: playing(db), "the run to take its tournament")
        wait_for(lambda: len(stored_keys(db)) >= 2, "two games stored")
        replays.rename(tmp_path / "moved")
        replays.write_text("not a folder\n")
        out, err = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    line = one_line_stderr(subprocess.CompletedProcess(argv, run.returncode, out, err))
    stored = len(stored_keys(db))
    assert 2 <= stored < 400
    assert line.startswith(f"Error: {replays}: the replays folder was replaced by a file"), line
    assert f"; {stored} games of tournament 1 are stored and it is marked interrupted;" in line
    assert "move that file away (or pass another --replays), then resume with: arena tournament spring2021" in line
    assert "failed for the first time" not in err  # no bot is blamed
    assert rows(db, "SELECT status FROM tournaments") == [("interrupted",)]
