"""A results database of schema 9 (the arena of commit f515562) opens, reports and goes on with
nothing lost.

``tests/fixtures/store_v9/results.sqlite`` (its README says how it was made) holds two
tournaments (a round-robin with every replay kept, a gauntlet stopped by the SPRT) and a ladder
of three frozen bots (``results.sqlite-bots/``), with what that arena printed of them in
``outputs/``. A copy of the folder must print the same from today's arena (measured and clock
times and the machine's paths masked: :mod:`tests.helpers.golden`), then take more games of the
tournaments and of the ladder without changing any stored one. The fixture itself is never
written: it is copied first, and its bytes are checked afterwards.

The frozen ladder bots are read-only where the fixture was made (mode 444); git checks them out
writable, and copies keep whatever mode they had: the ladder checks their contents, not their
modes, so no mode is fixed here.

The upgrade records the ladder's three frozen bots as versions (schema 10): checked against the
fixture's rows, read by plain SQL, in :func:`test_the_upgrade_records_the_ladders_frozen_bots_as_versions`.

The ranking of the tournaments' results is checked on its own, in
:func:`test_the_ranking_is_a_bradley_terry_fit_of_the_stored_games`: f515562 printed an openskill
leaderboard, which a Bradley-Terry fit has replaced (#43); the figures are found again from the
stored games by a second fit (:mod:`tests.helpers.bradley_terry`).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.store.results import SCHEMA_VERSION, Store
from cli.arena import main
from tests.helpers import bradley_terry
from tests.helpers.golden import (
    OUTPUTS,
    STORE_V9,
    fixture_ranking,
    game_rows,
    mask_tables,
    mask_text,
    masked_json_text,
    player_rows,
    split_json_leaderboard,
    split_leaderboard,
    tournament_rows,
    tree_bytes,
)

DB = ["--db", "results.sqlite"]
READS: dict[str, list[str]] = {
    **{
        f"results-{t}.{ext}": ["results", *DB, "--tournament", str(t), "--format", form]
        for t in (1, 2)
        for form, ext in (("table", "txt"), ("csv", "csv"), ("json", "json"))
    },
    **{f"matches-{t}.txt": ["matches", "list", *DB, "--tournament", str(t)] for t in (1, 2)},
    **{f"matches-{t}.json": ["matches", "list", *DB, "--tournament", str(t), "--format", "json"] for t in (1, 2)},
    "ladder.txt": ["ladder", "show", *DB],
    "ladder.json": ["ladder", "show", *DB, "--format", "json"],
    "ladder.csv": ["ladder", "show", *DB, "--format", "csv"],
    "matches-ladder.txt": ["matches", "list", *DB, "--ladder", "3"],
    "matches-ladder.json": ["matches", "list", *DB, "--ladder", "3", "--format", "json"],
    **{f"match-{g}.json": ["matches", "show", str(g), *DB, "--format", "json"] for g in (12, 25, 37)},
    "tournaments.txt": ["tournaments", *DB],
    "tournaments.json": ["tournaments", *DB, "--format", "json"],
}
"""What make.sh saved of the database, by file name: the arguments that print it."""
TABLES = {"results-1.txt", "results-2.txt"}
"""Outputs with a bots' table (its measured columns masked) and a ranking section."""


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, f"arena {' '.join(args)}:\n{result.output}"
    return result.output


def _picks(db: Path) -> list[tuple[object, ...]]:
    """The ladder's picks (which pair, why), without their clock times."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT tournament_id, comparison, pair, reason FROM picks ORDER BY picked").fetchall()


def _copy(folder: Path) -> Path:
    target = folder / "store_v9"
    shutil.copytree(STORE_V9, target)
    return target


@dataclass
class Read:
    printed: dict[str, str]
    """What today's arena printed from a copy of the fixture, by the fixture's file name."""
    db_before: bytes
    db_after: bytes
    """The copy's database before and after these commands (they only read)."""


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> Read:
    copy = _copy(tmp_path_factory.mktemp("golden"))
    before = (copy / "results.sqlite").read_bytes()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(copy)
        printed = {name: _invoke(args) for name, args in READS.items()}
    return Read(printed, before, (copy / "results.sqlite").read_bytes())


def _saved(name: str) -> str:
    return (OUTPUTS / name).read_text(encoding="utf-8")


def _masked(name: str, text: str) -> str:
    if name.endswith(".json"):
        if name.startswith("results-"):
            return split_json_leaderboard(text)[0]  # the ranking: in its own test
        return masked_json_text(text)
    if name in TABLES:
        return mask_tables(split_leaderboard(text)[0])
    return mask_text(text)


