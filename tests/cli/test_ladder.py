"""``arena ladder`` as a user runs it over the weeks of a contest: bots added at any time (frozen
copies), runs stopped with Ctrl-C or killed and run again, the stored games reused, the ranking
shown as the stored games say."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tests.helpers.paths import SHIPPED_BOTS

ARENA = [sys.executable, "-c", "import sys; from cli.arena import main; sys.exit(main())"]
GREEDY = SHIPPED_BOTS / "spring2021" / "greedy_bot.py"


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*ARENA, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def ok(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    done = arena(*args, cwd=cwd)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        return con.execute(sql).fetchall()


def stored(db: Path) -> int:
    try:
        return rows(db, "SELECT COUNT(*) FROM games")[0][0]
    except sqlite3.OperationalError:
        return 0


def games_of(db: Path) -> list[tuple]:
    """Every game: (id, comparison, pair, leg, seed, seat 0's bot, seat 1's bot, score 0, score 1)."""
    return rows(
        db,
        "SELECT g.rowid, g.comparison, g.pair, g.leg, g.seed, p0.bot, p1.bot, p0.score, p1.score FROM games g "
        "JOIN game_players p0 USING (tournament_id, comparison, pair, leg) "
        "JOIN game_players p1 USING (tournament_id, comparison, pair, leg) "
        "WHERE p0.seat = 0 AND p1.seat = 1 ORDER BY g.rowid",
    )


def run_until(db: Path, cwd: Path, games: int, *extra: str) -> subprocess.Popen:
    """``arena ladder run`` in the background, returned once ``games`` games are stored."""
    proc = subprocess.Popen(
        [*ARENA, "ladder", "run", "--workers", "2", "--db", db.name, *extra],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 240
    while stored(db) < games and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    return proc


def ladder(tmp_path: Path) -> tuple[Path, Path]:
    """A Spring 2021 ladder of three bots: ``first`` (a user's file: greedy), ``rnd``, ``wt``."""
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(GREEDY, src / "mine.py")
    db = tmp_path / "ladder.sqlite"
    ok("ladder", "init", "spring2021", "--db", db.name, cwd=tmp_path)
    ok("ladder", "add", "first", "src/mine.py", "--db", db.name, cwd=tmp_path)
    ok("ladder", "add", "rnd", "random", "--db", db.name, cwd=tmp_path)
    ok("ladder", "add", "wt", "wait", "--db", db.name, cwd=tmp_path)
    return db, src / "mine.py"


def scores(result: subprocess.CompletedProcess) -> list[int]:
    return json.loads(result.stdout.strip().splitlines()[-1])["scores"]


def test_a_ladder_grows_reuses_its_games_and_keeps_every_version_as_added(tmp_path: Path) -> None:
    db, mine = ladder(tmp_path)
    original = mine.read_text()
    proc = run_until(db, tmp_path, 200)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    before = games_of(db)
    assert len(before) >= 200
    first_before = json.loads(ok("ladder", "show", "--format", "json", "--db", db.name, cwd=tmp_path).stdout)
    version = {b["bot"]: b["version"] for b in first_before["bots"]}["first"]

    # the source is edited (it completes its trees later), and the edited copy added as a fourth bot
    edited = original.replace('"complete-day": 12', '"complete-day": 20')
    assert edited != original
    mine.write_text(edited)
    added = ok("ladder", "add", "second", "src/mine.py", "--db", db.name, cwd=tmp_path)
    assert "added second" in added.stdout

    again = ok("ladder", "run", "--games", "40", "--workers", "2", "--no-progress", "--db", db.name, cwd=tmp_path)
    assert "40 games played" in again.stdout
    after = games_of(db)
    assert after[: len(before)] == before  # the stored games are kept as they were, none played again
    new = after[len(before) :]
    assert len(new) >= 40
    assert all("second" in g[5:7] for g in new[:10]), new[:10]  # the new bot's placement comes first
    keys = [(frozenset(g[5:7]), g[4], g[5]) for g in after]
    assert len(keys) == len(set(keys))  # no (bots, seed, seat) twice

    data = json.loads(ok("ladder", "show", "--format", "json", "--db", db.name, cwd=tmp_path).stdout)
    bots = {b["bot"]: b for b in data["bots"]}
    assert bots["first"]["version"] == version  # the registered version is the one first added
    assert bots["second"]["version"] != version
    # ... and it still plays as the original source did: the same game, move for move
    frozen = Path(f"{db}-bots") / version / "tree" / "mine.py"
    (tmp_path / "orig.py").write_text(original)
    as_frozen = ok("play", "spring2021", str(frozen), "random", "--seed", "5", "--json", cwd=tmp_path)
    as_source = ok("play", "spring2021", "orig.py", "random", "--seed", "5", "--json", cwd=tmp_path)
    as_edited = ok("play", "spring2021", "src/mine.py", "random", "--seed", "5", "--json", cwd=tmp_path)
    assert scores(as_frozen) == scores(as_source) != scores(as_edited)

    # show agrees with the games arena matches list gives for the ladder
    listed = json.loads(
        ok("matches", "list", "--ladder", str(data["ladder"]), "--format", "json", "--db", db.name, cwd=tmp_path).stdout
    )["games"]
    assert len(listed) == data["games_stored"] == data["games_counted"] == len(after)
    per_bot = Counter(p["bot"] for g in listed for p in g["players"])
    assert {r["bot"]: r["games"] for r in data["ranking"]} == dict(per_bot)
    totals: dict[tuple[str, str], list[float]] = {}
    for g in listed:
        a, b = g["players"]
        for me, other in ((a, b), (b, a)):
            t = totals.setdefault((me["bot"], other["bot"]), [0.0, 0])
            t[0] += 1.0 if me["rank"] < other["rank"] else 0.5 if me["rank"] == other["rank"] else 0.0
            t[1] += 1
    cross = {(c["bot"], c["against"]): (c["score"], c["games"]) for c in data["cross"]}
    assert cross.keys() == totals.keys()
    for key, (total, n) in totals.items():
        assert cross[key][1] == n and abs(cross[key][0] - total / n) < 1e-12


def test_sigkill_loses_only_the_games_in_progress_and_the_next_run_completes_them(tmp_path: Path) -> None:
    db, _ = ladder(tmp_path)
    proc = run_until(db, tmp_path, 30)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole process group: the run and its workers
    proc.wait()
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    legs = {(c, p, leg) for _, c, p, leg, *_ in games_of(db)}
    picked = rows(db, "SELECT comparison, pair FROM picks")
    missing = [(c, p, leg) for c, p in picked for leg in (0, 1) if (c, p, leg) not in legs]
    assert len(missing) <= 2  # at most the games of the two workers
    again = ok("ladder", "run", "--games", "10", "--no-progress", "--db", db.name, cwd=tmp_path)
    if missing:
        assert f"with the {len(missing)} games left of pairs already picked" in again.stderr
    legs = {(c, p, leg) for _, c, p, leg, *_ in games_of(db)}
    assert all(m in legs for m in missing)  # the pairs picked before the kill are whole
    keys = [(frozenset(g[5:7]), g[4], g[5]) for g in games_of(db)]
    assert len(keys) == len(set(keys))  # no (bots, seed, seat) stored twice
