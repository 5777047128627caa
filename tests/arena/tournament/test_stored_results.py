"""A results database written by an earlier release still opens, reports and resumes.

``tests/fixtures/store_v1/`` was made with cgarena 0.1.0 (commit e7e08d0, schema version 1) by
``arena tournament tournament.yaml`` in that folder: a round-robin of four small Fall 2020 bots
(two random players, one that waits, one that exits after five turns), 24 games. Beside it are
what that release's ``arena results`` printed in each format. Every later release must print the
same from that file (the database is copied first: the fixture is never written) and extend it
with more games without replaying or changing the stored ones.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.store.results import SCHEMA_VERSION, Store
from cli.arena import main
from tests.helpers import bradley_terry
from tests.helpers.paths import FIXTURES

FIXTURE = FIXTURES / "store_v1"
OUTPUTS = {"table": "results.txt", "csv": "results.csv", "json": "results.json"}


@pytest.fixture()
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / "store_v1"
    shutil.copytree(FIXTURE, target)
    monkeypatch.chdir(target)
    return target


def games(db: Path) -> list[tuple]:
    """Every game as (comparison, pair, leg, seed, seat0, seat1, score0, score1, winner, status0,
    status1, end_reason, turns), read with plain SQL from either schema: 0.1.0's two fixed
    columns per field, or one ``game_players`` row per player."""
    with sqlite3.connect(db) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        if "seat0" in columns:
            return conn.execute(
                "SELECT comparison, pair, leg, seed, seat0, seat1, score0, score1, winner, status0, "
                "status1, end_reason, turns FROM games ORDER BY comparison, pair, leg"
            ).fetchall()
        return conn.execute(
            "SELECT g.comparison, g.pair, g.leg, g.seed, p0.bot, p1.bot, p0.score, p1.score, g.winner, "
            "p0.status, p1.status, g.end_reason, g.turns FROM games g "
            "JOIN game_players p0 USING (tournament_id, comparison, pair, leg) "
            "JOIN game_players p1 USING (tournament_id, comparison, pair, leg) "
            "WHERE p0.seat = 0 AND p1.seat = 1 ORDER BY g.comparison, g.pair, g.leg"
        ).fetchall()


def _contains(new: object, old: object, where: str = "") -> None:
    """Every key and value of ``old`` is in ``new`` (later releases may add keys)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} is gone"
            _contains(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for i, (n, o) in enumerate(zip(new, old)):
            _contains(n, o, f"{where}[{i}]")
    else:
        assert new == old, f"{where}: {new!r} != {old!r}"


def _sections(text: str) -> list[list[str]]:
    return [block.splitlines() for block in text.strip().split("\n\n")]


Z = 1.959963984540054  # Phi^-1(0.975)
HALF = Z / (2 * math.sqrt(2 + Z * Z))  # Wilson's half-width at a score of 1/2 over 2 pairs
ELO_HALF = 400 * math.log10((0.5 + HALF) / (0.5 - HALF))  # +392.52
WON_LO = -400 * math.log10((2 + Z * Z) / 2 - 1)  # Elo of Wilson's lower end 2 / (2 + z^2): -113.39
CHANGED = {  # issue #34 point 12, by hand: intervals that stay finite, an exact LOS at 2 pairs won
    "[1, 0, 0, 0, 1]": {"elo_ci95": ELO_HALF, "elo_lo": -ELO_HALF, "elo_hi": ELO_HALF, "los": 0.5},
    "[0, 0, 0, 0, 2]": {"elo_ci95": None, "elo_lo": WON_LO, "elo_hi": None, "los": 0.875},
}
"""What changed since 0.1.0 in the figures of the fixture's comparisons, by their pair counts:
the interval of the LL+WW comparison is Wilson's (the normal one left [0, 1]), the Elo of two won
pairs is bounded below, and their LOS is 1 - 2^-3 (the normal one's 1 was no likelihood)."""
SCORES_CHANGED = {  # the JSON has the score interval too
    "[1, 0, 0, 0, 1]": {"score_lo": 0.5 - HALF, "score_hi": 0.5 + HALF},
    "[0, 0, 0, 0, 2]": {"score_lo": 2 / (2 + Z * Z), "score_hi": 1.0},
}


def _figure(text: str | float | None) -> float | None:
    return None if text in ("", None) else float(text)


def _ranked(db: Path) -> tuple[list[bradley_terry.Rated], bradley_terry.Cross]:
    """The ranking of the fixture's games found again (#43: a Bradley-Terry fit replaced 0.1.0's
    openskill leaderboard): each game's winner from its scores, read with plain SQL, fitted by
    :func:`tests.helpers.bradley_terry.fit`; with the cross-table."""
    rows = [
        (c, pair, leg, seat0, seat1, int(score1 > score0), int(score0 > score1))
        for c, pair, leg, _, seat0, seat1, score0, score1, *_ in games(db)
    ]
    first = {c: seat0 for c, pair, leg, seat0, *_ in rows if (pair, leg) == (0, 0)}
    results = bradley_terry.map_results(rows, first)
    return bradley_terry.fit(results), bradley_terry.cross(results)


def test_reports_what_the_release_that_wrote_it_reported(copy: Path) -> None:
    """CSV as it was but the figures :data:`CHANGED` (hand-worked); JSON with every key and
    value it had (new keys may come, e.g. ``refused``) but the ranking; the table (whose layout
    changed: aligned columns, never an infinite interval) with the same counts; the ranking (the
    JSON's ``leaderboard`` and the table's last section) is the Bradley-Terry fit of the stored
    games, found again by a second fit."""
    out = {form: CliRunner().invoke(main, ["results", "--db", "results.sqlite", "--format", form]) for form in OUTPUTS}
    assert all(r.exit_code == 0 for r in out.values()), {f: r.output for f, r in out.items()}
    old = {form: (FIXTURE / name).read_text() for form, name in OUTPUTS.items()}
    new_rows = list(csv.DictReader(io.StringIO(out["csv"].output)))
    old_rows = list(csv.DictReader(io.StringIO(old["csv"])))
    assert len(new_rows) == len(old_rows) and out["csv"].output.splitlines()[0] == old["csv"].splitlines()[0]
    for n, o in zip(new_rows, old_rows):
        changed = CHANGED[str([int(o[k]) for k in ("ll", "ld", "wl_dd", "wd", "ww")])]
        assert {k: v for k, v in n.items() if k not in changed} == {k: v for k, v in o.items() if k not in changed}
        assert {k: _figure(n[k]) for k in changed} == pytest.approx(changed)
    new_json, old_json = json.loads(out["json"].output), json.loads(old["json"])
    for n, o in zip(new_json["comparisons"], old_json["comparisons"], strict=True):
        changed = CHANGED[str(o["penta"])] | SCORES_CHANGED[str(o["penta"])]
        assert {k: n[k] for k in changed} == pytest.approx(changed)
        o.update({k: n[k] for k in changed})
    assert [e["name"] for e in old_json.pop("leaderboard")] == ["random2", "random1", "wait", "quitter"]  # openskill
    _contains(new_json, old_json)
    ranked, met = _ranked(copy / "results.sqlite")
    bradley_terry.check_json(new_json["leaderboard"], ranked, 24, met)
    new_table, old_table = _sections(out["table"].output), _sections(old["table"])
    assert new_table[0][0] == old_table[0][0]  # tournament 1 (finished): ..., 24 games stored
    for n, o in zip(new_table[0][2:], old_table[0][2:], strict=True):  # name, games, W-D-L, score
        assert n.split()[:6] == o.split()[:6]
        assert n.split()[-5:] == o.split()[-5:]  # the pentanomial counts
    for n, o in zip(new_table[1][1:], old_table[1][1:], strict=True):  # name, games, timeouts, crashes, invalid
        assert n.split()[:5] == o.split()[:5]
        assert n.split()[-5:] == o.split()[-5:]  # latency median / p99 / max
    assert old_table[2][0] == "leaderboard (openskill):"
    assert "\n".join(new_table[2]) + "\n" == bradley_terry.section(ranked)


def test_resumes_and_extends_it(copy: Path) -> None:
    fixture_bytes = (FIXTURE / "results.sqlite").read_bytes()
    before = games(copy / "results.sqlite")
    assert len(before) == 24
    result = CliRunner().invoke(
        main, ["tournament", "tournament.yaml", "--games", "6", "--no-progress", "--max-failures", "1"]
    )  # the quitter quits
    assert result.exit_code == 0, result.output
    assert "tournament 1 (resumed, 24 games already stored)" in result.output
    after = games(copy / "results.sqlite")
    assert len(after) == 36  # 6 comparisons, one more seed pair each
    assert [g for g in after if g[1] < 2] == before  # the stored games are untouched
    with sqlite3.connect(copy / "results.sqlite") as conn:
        players = conn.execute("SELECT comparison, pair, leg, seat, score, rank FROM game_players").fetchall()
    assert len(players) == 72
    scores = {(c, p, leg, seat): score for c, p, leg, seat, score, _ in players}
    for c, p, leg, seat, score, rank in players:  # rank 0 unless the other player scored more
        assert rank == int(scores[(c, p, leg, 1 - seat)] > score)
    with sqlite3.connect(copy / "results.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM tournaments").fetchone() == (1,)
    assert (FIXTURE / "results.sqlite").read_bytes() == fixture_bytes


def test_a_changed_bot_is_still_noticed_in_it(copy: Path) -> None:
    """Its bots have no recorded version (0.1.0 recorded none): a change is told by their source
    hash, as then; since #43 it starts a new tournament, and the old one keeps its games."""
    before = games(copy / "results.sqlite")
    with open(copy / "bots" / "random_bot.py", "a") as f:
        f.write("# edited\n")
    result = CliRunner().invoke(
        main, ["tournament", "tournament.yaml", "--games", "6", "--no-progress", "--max-failures", "1"]
    )  # the quitter quits
    assert result.exit_code == 0, result.output
    assert "bot 'random1' changed since tournament 1 started" in result.output
    assert "tournament 1 keeps its games, and a new tournament starts for these versions" in result.output
    assert "tournament 2 (new)" in result.output
    with sqlite3.connect(copy / "results.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE tournament_id = 2").fetchone() == (36,)
        kept = conn.execute("SELECT count(*) FROM games WHERE tournament_id = 1").fetchone()
    assert kept == (24,) and len(before) == 24  # the first tournament's games, untouched (the fixture held only them)


def test_another_referee_is_still_noticed_in_it(copy: Path) -> None:
    with sqlite3.connect(copy / "results.sqlite") as conn:
        conn.execute("UPDATE tournaments SET referee_version = 'cgarena 0.1.0, fall2020 referee 000000000000'")
    result = CliRunner().invoke(
        main, ["tournament", "tournament.yaml", "--games", "6", "--no-progress", "--max-failures", "1"]
    )  # the quitter quits
    assert result.exit_code == 1
    assert "the fall2020 referee changed since tournament 1 started" in result.output


def schema(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()


def test_migrated_and_new_databases_have_one_schema(copy: Path, tmp_path: Path) -> None:
    Store("results.sqlite").close()  # opening it to write migrates it (arena results only reads it)
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "fall2020",
            "bots/random_bot.py",
            "bots/wait_bot.py",
            "--games",
            "2",
            "--no-progress",
            "--db",
            str(tmp_path / "new.sqlite"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert schema(copy / "results.sqlite") == schema(tmp_path / "new.sqlite")
    with sqlite3.connect(copy / "results.sqlite") as conn:
        assert conn.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)


def test_a_database_from_a_newer_arena_is_refused(copy: Path) -> None:
    with sqlite3.connect(copy / "results.sqlite") as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    result = CliRunner().invoke(main, ["results", "--db", "results.sqlite"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert "written by a newer arena (results schema 99" in result.output


def test_a_moved_tournament_folder_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "first"
    (first / "bots").mkdir(parents=True)
    shutil.copy(FIXTURE / "bots" / "wait_bot.py", first / "bots" / "a.py")
    shutil.copy(FIXTURE / "bots" / "random_bot.py", first / "bots" / "b.py")
    monkeypatch.chdir(first)
    argv = ["tournament", "fall2020", "bots/b.py", "bots/a.py", "--no-progress", "--db", "r.sqlite"]
    assert CliRunner().invoke(main, [*argv, "--games", "2"]).exit_code == 0
    moved = tmp_path / "moved"
    first.rename(moved)
    monkeypatch.chdir(moved)
    result = CliRunner().invoke(main, [*argv, "--games", "4"])
    assert result.exit_code == 0, result.output
    assert "resumed, 2 games already stored" in result.output
    (moved / "bots" / "a.py").write_text((moved / "bots" / "a.py").read_text() + "# edited\n")
    result = CliRunner().invoke(main, [*argv, "--games", "6"])
    assert result.exit_code == 0, result.output
    assert "bot 'a' is a@2 (tournament 1 played a@1" in result.output and "tournament 2 (new)" in result.output