@pytest.mark.parametrize("name", sorted(READS))
def test_it_still_reads_as_f515562_printed(read: Read, name: str) -> None:
    """``arena results`` (tournaments 1 and 2, each format), ``arena ladder show`` (each
    format), ``arena matches list`` (each tournament, the ladder), ``arena matches show``
    (a game of each), ``arena tournaments``: what make.sh saved, masked alike."""
    printed, saved = read.printed[name], _saved(name)
    if name == "match-37.json":  # a ladder's game: played again with its bots' versions (#43), from anywhere
        shown, stored = json.loads(printed), json.loads(saved)
        seats = " ".join(f"{p['bot']}={p['bot']}@1" for p in stored["players"])
        options = "--time-scale 4.0 --sandbox off --db results.sqlite"
        assert shown.pop("command") == f"arena play fall2020 {seats} --seed {stored['seed']} {options}"
        stored.pop("command")
        printed, saved = json.dumps(shown), json.dumps(stored)
    assert _masked(name, printed) == _masked(name, saved)


def test_reading_it_writes_nothing(read: Read) -> None:
    """These commands only read (docs/reference/results-schema.md): the copy is as it was."""
    assert read.db_after == read.db_before


@pytest.mark.parametrize("t", (1, 2))
def test_the_ranking_is_a_bradley_terry_fit_of_the_stored_games(read: Read, t: int, tmp_path: Path) -> None:
    """The ``leaderboard`` of ``arena results --format json`` and the ranking section of its
    table: the bots ranked by a second fit of the stored games (read with plain SQL from another
    copy of the database), laid out by hand."""
    copy = Path(shutil.copy(STORE_V9 / "results.sqlite", tmp_path / "stored.sqlite"))
    want, counted, met = fixture_ranking(copy, t)
    bradley_terry.check_json(json.loads(read.printed[f"results-{t}.json"])["leaderboard"], want, counted, met)
    assert split_leaderboard(read.printed[f"results-{t}.txt"])[1] == bradley_terry.section(want)


