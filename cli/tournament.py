"""``arena tournament``: many games in parallel, stored and resumable, with a progress bar."""

from __future__ import annotations

import functools
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from arena.stats.sprt import SprtModel, SprtState
from arena.tournament.schedule import Format

from .common import game_params, java_long, plural
from .plot import INSTALL_HINT, plot_available
from .progress import Progress
from .report import print_standings, sprt_pairs, sprt_status, sweep_plot_path
from .repro import game_command


def grid_option(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in values:
        key, sep, rest = item.partition("=")
        items = [v.strip() for v in rest.split(",") if v.strip()]
        if not sep or not key.strip() or not items:
            raise click.BadParameter(f"{item!r}: expected NAME=V1,V2,...")
        out[key.strip()] = items
    return out


@click.command()
@click.argument("args", nargs=-1)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    help="Games per comparison (each seed once per seat: an odd count is rounded up, and said).",
)
@click.option(
    "--seeds",
    "seed_list",
    metavar="FILE|A..B|A,B,C",
    help="Play these maps (each once per seat) instead of seeds from --seed.",
)
@click.option("--workers", type=click.IntRange(min=1), help="Games played at once (default: the number of cores).")
@click.option(
    "--force-workers",
    is_flag=True,
    help="Allow --workers above twice the cores (the bots, timed in wall-clock time, will be starved).",
)
@click.option("--seed", callback=java_long, help="Master seed: the whole schedule follows from it.")
@click.option("--format", "fmt", type=click.Choice([f.value for f in Format]), help="Pairing.")
@click.option("--baseline", help="Gauntlet: the bot the others are measured against (default: the last).")
@click.option("--sprt", is_flag=True, help="Stop each comparison when the SPRT decides.")
@click.option("--elo0", type=float, help="SPRT H0 Elo (default 0).")
@click.option("--elo1", type=float, help="SPRT H1 Elo (default 5).")
@click.option("--alpha", type=float, help="SPRT false-positive rate (default 0.05).")
@click.option("--beta", type=float, help="SPRT false-negative rate (default 0.05).")
@click.option("--sprt-model", type=click.Choice([m.value for m in SprtModel]), help="SPRT model.")
@click.option("--time-scale", type=click.FloatRange(min=0, min_open=True), help="Multiply every time limit.")
@click.option("--memory-limit", type=click.IntRange(min=16), help="Memory limit of each bot, in MB.")
@click.option(
    "--param", "params", multiple=True, callback=game_params, metavar="NAME=VALUE", help="Game parameter (repeatable)."
)
@click.option("--sweep-bot", help="Sweep: the bot whose {NAME} placeholders take the grid's values.")
@click.option("--grid", multiple=True, callback=grid_option, metavar="NAME=V1,V2,...", help="Sweep grid (repeatable).")
@click.option("--db", help="SQLite results file (default: arena.sqlite in the working directory).")
@click.option("--new", is_flag=True, help="Start a new tournament even if this one can be resumed.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line: the standings.")
@click.option(
    "--max-failures",
    type=click.FloatRange(0, 1),
    help="Stop when a bot fails (crash, timeout, invalid) in more than this share of its first "
    "20 games (default 0.25; 1 never stops).",
)
@click.option(
    "--replays",
    "replay_dir",
    metavar="DIR",
    help="Keep replay files of the games chosen by --keep in this folder (game<ID>-seed<SEED>.json).",
)
@click.option(
    "--keep",
    metavar="all|failures|losses|N",
    help="Which games keep a replay (default: failures): all, failures, losses of the first bot, "
    "or the first N games of each comparison.",
)
@click.option(
    "--sandbox",
    "sandbox_mode",
    type=click.Choice(["auto", "on", "off"]),
    help="Run each bot in a bubblewrap sandbox: auto (where it works; the default), on (or fail), off.",
)
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    help="Where games are played: local worker processes (the default) or a Dask cluster.",
)
@click.option("--scheduler", metavar="ADDRESS", help="--executor dask: the Dask scheduler's address (tcp://HOST:8786).")
@click.option(
    "--local-cluster",
    type=click.IntRange(min=1),
    metavar="N",
    help="--executor dask: make a Dask cluster of N workers on this machine instead.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar or progress lines.")
