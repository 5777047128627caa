"""Tournament building blocks: schedule, config, store, the order-independent comparison tracker,
and small real tournaments (resume, extension, source changes)."""

from __future__ import annotations

import itertools
import random
import sqlite3
from pathlib import Path

import pytest

import referee
from arena.match.launch.botspec import REPO_ROOT, BotSpec
from arena.match.limits import enforcement
from arena.runner.runner import cores_warning
from arena.standings.tracker import ComparisonTracker, score_of_a
from arena.stats import HeadToHead, SprtParams, SprtState
from arena.store.records import BotRow, GameRecord, PlayerRecord
from arena.store.results import Store, StoreError
from arena.tournament import TournamentScheduler, run_tournament
from arena.tournament.config import ConfigError, config_from_mapping, load_config
from arena.tournament.schedule import GauntletSchedule, RoundRobinSchedule, pair_seed
from arena.versions.provenance import bot_sources

CONFIGS = REPO_ROOT / "configs"


# -- schedule ------------------------------------------------------------------------------------


def test_pair_seeds_are_java_longs_stable_and_distinct():
    seeds = [pair_seed(1, k) for k in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(-(2**63) <= s < 2**63 for s in seeds)
    assert seeds == [pair_seed(1, k) for k in range(1000)]
    assert pair_seed(2, 0) != pair_seed(1, 0)
    assert any(s < 0 for s in seeds)  # the whole long range is used


def test_every_seed_is_played_twice_with_seats_swapped():
    sched = GauntletSchedule(["a", "b", "base"], master_seed=3, pairs=4, baseline="base")
    games = list(sched.games())
    assert len(games) == 2 * 4 * 2
    by_pair: dict[tuple[int, int], list] = {}
    for g in games:
        by_pair.setdefault((g.comparison, g.pair), []).append(g)
    for (_comparison, pair), legs in by_pair.items():
        assert [g.leg for g in legs] == [0, 1]
        assert legs[0].seed == legs[1].seed == pair_seed(3, pair)
        assert legs[0].seats == tuple(reversed(legs[1].seats))
    # the same maps for every comparison
    assert {g.seed for g in games if g.comparison == 0} == {g.seed for g in games if g.comparison == 1}


def test_gauntlet_and_round_robin_pairings():
    gauntlet = GauntletSchedule(["x", "y", "z"], 0, 1, baseline="y").comparisons()
    assert [(c.a, c.b) for c in gauntlet] == [("x", "y"), ("z", "y")]
    rr = RoundRobinSchedule(["p", "q", "r", "s"], 0, 1).comparisons()
    assert [(c.a, c.b) for c in rr] == list(itertools.combinations("pqrs", 2))
    assert [c.index for c in rr] == list(range(6))


# -- config --------------------------------------------------------------------------------------

BASE = {"game": "spring2021", "bots": ["greedy", "random"]}


@pytest.mark.parametrize(
    "change,message",
    [
        ({"gmaes": 10}, "unknown setting 'gmaes'"),
        ({"game": "chess"}, "chess"),
        ({"format": "swiss"}, "format 'swiss'"),
        ({"games": 0}, "games: must be at least 1"),
        ({"games": "ten"}, "games: expected an integer"),
        ({"games": 10, "pairs": 5}, "not 'games' and 'pairs'"),
        ({"bots": ["greedy"]}, "at least 2 bots"),
        ({"bots": ["x=greedy", {"name": "x", "bot": "random"}]}, "two bots are named 'x'"),
        ({"bots": [{"bot": "greedy", "argz": []}, "random"]}, "unknown key 'argz'"),
        ({"bots": [{"name": "x"}, "random"]}, "missing 'bot'"),
        ({"bots": [{"bot": "greedy", "args": "--x 1"}, "random"]}, "'args' must be a list"),
        ({"baseline": "nobody"}, "baseline 'nobody' is not one of the bots"),
        ({"format": "round-robin", "baseline": "greedy"}, "only a gauntlet has a baseline"),
        ({"sprt": {"elo0": 5, "elo1": 0}}, "elo1 (0.0) must be greater than elo0 (5.0)"),
        ({"sprt": {"alpha": 0.7}}, "alpha must be between 0 and 0.5"),
        ({"sprt": {"model": "heptanomial"}}, "model 'heptanomial'"),
        ({"seed": 2**63}, "Java long range"),
        ({"params": {"NOPE": "1"}}, "params:"),
        ({"sweep": {"bot": "greedy", "grid": {"day": [1, 2]}}}, "does not use {day}"),
        ({"sweep": {"bot": "nobody", "grid": {"day": [1]}}}, "sweep: bot 'nobody'"),
        ({"sweep": {"bot": "greedy", "grid": {"day": []}}}, "non-empty list"),
        ({"time_scale": 0}, "time_scale must be positive"),
    ],
)
def test_bad_settings_are_refused_with_a_message_naming_them(change, message):
    with pytest.raises(ConfigError) as info:
        config_from_mapping({**BASE, **change})
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_defaults_two_bots_measure_the_first_against_the_second():
    config = config_from_mapping(BASE)
    assert config.format == "gauntlet" and config.baseline == "random"
    assert config.games == 100 and config.pairs == 50 and config.sprt is None
    assert config_from_mapping({**BASE, "games": 7}).pairs == 4  # an odd count rounds up to pairs


def test_sweep_makes_one_variant_per_grid_point():
    config = config_from_mapping(
        {
            "game": "spring2021",
            "bots": [
                "greedy",
                {"name": "g", "bot": "greedy", "args": ["--complete-day", "{d}"], "env": {"X": "{t}-{d}"}},
            ],
            "sweep": {"bot": "g", "grid": {"d": [8, 12], "t": ["a", "b"]}},
        }
    )
    names = [b.name for b in config.bots]
    assert names == ["greedy", "g[d=8,t=a]", "g[d=8,t=b]", "g[d=12,t=a]", "g[d=12,t=b]"]
    v = {b.name: b for b in config.bots}["g[d=12,t=b]"]
    assert v.args == ("--complete-day", "12") and v.env == {"X": "b-12"}
    assert config.baseline == "greedy" and config.format == "gauntlet"


def test_config_files_shipped_in_configs_are_valid():
    files = sorted(CONFIGS.glob("*.yaml"))
    files = [f for f in files if f.name != "bots.yaml"]
    assert len(files) >= 4
    for f in files:
        config = load_config(f)
        assert config.bots and config.game == "spring2021"


def test_flags_override_the_file_and_merge_into_sprt(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("game: spring2021\nbots: [greedy, random]\ngames: 10\nsprt: {elo0: 0, elo1: 5}\n")
    config = load_config(path, {"games": 30, "sprt": {"elo1": 20}, "workers": None})
    assert config.games == 30
    assert config.sprt is not None and (config.sprt.elo0, config.sprt.elo1) == (0, 20)


@pytest.mark.parametrize(
    "text,message",
    [
        ("game: [", "not valid YAML at line"),
        ("- a\n- b\n", "a config is a mapping"),
    ],
)
def test_bad_config_files(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.yaml")


# -- store ---------------------------------------------------------------------------------------


def _record(comparison=0, pair=0, leg=0, winner=0, seats=("a", "b")) -> GameRecord:
    scores = (5, 3) if winner == 0 else (3, 5) if winner == 1 else (4, 4)
    ranks = (0, 1) if winner == 0 else (1, 0) if winner == 1 else (0, 0)
    players = (
        PlayerRecord(0, seats[0], scores[0], ranks[0], "ok", latencies_ms=[1.0, 2.5], near_limit=0),
        PlayerRecord(1, seats[1], scores[1], ranks[1], "ok", latencies_ms=[0.5], near_limit=1),
    )
    return GameRecord(
        comparison=comparison,
        pair=pair,
        leg=leg,
        seed=pair_seed(0, pair),
        players=players,
        winner=winner,
        end_reason="max_rounds",
        turns=100,
        duration_s=0.1,
    )


def test_store_keeps_each_game_once_and_round_trips_it(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        tid = store.create_tournament("k", {"x": 1}, 4, "v1", [BotRow("a", ("a",), {}, "h", ())], [(0, ("a", "b"))])
        assert store.record_game(tid, _record())
        assert not store.record_game(tid, _record())  # the same game again: ignored
        assert store.count_games(tid) == 1
        (back,) = store.games(tid)
        assert [p.latencies_ms for p in back.players] == [[1.0, 2.5], [0.5]]
        assert [p.near_limit for p in back.players] == [0, 1] and back.ranks == (0, 1)
        assert back.seed == pair_seed(0, 0) and back.seats == ("a", "b")


def test_store_refuses_files_that_are_not_results(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a usable results database"):
        Store(junk)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="not an arena results database"):
        Store(other)
    with pytest.raises(StoreError, match="no results database"):
        Store(tmp_path / "none.sqlite", create=False)


# -- comparison tracker ----------------------------------------------------------------------------


def test_score_of_the_first_bot_follows_its_seat():
    assert score_of_a(_record(leg=0, winner=0)) == 1.0
    assert score_of_a(_record(leg=1, winner=0)) == 0.0  # leg 1: the first bot sits as player 1
    assert score_of_a(_record(leg=1, winner=1)) == 1.0
    assert score_of_a(_record(winner=None)) == 0.5


def _random_games(n_pairs: int, seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    games = []
    for pair in range(n_pairs):
        for leg in (0, 1):
            # the first bot wins 70% of its games
            a_wins = rng.random() < 0.7
            seat_a = leg
            winner = seat_a if a_wins else 1 - seat_a
            games.append(_record(pair=pair, leg=leg, winner=winner))
    return games


def test_tracker_figures_do_not_depend_on_arrival_order():
    games = _random_games(60, seed=4)
    sprt = SprtParams(0, 50, 0.05, 0.05)
    in_order = ComparisonTracker(0, "a", "b", sprt)
    for g in games:
        in_order.add(g)
    for shuffle_seed in range(5):
        shuffled = games[:]
        random.Random(shuffle_seed).shuffle(shuffled)
        tracker = ComparisonTracker(0, "a", "b", sprt)
        for g in shuffled:
            tracker.add(g)
        assert tracker.decision == in_order.decision
        assert tracker.decided_at == in_order.decided_at
        assert tracker.stats().to_dict() == in_order.stats().to_dict()


def test_tracker_decides_at_the_first_pair_where_the_sequential_test_crosses_a_bound():
    games = _random_games(200, seed=9)
    sprt = SprtParams(0, 50, 0.05, 0.05)
    tracker = ComparisonTracker(0, "a", "b", sprt)
    for g in games:
        tracker.add(g)
    assert tracker.decision is SprtState.H1
    k = tracker.decided_at
    assert k is not None and 0 < k < 200
    # recompute by hand: the test over pairs 0..j-1 first crosses at j == k
    comp = HeadToHead("a", "b")
    crossed_at = None
    for j in range(200):
        legs = {g.leg: score_of_a(g) for g in games if g.pair == j}
        comp.add_pair(legs[0], legs[1])
        if comp.sprt(sprt).state.decided:
            crossed_at = j + 1
            break
    assert crossed_at == k
    # and the figures count exactly those pairs
    assert tracker.stats().pairs == k and tracker.stats().games == 2 * k


def test_tracker_counts_lone_games_as_singles_until_their_pair_is_complete():
    tracker = ComparisonTracker(0, "a", "b", None)
    tracker.add(_record(pair=0, leg=0, winner=0))
    tracker.add(_record(pair=1, leg=1, winner=None))
    st = tracker.stats()
    assert (st.pairs, st.singles, st.games) == (0, 2, 2)
    tracker.add(_record(pair=0, leg=1, winner=0))  # completes pair 0: a won then lost
    st = tracker.stats()
    assert (st.pairs, st.singles) == (1, 1)
    assert st.penta == (0, 0, 1, 0, 0)


# -- bots' sources -------------------------------------------------------------------------------


def test_bot_sources_follow_local_imports_and_skip_the_interpreter(tmp_path):
    (tmp_path / "main.py").write_text("import helper\nfrom lib import x\nimport os\n")
    (tmp_path / "helper.py").write_text("from . import deep\n")
    (tmp_path / "deep.py").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "unrelated.py").write_text("")
    import sys

    spec = BotSpec("m", (sys.executable, "-u", str(tmp_path / "main.py")))
    names = sorted(p.relative_to(tmp_path).as_posix() for p in bot_sources(spec))
    assert names == ["deep.py", "helper.py", "lib/__init__.py", "main.py"]


# -- small real tournaments ------------------------------------------------------------------------


def _config(tmp_path: Path, **extra):
    data = {
        "game": "spring2021",
        "bots": ["greedy", "random"],
        "games": 4,
        "seed": 3,
        "workers": 2,
        "db": str(tmp_path / "t.sqlite"),
    }
    data.update(extra)
    return config_from_mapping(data)


def _run(config, new=False):
    events = []
    with Store(config.db) as store:
        result = run_tournament(config, store, new=new, on_event=events.append)
        games = store.games(result.run_id)
    return result, games, events


def test_a_tournament_stores_every_game_then_resumes_and_extends(tmp_path):
    config = _config(tmp_path)
    first, games, _ = _run(config)
    assert not first.interrupted and first.played == 4 and len(games) == 4
    assert {(g.pair, g.leg) for g in games} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert all([p.status for p in g.players] == ["ok", "ok"] for g in games)
    # greedy (player "greedy") beats random in every game, from either seat
    assert all(g.seats[g.winner] == "greedy" for g in games)
    again, games_again, _ = _run(config)
    assert again.run_id == first.run_id and again.played == 0
    assert [g.key for g in games_again] == [g.key for g in games]
    more, games_more, _ = _run(_config(tmp_path, games=8))
    assert more.run_id == first.run_id and more.played == 4 and len(games_more) == 8
    fresh, _, _ = _run(config, new=True)
    assert fresh.run_id != first.run_id and fresh.played == 4


def test_each_game_is_stored_with_the_facts_of_its_map(tmp_path):
    """The facts (:meth:`referee.Referee.metadata`, checked against the official traces in
    tests/referee/test_metadata.py) reach the database with the game they describe."""
    _, games, _ = _run(_config(tmp_path, games=4))
    seeds = {g.seed for g in games}
    assert len(seeds) == 2
    for g in games:
        assert g.meta == referee.create("spring2021", g.seed).metadata()
        assert set(g.meta) == {"holes", "richness", "rich_cells"}


def test_a_changed_bot_source_is_a_new_version_in_a_new_tournament(tmp_path):
    """#43: an edited bot is simply a new version: the same command starts a new tournament for it
    (no --new), which plays it; the first tournament keeps the games of the first version."""
    bot = tmp_path / "mybot.py"
    bot.write_text((REPO_ROOT / "bots" / "spring2021" / "greedy_bot.py").read_text())
    config = _config(tmp_path, bots=[str(bot), "random"], games=2)
    first, _, _ = _run(config)
    bot.write_text(bot.read_text() + "\n# tuned\n")
    edited, games, events = _run(config)
    assert (first.run_id, edited.run_id, edited.played, len(games)) == (1, 2, 2, 2)
    started = next(e for e in events if type(e).__name__ == "Started")
    assert any(w.startswith("bot 'mybot' is mybot@2 (tournament 1 played mybot@1") for w in started.warnings)
    with Store(config.db, read_only=True) as store:
        assert len(store.games(1)) == 2  # kept
        versions = {b.name: b.version for b in store.bots(2)} | {"first": store.bots(1)[0].version}
    assert versions["mybot"] != versions["first"]
    result, _, _ = _run(config, new=True)
    assert result.run_id == 3


def test_sprt_stops_a_comparison_and_leaves_later_pairs_unplayed(tmp_path):
    config = _config(tmp_path, games=200, sprt={"elo0": -400, "elo1": -300})
    result, games, events = _run(config)
    decided = [e for e in events if type(e).__name__ == "Decided"]
    assert len(decided) == 1 and decided[0].state is SprtState.H1
    k = decided[0].pairs
    assert k < 30
    with Store(config.db) as store:
        (comparison,) = store.comparisons(result.run_id)
    assert comparison.decided_at_pair == k
    # at most the games already running when it was decided were played beyond pair k
    assert len(games) <= 2 * k + config.workers


def test_more_workers_than_cores_is_warned(tmp_path):
    import os

    cores = os.cpu_count() or 1
    assert cores_warning(cores) == []
    (warning,) = cores_warning(cores + 1)
    assert f"{cores + 1} workers on {cores} cores" in warning and "starved" in warning
    _, _, events = _run(_config(tmp_path, workers=cores + 1, games=2, force_workers=True))
    started = next(e for e in events if type(e).__name__ == "Started")
    assert warning in started.warnings


def test_approximate_limits_are_warned(tmp_path, monkeypatch):
    """Where the watchdog holds the bots' limits (no cgroups; forced here), a warning says they
    are approximate."""
    monkeypatch.setattr(enforcement, "_forced", "watchdog")
    warnings = TournamentScheduler(_config(tmp_path, workers=1)).warnings()
    assert [w for w in warnings if w.startswith("the memory and process limits are approximate here")]


def test_progress_total_shrinks_when_sprt_decides(tmp_path):
    config = _config(tmp_path, games=200, sprt={"elo0": -400, "elo1": -300})
    _, games, events = _run(config)
    started = next(e for e in events if type(e).__name__ == "Started")
    done = [e for e in events if type(e).__name__ == "GameDone"]
    assert started.total == 200
    assert done[-1].total == done[-1].done == len(games) < 200


def test_a_decided_comparison_asks_the_executor_to_cancel_its_later_pairs(tmp_path):
    """greedy beats wait every game: H1 is accepted after a few pairs; the executor is then told
    that the comparison's games from the deciding pair on are no longer wanted."""
    from arena.runner.executor import LocalExecutor

    cancelled: list[tuple[int, int]] = []

    class Recording(LocalExecutor):
        def cancel(self, comparison: int, from_pair: int) -> None:
            cancelled.append((comparison, from_pair))
            super().cancel(comparison, from_pair)

    config = config_from_mapping(
        {
            "game": "spring2021",
            "bots": ["greedy", "wait"],
            "games": 40,
            "workers": 2,
            "sandbox": "off",
            "db": str(tmp_path / "s.sqlite"),
            "sprt": {"elo0": 0, "elo1": 300, "alpha": 0.25, "beta": 0.25},
        },
        base=tmp_path,
    )
    with Store(config.db) as store:
        run = run_tournament(config, store, executor=Recording)
        (comparison,) = store.comparisons(run.run_id)
    assert comparison.decision == "H1" and comparison.decided_at_pair is not None
    assert cancelled == [(0, comparison.decided_at_pair)]
