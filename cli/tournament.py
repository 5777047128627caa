"""``arena tournament``: many games in parallel, stored and resumable, with a progress bar.

Its options are made from :data:`arena.settings.SETTINGS`, the table a config file is
read with too: a flag and a config key are one setting, declared once.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.settings import flags_to_mapping
from arena.tournament.config import ConfigError, TournamentConfig, config_from_mapping, load_config

from .common import bundler, plural, shown, stop_on_signals
from .options import setting_options
from .plot import INSTALL_HINT, plot_available
from .progress import RunView
from .report import print_standings, sprt_status, sweep_plot_path
from .repro import game_command

if TYPE_CHECKING:  # the tournament's modules load on first use
    from arena.runner.runner import Started
    from arena.standings.tournament import Standings
    from arena.store.records import GameRecord
    from arena.tournament.play import TournamentOutcome


@click.command()
@click.argument("args", nargs=-1)
@setting_options()
@click.option("--new", is_flag=True, help="Start a new tournament even if this one can be resumed.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line: the standings.")
@click.option("--no-progress", is_flag=True, help="No progress bar or progress lines.")
def tournament(args: tuple[str, ...], new: bool, as_json: bool, no_progress: bool, **flags: Any) -> None:
    """Play many games: arena tournament CONFIG.yaml | GAME BOT BOT... [options].

    Every seed is played twice with the seats swapped; results go to SQLite game by game. Run the
    same command again to resume (finished games are kept), or with a larger --games to extend.
    With two bots, the first is measured against the second. Name bots with NAME=BOT
    (old=bot.py new="bot.py --depth 3"); unnamed duplicates are told apart (greedy, greedy#2).
    """
    from arena.runner.runner import StorageFailure
    from arena.tournament.play import play_tournament

    config = _config(args, flags)
    again = _resume_command(sys.argv[1:])
    view, on_event = _view(config, as_json, no_progress)
    try:
        with stop_on_signals(signal.SIGINT, signal.SIGTERM):
            outcome = play_tournament(config, new=new, on_event=on_event, bundle=bundler(config.executor))
    except StorageFailure as exc:  # one line: what failed, the games stored, how to resume
        if exc.run_id is None:
            raise
        then = ", then" if exc.error.advice else ";"
        raise click.ClickException(f"{exc}{then} resume with: {again}") from None
    except KeyboardInterrupt:  # outside the games (while the bots' start is checked, say)
        click.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        view.close()
    _report(outcome, config, as_json, again)


def _config(args: tuple[str, ...], flags: dict[str, Any]) -> TournamentConfig:
    """The tournament asked for: a config file with the flags over it, or GAME BOT BOT... and flags."""
    try:
        overrides = flags_to_mapping(flags)
        if args and args[0].endswith((".yaml", ".yml")):
            if len(args) > 1:
                raise click.UsageError("give a config file or GAME BOT BOT..., not both")
            return load_config(args[0], overrides)
        if len(args) < 3:
            raise click.UsageError("expected CONFIG.yaml, or GAME and at least two bots")
        mapping = {"game": args[0], "bots": list(args[1:]), **overrides}
        return config_from_mapping(mapping, base=Path.cwd())  # stored, so `matches show` replays from anywhere
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _resume_command(argv: list[str]) -> str:
    """The command that resumes this run: the one given, shell-quoted, less ``--new`` (which
    would start yet another tournament instead), where it is the flag and not an option's value
    or a word after ``--``."""
    valued = {name for p in tournament.params if isinstance(p, click.Option) and not p.is_flag for name in p.opts}
    kept: list[str] = []
    takes_value = after_dashes = False
    for word in argv:
        if not (takes_value or after_dashes) and word == "--new":
            continue
        kept.append(word)
        after_dashes = after_dashes or (word == "--" and not takes_value)
        takes_value = not takes_value and not after_dashes and word in valued
    return "arena " + (shlex.join(kept) if kept else "tournament ...")


def _view(config: TournamentConfig, as_json: bool, no_progress: bool) -> tuple[RunView, Callable[[object], None]]:
    """What is shown while the tournament runs: its start, the progress bar (or lines), SPRT
    decisions, a bot's first failure with the command that plays that game again; and the
    callback that feeds it."""

    def notes(event: Started) -> list[str]:
        sweep = config.sweep is not None and not plot_available()
        return [*config.notes, *event.notes, *([f"the sweep plot will not be drawn: {INSTALL_HINT}"] if sweep else [])]

    def hint(record: GameRecord) -> str:
        seats = ", ".join(f"{i}: {name}" for i, name in enumerate(record.seats))
        again = game_command(config, {b.name: b for b in config.bots}, record)
        return f"seed {record.seed}, seats {seats}; play it again with: {again}"

    view = RunView(lambda event: _header(config, event), hint, notes=notes, quiet=no_progress, header_err=as_json)

    def on_event(event: object) -> None:
        from arena.tournament.scheduler import Decided

        if isinstance(event, Decided):
            view.say(f"{event.bots[0]} vs {event.bots[1]}: SPRT {sprt_status(event.state, event.pairs)}")
        else:
            view.on_event(event)

    return view, on_event


def _header(config: TournamentConfig, event: Started) -> str:
    state = f"resumed, {event.done} games already stored" if event.resumed else "new"
    seeds = f"{len(config.seeds)} listed seeds" if config.seeds is not None else f"seed {config.seed}"
    where = plural(config.workers, "worker")
    if config.executor == "dask":
        where = (
            f"Dask scheduler {config.scheduler}"
            if config.scheduler is not None
            else f"local Dask cluster of {plural(config.local_cluster or 1, 'worker')}"
        )
    return (
        f"tournament {event.run_id} ({state}): {config.game}, {config.format}, {len(config.bots)} bots, "
        f"{config.games} games per comparison, {where}, {seeds}, db {config.db}"
    )


def _report(outcome: TournamentOutcome, config: TournamentConfig, as_json: bool, again: str) -> None:
    """The standings (or one JSON line), what stopped the run, the SPRTs left undecided, the
    sweep plot; exit 130 when interrupted, 1 when a failing bot stopped the run."""
    run, data = outcome.run, outcome.standings
    out = click.echo if not as_json else functools.partial(click.echo, err=True)
    if run.interrupted:
        out(f"interrupted: {data.tournament.games_stored} games are stored in {config.db}; resume with: {again}")
    elif run.stopped is not None and not as_json:
        print_standings(data)
    if run.stopped is not None and not run.interrupted:
        click.echo(
            f"stopped: {shown(run.stopped)}. Fix the bot and start again with --new, or allow more "
            f"failures with --max-failures (now {config.max_failures:g}) to resume.",
            err=True,
        )
    if run.interrupted or run.stopped is not None:
        if as_json:
            click.echo(json.dumps(data.to_dict()))
        sys.exit(130 if run.interrupted else 1)
    if not as_json:
        print_standings(data)
    for c in data.pairs:
        if c.stats.sprt is not None and not c.stats.sprt.state.decided:
            out(
                f"{c.bots[0]} vs {c.bots[1]}: SPRT {sprt_status(c.stats.sprt.state, c.sprt_pairs)} "
                f"at the --games limit ({config.games}); run again with a larger --games to go on (the stored "
                "games are kept)"
            )
    if data.sweep is not None:
        data = _plot(data, config, run.run_id, out)
    if as_json:
        click.echo(json.dumps(data.to_dict()))


def _plot(data: Standings, config: TournamentConfig, tid: int, out: Callable[[str], None]) -> Standings:
    """Draw the sweep plot beside the database; the standings with its path."""
    from .plot import PlotUnavailable, plot_sweep

    assert data.sweep is not None
    path = sweep_plot_path(config.db, tid)
    try:
        drawn = plot_sweep(data.sweep, path, title=f"{config.game}: sweep of {data.sweep.bot}")
    except PlotUnavailable as exc:
        click.echo(f"sweep plot not drawn: {exc}", err=True)
        return data
    except OSError as exc:
        click.echo(f"sweep plot not drawn: {exc.filename or path}: {exc.strerror or exc}", err=True)
        return data
    out(f"sweep plot: {drawn}")
    return dataclasses.replace(data, sweep=dataclasses.replace(data.sweep, plot=str(drawn)))
