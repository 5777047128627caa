"""The migration to schema 10 (``arena/store/schema.py``): the frozen bots that schema-9 ladders
hold become versions, one per name and hash, numbered per name in the order they were added.

A copy of ``tests/fixtures/store_v9`` (ladder 3: random1, random2 and wait, frozen) is given two
more ladders by plain SQL before it is migrated; every expected version is worked out by hand
below from those rows and the fixture's, which are read by plain SQL."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from arena.store.results import Store
from tests.helpers.golden import STORE_V9
from tests.helpers.versions import rows

D, E, F = "d" * 64, "e" * 64, "f" * 64


def _frozen(digest: str) -> str:
    return json.dumps({"hash": digest, "how": "bundle"})


def _ladder(conn: sqlite3.Connection, tid: int, created: float) -> None:
    conn.execute(
        "INSERT INTO tournaments VALUES (?, 'k', ?, 'finished', 0, 'fall2020:1', ?, ?)",
        (tid, json.dumps({"game": "fall2020", "kind": "ladder"}), created, created),
    )


def _bot(conn: sqlite3.Connection, tid: int, name: str, digest: str, added: float | None, frozen: bool) -> None:
    conn.execute(
        "INSERT INTO bots (tournament_id, name, command, env, source_hash, files, hash_scheme, state, added, frozen)"
        " VALUES (?, ?, '[]', '{}', ?, '[]', 2, 'active', ?, ?)",
        (tid, name, digest, added, _frozen(digest) if frozen else None),
    )


def test_the_ladders_frozen_bots_become_versions_numbered_per_name_in_the_order_added(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    shutil.copy(STORE_V9 / "results.sqlite", db)
    fixture = {
        name: (digest, added, frozen)
        for name, digest, added, frozen in rows(
            db, "SELECT name, source_hash, added, frozen FROM bots WHERE tournament_id = 3"
        )
    }
    assert sorted(fixture) == ["random1", "random2", "wait"]
    r1, r2, w = fixture["random1"], fixture["random2"], fixture["wait"]
    assert r1[1] < r2[1] < w[1] < 1795900000  # added in that order, before the ladders below
    with sqlite3.connect(db) as conn:
        _ladder(conn, 4, 1795900000.0)
        _bot(conn, 4, "random1", E, 1795900001.0, True)  # an edit of random1: random1@2
        _bot(conn, 4, "wait", D, 1795800000.0, True)  # added before ladder 3's wait: wait@1
        _bot(conn, 4, "plain", F, 1795900002.0, False)  # not frozen: no version
        _ladder(conn, 5, 1795900100.0)
        _bot(conn, 5, "random1", r1[0], 1795900101.0, True)  # ladder 3's random1 again: random1@1
        _bot(conn, 5, "newbot", F, None, True)  # no time added: its ladder's creation
    Store(db).close()  # opened to write: migrated
    assert rows(db, "SELECT id, name, number, hash, created, origin, frozen FROM versions ORDER BY id") == [
        (1, "wait", 1, D, 1795800000.0, "", _frozen(D)),
        (2, "random1", 1, r1[0], r1[1], "", r1[2]),
        (3, "random2", 1, r2[0], r2[1], "", r2[2]),
        (4, "wait", 2, w[0], w[1], "", w[2]),
        (5, "random1", 2, E, 1795900001.0, "", _frozen(E)),
        (6, "newbot", 1, F, 1795900100.0, "", _frozen(F)),
    ]
    assert rows(db, "SELECT tournament_id, name, version FROM bots WHERE tournament_id >= 3 ORDER BY rowid") == [
        (3, "random1", 2),
        (3, "random2", 3),
        (3, "wait", 4),
        (4, "random1", 5),
        (4, "wait", 1),
        (4, "plain", None),
        (5, "random1", 2),
        (5, "newbot", 6),
    ]
    assert rows(db, "SELECT DISTINCT version FROM bots WHERE tournament_id IN (1, 2)") == [(None,)]
