"""A ladder's runs through the library (:mod:`arena.ladder.commands`): what is played (pairs of
games on shared maps), when a run stops, a bot added while a run plays, a Dask cluster."""

from __future__ import annotations

import shutil
from pathlib import Path

from arena.ladder.commands import add_bot, init_ladder, run_ladder, show_ladder
from arena.ladder.scheduler import Picked
from arena.runner.runner import GameDone
from arena.settings import Workers
from arena.store.results import Store
from bundler.ship import bundle_source
from tests.helpers.dask_cluster import Cluster
from tests.helpers.paths import SHIPPED_BOTS


def _ladder(tmp_path: Path, *bots: str) -> Path:
    db = tmp_path / "l.sqlite"
    init_ladder(db, "spring2021", {})
    for bot in bots:
        name, _, source = bot.partition("=")
        add_bot(db, name, source or name)
    return db


def test_each_pick_is_both_seats_of_one_map_and_all_bots_meet_the_same_maps(tmp_path: Path) -> None:
    db = _ladder(tmp_path, "greedy", "random", "wait")
    events: list[object] = []
    result = run_ladder(db, {}, games=40, workers=Workers(2), on_event=events.append).run
    picks = [e for e in events if isinstance(e, Picked)]
    assert result.played == 40 and not result.interrupted
    with Store(db, read_only=True) as store:
        games = store.games(1)
    pairs: dict[tuple[int, int], list] = {}
    for g in games:
        pairs.setdefault((g.comparison, g.pair), []).append(g)
    assert len(pairs) == 20 == len(picks)
    seeds: dict[int, set[int]] = {}
    for (_, pair), legs in pairs.items():
        assert sorted(g.leg for g in legs) == [0, 1]
        first, second = sorted(legs, key=lambda g: g.leg)
        assert first.seed == second.seed and first.seats == second.seats[::-1]
        seeds.setdefault(pair, set()).add(first.seed)
    assert all(len(s) == 1 for s in seeds.values())  # pair k: one map, whichever two bots play it
    assert len({next(iter(s)) for s in seeds.values()}) == len(seeds)  # and another map for each k


def test_until_confident_stops_once_the_neighbours_are_ordered(tmp_path: Path) -> None:
    db = _ladder(tmp_path, "greedy", "wait")
    result = run_ladder(db, {}, until_confident=True, workers=Workers(2), games=200).run
    assert "confident" in result.ended and result.played < 200
    view = show_ladder(db)
    (top, bottom) = view.ranking.bots
    assert top.name == "greedy" and top.above_next is not None and top.above_next >= 0.95
    assert bottom.games >= 10  # placement first
    again = run_ladder(db, {}, until_confident=True, workers=Workers(2), games=200).run
    assert again.played == 0 and "confident" in again.ended  # nothing left to learn


def test_a_bot_added_while_a_run_plays_joins_that_run(tmp_path: Path) -> None:
    db = _ladder(tmp_path, "greedy", "random")
    shutil.copy(SHIPPED_BOTS / "spring2021" / "wait_bot.py", tmp_path / "late.py")
    added = []

    def on_event(event: object) -> None:
        if isinstance(event, GameDone) and event.played == 10 and not added:  # the others are placed
            added.append(add_bot(db, "late", str(tmp_path / "late.py")))

    run_ladder(db, {}, games=30, workers=Workers(1), on_event=on_event)
    with Store(db, read_only=True) as store:
        games = store.games(1)
    late = [g for g in sorted(games, key=lambda g: g.id or 0) if "late" in g.seats]
    assert added and len(late) >= 10  # its placement, in the same run
    after = sorted(games, key=lambda g: g.id or 0)[10:]
    assert all("late" in g.seats for g in after[:10]), [g.seats for g in after[:10]]  # placed first


def test_a_ladder_plays_on_a_dask_cluster(tmp_path: Path, cluster: tuple[Cluster, str]) -> None:
    _, address = cluster
    db = _ladder(tmp_path, "greedy", "random")
    result = run_ladder(db, {}, games=4, workers=Workers(1, "dask", address), bundle=bundle_source).run
    assert result.played == 4
    with Store(db, read_only=True) as store:
        games = store.games(1)
    assert len(games) == 4 and all(g.worker is not None and g.worker.startswith("tcp://127.0.0.1:") for g in games)
