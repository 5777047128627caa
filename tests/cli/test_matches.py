"""Every stored game findable and reproducible: ``arena matches list|show``, ``arena tournaments``,
and replays kept by a tournament (``--replays DIR --keep``)."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.replay import read_replay
from cli.arena import main
from tests.helpers.escapes import SHOWN, assert_shown_escaped, escaping_bot
from tests.helpers.storage import crashing_bot

SHORT = ["--param", "MAX_ROUNDS=3", "--workers", "1", "--no-progress"]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_a_crash_is_found_explained_and_reproduced(tmp_path, monkeypatch):
    """Issue #14, acceptance 4."""
    monkeypatch.chdir(tmp_path)
    crashing_bot(tmp_path)
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", "crasher.py", "wait", "--games", "4", "--max-failures", "1", "--db", db, *SHORT)
    listed = json.loads(run("matches", "list", "--db", db, "--status", "crash", "--format", "json"))
    assert len(listed["games"]) == 4
    with sqlite3.connect(db) as conn:
        ids = sorted(i for (i,) in conn.execute("SELECT rowid FROM games"))
    assert sorted(g["id"] for g in listed["games"]) == ids
    table = run("matches", "list", "--db", db, "--status", "crash")
    assert table.startswith("tournament 1: 4 of 4 games")
    shown = run("matches", "show", str(ids[0]), "--db", db)
    assert "crash: no answer: the bot exited with code 1 (boom: no strategy)" in shown
    assert "    | about to fail" in shown and "    | boom: no strategy" in shown
    command = shown.splitlines()[-1].removeprefix("play it again with: ")
    words = shlex.split(command)
    assert words[:3] == ["cd", str(tmp_path), "&&"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = subprocess.run(
        command + " --json",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=elsewhere,
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
    )
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout.strip().splitlines()[-1])
    game = next(g for g in listed["games"] if g["id"] == ids[0])
    assert data["seed"] == game["seed"]
    assert [p["status"] for p in data["players"]] == [p["status"] for p in game["players"]]
    assert "boom: no strategy" in data["players"][[p["bot"] for p in game["players"]].index("crasher")]["message"]


