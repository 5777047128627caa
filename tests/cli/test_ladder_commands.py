"""The ``arena ladder`` commands one by one: what each refuses (one line, nothing written), what
retire, remove, activate and rename change, what show prints in each format, and how the other
commands (matches, results, tournaments) see a ladder."""

from __future__ import annotations

import json
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import referee
from cli.arena import main
from cli.report import LADDER_CSV_COLUMNS
from tests.helpers.paths import SHIPPED_BOTS

GREEDY = SHIPPED_BOTS / "spring2021" / "greedy_bot.py"
JSON_KEYS = {
    "format",
    "ladder",
    "game",
    "league",
    "settings",
    "games_stored",
    "games_counted",
    "where",
    "facts",
    "model",
    "ranking",
    "cross",
    "bots",
    "recent_picks",
}
"""The keys of ``arena ladder show --format json``, as docs/how-to/ladder.md documents them."""


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def ok(*args: str) -> Result:
    result = arena(*args)
    assert result.exit_code == 0, (args, result.output)
    return result


def refused(*args: str, says: str) -> str:
    result = arena(*args)
    assert result.exit_code != 0, result.output
    assert says in result.output, result.output
    assert "Traceback" not in result.output
    return result.output


def count(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute(sql).fetchone()[0])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Spring 2021 ladder of three bots (a user's greedy copy, random, wait) with 30 games."""
    folder = tmp_path_factory.mktemp("ladder")
    shutil.copy(GREEDY, folder / "mine.py")
    db = str(folder / "l.sqlite")
    ok("ladder", "init", "spring2021", "--db", db)
    ok("ladder", "add", "first", str(folder / "mine.py"), "--db", db)
    ok("ladder", "add", "rnd", "random", "--db", db)
    ok("ladder", "add", "wt", "wait", "--db", db)
    ok("ladder", "run", "--games", "30", "--workers", "2", "--no-progress", "--db", db)
    return folder


@pytest.fixture()
def copy(played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The played ladder copied (database and frozen bots), the working directory in it."""
    for name in ("l.sqlite", "l.sqlite-bots", "mine.py"):
        source = played / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    yield tmp_path / "l.sqlite"


def show(db: Path, *extra: str) -> dict:
    return json.loads(ok("ladder", "show", "--format", "json", "--db", str(db), *extra).output)


# -- init ------------------------------------------------------------------------------------------


def test_init_refuses_a_second_ladder_unless_asked_and_bad_settings(copy: Path) -> None:
    refused("ladder", "init", "spring2021", "--db", str(copy), says="already holds ladder 1 (spring2021)")
    refused("ladder", "init", "chess", "--db", "new.sqlite", says="chess")
    refused("ladder", "init", "spring2021", "--league", "7", "--db", "new.sqlite", says="league")
    refused("ladder", "init", "spring2021", "--time-scale", "-1", "--db", "new.sqlite", says="time_scale")
    assert not Path("new.sqlite").exists()  # nothing made by a refused command
    made = ok("ladder", "init", "fall2020", "--league", "wood 1", "--new", "--db", str(copy))
    assert "ladder 2 (fall2020, league 2 (Wood 1))" in made.output


# -- add -------------------------------------------------------------------------------------------


def test_add_refuses_a_name_taken_a_bad_name_and_a_bot_that_fails_its_self_play(copy: Path) -> None:
    db = str(copy)
    bots = count(copy, "SELECT COUNT(*) FROM bots")
    refused("ladder", "add", "rnd", "wait", "--db", db, says="already has a bot named 'rnd'")
    refused("ladder", "add", "a b", "wait", "--db", db, says="cannot name a bot")
    refused("ladder", "add", "x", "no_such_bot.py", "--db", db, says="bot 'x'")
    Path("crash.py").write_text("import sys\ninput()\nsys.exit('this bot crashes')\n")
    says = refused("ladder", "add", "crasher", "crash.py", "--db", db, says="bot 'crasher' is not added")
    assert "crash" in says and "this bot crashes" in says and len(says.strip().splitlines()) == 1
    Path("silent.py").write_text("import time\nwhile True:\n    time.sleep(1)\n")
    refused("ladder", "add", "silent", "silent.py", "--db", db, says="timeout")
    assert count(copy, "SELECT COUNT(*) FROM bots") == bots


def test_a_bare_command_is_kept_as_given_with_a_warning(copy: Path) -> None:
    Path("waitmod.py").write_text((SHIPPED_BOTS / "spring2021" / "wait_bot.py").read_text())
    result = ok("ladder", "add", "cmd", f"{shlex.quote(sys.executable)} -m waitmod", "--db", str(copy))
    assert "warning: bot 'cmd' cannot be frozen" in result.output
    assert "added cmd" in result.output


# -- run -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--time-scale", "2"), "time scale 1 (this run: time scale 2)"),
        (("--league", "1"), "league 3 (Bronze, Silver, Gold, Legend) (this run: league 1 (Wood 2))"),
        (("--sandbox", "off"), "sandbox auto (this run: sandbox off)"),
        (("--param", "MAX_ROUNDS=5"), "parameters none (this run: parameters MAX_ROUNDS=5)"),
    ],
)
def test_run_refuses_settings_other_than_the_ladder_s_naming_the_difference(
    copy: Path, flags: tuple[str, ...], named: str
) -> None:
    games = count(copy, "SELECT COUNT(*) FROM games")
    says = refused("ladder", "run", "--games", "2", *flags, "--db", str(copy), says=named)
    assert len(says.strip().splitlines()) == 1
    assert count(copy, "SELECT COUNT(*) FROM games") == games
    ok("ladder", "run", "--games", "2", "--time-scale", "1", "--db", str(copy), "--no-progress")  # the same: fine


def test_a_run_needs_two_active_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ok("ladder", "init", "spring2021")
    ok("ladder", "add", "w", "wait")
    refused("ladder", "run", "--games", "2", says="has 1 active bot: a game needs 2")
    refused("ladder", "show", "--ladder", "5", says="ladder 5 is not there")


# -- retire, remove, activate, rename --------------------------------------------------------------


def test_a_retired_bot_plays_no_more_and_stays_ranked(copy: Path) -> None:
    db = str(copy)
    before = {r["bot"]: r["games"] for r in show(copy)["ranking"]}
    assert "wt is retired" in ok("ladder", "retire", "wt", "--db", db).output
    refused("ladder", "retire", "wt", "--db", db, says="is retired already")
    ok("ladder", "run", "--games", "6", "--no-progress", "--db", db)
    after = show(copy)
    games = {r["bot"]: r["games"] for r in after["ranking"]}
    assert games["wt"] == before["wt"] and games["first"] + games["rnd"] == before["first"] + before["rnd"] + 12
    assert {r["bot"]: r["state"] for r in after["ranking"]}["wt"] == "retired"
    ok("ladder", "retire", "rnd", "--db", db)
    refused("ladder", "run", "--games", "2", "--db", db, says="has 1 active bot")
    ok("ladder", "activate", "wt", "--db", db)
    ok("ladder", "run", "--games", "2", "--no-progress", "--db", db)
    assert {r["bot"]: r["games"] for r in show(copy)["ranking"]}["wt"] == before["wt"] + 2


def test_a_removed_bot_leaves_the_ranking_and_its_games_stay(copy: Path) -> None:
    db = str(copy)
    stored = count(copy, "SELECT COUNT(*) FROM games")
    with_wt = count(copy, "SELECT COUNT(*) FROM game_players WHERE bot = 'wt'")
    ok("ladder", "remove", "wt", "--db", db)
    data = show(copy)
    assert sorted(r["bot"] for r in data["ranking"]) == ["first", "rnd"]
    assert data["games_stored"] == stored and data["games_counted"] == stored - with_wt
    assert all("wt" not in (c["bot"], c["against"]) for c in data["cross"])
    listed = json.loads(ok("matches", "list", "--ladder", "1", "--bot", "wt", "--format", "json", "--db", db).output)
    assert len(listed["games"]) == with_wt  # kept for audit


def test_rename_reaches_the_games_and_refuses_a_taken_name(copy: Path) -> None:
    db = str(copy)
    refused("ladder", "rename", "wt", "rnd", "--db", db, says="already has a bot named 'rnd'")
    refused("ladder", "rename", "nobody", "x", "--db", db, says="has no bot 'nobody'")
    refused("ladder", "retire", "frist", "--db", db, says="(bots: first, rnd, wt); did you mean first?")
    games = count(copy, "SELECT COUNT(*) FROM game_players WHERE bot = 'wt'")
    ok("ladder", "rename", "wt", "waiter", "--db", db)
    assert count(copy, "SELECT COUNT(*) FROM game_players WHERE bot = 'waiter'") == games
    assert count(copy, "SELECT COUNT(*) FROM game_players WHERE bot = 'wt'") == 0
    assert "waiter" in {r["bot"] for r in show(copy)["ranking"]}
    ok("ladder", "run", "--games", "2", "--no-progress", "--db", db)  # the frozen version plays under its new name


# -- show ------------------------------------------------------------------------------------------


def test_show_json_has_the_documented_keys_and_says_why_each_pair_was_picked(copy: Path) -> None:
    data = show(copy)
    assert set(data) == JSON_KEYS and data["format"] == 1
    assert data["game"] == "spring2021" and data["league"] == referee.get("spring2021").top_league
    assert set(data["ranking"][0]) == {"rank", "bot", "state", "rating", "low", "high", "games", "score", "above_next"}
    assert [r["rank"] for r in data["ranking"]] == [1, 2, 3]
    assert data["ranking"][-1]["above_next"] is None
    assert all(r["low"] <= r["rating"] <= r["high"] for r in data["ranking"])
    picks = data["recent_picks"]
    assert len(picks) == 10 and all(p["reason"] and len(p["bots"]) == 2 and p["games"] == 2 for p in picks)
    assert any("placement" in p["reason"] for p in show(copy, "--recent", "100")["recent_picks"])
    assert data["facts"] == ["holes", "rich_cells", "richness"]


def test_show_where_counts_the_games_whose_map_matches(copy: Path) -> None:
    with sqlite3.connect(copy) as con:
        metas = [json.loads(m) for (m,) in con.execute("SELECT meta FROM games")]
    holed = sum(1 for m in metas if m["holes"] >= 2)
    assert 0 < holed < len(metas), "every map alike: the filter would prove nothing"
    data = show(copy, "--where", "holes>=2")
    assert data["games_counted"] == holed and data["where"] == ["holes>=2"]
    assert sum(r["games"] for r in data["ranking"]) == 2 * holed
    refused("ladder", "show", "--where", "trees>1", "--db", str(copy), says="the games do not give 'trees'")
    refused("ladder", "show", "--where", "holes", "--db", str(copy), says="expected NAME OP VALUE")


def test_show_table_and_csv_agree_with_the_json(copy: Path) -> None:
    data = show(copy)
    table = ok("ladder", "show", "--db", str(copy)).output
    assert "cross-table" in table and "recent picks" in table
    for r in data["ranking"]:
        assert f" {r['bot']} " in table or f" {r['bot']}\n" in table
    lines = ok("ladder", "show", "--format", "csv", "--db", str(copy)).output.splitlines()
    assert tuple(lines[0].split(",")) == LADDER_CSV_COLUMNS
    assert [line.split(",")[1] for line in lines[1:]] == [r["bot"] for r in data["ranking"]]
    most = max(r["games"] for r in data["ranking"])
    few = show(copy, "--min-games", str(most))
    assert [r["bot"] for r in few["ranking"]] == [r["bot"] for r in data["ranking"] if r["games"] == most]


# -- the other commands ----------------------------------------------------------------------------


def test_matches_show_plays_a_ladder_game_again_with_the_frozen_bots(copy: Path) -> None:
    first = json.loads(ok("matches", "list", "--ladder", "1", "--format", "json", "--db", str(copy)).output)["games"][0]
    shown_game = json.loads(ok("matches", "show", str(first["id"]), "--format", "json", "--db", str(copy)).output)
    command = shown_game["command"]
    seats = " ".join(f"{p['bot']}={p['bot']}@1" for p in first["players"])  # the versions that played it (#43)
    assert command.startswith(f"arena play spring2021 {seats} --seed {first['seed']} ") and f"--db {copy}" in command
    words = shlex.split(command)
    assert words[:2] == ["arena", "play"], command  # nothing to change folder or environment first
    python = [sys.executable, "-c", "import sys; from cli.arena import main; sys.exit(main())"]
    again = subprocess.run([*python, *words[1:], "--json"], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    replayed = json.loads(again.stdout.strip().splitlines()[-1])
    assert replayed["scores"] == [p["score"] for p in first["players"]]


def test_results_refuses_a_ladder_and_tournaments_lists_it(copy: Path) -> None:
    refused("results", "--tournament", "1", "--db", str(copy), says="1 is a ladder, not a tournament")
    refused("results", "--db", str(copy), says="no tournament")
    listed = ok("tournaments", "--db", str(copy)).output
    assert "ladder" in listed and "first, rnd, wt" in listed
    refused("matches", "list", "--ladder", "9", "--db", str(copy), says="ladder 9 is not there")


def test_kept_replays_of_ladder_games_open_in_the_viewer(copy: Path) -> None:
    db = str(copy)
    refused("ladder", "run", "--keep", "all", "--db", db, says="give the folder too (replays: DIR, --replays DIR)")
    ok("ladder", "run", "--games", "2", "--replays", "reps", "--keep", "all", "--no-progress", "--db", db)
    games = json.loads(ok("matches", "list", "--ladder", "1", "--format", "json", "--db", db).output)["games"]
    kept = [g for g in games if g["replay"]]
    assert len(kept) == 2 and all(Path(g["replay"]).parent == Path("reps").resolve() for g in kept)
    viewed = ok("matches", "show", str(kept[0]["id"]), "--view", "--no-open", "--db", db)
    page = Path(kept[0]["replay"]).with_suffix(".html")
    assert f"replay viewer: {page}" in viewed.output and page.stat().st_size > 0


def test_keep_losses_keeps_the_games_the_newer_bot_of_the_two_did_not_win(copy: Path) -> None:
    db = str(copy)
    before = {
        g["id"]
        for g in json.loads(ok("matches", "list", "--ladder", "1", "--format", "json", "--db", db).output)["games"]
    }
    ok("ladder", "run", "--games", "12", "--replays", "reps", "--keep", "losses", "--no-progress", "--db", db)
    games = json.loads(ok("matches", "list", "--ladder", "1", "--format", "json", "--db", db).output)["games"]
    played = [g for g in games if g["id"] not in before]
    joined = {"first": 0, "rnd": 1, "wt": 2}  # the order they were added: the later one is the newer bot
    newer_lost = set()
    for g in played:
        newer = max(g["players"], key=lambda p: joined[p["bot"]])
        if newer["rank"] > 0:
            newer_lost.add(g["id"])
    assert len(played) == 12 and 0 < len(newer_lost) < 12  # a mix: some won, some lost
    assert {g["id"] for g in played if g["replay"]} == newer_lost
    kept = sorted(p.name for p in Path("reps").iterdir())
    assert kept == sorted(f"game{g['id']}-seed{g['seed']}.json" for g in played if g["id"] in newer_lost)


def test_a_database_that_is_not_there_is_named_with_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for command in (("add", "x", "wait"), ("run",), ("show",), ("retire", "x"), ("rename", "x", "y")):
        refused("ladder", *command, "--db", "none.sqlite", says="none.sqlite: no results database here: make a ladder")
    assert not Path("none.sqlite").exists()
