"""Shared by the tests of the results database under concurrency and faults: plain SQL on a
database, a bot that a test holds in its game, waiting for a run, the command of a small
tournament, one-line errors."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from tests.helpers.spring_text_bots import spring_bot_text

ARENA = [sys.executable, "-m", "cli"]
FAST = ["--param", "MAX_ROUNDS=3", "--seed", "5", "--no-progress"]


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    """Plain SQL on an existing database (a plain connection: when it closes, as the last one, it
    leaves no ``-wal`` or ``-shm`` file behind)."""
    conn = sqlite3.connect(f"file:{db}?mode=rw", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def stored_keys(db: Path) -> list[tuple[int, int, int, int]]:
    return rows(db, "SELECT tournament_id, comparison, pair, leg FROM games ORDER BY 1, 2, 3, 4")


def expected_keys(games: int, tid: int = 1) -> list[tuple[int, int, int, int]]:
    """The schedule of a two-bot tournament: ``games`` games, each seed pair played from both seats."""
    return [(tid, 0, pair, leg) for pair in range(games // 2) for leg in (0, 1)]


def one_line_error(result: Result) -> str:
    """The command failed with one ``Error:`` line of its own making (no traceback)."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # not an uncaught exception
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def one_line_stderr(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def crashing_bot(folder: Path) -> Path:
    """``folder/crasher.py``: a bot that reads its first line, writes ``about to fail`` on stderr
    and exits with ``boom: no strategy`` (it starts, so a tournament plays its games)."""
    path = folder / "crasher.py"
    path.write_text(
        "import sys\nsys.stdin.readline()  # it starts (a bot that cannot is refused before the games)\n"
        "print('about to fail', file=sys.stderr)\nsys.exit('boom: no strategy')\n"
    )
    return path


def held_bot(folder: Path) -> tuple[Path, Path]:
    """A bot that WAITs every turn; while the file ``hold`` exists it waits before it reads
    anything, which keeps its game, and the run, in progress (bots may run in a read-only
    sandbox: it only reads). Returns (bot, hold)."""
    hold = folder / "hold"
    prologue = f"import os, time\nwhile os.path.exists({str(hold)!r}):\n    time.sleep(0.02)\n"
    bot = folder / "held.py"
    bot.write_text(spring_bot_text(repr("WAIT"), imports=prologue))
    return bot, hold


def playing(db: Path, tid: int = 1) -> bool:
    """Whether a run has taken tournament ``tid``'s lock (it notes itself in ``meta`` then)."""
    try:
        return bool(rows(db, f"SELECT 1 FROM meta WHERE key = 'runner.{tid}'"))
    except sqlite3.Error:  # not created yet
        return False


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 120.0, *, fail: bool = True) -> bool:
    """Poll ``condition`` until it holds (True) or ``timeout`` passes (False, or an assertion
    error naming ``what`` when ``fail``)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            assert not fail, f"gave up waiting for {what}"
            return False
        time.sleep(0.05)
    return True


def tournament_argv(bot: Path, db: Path, games: int, *extra: str) -> list[str]:
    # a generous time scale: a bot held by the test must not time out
    return [
        "tournament",
        "spring2021",
        str(bot),
        "wait",
        "--games",
        str(games),
        "--db",
        str(db),
        "--time-scale",
        "100",
        *FAST,
        *extra,
    ]
