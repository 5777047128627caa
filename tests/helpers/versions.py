"""Bot versions for the tests of :mod:`arena.versions.registry` and ``arena versions``: tiny Spring
2021 bots written by the test, frozen for real (module tree, no bundler), and what the tests
expect of them, worked out from the files they wrote."""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
from pathlib import Path
from typing import Any

from arena.match.launch.botspec import resolve
from arena.store.records import BotRow, GameRecord, PlayerRecord
from arena.store.results import Store
from arena.versions.freeze import Frozen, freeze
from arena.versions.snapshot import store_for
from tests.helpers.spring_text_bots import write_spring_bot


def frozen_bot(folder: Path, db: Path, answer: str, file: str = "bot.py") -> Frozen:
    """``folder/file`` (written, or rewritten) answering ``answer``, frozen into the store of ``db``
    as its module tree."""
    folder.mkdir(parents=True, exist_ok=True)
    path = write_spring_bot(folder, file, answer)
    spec = resolve(str(path), "spring2021")
    return freeze(spec, store_for(db))


def manifest_sha(frozen: Frozen) -> str:
    """The SHA-256 of the snapshot's manifest, read from the file: the version's hash."""
    return hashlib.sha256((frozen.folder / "manifest.json").read_bytes()).hexdigest()


def snapshot_bytes(source: Path, frozen: Frozen) -> int:
    """What a one-file module-tree snapshot holds: its manifest and the bot's source."""
    return len((frozen.folder / "manifest.json").read_bytes()) + len(source.read_bytes())


def rows(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``db`` by plain SQL, read-only."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql, args).fetchall()


def snapshot_folders(db: Path) -> list[str]:
    """The snapshot folders (their hashes) in the store of ``db``."""
    store = store_for(db)
    return sorted(p.name for p in store.iterdir() if not p.name.startswith(".")) if store.is_dir() else []


def tournament_with(store: Store, bots: dict[str, int | None], settings: dict[str, Any] | None = None) -> int:
    """A tournament (a ladder, when ``settings`` say ``kind: ladder``) whose bots, by name, play
    the versions given (``None``: none)."""
    rows_ = [
        BotRow(name=name, command=("true",), env={}, source_hash="x", files=(), version=version)
        for name, version in bots.items()
    ]
    return store.create_tournament(
        "key", settings or {"game": "spring2021"}, 10, "spring2021:1", rows_, [(0, tuple(bots))]
    )


def game(comparison: int, pair: int, leg: int, players: dict[str, int]) -> GameRecord:
    """A finished game whose players (by bot name, in seat order) got the ranks given."""
    return GameRecord(
        comparison=comparison,
        pair=pair,
        leg=leg,
        seed=pair,
        players=tuple(
            PlayerRecord(seat=i, bot=bot, score=10 - rank, rank=rank, status="ok")
            for i, (bot, rank) in enumerate(players.items())
        ),
        winner=None,
        end_reason="turns",
        turns=1,
        duration_s=0.1,
    )


def renamed(frozen: Frozen, name: str) -> Frozen:
    """``frozen`` with its bot named ``name`` (the content, so the hash, is the same)."""
    return dataclasses.replace(frozen, spec=dataclasses.replace(frozen.spec, name=name))
