"""A competitor's week with one life per bot version (#43's acceptance): a new bot, a tournament
against greedy, an edit, a tournament of the edit against the previous version by its stored name
(no --new, no copy of a folder), a ladder of both versions and greedy, a lost ladder game looked at
from ``arena matches show`` (its replay in the database's replays folder, none in a bot's folder),
and the ladder running on. On f515562 the second tournament is refused (``bot 'mybot' changed
since tournament 1 started ... pass --new``), ``mybot@prev`` names no bot, and the replay of the
lost game is played again into the frozen bot's folder, which stops the next ladder run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.arena import main

SHORT = ["--workers", "1", "--sandbox", "off", "--time-scale", "4"]
"""One game at a time (this machine may have two cores), generous limits: no timing in the figures."""


def arena(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def versions() -> list[tuple[str, int]]:
    with sqlite3.connect("arena.sqlite") as db:
        return db.execute("SELECT name, number FROM versions ORDER BY name, number").fetchall()


def folder_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_a_week_of_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    arena("new", "spring2021", "mybot")
    first = arena("tournament", "spring2021", "mybot", "greedy", "--games", "2", "--no-progress", *SHORT)
    assert "tournament 1 (new)" in first.output
    assert versions() == [("greedy", 1), ("mybot", 1)]

    strategy = tmp_path / "mybot" / "strategy.py"  # the edit: the dearest action instead of the cheapest
    strategy.write_text(strategy.read_text().replace("price < best_cost", "price > best_cost"))
    source_before = folder_files(tmp_path / "mybot")
    edit = arena("tournament", "spring2021", "mybot", "mybot@prev", "--games", "2", "--no-progress", *SHORT)
    assert "tournament 2 (new)" in edit.output and "--new" not in edit.output
    assert "mybot vs mybot@1" in edit.output  # the edit (mybot@2) against the previous version, by its name
    assert versions() == [("greedy", 1), ("mybot", 1), ("mybot", 2)]
    assert folder_files(tmp_path / "mybot") == source_before  # nothing copied by hand, nothing written there

    arena("ladder", "init", "spring2021", "--sandbox", "off", "--time-scale", "4")
    for bot in ("mybot@1", "mybot@2", "greedy"):
        arena("ladder", "add", bot)
    arena("ladder", "run", "--games", "8", "--no-progress", "--workers", "1")
    listed = json.loads(arena("matches", "list", "--ladder", "3", "--format", "json").output)["games"]
    lost = next(g for g in listed if any(p["bot"].startswith("mybot@") and p["rank"] > 0 for p in g["players"]))
    store = tmp_path / "arena.sqlite-bots"
    frozen_before = folder_files(store)
    shown = arena("matches", "show", str(lost["id"]), "--view", "--no-open")
    assert "arena play spring2021 " in shown.output and " --db arena.sqlite" in shown.output  # by versions
    (replay,) = (tmp_path / "arena.sqlite-replays").glob(f"game{lost['id']}-seed*.json")
    assert f"replay viewer: {replay.with_suffix('.html')}" in shown.output
    assert folder_files(store) == frozen_before  # no replay, no page in a frozen bot's folder

    on = arena("ladder", "run", "--games", "2", "--no-progress", "--workers", "1")
    assert "2 games played" in on.output
    assert versions() == [("greedy", 1), ("mybot", 1), ("mybot", 2)]  # the ladder's bots are the same versions
