"""Golden comparisons against ``tests/fixtures/store_v9``: what the arena of commit f515562 (results
schema 9) wrote and printed, with what may differ from run to run or from machine to machine masked.

What is masked, and why:

* measured times: every answer's ``time_ms``, a game's ``wall_s`` and ``duration_s``, the
  latencies (``latency_ms``, ``latencies_ms``) and what is computed from them (``limit_use``:
  the closest call and the histogram of answers by share of their limit; ``near_limit``;
  ``overloaded``, ``overloaded_timeouts``); in the tables, every column after ``refused`` of the
  bots' table (overloaded, >95% limit, closest, latency) and each bot's answers by share of their
  limit, of which only the total (the number of answers) is kept;
* clock times: ``created``, ``updated``, ``added``, ``picked``, ``finished`` and the dates the
  tables print;
* machine paths: the folder the fixture was made or copied in (any absolute path that ends with
  ``/store_v9``) is ``<DIR>``, the Python interpreter that runs the bots (the commands name it) is
  ``<PYTHON>``.

Everything else (seeds, moves, scores, statuses, end reasons, game ids, replay names, figures,
settings) must be equal. The ranking of a tournament's results is split off (see
:func:`split_leaderboard`) and checked on its own: f515562 printed an openskill leaderboard
(``leaderboard (openskill):``, the JSON's ``leaderboard``), today's arena ranks with a
Bradley-Terry fit (``ranking (Bradley-Terry, ...):``), which :func:`fixture_ranking` computes
again from the stored games, with plain SQL and :mod:`tests.helpers.bradley_terry`.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.helpers import bradley_terry
from tests.helpers.paths import FIXTURES

STORE_V9 = FIXTURES / "store_v9"
OUTPUTS = STORE_V9 / "outputs"

MASK = "<masked>"
VOLATILE_KEYS = frozenset(
    {
        "time_ms",
        "wall_s",
        "duration_s",
        "latency_ms",
        "latencies_ms",
        "limit_use",
        "near_limit",
        "overloaded",
        "overloaded_timeouts",
        "created",
        "updated",
        "added",
        "picked",
        "finished",
    }
)
"""Keys whose values are measured times, or clock times, at any depth of a JSON document."""

_FOLDER = re.compile(r"(?:/[\w.+@~-]+)*/store_v9(?![\w.-])")
_PYTHON = re.compile(r"/[^\s'\"=]*/python[\d.]*(?![\w.-])")
_CLOCK = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[+-]\d\d:\d\d|Z)?")
_RANKING = ("leaderboard (openskill):", "ranking (")
"""How the ranking's section of a printed report starts: f515562's, today's."""


def mask_text(text: str) -> str:
    """``text`` with the fixture's folder, the interpreter and clock times masked."""
    text = _FOLDER.sub("<DIR>", text)
    text = _PYTHON.sub("<PYTHON>", text)
    return _CLOCK.sub("<TIME>", text)


def mask_json(value: Any) -> Any:
    """A parsed JSON document with :data:`VOLATILE_KEYS` masked and every string masked as
    :func:`mask_text` does (key order kept)."""
    if isinstance(value, dict):
        return {k: MASK if k in VOLATILE_KEYS else mask_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_json(v) for v in value]
    if isinstance(value, str):
        return mask_text(value)
    return value


def dump(value: Any) -> str:
    """A JSON document as comparable text: one item a line (readable diffs), key order kept."""
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"


def masked_json_text(text: str) -> str:
    """The JSON document ``text``, masked (:func:`mask_json`) and written by :func:`dump`."""
    return dump(mask_json(json.loads(text)))


def split_json_leaderboard(text: str) -> tuple[str, str]:
    """A results document (``arena results --format json``) without its ``leaderboard`` key,
    and that key's value, both masked and written by :func:`dump`."""
    doc = json.loads(text)
    leaderboard = doc.pop("leaderboard")
    return dump(mask_json(doc)), dump(mask_json(leaderboard))


def split_leaderboard(text: str) -> tuple[str, str]:
    """A printed tables of a tournament without its ranking section (f515562's ``leaderboard
    (openskill):``, today's ``ranking (...):``: the heading and the lines up to the next empty
    line or the end), and that section."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(_RANKING) and line.rstrip().endswith(":"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return "".join(lines[:start] + lines[end:]), "".join(lines[start:end])


def mask_tables(text: str) -> str:
    """What ``arena tournament`` or ``arena results`` printed, masked: :func:`mask_text`, then
    in the bots' table every column after ``refused``, and each bot's answers by share of their
    time limit replaced by their total."""
    out: list[str] = []
    cut: int | None = None  # where the bots' table's masked columns start
    histograms = False
    for line in mask_text(text).splitlines():
        if line.startswith("bot ") and "latency" in line and " refused " in line:
            cut = line.index(" refused ") + len(" refused")
            out.append(line[:cut] + " " + " ".join(line[cut:].split()))
            continue
        if cut is not None and line.strip() and not line.startswith(" ") and ":" not in line:
            out.append(line[:cut].rstrip() + " " + MASK)
            continue
        cut = None
        if line == "answers by share of their time limit:":
            histograms = True
            out.append(line)
            continue
        if histograms and line.startswith("  "):
            name, _, bars = line.strip().partition("  ")
            total = sum(int(part.split()[-1]) for part in bars.split(" | "))
            out.append(f"  {name}  {total} answers")
            continue
        histograms = False
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name: contents), to check that it was not changed."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


GAME_COLUMNS = (
    "rowid",
    "tournament_id",
    "comparison",
    "pair",
    "leg",
    "seed",
    "winner",
    "end_reason",
    "turns",
    "referee_version",
    "replay",
    "sandbox",
    "worker",
    "meta",
)
"""The columns of ``games`` compared (the game's id is its rowid); left out: ``duration_s`` and
``finished`` (measured and clock times)."""
PLAYER_COLUMNS = (
    "tournament_id",
    "comparison",
    "pair",
    "leg",
    "seat",
    "bot",
    "score",
    "rank",
    "status",
    "message",
    "stderr",
    "refused",
)
"""The columns of ``game_players`` compared; left out: ``latency``, ``near_limit``,
``limit_use``, ``overloaded`` (measured times and what follows from them)."""


def _rows(db: Path, sql: str, args: Iterable[object] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``db``, opened read-only. Never the fixture's own file: a database in WAL mode
    gets its ``-wal`` and ``-shm`` files beside it even when only read (copy it first)."""
    assert not db.resolve().is_relative_to(STORE_V9.resolve()), f"{db}: read a copy of the fixture"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql, tuple(args)).fetchall()