def test_it_takes_more_games_and_keeps_every_stored_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tournament 1 resumed with 6 games per comparison (one more seed pair each: 12 games),
    tournament 2 with 16 (its comparisons are decided: no game), the ladder with 2 more games:
    every stored game and player row is still there, unchanged (timing columns aside), the new
    ones are added, the database is at today's schema, and the fixture's bytes are untouched."""
    fixture = tree_bytes(STORE_V9)
    copy = _copy(tmp_path)
    stored = shutil.copy(copy / "results.sqlite", tmp_path / "stored.sqlite")  # read from a copy
    games, players = game_rows(Path(stored)), player_rows(Path(stored))
    assert len(games) == 46 and len(players) == 92  # 24 + 12 tournament games, 10 ladder games
    monkeypatch.chdir(copy)

    out = _invoke(["tournament", "tournament.yaml", "--games", "6", "--no-progress"])
    assert "tournament 1 (resumed, 24 games already stored)" in out
    assert "tournament 1 (finished): fall2020, round-robin, 36 games stored" in out
    out = _invoke(["tournament", "gauntlet.yaml", "--games", "16", "--no-progress"])
    assert "tournament 2 (resumed, 12 games already stored)" in out
    assert "tournament 2 (finished): fall2020, gauntlet, 12 games stored" in out
    out = _invoke(["ladder", "run", *DB, "--games", "2", "--workers", "1", "--no-progress"])
    assert "2 games played" in out

    db = copy / "results.sqlite"
    after_games, after_players = game_rows(db), player_rows(db)
    assert after_games[: len(games)] == games  # by id: the stored games first, unchanged
    new_games = after_games[len(games) :]  # in the order played: (rowid, tournament, comparison, pair, leg, ...)
    assert [(g[1], g[3]) for g in new_games[:12]] == [(1, 2)] * 12  # each comparison's third seed pair
    assert [g[1] for g in new_games[12:]] == [3, 3]  # the ladder's pick: one pair of games, seats swapped
    assert new_games[12][2:4] == new_games[13][2:4] and {new_games[12][4], new_games[13][4]} == {0, 1}
    assert set(players) <= set(after_players)
    assert len(after_players) == len(players) + 2 * len(new_games)
    assert {p[:4] for p in after_players} == {(g[1], g[2], g[3], g[4]) for g in after_games}
    before, after = tournament_rows(Path(stored), (1, 2, 3)), tournament_rows(db, (1, 2, 3))
    for table in ("bots", "comparisons", "comparison_bots"):  # its bots have all met: no new comparison
        assert before[table] == after[table], table
    assert set(_picks(Path(stored))) <= set(_picks(db)) and len(_picks(db)) == len(_picks(Path(stored))) + 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        assert conn.execute("SELECT decision, decided_at_pair FROM comparisons WHERE tournament_id = 2").fetchall() == [
            ("H1", 4),
            ("H0", 2),
        ]
    assert "3 bots, 12 games stored, 12 counted" in _invoke(["ladder", "show", *DB])
    assert (copy / "replays").is_dir() and len(list((copy / "replays").iterdir())) == 28 + 12  # keep: all
    assert tree_bytes(STORE_V9) == fixture


def _ladder_results(db: Path) -> dict[str, tuple[int, int, int, int]]:
    """Each ladder bot's (games, wins, draws, losses), counted here from its games' ranks."""
    ranks: dict[tuple[int, int, int], dict[str, int]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for comparison, pair, leg, bot, rank in conn.execute(
            "SELECT comparison, pair, leg, bot, rank FROM game_players WHERE tournament_id = 3"
        ):
            ranks.setdefault((comparison, pair, leg), {})[bot] = rank
    out: dict[str, list[int]] = {}
    for players in ranks.values():
        (a, ra), (b, rb) = players.items()
        for me, mine, theirs in ((a, ra, rb), (b, rb, ra)):
            counts = out.setdefault(me, [0, 0, 0, 0])
            counts[0] += 1
            counts[1 if mine < theirs else 2 if mine == theirs else 3] += 1
    return {bot: (c[0], c[1], c[2], c[3]) for bot, c in out.items()}


def test_the_upgrade_records_the_ladders_frozen_bots_as_versions(tmp_path: Path) -> None:
    """The ladder's three frozen bots become random1@1, random2@1 and wait@1 (ids in the order
    they were added), each with its hash, time added and frozen form, origin unknown; its bots
    point to them, the tournaments' bots to none; ``arena versions`` lists them with the games the
    ladder stored, and reads a schema-9 file without writing it."""
    copy = _copy(tmp_path)
    stored = Path(shutil.copy(copy / "results.sqlite", tmp_path / "stored.sqlite"))
    with sqlite3.connect(f"file:{stored}?mode=ro", uri=True) as conn:
        frozen = conn.execute(
            "SELECT name, source_hash, added, frozen FROM bots WHERE frozen IS NOT NULL ORDER BY added"
        ).fetchall()
    assert [f[0] for f in frozen] == ["random1", "random2", "wait"]
    assert all(json.loads(f[3])["hash"] == f[1] for f in frozen)  # the frozen version's hash is the bot's
    games = _ladder_results(stored)
    assert games == {"random1": (6, 4, 0, 2), "random2": (6, 6, 0, 0), "wait": (8, 0, 0, 8)}  # as make.sh played

    monkey = pytest.MonkeyPatch()
    monkey.chdir(copy)
    try:
        listed = json.loads(_invoke(["versions", *DB, "--format", "json"]))
    finally:
        monkey.undo()
    assert (copy / "results.sqlite").read_bytes() == stored.read_bytes()  # listing it wrote nothing
    assert [
        (v["version"], v["hash"], v["origin"], (v["games"], v["wins"], v["draws"], v["losses"]), v["used_by"])
        for v in listed["versions"]
    ] == [
        (f"{name}@1", digest, "", games[name], [{"kind": "ladder", "id": 3, "bot": name}])
        for name, digest, _, _ in frozen
    ]

    Store(copy / "results.sqlite").close()  # opened to write: migrated
    db = copy / "results.sqlite"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        versions = conn.execute("SELECT id, name, number, hash, created, origin, frozen FROM versions ORDER BY id")
        assert versions.fetchall() == [
            (i, name, 1, digest, added, "", text) for i, (name, digest, added, text) in enumerate(frozen, 1)
        ]
        bots = conn.execute("SELECT tournament_id, name, version FROM bots ORDER BY tournament_id, rowid").fetchall()
    assert [b for b in bots if b[0] != 3] == [(t, n, None) for t, n, _ in bots if t != 3]
    assert [b for b in bots if b[0] == 3] == [(3, name, i) for i, (name, _, _, _) in enumerate(frozen, 1)]
    assert {f[1] for f in frozen} <= {p.name for p in (copy / "results.sqlite-bots").iterdir()}
