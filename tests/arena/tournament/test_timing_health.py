"""Timeouts in an overloaded window and how close the answers came to their limits, as a tournament
stores, counts and reports them (hand-made records, figures worked by hand)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.protocol.latency import LimitUse
from arena.match.result import Verdict
from arena.runner.failures import Failure, FailureWatch
from arena.runner.runner import BotFailed
from arena.standings.health import bot_health, worker_health
from arena.store.records import BotRow, GameRecord, PlayerRecord
from arena.store.results import Store
from arena.tournament.config import ConfigError, config_from_mapping
from cli.arena import main
from cli.tournament import _view
from tests.helpers.paths import FIXTURES

OK, TIMEOUT = Verdict.OK.value, Verdict.TIMEOUT.value
LOADED = (
    "timeout in an overloaded window (scheduling lag 37 ms, load 6.2 on 2 cores): run fewer workers or use --time-scale"
)


def player(
    seat: int, bot: str, status: str = OK, overloaded: bool = False, use: LimitUse | None = None
) -> PlayerRecord:
    message = LOADED if overloaded else ""
    return PlayerRecord(seat, bot, 0, seat, status, message, [1.0], 0, "", 0, limit_use=use, overloaded=overloaded)


def game(pair: int, a: PlayerRecord, b: PlayerRecord, worker: str | None = None) -> GameRecord:
    return GameRecord(0, pair, 0, pair, (a, b), 1, "turns", 3, 0.5, "v", worker=worker)


def test_timeouts_in_an_overloaded_window_never_stop_the_tournament() -> None:
    # share 0.25 of a 4-game window allows 1 failure: four overloaded timeouts are none
    watch = FailureWatch(0.25, 4)
    reported = [watch.add(game(i, player(0, "beam", TIMEOUT, overloaded=True), player(1, "greedy"))) for i in range(4)]
    assert watch.stop_reason is None
    assert [[(f.player.bot, f.first, f.overloaded) for f in r] for r in reported] == [
        [("beam", True, True)],
        [("beam", False, True)],
        [("beam", False, True)],
        [("beam", False, True)],
    ]
    # while two ordinary timeouts in its first four games stop it
    ordinary = FailureWatch(0.25, 4)
    for i in range(2):
        ordinary.add(game(i, player(0, "beam", TIMEOUT), player(1, "greedy")))
    assert ordinary.stop_reason is not None and "'beam' failed in 2 of its first 2 games" in ordinary.stop_reason


def test_health_counts_the_two_kinds_of_timeouts_apart_and_sums_the_limit_use() -> None:
    a = LimitUse((5, 0, 0, 0, 1, 0), 0.97)
    b = LimitUse((2, 1, 0, 0, 0, 1), 1.03)
    games = [
        game(0, player(0, "beam", TIMEOUT, overloaded=True, use=a), player(1, "greedy", use=a), "tcp://w:1"),
        game(1, player(0, "beam", TIMEOUT, use=b), player(1, "greedy", use=b), "tcp://w:1"),
        game(2, player(0, "beam", TIMEOUT, overloaded=True, use=b), player(1, "greedy", use=a), "tcp://w:1"),
    ]
    beam = bot_health("beam", games, "h", 2)
    assert (beam.timeouts, beam.overloaded_timeouts) == (1, 2)
    assert beam.limit_use == LimitUse((9, 2, 0, 0, 1, 2), 1.03)  # 6 + 4 + 4 = 14 answers, 3 above 95%
    summary = beam.to_dict()["limit_use"]
    assert summary == {
        "above_95": 3,
        "share_above_95": 0.2143,  # 3 / 14
        "closest": 1.03,
        "past_limit": 2,
        "histogram": [9, 2, 0, 0, 1, 2],
    }
    assert beam.to_dict()["overloaded_timeouts"] == 2
    (worker,) = worker_health(games)
    assert (worker.timeouts, worker.overloaded_timeouts) == (1, 2)
    # a game stored before the limit use was kept: unknown, not a partial sum
    old = game(3, player(0, "beam"), player(1, "greedy"))
    assert bot_health("beam", [*games, old], "h", 2).limit_use is None


def _store(path: Path) -> tuple[Store, int]:
    store = Store(path)
    bots = [BotRow(name=n, command=("x",), env={}, source_hash="h", files=()) for n in ("beam", "greedy")]
    settings = {"game": "spring2021", "bots": [{"name": "beam", "bot": "beam"}, {"name": "greedy", "bot": "greedy"}]}
    tid = store.create_tournament("key", settings, 2, "v", bots, [(0, ("beam", "greedy"))])
    return store, tid


def test_the_limit_use_and_the_overload_go_through_the_database_and_show(tmp_path: Path) -> None:
    use = LimitUse((150, 30, 10, 6, 3, 1), 1.02)
    store, tid = _store(tmp_path / "r.sqlite")
    with store:
        record = game(0, player(0, "beam", TIMEOUT, overloaded=True, use=use), player(1, "greedy", use=LimitUse()))
        gid = store.record_game(tid, record)
        (back,) = store.games(tid)
    assert back.players[0].limit_use == use and back.players[0].overloaded
    assert back.players[1].limit_use == LimitUse() and not back.players[1].overloaded
    shown = CliRunner().invoke(main, ["matches", "show", str(gid), "--db", str(tmp_path / "r.sqlite")])
    assert shown.exit_code == 0, shown.output
    # 200 answers, 4 above 95% of their limit: 2.0%; the closest 102%
    assert (
        "2.0% above 95% of the limit, closest call 102%, 1 past it (within the margin) "
        "(by share of the limit: <=50% 150 | 50-80% 30 | 80-90% 10 | 90-95% 6 | 95-100% 3 | >100% 1)"
    ) in shown.output
    as_json = CliRunner().invoke(
        main, ["matches", "show", str(gid), "--db", str(tmp_path / "r.sqlite"), "--format", "json"]
    )
    players = json.loads(as_json.output)["players"]
    assert players[0]["overloaded"] is True and players[0]["limit_use"]["histogram"] == [150, 30, 10, 6, 3, 1]
    results = CliRunner().invoke(main, ["results", "--db", str(tmp_path / "r.sqlite")])
    assert "1 timeout in an overloaded window" in results.output


def test_games_stored_before_read_as_unknown_limit_use_and_ordinary_timeouts(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "store_v1" / "results.sqlite", tmp_path / "old.sqlite")
    with Store(tmp_path / "old.sqlite") as store:
        records = store.games(1)
    assert records and all(p.limit_use is None and not p.overloaded for g in records for p in g.players)


def test_the_warning_of_an_overloaded_timeout_says_it_is_not_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    config = config_from_mapping({"game": "spring2021", "bots": ["beam", "greedy"], "time_margin": 20})
    assert config.time_margin_ms == 20.0 and config.to_dict()["time_margin"] == 20.0
    record = game(0, player(0, "beam", TIMEOUT, overloaded=True), player(1, "greedy"))
    _view(config, as_json=False, no_progress=True)[1](BotFailed(Failure(record, record.players[0], True, True)))
    err = capsys.readouterr().err
    assert err.startswith(
        f"warning: bot 'beam' timed out for the first time, not counted as a failure: {LOADED}; seed 0"
    )


def test_a_negative_time_margin_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"game": "spring2021", "bots": ["beam", "greedy"], "time_margin": -1})
    assert str(caught.value) == "time_margin: between 0 and 60000 ms, got -1"
