"""Issue #34, point 10: ``arena play greedy beam`` (GAME left out) plays greedy against beam in the
default game; a mistyped game or bot name gets ``did you mean ...?`` wherever a name is looked up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import referee
from arena.match.launch import botspec
from cli.arena import main
from referee.suggest import closest, did_you_mean


def test_the_closest_name_is_suggested_only_when_it_is_close() -> None:
    bots = ["beam", "greedy", "mcts", "random", "wait"]
    assert closest("greedyy", bots) == "greedy"
    assert closest("gredy", bots) == "greedy"
    assert closest("Greedy", bots) == "greedy"
    assert closest("zzz", bots) is None
    assert closest("greedy", bots) is None  # never the name itself
    assert did_you_mean("rndom", bots) == "; did you mean random?"
    assert did_you_mean("qqqq", bots) == ""


def test_an_unknown_game_or_bot_gets_a_suggestion_at_the_source() -> None:
    with pytest.raises(
        referee.UnknownGame, match=r"unknown game 'sprin2021'; known games: .*; did you mean spring2021\?$"
    ):
        referee.get("sprin2021")
    with pytest.raises(botspec.BotSpecError, match=r"did you mean greedy\?$"):
        botspec.resolve("greedyy", "spring2021")


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "greedyy", "beam"], "'greedyy' is neither a game (spring2021, fall2020; arena games lists them) "
         "nor a spring2021 bot (GAME may be left out: spring2021 is played); did you mean greedy?"),
        (["play", "sprin2021", "greedy", "beam"], "did you mean spring2021?"),
        (["play", "spring2021", "greedyy", "beam"], "did you mean greedy?"),
        (["play", "fall2020", "greedy", "beem"], "did you mean beam?"),
        (["tournament", "spring2021", "greedyy", "beam"], "did you mean greedy?"),
        (["tournament", "sprin2021", "greedy", "beam"], "did you mean spring2021?"),
        (["bots", "fal2020"], "did you mean fall2020?"),
        (["play", "nosuchbot.py", "greedy"], "'nosuchbot.py' is no game (spring2021, fall2020; arena games lists "
         "them) and no bot: nosuchbot.py: "),
    ],
)  # fmt: skip
def test_mistyped_names_get_one_line_with_the_closest_name(args: list[str], says: str) -> None:
    status, out = invoke(*args)
    assert status != 0
    assert says in out and "Traceback" not in out


def test_a_first_argument_that_is_a_bot_plays_in_the_default_game() -> None:
    result = CliRunner().invoke(main, ["play", "greedy", "wait", "--param", "MAX_ROUNDS=1", "--json", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "note: 'greedy' is no game: playing it as a bot of spring2021, the default game" in result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["game"] == "spring2021" and [p["name"] for p in data["players"]] == ["greedy", "wait"]


def test_matches_list_suggests_the_bot_of_the_tournament(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    status, out = invoke(
        "tournament", "spring2021", "greedy", "wait", "--games", "2", "--workers", "1", "--db", db,
        "--param", "MAX_ROUNDS=1", "--no-progress",
    )  # fmt: skip
    assert status == 0, out
    status, out = invoke("matches", "list", "--db", db, "--bot", "greedyy")
    assert status == 2 and "no bot 'greedyy' in tournament 1 (bots: greedy, wait); did you mean greedy?" in out


def test_an_empty_or_spaced_first_argument_gets_one_line() -> None:
    status, out = invoke("play", "", "greedy")
    assert status == 2 and "'' is neither a game" in out and "Traceback" not in out
    status, out = invoke("play", "my bot.py --x", "greedy")
    assert status == 2 and "'my bot.py --x' is no game" in out and "no bot: " in out
