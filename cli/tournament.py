"""``arena tournament``: many games in parallel, stored and resumable, with a progress bar.

Its options are made from :data:`arena.tournament.settings.SETTINGS`, the table a config file is
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

from arena.tournament.config import ConfigError, TournamentConfig, config_from_mapping, load_config
from arena.tournament.settings import SETTINGS, Setting, flags_to_mapping

from .common import plural, shown, stop_on_signals
from .plot import INSTALL_HINT, plot_available
from .progress import Progress
from .report import print_standings, sprt_status, sweep_plot_path
from .repro import game_command

if TYPE_CHECKING:  # the tournament's modules load on first use
    from arena.standings.tournament import Standings
    from arena.store.records import GameRecord
    from arena.tournament.play import TournamentOutcome
    from arena.tournament.runner import Started


DEFAULTS_ELSEWHERE = {"format": "gauntlet", "workers": "the number of cores"}
"""The defaults of settings that the config, not :data:`SETTINGS`, gives (shown in the help)."""


def shown_default(s: Setting) -> str | None:
    """What ``--help`` shows as a setting's default: the table's (``1`` for 1.0), or the one the
    config gives; ``None`` for a switch or a setting without one."""
    if s.is_switch:
        return None
    if s.default is not None:
        return f"{s.default:g}" if isinstance(s.default, float) else str(s.default)
    return DEFAULTS_ELSEWHERE.get(s.key)


def _help(s: Setting) -> str:
    """A setting's help, its default as click shows one. The option itself has no default (a
    flag not given leaves a config file's value), so click cannot show it."""
    default = shown_default(s)
    return s.help if default is None else f"{s.help}  [default: {default}]"


def setting_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """One option per setting of :data:`SETTINGS` that has a flag, in the table's order, with
    its default in the help."""
    for s in reversed(SETTINGS):
        if s.option is None:
            continue
        # is_flag only when it is one: click reads an explicit is_flag=False as a flag whose value
        # may be left out, which takes a value such as -2 for an unknown option
        kind: dict[str, Any] = {"is_flag": True} if s.is_switch else {"multiple": s.item is not None}
        command = click.option(s.option, s.dest, help=_help(s), metavar=s.metavar, **kind)(command)
    return command


@click.command()
@click.argument("args", nargs=-1)
@setting_options
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
    from arena.tournament.play import play_tournament
    from arena.tournament.runner import StorageFailure, TournamentError

    config = _config(args, flags)
    again = _resume_command(sys.argv[1:])
    view = _View(config, as_json, no_progress)
    try:
        with stop_on_signals(signal.SIGINT, signal.SIGTERM):
            outcome = play_tournament(config, new=new, on_event=view.on_event, bundle=_bundler(config))
    except StorageFailure as exc:  # one line: what failed, the games stored, how to resume
        if exc.tournament_id is None:
            raise click.ClickException(str(exc)) from None
        then = ", then" if exc.error.advice else ";"
        raise click.ClickException(f"{exc}{then} resume with: {again}") from None
    except TournamentError as exc:  # a bot that cannot start is quoted: its stderr
        raise click.ClickException(shown(str(exc))) from None
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


def _bundler(config: TournamentConfig) -> Callable[[str], str] | None:
    """The bundler, which sends Python bots to Dask workers as one file (the arena below it
    cannot import it: this layer hands it over)."""
    if config.executor != "dask":
        return None
    from bundler.ship import bundle_source

    return bundle_source


class _View:
    """What is shown while the tournament runs: its start, the progress bar (or lines), SPRT
    decisions, a bot's first failure with the command that plays that game again."""

    def __init__(self, config: TournamentConfig, as_json: bool, no_progress: bool) -> None:
        self.config, self.as_json, self.no_progress = config, as_json, no_progress
        self.progress: Progress | None = None
        self.out = click.echo if not as_json else functools.partial(click.echo, err=True)

    def say(self, text: str, err: bool = False) -> None:
        """A message line that does not break the progress bar."""
        stream = sys.stderr if err or self.as_json else sys.stdout
        if self.progress is not None:
            self.progress.write(text, file=stream)
        else:
            click.echo(text, file=stream)

    def on_event(self, event: object) -> None:
        from arena.tournament.runner import BotFailed, Decided, GameDone, Started

        if isinstance(event, Started):
            self.started(event)
        elif isinstance(event, GameDone):
            if self.progress is not None:
                self.progress.update(event.done, event.total, event.leader)
        elif isinstance(event, Decided):
            self.say(f"{event.bots[0]} vs {event.bots[1]}: SPRT {sprt_status(event.state, event.pairs)}")
        elif isinstance(event, BotFailed) and event.failure.first:
            record, player = event.failure.record, event.failure.player
            seats = ", ".join(f"{i}: {name}" for i, name in enumerate(record.seats))
            what = f"failed for the first time: {player.status}" + (
                f" ({shown(player.message)})" if player.message else ""
            )
            if event.failure.overloaded:  # the message names the lag and the load, and what to do
                what = f"timed out for the first time, not counted as a failure: {shown(player.message)}"
            self.say(
                f"warning: bot {player.bot!r} {what}; seed {record.seed}, "
                f"seats {seats}; play it again with: {self.reproduce(record)}",
                err=True,
            )

    def started(self, event: Started) -> None:
        config = self.config
        for w in event.warnings:
            click.echo(f"warning: {w}", err=True)
        for note in (*config.notes, *event.notes):
            click.echo(f"note: {note}", err=True)
        if config.sweep is not None and not plot_available():
            click.echo(f"note: the sweep plot will not be drawn: {INSTALL_HINT}", err=True)
        state = f"resumed, {event.done} games already stored" if event.resumed else "new"
        seeds = f"{len(config.seeds)} listed seeds" if config.seeds is not None else f"seed {config.seed}"
        where = plural(config.workers, "worker")
        if config.executor == "dask":
            where = (
                f"Dask scheduler {config.scheduler}"
                if config.scheduler is not None
                else f"local Dask cluster of {plural(config.local_cluster or 1, 'worker')}"
            )
        self.out(
            f"tournament {event.tournament_id} ({state}): {config.game}, {config.format}, {len(config.bots)} bots, "
            f"{config.games} games per comparison, {where}, {seeds}, db {config.db}"
        )
        if not self.no_progress:
            self.progress = Progress.create(sys.stderr, event.total, event.done)

    def reproduce(self, record: GameRecord) -> str:
        """The ``arena play`` command that plays this game again, bots in their seats, with their
        data files and the sandbox as the game ran in it."""
        c = self.config
        entries = {b.name: b for b in c.bots}
        return game_command(
            c.game, entries, record, time_scale=c.time_scale, memory_limit_mb=c.memory_limit_mb, params=c.game_params(),
            sandbox=c.sandbox,
        )  # fmt: skip

    def close(self) -> None:
        if self.progress is not None:
            self.progress.close()


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
        data = _plot(data, config, run.tournament_id, out)
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