def test_filters_by_bot_result_and_status(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", "greedy", "wait", "--games", "4", "--db", db, *SHORT)
    everything = json.loads(run("matches", "list", "--db", db, "--format", "json"))["games"]
    assert len(everything) == 4
    for result in ("win", "loss", "draw"):
        chosen = json.loads(
            run("matches", "list", "--db", db, "--bot", "greedy", "--result", result, "--format", "json")
        )["games"]
        expected = []
        for g in everything:  # worked out from the scores, the way a person would
            mine = next(p["score"] for p in g["players"] if p["bot"] == "greedy")
            other = next(p["score"] for p in g["players"] if p["bot"] != "greedy")
            outcome = "win" if mine > other else "loss" if mine < other else "draw"
            if outcome == result:
                expected.append(g["id"])
        assert [g["id"] for g in chosen] == expected
    assert json.loads(run("matches", "list", "--db", db, "--status", "crash", "--format", "json"))["games"] == []
    bad = CliRunner().invoke(main, ["matches", "list", "--db", db, "--result", "win"])
    assert bad.exit_code == 2 and "--bot" in bad.output
    unknown = CliRunner().invoke(main, ["matches", "list", "--db", db, "--bot", "nobody"])
    assert unknown.exit_code == 2 and "no bot 'nobody'" in unknown.output
    missing = CliRunner().invoke(main, ["matches", "show", "999", "--db", db])
    assert missing.exit_code == 1 and "no game 999" in missing.output


@pytest.mark.parametrize("keep", ["all", "failures", "losses", "1"])
def test_a_tournament_keeps_the_replays_asked_for(tmp_path, keep):
    """A round-robin of wait, greedy and a bot that always crashes: comparisons (wait, greedy),
    (wait, crasher), (greedy, crasher), 2 games each. Hand-worked: failures are the 4 games of the
    crasher; losses (of each comparison's first bot) can only be wait's against greedy, since
    the crasher loses every game it plays; 1 keeps the first game of each comparison."""
    crashing_bot(tmp_path)
    db = str(tmp_path / "r.sqlite")
    folder = tmp_path / "replays"
    run(
        "tournament",
        "spring2021",
        "wait",
        "greedy",
        str(tmp_path / "crasher.py"),
        "--format",
        "round-robin",
        "--games",
        "2",
        "--db",
        db,
        "--replays",
        str(folder),
        "--keep",
        keep,
        "--max-failures",
        "1",
        *SHORT,
    )
    games = json.loads(run("matches", "list", "--db", db, "--format", "json"))["games"]
    assert len(games) == 6
    kept = {(g["comparison"], g["pair"], g["leg"]) for g in games if g["replay"]}
    if keep == "all":
        expected = {(g["comparison"], g["pair"], g["leg"]) for g in games}
    elif keep == "failures":
        expected = {(c, 0, leg) for c in (1, 2) for leg in (0, 1)}
    elif keep == "losses":
        expected = {
            (0, g["pair"], g["leg"])
            for g in games
            if g["comparison"] == 0 and next(p for p in g["players"] if p["bot"] == "wait")["rank"] > 0
        }
    else:
        expected = {(c, 0, 0) for c in (0, 1, 2)}
    assert kept == expected
    for g in games:
        if not g["replay"]:
            continue
        path = Path(g["replay"])
        assert path.parent == folder and path.name == f"game{g['id']}-seed{g['seed']}.json"
        assert int(read_replay(path)["seed"]) == g["seed"]
    assert sorted(p.name for p in folder.iterdir()) == sorted(Path(g["replay"]).name for g in games if g["replay"])


def test_a_bad_keep_or_replay_folder_is_refused_before_anything(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args, message in (
        (["--replays", "r", "--keep", "some"], "keep: 'some'"),
        (["--keep", "all"], "give the folder too"),
        (["--replays", "no/such/r"], "does not exist"),
    ):
        result = CliRunner().invoke(main, ["tournament", "spring2021", "wait", "wait", "--games", "2", *args])
        assert result.exit_code == 2 and message in result.output, result.output
        assert list(tmp_path.iterdir()) == []


def test_tournaments_are_listed(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", "greedy", "wait", "--games", "2", "--db", db, *SHORT)
    run("tournament", "spring2021", "wait", "random", "--games", "2", "--db", db, *SHORT)
    data = json.loads(run("tournaments", "--db", db, "--format", "json"))
    assert [(t["id"], t["bots"], t["games_stored"], t["status"]) for t in data] == [
        (1, ["greedy", "wait"], 2, "finished"),
        (2, ["wait", "random"], 2, "finished"),
    ]
    table = run("tournaments", "--db", db).splitlines()
    assert len(table) == 2 and "greedy, wait" in table[0] and "wait, random" in table[1]


def test_play_and_show_open_the_viewer(tmp_path):
    """--view after a match and for a kept tournament replay (pages written, browser not opened)."""
    replay = tmp_path / "game.json"
    result = CliRunner().invoke(
        main,
        [
            "play",
            "spring2021",
            "wait",
            "random",
            "--seed",
            "4",
            "--param",
            "MAX_ROUNDS=2",
            "--replay",
            str(replay),
            "--view",
            "--no-open",
        ],
    )
    assert result.exit_code == 0, result.output
    page = tmp_path / "game.html"
    assert f"replay viewer: {page}" in result.output
    text = page.read_text(encoding="utf-8")
    assert "cgView" in text and "http://" not in text.replace("http://www.w3.org", "")
    crashing_bot(tmp_path)
    db = str(tmp_path / "r.sqlite")
    run(
        "tournament",
        "spring2021",
        str(tmp_path / "crasher.py"),
        "wait",
        "--games",
        "2",
        "--db",
        db,
        "--replays",
        str(tmp_path / "kept"),
        "--max-failures",
        "1",
        *SHORT,
    )
    shown = run("matches", "show", "1", "--db", db, "--view", "--no-open")
    assert (tmp_path / "kept" / "game1-seed").parent.is_dir()
    pages = list((tmp_path / "kept").glob("game1-seed*.html"))
    assert len(pages) == 1 and f"replay viewer: {pages[0]}" in shown
    run("tournament", "spring2021", "wait", "random", "--games", "2", "--db", str(tmp_path / "n.sqlite"), *SHORT)
    # #43 point 7: no replay kept: the game is played again, its replay kept in the database's own
    # replays folder (never in a bot's folder), noted with the game, and viewed
    again = CliRunner().invoke(
        main, ["matches", "show", "1", "--db", str(tmp_path / "n.sqlite"), "--view", "--no-open"]
    )
    assert again.exit_code == 0, again.output
    (kept,) = (tmp_path / "n.sqlite-replays").glob("game1-seed*.json")
    assert (
        f"no replay was kept of game 1: played it again (its bots' versions, seed and settings) into {kept}"
        in again.output
    )
    assert f"replay viewer: {kept.with_suffix('.html')}" in again.output
    listed = json.loads(run("matches", "list", "--db", str(tmp_path / "n.sqlite"), "--format", "json"))["games"]
    assert listed[0]["replay"] == str(kept) and read_replay(kept)["seed"] == str(listed[0]["seed"])


def test_a_bots_escape_sequences_are_shown_escaped(tmp_path):
    """Issue #31, point 8: a stored game's verdict quoting a real bot's answer, and the tail of its
    stderr, are printed with their control characters escaped (stored as they came)."""
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", f"evil={escaping_bot('escinvalid')}", "wait", "--games", "1", "--db", db, *SHORT)
    game_id = json.loads(run("matches", "list", "--db", db, "--format", "json"))["games"][0]["id"]
    stored = json.loads(run("matches", "show", str(game_id), "--db", db, "--format", "json"))
    evil = next(p for p in stored["players"] if p["bot"] == "evil")
    assert "\x1b]52;c;" in evil["stderr"] and "\x1b]52;c;" in evil["message"]  # stored as the bot wrote them
    shown = subprocess.run(
        [sys.executable, "-m", "cli", "matches", "show", str(game_id), "--db", db], capture_output=True, timeout=120
    )
    assert shown.returncode == 0, shown.stderr
    text = assert_shown_escaped(shown.stdout + shown.stderr, 3)
    assert (
        f"invalid: Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got 'JUMP {SHOWN}'"
        in text
    )
    assert f"    | evil {SHOWN} line\n    | second {SHOWN}\n" in text
