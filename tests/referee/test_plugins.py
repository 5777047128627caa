"""A game from another package, found through the ``cgarena.games`` entry point, goes through
every layer: the registry, the match loop (three players, two lines a turn for player 0, a player
eliminated mid-game), ``arena play`` and its replay, ``arena tournament`` (round-robin, openskill)
and ``arena results``.

Expected games come from :func:`simulate`, a second, plain implementation of the rules in
``tests/fixtures/plugin_game/README.md`` and of the test bots' policies."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import referee
from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import BotSpec
from arena.match.replay import read_replay
from cli.arena import main
from referee.javarandom import JavaRandom
from tests.helpers.plugins import PLUGIN_SOURCE, bot, write_distribution

Policy = Callable[[list[int], int, int], str]
"""(field values, unit, turn) -> the unit's line."""


def _ranked(values: list[int]) -> list[int]:
    return sorted(range(len(values)), key=lambda i: (-values[i], i))


POLICIES: dict[str, Policy] = {
    "greedy": lambda values, unit, turn: f"TAKE {_ranked(values)[unit]}",
    "second": lambda values, unit, turn: f"TAKE {_ranked(values)[unit + 1]}",
    "waiter": lambda values, unit, turn: "WAIT",
    "dancer": lambda values, unit, turn: "WAIT" if turn < 3 else "DANCE",
}


def simulate(seed: int, names: tuple[str, str, str], turns: int = 8) -> tuple[list[int], dict[int, int]]:
    """Final scores, and the turn each player left the game on (eliminated or disqualified)."""
    rng = JavaRandom(seed)
    scores, units, out = [0, 0, 0], (2, 1, 1), {}
    for turn in range(1, turns + 1):
        values = [rng.next_int(9) + 1 for _ in range(5)]
        claims: dict[int, list[int]] = {}
        for p in range(3):
            if p in out:
                continue
            lines = [POLICIES[names[p]](values, u, turn) for u in range(units[p])]
            if any(line not in ("WAIT",) and not line.startswith("TAKE ") for line in lines):
                out[p], scores[p] = turn, -1
                continue
            for line in lines:
                if line.startswith("TAKE "):
                    claims.setdefault(int(line[5:]), []).append(p)
        for field, owners in claims.items():
            if len(owners) == 1:
                scores[owners[0]] += values[field]
        if turn == 4 and not out:
            lowest = min(range(3), key=lambda p: (scores[p], -p))
            out[lowest], scores[lowest] = turn, -1
        if len(out) >= 2:
            break
    return scores, out


def specs(*names: str) -> list[BotSpec]:
    return [BotSpec(name, (sys.executable, "-u", bot(name))) for name in names]


# -- registry --------------------------------------------------------------------------------------


def test_the_entry_point_registers_the_game(fields_installed: dict[str, str]) -> None:
    assert "fields" in referee.names()
    cls = referee.get("Field-Game")  # by its class's alias, any case
    assert cls.name == "fields" and cls.player_count == 3
    assert referee.aliases()["field-game"] == "fields"


def test_without_the_plugin_the_game_is_unknown() -> None:
    with pytest.raises(referee.UnknownGame, match="unknown game 'fields'"):
        referee.get("fields")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("nowhere = no_such_module.referee:Game", r"game plugin 'nowhere' .* failed to load: ModuleNotFoundError"),
        ("notref = json:JSONDecoder", r"game plugin 'notref' .* is not a referee.Referee subclass"),
        ("renamed = cgarena_fields.referee:FieldsReferee", r"names the game 'fields'; the entry point's name"),
    ],
)
def test_a_broken_plugin_is_named_in_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str, message: str
) -> None:
    monkeypatch.syspath_prepend(str(PLUGIN_SOURCE))
    monkeypatch.syspath_prepend(str(write_distribution(tmp_path, f"[cgarena.games]\n{entry}\n", "broken")))
    name = entry.split(" = ")[0]
    assert name in referee.names()
    with pytest.raises(referee.PluginError, match=message):
        referee.get(name)
    assert referee.get("spring2021").name == "spring2021"  # the others still work


