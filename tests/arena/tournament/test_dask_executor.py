"""Tournaments on a Dask cluster: a real ``dask scheduler`` and two ``dask worker`` processes on
the loopback interface, started and stopped by the tests.

The games a cluster plays are those of the local executor with the same master seed (same seeds,
seats, scores and statuses: the shipped greedy and random bots play deterministically); a worker
killed mid-tournament loses nothing and duplicates nothing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import distributed
from click.testing import CliRunner

from arena.match.launch.botspec import BotSpec, resolve
from arena.match.loop import MatchOptions
from arena.match.sandbox import SandboxMode
from arena.runner import dask_executor
from arena.runner.dask_executor import DaskExecutor
from arena.runner.runner import GameDone, Runner
from arena.runner.shipping import sha256_of
from arena.runner.task import GameTask, ScheduledGame
from arena.store.results import Store
from arena.tournament.config import config_from_mapping
from arena.tournament.scheduler import TournamentScheduler, run_tournament, tournament_setup
from bundler.ship import bundle_source
from cli.arena import main
from tests.helpers.sandboxing import processes_with
from tests.helpers.spring_text_bots import spring_bot_text

GAMES = 8


def games_of(
    tmp_path: Path,
    name: str,
    executor=None,
    on_event=None,
    bots=("greedy", "random"),
    workers: list[str | None] | None = None,
) -> list[tuple]:
    """Play the tournament into its own database; its games as (key, seed, scores, statuses).
    ``executor`` is given the tournament (to prepare the bots) and returns the executor maker;
    ``workers`` receives the worker that played each game."""
    db = tmp_path / f"{name}.sqlite"
    config = config_from_mapping(
        {
            "game": "spring2021",
            "bots": list(bots),
            "games": GAMES,
            "workers": 2,
            "seed": 11,
            "sandbox": "off",
            "db": str(db),
        },
        base=tmp_path,
    )
    store = Store(config.db)
    try:
        scheduler = TournamentScheduler(config, on_event=on_event)
        made = None if executor is None else executor(scheduler)
        run = Runner(scheduler, store, tournament_setup(scheduler, store, made), on_event).run()
        assert not run.interrupted and run.stopped is None
        records = store.games(run.run_id)
    finally:
        store.close()
    if workers is not None:
        workers.extend(g.worker for g in records)
    return sorted(
        ((g.comparison, g.pair, g.leg), g.seed, tuple(p.score for p in g.players), tuple(p.status for p in g.players))
        for g in records
    )


def on_cluster(address: str):
    """The executor maker for ``games_of``: the cluster at ``address``, ready for the bots."""
    return lambda tournament: (
        lambda _n: DaskExecutor.connect(address, specs=tournament.specs.values(), bundle=bundle_source)
    )


def test_a_cluster_plays_the_games_of_the_local_executor(tmp_path, cluster):
    _, address = cluster
    local = games_of(tmp_path, "local")
    workers: list[str | None] = []
    on_dask = games_of(tmp_path, "dask", executor=on_cluster(address), workers=workers)
    assert len(local) == GAMES
    assert on_dask == local
    # each game names the worker that played it: one of the two, both busy
    with distributed.Client(address, timeout=10) as client:
        addresses = set(client.scheduler_info()["workers"])
    assert len(addresses) == 2 and set(workers) == addresses


def write_two_module_bot(folder: Path) -> Path:
    """A package bot whose answer comes from a second module (so only a bundle of both runs)."""
    pkg = folder / "twofile"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "logic.py").write_text("def answer():\n    return 'WAIT'\n")
    (pkg / "__main__.py").write_text(spring_bot_text("answer()", imports="from .logic import answer\n"))
    return pkg


def test_python_bots_reach_the_workers_as_bundles_and_need_no_copy_of_their_source(tmp_path, cluster):
    made, address = cluster
    before = {p.parent for p in made.folder.glob("cgarena-bundles-*/*/bot.py")}
    pkg = write_two_module_bot(tmp_path / "src")
    local = games_of(tmp_path, "local", bots=(str(pkg), "greedy"))

    def without_source(tournament):
        pool = DaskExecutor.connect(
            address, specs=tournament.specs.values(), bundle=bundle_source
        )  # bundled and sent here

        def make(_n: int) -> DaskExecutor:
            (tmp_path / "src").rename(tmp_path / "gone")  # from now on, only the bundles are left
            return pool

        return make

    on_dask = games_of(tmp_path, "dask", executor=without_source, bots=(str(pkg), "greedy"))
    assert not pkg.exists()
    assert on_dask == local
    assert {status for *_, statuses in on_dask for status in statuses} == {"ok"}
    # the workers keep each bundle once, under its hash: the package's is new (greedy's may be
    # there already, from an earlier test on the session's cluster)
    after = {p.parent: p for p in made.folder.glob("cgarena-bundles-*/*/bot.py")}
    assert 1 <= len(set(after) - before) <= 2, made.folder
    assert all(folder.name == sha256_of(path.read_text()) for folder, path in after.items())


def test_a_bot_missing_on_a_worker_stops_the_tournament_before_its_first_game(tmp_path, cluster, monkeypatch):
    _, address = cluster
    bin_dir = tmp_path / "bin"  # on this PATH, not on the workers'
    bin_dir.mkdir()
    bot = bin_dir / "mybot"
    bot.write_text(f"#!{sys.executable}\n" + spring_bot_text('"WAIT"'))
    bot.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            "mybot",
            "greedy",
            "--games",
            "2",
            "--sandbox",
            "off",
            "--executor",
            "dask",
            "--scheduler",
            address,
            "--db",
            "never.sqlite",
            "--no-progress",
        ],
    )
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: bot 'mybot' cannot run on Dask worker tcp://127.0.0.1:")
    assert "its program mybot is missing on its PATH" in lines[0]
    assert not (tmp_path / "never.sqlite").exists()


def test_a_worker_killed_mid_tournament_loses_and_duplicates_nothing(tmp_path, own_cluster):
    made, address = own_cluster
    local = games_of(tmp_path, "local")
    killed: list[int] = []

    def on_event(event: object) -> None:
        if isinstance(event, GameDone) and event.done == 2 and not killed:
            victim = made.workers[0]
            made.kill(victim)  # its game in progress is lost with it
            killed.append(victim.pid)

    on_dask = games_of(tmp_path, "dask", executor=on_cluster(address), on_event=on_event)
    assert killed, "the tournament ended before a worker could be killed"
    assert [key for key, *_ in on_dask] == sorted({key for key, *_ in on_dask})  # each game once
    assert on_dask == local


def test_the_cli_plays_on_a_local_cluster_and_refuses_a_bad_address(tmp_path, monkeypatch):
    import dask

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(dask.config.config, "temporary-directory", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the workers' bundle cache
    ok = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            "greedy",
            "random",
            "--games",
            "4",
            "--sandbox",
            "off",
            "--executor",
            "dask",
            "--local-cluster",
            "2",
            "--no-progress",
            "--json",
        ],
    )
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output.strip().splitlines()[-1])
    assert data["tournament"]["games_stored"] == 4
    # the report's per-worker rows: the cluster's workers, 4 games between them
    workers = data["workers"]
    assert all(w["worker"].startswith("tcp://127.0.0.1:") for w in workers)
    assert sum(w["games"] for w in workers) == 4
    shown = CliRunner().invoke(main, ["matches", "show", "1"])
    assert shown.exit_code == 0, shown.output
    assert (
        f"on Dask worker {workers[0]['worker']}" in shown.output
        or f"on Dask worker {workers[-1]['worker']}" in shown.output
    )
    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT_S", 1.0)  # a refused address is retried until then
    bad = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            "greedy",
            "random",
            "--games",
            "4",
            "--executor",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--db",
            "never.sqlite",
        ],
    )
    assert bad.exit_code == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in bad.output
    assert "Traceback" not in bad.output and not (tmp_path / "never.sqlite").exists()


class StopAfter:
    """The Dask executor, with a Ctrl-C coming ``after_s`` after the first game was submitted."""

    def __init__(self, inner: DaskExecutor, after_s: float) -> None:
        self.inner, self.after_s, self.first = inner, after_s, None
        self.stopped_at: float | None = None

    def free_slots(self) -> int:
        return self.inner.free_slots()

    def running(self) -> int:
        return self.inner.running()

    def submit(self, task) -> None:
        self.first = self.first or time.monotonic()
        self.inner.submit(task)

    def results(self, timeout):
        if self.first is not None and time.monotonic() - self.first > self.after_s:
            self.stopped_at = time.monotonic()
            raise KeyboardInterrupt
        return self.inner.results(min(timeout or 0.2, 0.2))

    def cancel(self, comparison: int, from_pair: int) -> None:
        self.inner.cancel(comparison, from_pair)

    def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
        self.inner.stop(interrupt, timeout)


def test_ctrl_c_stops_the_games_running_on_the_workers(tmp_path, cluster):
    _, address = cluster
    slow = tmp_path / "slow.py"  # 1 s an answer (it WAITs: a turn a day): a game takes 24 s
    slow.write_text(spring_bot_text('(time.sleep(1.0), "WAIT")[1]', imports="import time\n"))
    config = config_from_mapping(
        {
            "game": "spring2021",
            "bots": [str(slow), "greedy"],
            "games": 2,
            "time_scale": 20,
            "sandbox": "off",
            "db": str(tmp_path / "t.sqlite"),
        },
        base=tmp_path,
    )
    pool = StopAfter(DaskExecutor.connect(address, bundle=bundle_source), after_s=1.5)
    store = Store(config.db)
    try:
        run = run_tournament(config, store, executor=lambda _n: pool)
        stored = store.games(run.run_id)
    finally:
        store.close()
    assert run.interrupted and not stored
    assert pool.stopped_at is not None
    # the games look at the stop event twice a second, between turns of 1 s; without it the
    # executor would wait its 10 s for them
    assert time.monotonic() - pool.stopped_at < 4.0


def test_the_games_of_a_decided_comparison_stop_on_the_workers_and_free_them(tmp_path, cluster):
    """What the tournament does when a comparison's SPRT test decides: its games still waiting
    are cancelled, and those running stop between two turns, leaving the worker free."""
    _, address = cluster
    slow = tmp_path / "slow.py"  # 1 s an answer: a game lasts over 24 s
    slow.write_text(spring_bot_text('(time.sleep(1.0), "WAIT")[1]', imports="import time\n"))
    slow_spec = BotSpec(name="slow", argv=(sys.executable, "-u", str(slow)))  # a command: not bundled
    greedy = resolve("greedy", "spring2021")
    options = MatchOptions(time_scale=20, sandbox=SandboxMode.OFF)

    def task(comparison: int, pair: int, leg: int, specs: tuple[BotSpec, ...]) -> GameTask:
        game = ScheduledGame(comparison, pair, leg, seed=pair + 1, seats=tuple(s.name for s in specs))
        return GameTask(game, "spring2021", specs, options, "spring2021 rules 1")

    pool = DaskExecutor.connect(address, specs=[slow_spec, greedy], bundle=bundle_source)
    try:
        for pair in range(3):  # two playing, one waiting
            pool.submit(task(0, pair, 0, (slow_spec, greedy)))
        deadline = time.monotonic() + 30
        while len(processes_with(str(slow))) < 2:
            assert time.monotonic() < deadline, "the slow games did not start"
            time.sleep(0.1)
        pool.cancel(0, 0)
        cancelled = time.monotonic()
        assert pool.running() == 0
        while processes_with(str(slow)) and time.monotonic() - cancelled < 10:
            time.sleep(0.05)
        # a game looks twice a second, between turns of 1 s; uncancelled, they would play 20 s more
        assert not processes_with(str(slow)) and time.monotonic() - cancelled < 3.0
        pool.submit(task(1, 0, 0, (greedy, greedy)))  # the workers are free for the next comparison
        results = []
        while not results and time.monotonic() - cancelled < 30:
            results += list(pool.results(timeout=1.0))
        assert [(t.game.comparison, r is not None and r.players[0].status) for t, r in results] == [(1, "ok")]
    finally:
        pool.stop(interrupt=True)