def tournament(
    args: tuple[str, ...],
    games: int | None,
    seed_list: str | None,
    max_failures: float | None,
    replay_dir: str | None,
    keep: str | None,
    workers: int | None,
    force_workers: bool,
    seed: int | None,
    fmt: str | None,
    baseline: str | None,
    sprt: bool,
    elo0: float | None,
    elo1: float | None,
    alpha: float | None,
    beta: float | None,
    sprt_model: str | None,
    time_scale: float | None,
    memory_limit: int | None,
    params: dict[str, str],
    sweep_bot: str | None,
    grid: dict[str, list[str]],
    db: str | None,
    new: bool,
    as_json: bool,
    sandbox_mode: str | None,
    executor: str | None,
    scheduler: str | None,
    local_cluster: int | None,
    no_progress: bool,
) -> None:
    """Play many games: arena tournament CONFIG.yaml | GAME BOT BOT... [options].

    Every seed is played twice with the seats swapped; results go to SQLite game by game. Run the
    same command again to resume (finished games are kept), or with a larger --games to extend.
    With two bots, the first is measured against the second. Name bots with NAME=BOT
    (old=bot.py new="bot.py --depth 3"); unnamed duplicates are told apart (greedy, greedy#2).
    """
    import signal as _signal

    from arena.match import sandbox
    from arena.tournament.config import ConfigError, config_from_mapping, load_config
    from arena.tournament.executor import Executor, ExecutorError
    from arena.tournament.preflight import start_failures
    from arena.tournament.records import GameRecord
    from arena.tournament.runner import (
        BotFailed,
        Decided,
        GameDone,
        Started,
        StorageFailure,
        Tournament,
        TournamentError,
        bot_spec,
    )
    from arena.tournament.standings import standings
    from arena.tournament.store import Store, StoreError

    sprt_values = {
        k: v
        for k, v in {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": sprt_model}.items()
        if v is not None
    }
    overrides: dict[str, Any] = {
        "games": games,
        "workers": workers,
        "seed": seed,
        "format": fmt,
        "baseline": baseline,
        "time_scale": time_scale,
        "memory_limit_mb": memory_limit,
        "params": params or None,
        "db": db,
        "seeds": seed_list,
        "max_failures": max_failures,
        "replays": replay_dir,
        "keep": keep,
        "force_workers": force_workers or None,
        "sandbox": sandbox_mode,
        "executor": executor,
        "scheduler": scheduler,
        "local_cluster": local_cluster,
    }
    if sprt or sprt_values:
        overrides["sprt"] = sprt_values or True
    if grid:
        overrides["sweep"] = {"grid": grid, **({"bot": sweep_bot} if sweep_bot else {})}
    elif sweep_bot:
        raise click.UsageError("--sweep-bot needs --grid NAME=V1,V2,...")
    try:
        if args and args[0].endswith((".yaml", ".yml")):
            if len(args) > 1:
                raise click.UsageError("give a config file or GAME BOT BOT..., not both")
            config = load_config(args[0], overrides)
        else:
            if len(args) < 3:
                raise click.UsageError("expected CONFIG.yaml, or GAME and at least two bots")
            mapping = {"game": args[0], "bots": list(args[1:])}
            mapping.update({k: v for k, v in overrides.items() if v is not None})
            config = config_from_mapping(mapping, base=Path.cwd())  # stored, so `matches show` replays from anywhere
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None

    stopping = False

    def on_stop(signum: int, frame: object) -> None:
        """Ctrl-C or SIGTERM: stop the tournament (the first time; later ones wait for it). From
        then on Ctrl-C is ignored to the end of the process, so the exit status is 130 however
        often it is pressed, even as Python exits (which puts its handlers back to the default)."""
        nonlocal stopping
        if stopping:
            return
        stopping = True
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        raise KeyboardInterrupt

    entries = {b.name: b for b in config.bots}

    def reproduce(record: GameRecord) -> str:
        """The ``arena play`` command that plays this game again, bots in their seats, with their
        data files and the sandbox as the game ran in it."""
        return game_command(
            config.game,
            entries,
            record,
            time_scale=config.time_scale,
            memory_limit_mb=config.memory_limit_mb,
            params=config.params,
            sandbox=config.sandbox,
        )

    previous = {sig: _signal.signal(sig, on_stop) for sig in (_signal.SIGTERM, _signal.SIGINT)}
    progress: Progress | None = None
    out = click.echo if not as_json else functools.partial(click.echo, err=True)

    def say(text: str, err: bool = False) -> None:
        """A message line that does not break the progress bar."""
        stream = sys.stderr if err or as_json else sys.stdout
        if progress is not None:
            progress.write(text, file=stream)
        else:
            click.echo(text, file=stream)

    def on_event(event: object) -> None:
        nonlocal progress
        if isinstance(event, Started):
            for w in event.warnings:
                click.echo(f"warning: {w}", err=True)
            for note in config.notes:
                click.echo(f"note: {note}", err=True)
            if config.sweep is not None and not plot_available():
                click.echo(f"note: the sweep plot will not be drawn: {INSTALL_HINT}", err=True)
            state = f"resumed, {event.done} games already stored" if event.resumed else "new"
            n = len(config.bots)
            seeds = f"{len(config.seeds)} listed seeds" if config.seeds is not None else f"seed {config.seed}"
            where = plural(config.workers, "worker")
            if config.executor == "dask":
                where = (
                    f"Dask scheduler {config.scheduler}"
                    if config.scheduler is not None
                    else f"local Dask cluster of {plural(config.local_cluster or 1, 'worker')}"
                )
            out(
                f"tournament {event.tournament_id} ({state}): {config.game}, {config.format}, {n} bots, "
                f"{config.games} games per comparison, {where}, {seeds}, db {config.db}"
            )
            if not no_progress:
                progress = Progress.create(sys.stderr, event.total, event.done)
        elif isinstance(event, GameDone):
            if progress is not None:
                progress.update(event.done, event.total, event.leader)
        elif isinstance(event, Decided):
            say(f"{event.bots[0]} vs {event.bots[1]}: SPRT {sprt_status(event.state, event.pairs)}")
        elif isinstance(event, BotFailed) and event.failure.first:
            record, player = event.failure.record, event.failure.player
            seats = ", ".join(f"{i}: {name}" for i, name in enumerate(record.seats))
            what = player.status + (f" ({player.message})" if player.message else "")
            say(
                f"warning: bot {player.bot!r} failed for the first time: {what}; seed {record.seed}, "
                f"seats {seats}; play it again with: {reproduce(record)}",
                err=True,
            )

    # A bot that names nothing, or that cannot start, fails before the database exists; so do
    # --sandbox on where bots cannot be sandboxed and --executor dask without Dask.
    try:
        specs = [bot_spec(entry, config.game) for entry in config.bots]
        confined, _ = sandbox.decide(config.sandbox)
        if config.executor == "dask":
            from arena.tournament.dask_executor import require_dask

            require_dask()
    except (TournamentError, sandbox.SandboxUnavailable, ExecutorError) as exc:
        raise click.ClickException(str(exc)) from None
    failures = start_failures(specs, config.memory_limit_mb, sandboxed=confined)
    if failures:
        more = f" (and {plural(len(failures) - 1, 'other bot')})" if len(failures) > 1 else ""
        raise click.ClickException(f"{failures[0]}{more}; fix it, then run the tournament again")
    pool: Executor | None = None
    if config.executor == "dask":  # reach the cluster before the database is made
        from arena.tournament.dask_executor import DaskExecutor

        try:
            cluster = DaskExecutor.connect(config.scheduler, config.local_cluster, specs=specs)
        except ExecutorError as exc:
            raise click.ClickException(str(exc)) from None
        for warning in cluster.warnings:
            click.echo(f"warning: {warning}", err=True)
        pool = cluster
    again = " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "tournament ..."
    try:
        try:
            store = Store(config.db)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        with store:
            try:
                runner = Tournament(
                    config, store, new=new, on_event=on_event, executor=None if pool is None else (lambda _n: pool)
                )
                result = runner.run()
            except StorageFailure as exc:  # one line: what failed, the games stored, how to resume
                if exc.tournament_id is None:
                    raise click.ClickException(str(exc)) from None
                then = ", then" if exc.error.advice else ";"
                raise click.ClickException(f"{exc}{then} resume with: arena {again}") from None
            except TournamentError as exc:
                raise click.ClickException(str(exc)) from None
            finally:
                if progress is not None:
                    progress.close()
            try:
                row = store.tournament(result.tournament_id)
                assert row is not None
                data = standings(store, row)
            except StoreError as exc:
                raise click.ClickException(str(exc)) from None
    finally:
        if pool is not None:
            pool.stop(interrupt=True)  # closes the connection (and a local cluster) if the run did not
        if not stopping:  # once stopping, more signals wait for the end of the command
            for sig, handler in previous.items():
                _signal.signal(sig, handler)
    if result.interrupted:
        out(
            f"interrupted: {data['tournament']['games_stored']} games are stored in {config.db}; "
            f"resume with: arena {again}"
        )
        if as_json:
            click.echo(json.dumps(data))
        sys.exit(130)
    if result.stopped is not None:
        if not as_json:
            print_standings(data)
        click.echo(
            f"stopped: {result.stopped}. Fix the bot and start again with --new, or allow more "
            f"failures with --max-failures (now {config.max_failures:g}) to resume.",
            err=True,
        )
        if as_json:
            click.echo(json.dumps(data))
        sys.exit(1)
    if not as_json:
        print_standings(data)
    for c in data["comparisons"]:
        test = c.get("sprt")
        if test and not SprtState(test["state"]).decided:
            out(
                f"{c['bots'][0]} vs {c['bots'][1]}: SPRT {sprt_status(SprtState(test['state']), sprt_pairs(c))} "
                f"at the --games limit ({config.games}); run again with a larger --games to go on (the stored "
                "games are kept)"
            )
    if data.get("sweep"):
        from .plot import PlotUnavailable, plot_sweep

        try:
            path = plot_sweep(
                data["sweep"],
                sweep_plot_path(config.db, result.tournament_id),
                title=f"{config.game}: sweep of {data['sweep']['bot']}",
            )
        except PlotUnavailable as exc:
            click.echo(f"sweep plot not drawn: {exc}", err=True)
        except OSError as exc:
            where = exc.filename or sweep_plot_path(config.db, result.tournament_id)
            click.echo(f"sweep plot not drawn: {where}: {exc.strerror or exc}", err=True)
        else:
            data["sweep"]["plot"] = str(path)
            out(f"sweep plot: {path}")
    if as_json:
        click.echo(json.dumps(data))
