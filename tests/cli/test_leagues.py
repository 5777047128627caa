"""League levels through the arena: played by arena play and arena tournament (--league, a
config's league:), part of a game's identity (replays, the viewer's title, stored tournaments and
their reproduce commands), listed by arena games, and shipped bots refused outside their leagues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import referee
from arena.match.launch import botspec
from arena.match.launch.botspec import shipped_bots
from arena.match.replay import read_replay
from arena.view import build_page
from cli.arena import main

LEVELS = [(game, level) for game in ("spring2021", "fall2020") for level in range(1, referee.get(game).top_league + 1)]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def players_of(output: str) -> list[dict]:
    return list(json.loads(output.strip().splitlines()[-1])["players"])


@pytest.mark.parametrize("game,level", LEVELS)
def test_greedy_plays_every_league_to_the_end_with_no_refused_action(game: str, level: int, tmp_path: Path) -> None:
    replay = tmp_path / "r.json"
    code, out = run("play", game, "greedy", "greedy", "--league", str(level), "--seed", "7", "--json",
                    "--replay", str(replay), "--time-scale", "5")  # fmt: skip
    assert code == 0, out
    data = json.loads(out.strip().splitlines()[-1])
    assert data["end_reason"] != "interrupted"
    assert [(p["status"], p["refused"]) for p in data["players"]] == [("ok", 0), ("ok", 0)]
    top = level == referee.get(game).top_league
    assert (f"--league {level}" in out) != top  # the command that plays it again: the top league is the default
    document = read_replay(replay)
    assert document["params"] == ({} if top else {"league": str(level)})  # the replay says which rules were played
    assert referee.get(game).league_label(level) in build_page(document).split("<title>")[1].split("</title>")[0]


def test_a_league_is_named_or_numbered_and_refused_in_one_line_when_unknown() -> None:
    code, out = run("play", "fall2020", "greedy", "greedy", "--league", "Wood 1", "--seed", "3", "--json")
    assert code == 0, out
    assert "--league 2 " in out  # played again as asked: Wood 1 is league 2 of fall2020
    code, out = run("play", "fall2020", "greedy", "greedy", "--league", "diamond", "--seed", "3")
    assert code == 2
    assert "fall2020 has no league 'diamond': give a level 1 to 4 or a league name: wood 2 (1), wood 1 (2)" in out


def test_arena_games_lists_each_games_leagues() -> None:
    code, out = run("games")
    assert code == 0
    for game, level in LEVELS:
        assert referee.get(game).league_label(level) in out
    assert "league 4 (Silver, Gold, Legend): the default" in out


def test_a_tournament_at_one_league_refuses_to_resume_at_another(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    common = ("tournament", "fall2020", "greedy", "random", "--games", "2", "--workers", "1", "--no-progress")
    code, out = run(*common, "--league", "2")
    assert code == 0, out
    for other in (["--league", "3"], []):  # another level, or the default (the top one)
        code, out = run(*common, *other)
        assert code == 1, out
        (line,) = [x for x in out.splitlines() if x.strip()]
        assert line.startswith("Error: tournament 1 is played at league 2 (Wood 1), this run asks for league ")
        assert "pass --new to start a new tournament" in line
    code, out = run(*common, "--league", "wood 1", "--games", "4")  # the same level, named: resumed
    assert code == 0 and "resumed, 2 games already stored" in out, out
    code, out = run("matches", "show", "1")
    assert code == 0 and "--league 2" in out and ", league 2 (Wood 1)" in out, out


def test_every_shipped_bot_declares_its_leagues_and_each_league_has_one() -> None:
    for game in ("spring2021", "fall2020"):
        bots = shipped_bots(game)
        assert all("leagues" in entry for entry in bots.values()), game
        played = {level for entry in bots.values() for level in entry["leagues"]}
        assert played == set(range(1, referee.get(game).top_league + 1)), game


def test_a_shipped_bot_is_refused_outside_its_leagues(tmp_path: Path, monkeypatch) -> None:
    """A shipped bot that declares only the top league (in a bots file of the test's own: every
    bot of the repository plays every league) is refused, in one line, at a league it does not
    play, before the match (arena play) or the database (tournament)."""
    bots_file = tmp_path / "shipped.yaml"
    bots_file.write_text(
        "fall2020:\n  top:\n    path: bots/fall2020/random_bot.py\n    leagues: [3, 4]\n"
        "  random:\n    path: bots/fall2020/random_bot.py\n    leagues: [1, 2, 3, 4]\n"
    )
    monkeypatch.setattr(botspec, "BOTS_FILE", bots_file)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for command in (["play", "fall2020", "top", "random", "--seed", "1"], ["tournament", "fall2020", "top", "random"]):
        code, out = run(*command, "--league", "2")
        assert code in (1, 2), out
        (line,) = [x for x in out.splitlines() if x.startswith("Error")]
        assert "bot 'top' (shipped) plays fall2020 at league 3, 4 only, not at league 2" in line
        code, out = (
            run(*command, "--league", "3", "--games", "2")
            if command[0] == "tournament"
            else run(*command, "--league", "3")
        )
        assert code == 0, out
    # the league-3 run only: its database, and the bots' frozen versions beside it
    assert sorted(p.name for p in work.iterdir()) == ["arena.sqlite", "arena.sqlite-bots", "arena.sqlite.lock"]
