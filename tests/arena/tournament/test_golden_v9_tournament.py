"""Tournaments play, store and report what the arena of commit f515562 (results schema 9) did.

``tests/fixtures/store_v9/`` (its README says how it was made) holds two tournaments played by
that arena from the configs beside it: ``tournament.yaml`` (a round-robin of four Fall 2020 bots
under Wood 2 rules, one of which crashes; every replay kept) and ``gauntlet.yaml`` (a gauntlet
stopped by the SPRT, the failed games' replays kept), their database and replays, and what the
arena printed (``outputs/``). Here the same configs are played again, in a copy of the folder
holding only the bots and the configs (so the paths are the fixture's own, relative to the
folder), into a new database; every replay, every stored game and everything printed must be
what f515562 wrote, but for the measured and clock times and the machine's paths
(:mod:`tests.helpers.golden` says what is masked and why).

The ranking of the results is checked on its own, in
:func:`test_the_ranking_is_a_bradley_terry_fit_of_the_games_f515562_stored`: f515562 printed an
openskill leaderboard, which a Bradley-Terry fit has replaced (#43); the figures are found again
from the games f515562 stored, by a second fit (:mod:`tests.helpers.bradley_terry`).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.arena import main
from tests.helpers import bradley_terry
from tests.helpers.golden import (
    MASK,
    OUTPUTS,
    STORE_V9,
    dump,
    fixture_ranking,
    game_rows,
    mask_json,
    mask_tables,
    mask_text,
    masked_json_text,
    player_rows,
    split_json_leaderboard,
    split_leaderboard,
    tournament_rows,
)

CONFIGS = {1: "tournament.yaml", 2: "gauntlet.yaml"}
"""The tournaments of the fixture by id, in the order they were played (ids and game ids follow)."""
RUNS = {1: "run-tournament.txt", 2: "run-gauntlet.txt"}
"""What ``arena tournament CONFIG --no-progress`` printed (stdout and stderr)."""
RESULTS = {"table": "txt", "csv": "csv", "json": "json"}
SHOWN = (12, 25)
"""The games ``arena matches show`` printed: tournament 1's first crash, tournament 2's first game."""


@dataclass
class Played:
    folder: Path
    printed: dict[str, str]
    """What today's arena printed, by the name of the fixture's file that holds f515562's."""
    fixture_db: Path
    """A copy of the fixture's database (read, it would get its -wal and -shm files)."""


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, f"arena {' '.join(args)}:\n{result.output}"
    return result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The two configs played again by today's arena, in a copy of the fixture's folder without
    its database and replays, and what the arena prints of them (the commands of make.sh)."""
    folder = tmp_path_factory.mktemp("golden") / "store_v9"
    folder.mkdir()
    fixture_db = Path(shutil.copy(STORE_V9 / "results.sqlite", folder.parent / "fixture.sqlite"))
    shutil.copytree(STORE_V9 / "bots", folder / "bots")
    for config in CONFIGS.values():
        shutil.copy(STORE_V9 / config, folder / config)
    printed: dict[str, str] = {}
    db = ["--db", "results.sqlite"]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        for t, config in CONFIGS.items():
            printed[RUNS[t]] = _invoke(["tournament", config, "--no-progress"])
        for t in CONFIGS:
            for form, ext in RESULTS.items():
                printed[f"results-{t}.{ext}"] = _invoke(["results", *db, "--tournament", str(t), "--format", form])
            printed[f"matches-{t}.txt"] = _invoke(["matches", "list", *db, "--tournament", str(t)])
            printed[f"matches-{t}.json"] = _invoke(["matches", "list", *db, "--tournament", str(t), "--format", "json"])
        for game in SHOWN:
            printed[f"match-{game}.json"] = _invoke(["matches", "show", str(game), *db, "--format", "json"])
        printed["tournaments.txt"] = _invoke(["tournaments", *db])
        printed["tournaments.json"] = _invoke(["tournaments", *db, "--format", "json"])
    return Played(folder, printed, fixture_db)


def _saved(name: str) -> str:
    return (OUTPUTS / name).read_text(encoding="utf-8")


def test_every_replay_is_the_one_f515562_wrote(played: Played) -> None:
    """The same replay files (names: game id and seed), each the same document but for the
    measured times and the bots' commands: f515562 ran each bot from its source, today's runs its
    frozen version, from the store beside the database (#43: the same files, another folder); the
    command is checked to run the same script there."""
    old = sorted(p.name for p in (STORE_V9 / "replays").iterdir())
    new = sorted(p.name for p in (played.folder / "replays").iterdir())
    assert new == old
    assert len(old) == 28  # tournament 1: all 24 games; tournament 2: its 4 failed games
    for name in old:
        expected = json.loads((STORE_V9 / "replays" / name).read_text(encoding="utf-8"))
        got = json.loads((played.folder / "replays" / name).read_text(encoding="utf-8"))
        for before, now in (*zip(expected["bots"], got["bots"], strict=True),
                            *zip(expected["result"]["players"], got["result"]["players"], strict=True)):  # fmt: skip
            script = mask_text(before["command"]).split(" ", 2)[2].rsplit("/", 1)[1]  # the script and its arguments
            frozen = rf"<PYTHON> -u <DIR>/results\.sqlite-bots/[0-9a-f]{{64}}/tree/(?:[^ ]+/)?{re.escape(script)}"
            assert re.fullmatch(frozen, mask_text(now["command"])), (name, now["command"])
            before["command"] = now["command"] = MASK
        assert dump(mask_json(got)) == dump(mask_json(expected)), name


def test_every_stored_game_is_the_one_f515562_stored(played: Played) -> None:
    """Read with plain SQL: the games (ids, seeds, winners, end reasons, turns, referee, replay
    names, the facts of their start) and their players (bots, seats, scores, ranks, statuses,
    messages, stderr, refused actions), but for the timing columns; the tournaments' settings,
    bots, comparisons (the SPRT's decisions)."""
    old_db, new_db = played.fixture_db, played.folder / "results.sqlite"

    def masked(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        return [tuple(mask_text(v) if isinstance(v, str) else v for v in row) for row in rows]

    assert masked(game_rows(new_db)) == masked(game_rows(old_db, CONFIGS))
    assert len(game_rows(new_db)) == 36
    assert player_rows(new_db) == player_rows(old_db, CONFIGS)
    assert tournament_rows(new_db, CONFIGS) == tournament_rows(old_db, CONFIGS)


@pytest.mark.parametrize("t", sorted(CONFIGS))
def test_the_results_are_the_ones_f515562_printed(played: Played, t: int) -> None:
    """``arena results`` in each format (the ranking aside: see the test below), and what
    ``arena tournament`` printed while it played."""
    assert played.printed[f"results-{t}.csv"] == _saved(f"results-{t}.csv")
    got, _ = split_json_leaderboard(played.printed[f"results-{t}.json"])
    expected, _ = split_json_leaderboard(_saved(f"results-{t}.json"))
    assert got == expected
    for name in (f"results-{t}.txt", RUNS[t]):
        got, _ = split_leaderboard(played.printed[name])
        expected, _ = split_leaderboard(_saved(name))
        assert mask_tables(got) == mask_tables(expected), name


@pytest.mark.parametrize("t", sorted(CONFIGS))
def test_the_games_listed_and_shown_are_the_ones_f515562_printed(played: Played, t: int) -> None:
    """``arena matches list`` (table, JSON), ``arena matches show ID --format json``, and the
    tournament's line of ``arena tournaments`` (table, JSON; the fixture's has its ladder too)."""
    assert mask_text(played.printed[f"matches-{t}.txt"]) == mask_text(_saved(f"matches-{t}.txt"))
    assert masked_json_text(played.printed[f"matches-{t}.json"]) == masked_json_text(_saved(f"matches-{t}.json"))
    game = SHOWN[t - 1]
    assert masked_json_text(played.printed[f"match-{game}.json"]) == masked_json_text(_saved(f"match-{game}.json"))
    listed = mask_json(json.loads(played.printed["tournaments.json"]))
    saved = mask_json(json.loads(_saved("tournaments.json")))
    assert len(listed) == 2 and listed[t - 1] == saved[t - 1]
    line = mask_text(played.printed["tournaments.txt"]).splitlines()[t - 1]
    assert line == mask_text(_saved("tournaments.txt")).splitlines()[t - 1]


# -- the ranking: a Bradley-Terry fit (f515562's openskill leaderboard, replaced on purpose) ------


@pytest.mark.parametrize("t", sorted(CONFIGS))
def test_the_ranking_is_a_bradley_terry_fit_of_the_games_f515562_stored(played: Played, t: int) -> None:
    """The ``leaderboard`` of ``arena results --format json``, and the ranking section of the
    table and of what ``arena tournament`` printed: the bots ranked by a second fit of the games
    f515562 stored (read with plain SQL from a copy of its database; none was played after an
    SPRT decision), laid out by hand."""
    want, counted, met = fixture_ranking(played.fixture_db, t)
    assert counted == {1: 24, 2: 12}[t]
    bradley_terry.check_json(json.loads(played.printed[f"results-{t}.json"])["leaderboard"], want, counted, met)
    for name in (f"results-{t}.txt", RUNS[t]):
        assert split_leaderboard(played.printed[name])[1] == bradley_terry.section(want), name
