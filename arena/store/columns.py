"""The columns of ``games`` and ``game_players``, as the store writes and reads them. Each is named
once, beside the record field it holds (:data:`GAME_COLUMNS`, :data:`PLAYER_COLUMNS`, and those
of ``bots``: :data:`BOT_COLUMNS`), with how a value is written and read back; the INSERTs and
SELECTs of :mod:`arena.store.results` are made from them. A new column is a migration
(:mod:`.schema`), a record field and one line here."""

from __future__ import annotations

import array
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..match.protocol.latency import LimitUse

__all__ = [
    "SqlColumn",
    "GAME_COLUMNS",
    "PLAYER_COLUMNS",
    "BOT_COLUMNS",
    "KEY",
    "INSERT_GAME",
    "INSERT_PLAYER",
    "INSERT_BOT",
    "names",
    "json_or_null",
    "from_json_or_null",
]


def _blob(values: Sequence[float]) -> bytes:
    return array.array("f", values).tobytes()


def _floats(blob: bytes) -> list[float]:
    out = array.array("f")
    out.frombytes(blob)
    return out.tolist()


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class SqlColumn:
    """A column of ``games`` or ``game_players`` and the record field it holds, with how a value
    is written (``to_sql``) and read back (``from_sql``)."""

    name: str
    field: str
    to_sql: Callable[[Any], Any] = _same
    from_sql: Callable[[Any], Any] = _same


def _bool_to_int(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _int_to_bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def json_or_null(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)


def from_json_or_null(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _json_list(values: Sequence[str]) -> str:
    return json.dumps(list(values))


def _json_tuple(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


KEY = ("comparison", "pair", "leg")

GAME_COLUMNS = (
    SqlColumn("comparison", "comparison"),
    SqlColumn("pair", "pair"),
    SqlColumn("leg", "leg"),
    SqlColumn("seed", "seed"),
    SqlColumn("winner", "winner"),
    SqlColumn("end_reason", "end_reason"),
    SqlColumn("turns", "turns"),
    SqlColumn("duration_s", "duration_s"),
    SqlColumn("referee_version", "referee_version"),
    SqlColumn("finished", "finished"),
    SqlColumn("replay", "replay"),
    SqlColumn("sandbox", "sandboxed", _bool_to_int, _int_to_bool),
    SqlColumn("worker", "worker"),
    SqlColumn("meta", "meta", json_or_null, from_json_or_null),
)
"""The columns of ``games`` besides ``tournament_id`` (and the ``rowid``, the game's id)."""

PLAYER_COLUMNS = (
    SqlColumn("seat", "seat"),
    SqlColumn("bot", "bot"),
    SqlColumn("score", "score"),
    SqlColumn("rank", "rank"),
    SqlColumn("status", "status"),
    SqlColumn("message", "message"),
    SqlColumn("latency", "latencies_ms", _blob, _floats),
    SqlColumn("near_limit", "near_limit"),
    SqlColumn("stderr", "stderr"),
    SqlColumn("refused", "refused"),
    SqlColumn("limit_use", "limit_use", LimitUse.dumps, LimitUse.loads),
    SqlColumn("overloaded", "overloaded", int, bool),
)
"""The columns of ``game_players`` besides ``tournament_id`` and the game's key."""

BOT_COLUMNS = (
    SqlColumn("name", "name"),
    SqlColumn("command", "command", _json_list, _json_tuple),
    SqlColumn("env", "env", json.dumps, json.loads),
    SqlColumn("source_hash", "source_hash"),
    SqlColumn("files", "files", _json_list, _json_tuple),
    SqlColumn("hash_scheme", "hash_scheme"),
    SqlColumn("state", "state"),
    SqlColumn("added", "added"),
    SqlColumn("frozen", "frozen", json_or_null, from_json_or_null),
    SqlColumn("version", "version"),
)
"""The columns of ``bots`` besides ``tournament_id``."""


def names(columns: Iterable[SqlColumn]) -> str:
    return ", ".join(c.name for c in columns)


def _marks(n: int) -> str:
    return ", ".join("?" * n)


INSERT_GAME = (
    f"INSERT OR IGNORE INTO games (tournament_id, {names(GAME_COLUMNS)}) VALUES ({_marks(1 + len(GAME_COLUMNS))})"
)
INSERT_PLAYER = (
    f"INSERT INTO game_players (tournament_id, {', '.join(KEY)}, {names(PLAYER_COLUMNS)})"
    f" VALUES ({_marks(1 + len(KEY) + len(PLAYER_COLUMNS))})"
)
INSERT_BOT = f"INSERT INTO bots (tournament_id, {names(BOT_COLUMNS)}) VALUES ({_marks(1 + len(BOT_COLUMNS))})"
