"""The store's declared columns against the database's real schema, a game's round trip through
SQLite, and a kept replay written in the same transaction as its game."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from arena.store.records import BotRow, BotState, GameRecord, PickRow, PlayerRecord
from arena.store.results import GAME_COLUMNS, PLAYER_COLUMNS, Store, StoreError


def _store(tmp_path: Path) -> tuple[Store, int]:
    store = Store(tmp_path / "t.sqlite")
    bots = [BotRow(name=n, command=("x",), env={}, source_hash="h", files=()) for n in ("a", "b")]
    tid = store.create_tournament("key", {"game": "spring2021"}, 2, "v", bots, [(0, ("a", "b"))])
    return store, tid


def _game(pair: int = 0, *, sandboxed: bool | None = True, text: str | None = None) -> GameRecord:
    players = (
        PlayerRecord(0, "a", 12, 0, "ok", "", [1.5, 2.25], 1, "", 3),
        PlayerRecord(1, "b", 7, 1, "timeout", "no answer", [], 0, "tail\n", None),
    )
    return GameRecord(0, pair, 0, -42, players, 0, "turns", 24, 1.25, "v1", 1000.0, None, sandboxed, "tcp://w:1",
                      replay_text=text)  # fmt: skip


def test_the_declared_columns_are_every_column_of_the_schema(tmp_path: Path) -> None:
    store, _ = _store(tmp_path)
    store.close()
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        games = [r[1] for r in db.execute("PRAGMA table_info(games)")]
        players = [r[1] for r in db.execute("PRAGMA table_info(game_players)")]
    assert sorted(games) == sorted(["tournament_id", *(c.name for c in GAME_COLUMNS)])
    key = ["tournament_id", "comparison", "pair", "leg"]
    assert sorted(players) == sorted([*key, *(c.name for c in PLAYER_COLUMNS)])


@pytest.mark.parametrize("sandboxed", [True, False, None])
def test_a_game_comes_back_as_it_was_stored(tmp_path: Path, sandboxed: bool | None) -> None:
    store, tid = _store(tmp_path)
    game = _game(sandboxed=sandboxed)
    game_id = store.record_game(tid, game)
    assert game_id is not None and store.record_game(tid, game) is None  # a game is stored once
    (back,) = store.games(tid)
    assert back == game and back.id == game_id and back.worker == "tcp://w:1"
    assert list(back.players[0].latencies_ms) == [1.5, 2.25] and back.players[1].refused is None
    assert store.game(game_id) == (tid, back)


def test_a_kept_replay_is_written_under_its_final_name_with_its_game(tmp_path: Path) -> None:
    store, tid = _store(tmp_path)
    seen: list[int] = []

    def keep(game_id: int, record: GameRecord) -> str:
        seen.append(game_id)
        path = tmp_path / f"game{game_id}-seed{record.seed}.json"
        path.write_text(record.replay_text or "")
        return str(path)

    game_id = store.record_game(tid, _game(text='{"a":1}'), keep)
    assert seen == [game_id]
    (back,) = store.games(tid)
    assert back.replay == str(tmp_path / f"game{game_id}-seed-42.json")
    assert Path(back.replay).read_text() == '{"a":1}'
    assert back.replay_text is None  # the text itself is never stored


def test_a_replay_that_cannot_be_written_stores_nothing(tmp_path: Path) -> None:
    store, tid = _store(tmp_path)

    def fail(game_id: int, record: GameRecord) -> str:
        raise OSError(28, "No space left on device", str(tmp_path / "r.json"))

    with pytest.raises(OSError):
        store.record_game(tid, _game(text="{}"), fail)
    assert store.games(tid) == [] and store.count_games(tid) == 0
    assert store.record_game(tid, _game(text="{}")) is not None  # the game is stored when played again


def test_a_failed_commit_removes_the_replay_it_wrote(tmp_path: Path) -> None:
    store, tid = _store(tmp_path)
    path = tmp_path / "kept.json"

    def keep_then_break(game_id: int, record: GameRecord) -> str:
        path.write_text("{}")
        # the UPDATE that stores the path fails, as a full disk would make it fail
        store._db.execute(
            "CREATE TEMP TRIGGER refuse BEFORE UPDATE ON games BEGIN SELECT RAISE(FAIL, 'disk full'); END"
        )
        return str(path)

    with pytest.raises(StoreError):
        store.record_game(tid, _game(text="{}"), keep_then_break)
    assert not path.exists()
    assert store.count_games(tid) == 0


@pytest.mark.parametrize("meta", [{"holes": 2, "first_orders": "76,64"}, None])
def test_a_game_s_facts_come_back_as_stored(tmp_path: Path, meta: dict | None) -> None:
    store, tid = _store(tmp_path)
    game = dataclasses.replace(_game(), meta=meta)
    store.record_game(tid, game)
    (back,) = store.games(tid)
    assert back.meta == meta


def test_a_ladder_s_bots_come_and_go_and_a_rename_reaches_their_games(tmp_path: Path) -> None:
    store, tid = _store(tmp_path)
    store.add_bot(tid, BotRow("c", ("y",), {}, "h2", ("f",), state="active", added=5.0, frozen={"hash": "h2"}))
    store.add_comparison(tid, 1, ("a", "c"))
    store.record_game(tid, _game())
    store.set_bot_state(tid, "b", BotState.RETIRED)
    store.rename_bot(tid, "a", "a2")
    bots = {b.name: b for b in store.bots(tid)}
    assert [b.name for b in store.bots(tid)] == ["a2", "b", "c"]  # the order they joined
    assert bots["b"].state == "retired" and bots["a2"].state == "active"
    assert bots["c"].added == 5.0 and bots["c"].frozen == {"hash": "h2"} and bots["a2"].frozen is None
    assert [c.bots for c in store.comparisons(tid)] == [("a2", "b"), ("a2", "c")]
    assert store.games(tid)[0].seats == ("a2", "b")


def test_picks_are_kept_once_and_listed_latest_first(tmp_path: Path) -> None:
    store, tid = _store(tmp_path)
    store.add_pick(tid, PickRow(0, 0, "first", 1.0))
    store.add_pick(tid, PickRow(0, 1, "second", 2.0))
    store.add_pick(tid, PickRow(0, 0, "again", 3.0))  # the pick of a pair is noted once
    assert store.picks(tid) == [PickRow(0, 1, "second", 2.0), PickRow(0, 0, "first", 1.0)]
    assert store.picks(tid, limit=1) == [PickRow(0, 1, "second", 2.0)]