def game_rows(db: Path, tournaments: Iterable[int] | None = None) -> list[tuple[Any, ...]]:
    """The stored games (:data:`GAME_COLUMNS`), by id; of ``tournaments`` only, if given."""
    where, args = _among(tournaments)
    return _rows(db, f"SELECT {', '.join(GAME_COLUMNS)} FROM games {where} ORDER BY rowid", args)


def player_rows(db: Path, tournaments: Iterable[int] | None = None) -> list[tuple[Any, ...]]:
    """The stored players of the games (:data:`PLAYER_COLUMNS`), in key order."""
    where, args = _among(tournaments)
    return _rows(
        db,
        f"SELECT {', '.join(PLAYER_COLUMNS)} FROM game_players {where} "
        "ORDER BY tournament_id, comparison, pair, leg, seat",
        args,
    )


def _among(tournaments: Iterable[int] | None) -> tuple[str, list[int]]:
    if tournaments is None:
        return "", []
    ids = list(tournaments)
    return f"WHERE tournament_id IN ({', '.join('?' for _ in ids)})", ids


def tournament_rows(db: Path, tournaments: Iterable[int]) -> dict[str, list[tuple[Any, ...]]]:
    """What a tournament stores besides its games, masked: its row (settings, key, status,
    target, referee; not its clock times), its bots (command and files name machine paths), its
    comparisons (the SPRT's decisions) and their bots. Not the schema version: a later schema
    may store the same results."""
    where, args = _among(tournaments)

    def masked(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        return [tuple(mask_text(v) if isinstance(v, str) else v for v in row) for row in rows]

    return {
        "tournaments": masked(
            _rows(
                db,
                "SELECT id, key, settings, status, games_target, referee_version FROM tournaments "
                f"{where.replace('tournament_id', 'id')} ORDER BY id",
                args,
            )
        ),
        "bots": masked(
            _rows(
                db,
                "SELECT tournament_id, name, command, env, source_hash, files, hash_scheme, state, frozen FROM bots "
                f"{where} ORDER BY tournament_id, name",
                args,
            )
        ),
        "comparisons": _rows(db, f"SELECT * FROM comparisons {where} ORDER BY tournament_id, idx", args),
        "comparison_bots": _rows(
            db, f"SELECT * FROM comparison_bots {where} ORDER BY tournament_id, idx, position", args
        ),
    }


def fixture_ranking(db: Path, tournament: int) -> tuple[list[bradley_terry.Rated], int, bradley_terry.Cross]:
    """The ranking of a two-player tournament of ``db`` (a copy of a fixture's database) over its
    counted games, found again: its games read with plain SQL (each game's two players and
    ranks), those played after an SPRT decision left out (``decided_at_pair``), scored from the
    side of each comparison's first bot and fitted by :func:`tests.helpers.bradley_terry.fit`;
    with the number of games counted and the cross-table (:func:`tests.helpers.bradley_terry.cross`)."""
    decided = dict(_rows(db, "SELECT idx, decided_at_pair FROM comparisons WHERE tournament_id = ?", [tournament]))
    first = dict(
        _rows(db, "SELECT idx, bot FROM comparison_bots WHERE tournament_id = ? AND position = 0", [tournament])
    )
    games = _rows(
        db,
        "SELECT p0.comparison, p0.pair, p0.leg, p0.bot, p1.bot, p0.rank, p1.rank FROM game_players p0 "
        "JOIN game_players p1 USING (tournament_id, comparison, pair, leg) "
        "WHERE p0.seat = 0 AND p1.seat = 1 AND p0.tournament_id = ?",
        [tournament],
    )
    counted = [g for g in games if decided.get(g[0]) is None or g[1] < decided[g[0]]]
    bots = [name for (name,) in _rows(db, "SELECT name FROM bots WHERE tournament_id = ?", [tournament])]
    results = bradley_terry.map_results(counted, first)
    return bradley_terry.fit(results, bots), len(counted), bradley_terry.cross(results)