def test_a_plugin_installed_or_removed_in_a_folder_already_searched_is_seen_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up is kept between calls (a tournament looks the game up for every match), yet
    a distribution added to, or removed from, a folder of the path since is seen at the next."""
    import shutil

    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(PLUGIN_SOURCE))
    monkeypatch.syspath_prepend(str(site))
    assert "fields" not in referee.names()
    write_distribution(site, "[cgarena.games]\nfields = cgarena_fields.referee:FieldsReferee\n")
    assert "fields" in referee.names()
    assert referee.get("fields").player_count == 3
    shutil.rmtree(next(site.glob("*.dist-info")))
    assert "fields" not in referee.names()
    with pytest.raises(referee.UnknownGame):
        referee.get("fields")


# -- the match loop --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, -7, 123456789])
def test_three_players_two_lines_and_an_elimination(fields_installed: dict[str, str], seed: int) -> None:
    names = ("greedy", "second", "waiter")
    result = play_match("fields", seed, specs(*names), MatchOptions(record=True))
    assert result.outcome is not None
    scores, out = simulate(seed, names)
    assert list(result.outcome.scores) == scores
    assert out == {2: 4}  # the waiter never scores: eliminated after turn 4
    assert [p.verdict for p in result.players] == [Verdict.OK, Verdict.OK, Verdict.ELIMINATED]
    (elimination,) = result.outcome.deactivations
    assert (elimination.player, elimination.turn, elimination.cause.value) == (2, 4, "eliminated")
    assert result.outcome.ranks == tuple(sum(other > s for other in scores) for s in scores)
    first = result.frames[0].executions
    assert [(e.player, e.expected_lines) for e in first] == [(0, 2), (1, 1), (2, 1)]
    assert first[0].input[0] == "0 2" and len(first[0].output or ()) == 2
    assert all(len(e.output or ()) == 1 for f in result.frames for e in f.executions if e.player == 1)
    assert [e.player for e in result.frames[4].executions] == [0, 1]  # out of the game after turn 4


def test_a_player_giving_too_few_lines_times_out(fields_installed: dict[str, str]) -> None:
    result = play_match("fields", 3, specs("oneline", "greedy", "second"), MatchOptions(time_scale=0.5))
    assert result.outcome is not None
    player = result.players[0]
    assert player.verdict is Verdict.TIMEOUT
    assert [(d.player, d.turn, d.reason) for d in result.outcome.deactivations] == [(0, 1, "Timeout!")]


def test_a_line_that_does_not_parse_disqualifies(fields_installed: dict[str, str]) -> None:
    names = ("greedy", "dancer", "second")
    result = play_match("fields", 5, specs(*names), MatchOptions())
    assert result.outcome is not None
    scores, out = simulate(5, names)
    assert out == {1: 3} and list(result.outcome.scores) == scores
    assert result.players[1].verdict is Verdict.INVALID
    assert result.players[1].message == "Invalid Input: Expected TAKE <field> | WAIT but got 'DANCE'"


# -- the command line ------------------------------------------------------------------------------


def test_arena_play_and_its_replay(fields_installed: dict[str, str], tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    names = ("second", "greedy", "waiter")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "play",
            "fields",
            *(bot(n) for n in names),
            "--seed",
            "11",
            "--replay",
            str(replay),
            "--json",
        ],
        env=fields_installed,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    scores, _ = simulate(11, names)
    summary = json.loads(run.stdout.splitlines()[-1])
    assert summary["scores"] == scores and summary["end_reason"] == "max_turns"
    assert [p["status"] for p in summary["players"]] == ["ok", "ok", "eliminated"]
    document = read_replay(replay)
    assert document["game"] == "fields" and len(document["bots"]) == 3 and len(document["frames"]) == 8
    turn1 = document["frames"][0]["executions"][0]
    assert turn1["expected_lines"] == 2 and len(turn1["output"].split("\n")) == 2
    assert document["frames"][3]["deactivations"] == [
        {"player": 2, "cause": "eliminated", "reason": "lowest score after turn 4"}
    ]


def test_a_round_robin_tournament_with_results(fields_installed: dict[str, str], tmp_path: Path) -> None:
    db = str(tmp_path / "fields.sqlite")
    args = [
        "tournament",
        "fields",
        *(bot(n) for n in ("greedy", "second", "waiter", "dancer")),
        "--games",
        "3",
        "--workers",
        "2",
        "--seed",
        "5",
        "--no-progress",
        "--db",
        db,
        "--max-failures",
        "1",
    ]  # the dancer is disqualified in every game, on purpose
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    assert "tournament 1 (new): fields, round-robin, 4 bots" in run.output
    data = json.loads(CliRunner().invoke(main, ["results", "--db", db, "--format", "json"]).output)
    assert data["tournament"]["players"] == 3 and data["tournament"]["games_stored"] == 12
    tables = {tuple(c["bots"]): c for c in data["comparisons"]}
    assert list(tables) == [
        ("greedy", "second", "waiter"),
        ("greedy", "second", "dancer"),
        ("greedy", "waiter", "dancer"),
        ("second", "waiter", "dancer"),
    ]
    # Waiting scores 0, dancing is disqualified (-1) on turn 3, the two others always score.
    ranks = {s["bot"]: s["mean_rank"] for s in tables[("greedy", "waiter", "dancer")]["standings"]}
    assert ranks == {"greedy": 1.0, "waiter": 2.0, "dancer": 3.0}
    bots = {b["name"]: b for b in data["bots"]}
    assert bots["dancer"]["invalid"] == 9 and bots["dancer"]["losses"] == 9
    assert bots["waiter"]["eliminated"] == 3  # only at the table it shares with greedy and second
    ranking = data["leaderboard"]
    assert ranking["model"] == "openskill (Plackett-Luce, games in schedule order)" and ranking["games"] == 12
    assert [e["bot"] for e in ranking["ranking"]][2:] == ["waiter", "dancer"]
    assert {e["bot"]: e["games"] for e in ranking["ranking"]} == dict.fromkeys(bots, 9)
    # Seats rotate: each bot sits once in each seat per seed.
    with_seats = CliRunner().invoke(main, ["results", "--db", db, "--format", "csv"]).output.splitlines()
    assert with_seats[0] == "table,bot,games,firsts,mean_rank,mean_score" and len(with_seats) == 13

    table = CliRunner().invoke(main, ["results", "--db", db])
    assert "table 2: greedy, waiter, dancer (3 games)" in table.output
    again = CliRunner().invoke(main, [a if a != "3" else "6" for a in args])  # 3 games -> 6
    assert again.exit_code == 0, again.output
    assert "tournament 1 (resumed, 12 games already stored)" in again.output
    data = json.loads(CliRunner().invoke(main, ["results", "--db", db, "--format", "json"]).output)
    assert data["tournament"]["games_stored"] == 24


def test_seats_rotate_through_every_seat(fields_installed: dict[str, str], tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "rot.sqlite"
    run = CliRunner().invoke(
        main,
        [
            "tournament",
            "fields",
            bot("greedy"),
            bot("second"),
            bot("waiter"),
            "--games",
            "3",
            "--workers",
            "1",
            "--no-progress",
            "--db",
            str(db),
        ],
    )
    assert run.exit_code == 0, run.output
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT leg, seat, bot FROM game_players ORDER BY leg, seat").fetchall()
    assert rows == [
        (0, 0, "greedy"),
        (0, 1, "second"),
        (0, 2, "waiter"),
        (1, 0, "waiter"),
        (1, 1, "greedy"),
        (1, 2, "second"),
        (2, 0, "second"),
        (2, 1, "waiter"),
        (2, 2, "greedy"),
    ]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--format", "gauntlet"], "format: gauntlet compares two bots head to head: fields is a 3-player game"),
        (["--sprt"], "sprt compares two bots head to head"),
    ],
)
def test_two_bot_statistics_are_refused_for_three_players(
    fields_installed: dict[str, str], tmp_path: Path, flags: list[str], message: str
) -> None:
    run = CliRunner().invoke(
        main,
        [
            "tournament",
            "fields",
            bot("greedy"),
            bot("second"),
            bot("waiter"),
            *flags,
            "--db",
            str(tmp_path / "x.sqlite"),
        ],
    )
    assert run.exit_code == 2 and message in run.output and "Traceback" not in run.output
    assert not (tmp_path / "x.sqlite").exists()


def test_the_plugin_passes_the_generic_game_checks(fields_installed: dict[str, str]) -> None:
    from tests.helpers.game_checks import check_game

    check_game("fields")


def test_a_ladder_of_three_player_tables(
    fields_installed: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables of three of the four bots, each played once per seat on one seed (the seats
    rotated), ranked by openskill from the ranks."""
    monkeypatch.chdir(tmp_path)

    def ok(*args: str) -> str:
        result = CliRunner().invoke(main, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    ok("ladder", "init", "fields")
    for name in ("greedy", "second", "waiter"):
        ok("ladder", "add", name, bot(name))
    assert "greedy is this very version" in ok("ladder", "add", "greedy2", bot("greedy"))
    ok("ladder", "run", "--games", "30", "--workers", "2", "--no-progress")
    data = json.loads(ok("ladder", "show", "--format", "json"))
    assert data["model"].startswith("openskill") and data["games_stored"] == 30
    listed = json.loads(ok("matches", "list", "--ladder", "1", "--format", "json"))["games"]
    tables: dict[tuple[int, int], list[dict]] = {}
    for g in listed:
        tables.setdefault((g["comparison"], g["pair"]), []).append(g)
    for games in tables.values():
        assert len(games) == 3 and len({g["seed"] for g in games}) == 1
        bots = {p["bot"] for p in games[0]["players"]}
        assert len(bots) == 3
        for seat in range(3):  # each bot once in each seat
            assert {g["players"][seat]["bot"] for g in games} == bots
    order = [r["bot"] for r in data["ranking"]]
    assert order[-1] == "waiter"  # it scores nothing
    assert {r["bot"]: r["games"] for r in data["ranking"]} == {
        name: sum(1 for g in listed if name in {p["bot"] for p in g["players"]}) for name in order
    }
    # the ratings are openskill's, over the listed games in the order they were stored
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in order}
    for g in sorted(listed, key=lambda g: g["id"]):
        seats = [p["bot"] for p in g["players"]]
        new = model.rate([[ratings[b]] for b in seats], ranks=[p["rank"] for p in g["players"]])
        ratings.update({b: team[0] for b, team in zip(seats, new)})
    for r in data["ranking"]:
        assert abs(r["rating"] - ratings[r["bot"]].mu) < 1e-9
