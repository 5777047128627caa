"""``arena matches list --format seeds`` (issue #34, point 17): the seeds of the listed games, in
the form ``--seeds`` takes, to play those maps again."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.arena import main

SHORT = ["--param", "MAX_ROUNDS=3", "--workers", "1", "--no-progress"]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_seeds_of_the_listed_games_feed_a_new_tournament(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", "greedy", "random", "--games", "6", "--db", db, *SHORT)
    games = json.loads(run("matches", "list", "--db", db, "--format", "json"))["games"]
    assert len(games) == 6
    expected: list[int] = []
    for g in games:  # each map once, though each was played once per seat
        if g["seed"] not in expected:
            expected.append(g["seed"])
    assert len(expected) == 3
    printed = run("matches", "list", "--db", db, "--format", "seeds")
    assert printed == ",".join(map(str, expected)) + "\n"
    # what it printed, given to --seeds: the same maps, played again
    run("tournament", "spring2021", "greedy", "random", "--seeds", printed.strip(), "--new", "--db", db, *SHORT)
    again = json.loads(run("matches", "list", "--db", db, "--tournament", "2", "--format", "json"))["games"]
    assert sorted({g["seed"] for g in again}) == sorted(expected)
    # and as a file
    listed = tmp_path / "seeds.txt"
    listed.write_text(printed)
    run("tournament", "spring2021", "greedy", "random", "--seeds", str(listed), "--new", "--db", db, *SHORT)
    third = json.loads(run("matches", "list", "--db", db, "--tournament", "3", "--format", "json"))["games"]
    assert sorted({g["seed"] for g in third}) == sorted(expected)


def test_no_game_listed_is_one_line_error(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run("tournament", "spring2021", "greedy", "wait", "--games", "2", "--db", db, *SHORT)
    result = CliRunner().invoke(main, ["matches", "list", "--db", db, "--status", "crash", "--format", "seeds"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: no game of tournament 1 matches these filters: no seeds to print"
    ]
