"""``arena play``: one match, printed as it goes, with its replay file."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import random
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import click

import referee
from arena.match import botspec, paths, sandbox
from arena.match.limits import DEFAULT_MEMORY_LIMIT_MB
from arena.match.loop import Frame, MatchOptions, PlayerResult, Verdict, play_match
from arena.match.replay import ReplayPathError, check_replay_path, replay_document, write_replay
from arena.tournament.config import MAX_MEMORY_MB, MAX_TIME_SCALE
from arena.tournament.preflight import start_failures
from arena.tournament.provenance import data_paths

from .common import DEFAULT_GAME, FiniteFloatRange, game_params, java_long
from .repro import play_command


def bot_data(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[int, list[str]]:
    """``--data N=PATH`` (repeatable) -> ``{N: [PATH, ...]}``, in the order given."""
    out: dict[int, list[str]] = {}
    for item in values:
        place, sep, path = item.partition("=")
        if not sep or not place.strip().isdecimal() or int(place) < 1 or not path:
            raise click.BadParameter(f"{item!r}: expected N=PATH, N the bot's place among the BOTs (1, 2...)")
        out.setdefault(int(place), []).append(path)
    return out


@click.command()
@click.argument("game", required=False, default=DEFAULT_GAME)
@click.argument("bots", nargs=-1)
@click.option("--seed", callback=java_long, help="Game seed, any Java long (random if omitted).")
@click.option("--swap", is_flag=True, help="Swap the seats: BOT2 plays as player 0.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line describing the match.")
@click.option(
    "--replay",
    "replay_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the full replay (inputs, outputs, timings, snapshots) to this JSON file.",
)
@click.option(
    "--time-scale",
    type=FiniteFloatRange(min=0, max=MAX_TIME_SCALE, min_open=True),
    default=1.0,
    show_default=True,
    help="Multiply every time limit.",
)
@click.option("--no-timeout", is_flag=True, help="Wait for every answer forever (debugging).")
@click.option(
    "--memory-limit",
    type=click.IntRange(min=16, max=MAX_MEMORY_MB),
    default=DEFAULT_MEMORY_LIMIT_MB,
    show_default=True,
    help="Memory limit of each bot, in MB.",
)
@click.option(
    "--param", "params", multiple=True, callback=game_params, metavar="NAME=VALUE", help="Game parameter (repeatable)."
)
@click.option(
    "--data",
    "data",
    multiple=True,
    callback=bot_data,
    metavar="N=PATH",
    help="A file or folder the Nth BOT reads (1: the first; it follows its bot under --swap): "
    "readable by it in the sandbox, hidden from the others (repeatable).",
)
@click.option(
    "--sandbox",
    "sandbox_mode",
    type=click.Choice([m.value for m in sandbox.SandboxMode]),
    default="auto",
    show_default=True,
    help="Run each bot in a bubblewrap sandbox: auto (where it works), on (or fail), off.",
)
@click.option(
    "--view",
    "view",
    is_flag=True,
    help="Open the replay viewer after the match (beside --replay FILE, or in a temporary folder).",
)
@click.option("--no-open", is_flag=True, help="With --view: write the viewer page, do not open a browser.")
@click.option("--show-stderr", is_flag=True, help="Print each bot's stderr as it plays.")
@click.option("-v", "--verbose", is_flag=True, help="Print every frame's summary.")
def play(
    game: str,
    bots: tuple[str, ...],
    seed: int | None,
    swap: bool,
    as_json: bool,
    replay_path: str | None,
    time_scale: float,
    no_timeout: bool,
    memory_limit: int,
    params: dict[str, str],
    data: dict[int, list[str]],
    sandbox_mode: str,
    view: bool,
    no_open: bool,
    show_stderr: bool,
    verbose: bool,
) -> None:
    """Play one match of GAME between its BOTs, one per seat in seat order (default:
    spring2021; default bots: the game's first two shipped bots, beam against greedy).

    A BOT is a .py file, a package directory (run as python -m PKG), a directory with
    __main__.py, an executable, a command line in one string ("bot.py --depth 3"), or a shipped
    bot name from bots/shipped.yaml (arena bots lists them), optionally named: NAME=BOT.
    A bot's data files (weights, an opening book) are declared with --data N=PATH, N its place
    among the BOTs: in the sandbox it may read them, its opponents may not.
    """
    try:
        cls = referee.get(game)
    except referee.UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    if not bots:
        bots = botspec.default_bots(cls.name)
    if not bots:
        raise click.UsageError(f"{cls.name} has no shipped bots: give its {cls.player_count} BOTs")
    if len(bots) != cls.player_count:
        raise click.UsageError(f"{cls.name} is played by {cls.player_count} bots, got {len(bots)}")
    specs = []
    for text in bots:
        label, bot = botspec.split_name(text)
        try:
            spec = botspec.resolve(bot, cls.name)
        except botspec.BotSpecError as exc:
            raise click.UsageError(f"bot {text!r}: {exc}") from None
        specs.append(spec if label is None else dataclasses.replace(spec, name=label))
    for place, files in sorted(data.items()):
        if place > len(specs):
            raise click.UsageError(f"--data {place}={files[0]}: there is no bot {place} ({len(specs)} bots)")
        for text in files:
            reason = paths.missing(paths.expanded(text))
            if reason is not None:
                raise click.UsageError(f"--data {place}={text}: {reason}")
        found = tuple(str(p) for p in data_paths(files))  # absolute: whatever the bot's folder
        specs[place - 1] = dataclasses.replace(specs[place - 1], data=specs[place - 1].data + found)
    if replay_path:
        try:
            check_replay_path(Path(replay_path))
        except ReplayPathError as exc:
            raise click.UsageError(f"--replay: {exc}") from None
    if swap:
        specs.reverse()
    if seed is None:
        seed = random.SystemRandom().randrange(-(2**63), 2**63)
    try:
        cls(seed, params)  # validate the parameters before starting any bot
    except referee.ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        confined, why_not = sandbox.decide(sandbox_mode)
    except sandbox.SandboxUnavailable as exc:
        raise click.UsageError(str(exc)) from None
    if why_not:
        click.echo(f"note: {why_not}", err=True)
    # a bot that cannot start (where it will play: in the sandbox or not) is no game: one line, exit 1
    failures = start_failures(specs, memory_limit, sandboxed=confined)
    if failures:
        raise click.ClickException(f"{failures[0]}; fix it and play again")
    out = click.echo if not as_json else functools.partial(click.echo, err=True)
    out(f"{cls.title}: {' vs '.join(s.name for s in specs)}, seed {seed}{', sandboxed' if confined else ''}")

    def on_frame(frame: Frame) -> None:
        report = frame.report
        if verbose:
            for line in report.summary:
                out(f"  [{report.turn:3}] {line}")
        else:
            for p, message in report.errors:
                out(f"  turn {report.turn:3}  player {p} ({specs[p].name}): {message}")
            for d in report.deactivations:
                how = "eliminated" if d.cause is referee.DeactivationCause.ELIMINATED else "disqualified"
                out(f"  turn {report.turn:3}  player {d.player} ({specs[d.player].name}) {how}: {d.reason}")
            marker = cls.progress(frame.snapshot) if frame.snapshot else None
            if marker:
                out(f"  turn {report.turn:3}  {marker}")
        if show_stderr:
            for e in frame.executions:
                if e.stderr:
                    for line in e.stderr.rstrip("\n").split("\n"):
                        out(f"  [{report.turn:3}] stderr {e.player}: {line}")

    options = MatchOptions(
        time_scale=time_scale,
        no_timeout=no_timeout,
        memory_limit_mb=memory_limit,
        params=params or None,
        record=bool(replay_path) or show_stderr or view,
        sandbox=sandbox.SandboxMode.ON if confined else sandbox.SandboxMode.OFF,
        hide=(str(Path(replay_path).resolve()),) if replay_path else (),
    )
    with _stop_on_signals():
        result = play_match(cls.name, seed, specs, options, on_frame=on_frame)
    unstarted = [why for p in result.players if (why := _not_started(p)) is not None]
    if unstarted and not result.interrupted:  # started above, not now (its file went away...): no game
        for why in unstarted:
            click.echo(f"error: {why}; fix it and play again", err=True)
        if as_json:  # still the details, for scripts (no replay: there is no game to see)
            click.echo(json.dumps(result.to_dict()))
        sys.exit(1)
    if replay_path:
        try:
            write_replay(Path(replay_path), replay_document(result, params))
        except OSError as exc:
            click.echo(f"error: {replay_path}: cannot write the replay ({exc.strerror or exc})", err=True)
            replay_path = None
    if result.outcome is None:
        out(f"interrupted after {result.turns} turns: bots stopped, no result")
    else:
        o = result.outcome
        if o.winner is not None:
            verdict = f"player {o.winner} ({specs[o.winner].name}) wins"
        elif len(o.scores) == 2:
            verdict = "draw"
        else:
            verdict = "tie for first between players " + ", ".join(str(i) for i, r in enumerate(o.ranks) if r == 0)
        ranks = f", ranks {[r + 1 for r in o.ranks]}" if len(o.scores) > 2 else ""
        out(f"result: {verdict}, scores {list(o.scores)}{ranks}, {o.end_reason.value} after {o.turns} turns")
        for p in result.players:
            lat = p.latency_summary()
            timing = (
                f"median {lat['median']:.1f} ms, max {lat['max']:.1f} ms" if lat["median"] is not None else "no answer"
            )
            note = f" ({p.message})" if p.message else ""
            refused = f", {p.refused} action{'s' if p.refused != 1 else ''} refused" if p.refused else ""
            out(f"  player {p.index} {p.name}: {p.verdict.value}{note}{refused}; {timing}")
    again = play_command(
        cls.name,
        bots,
        seed,
        swap=swap,
        time_scale=time_scale,
        memory_limit_mb=memory_limit,
        no_timeout=no_timeout,
        params=params,
        sandboxed=result.sandboxed,
        data=data,
    )
    out(f"replay this match with: {again}")
    if replay_path:
        out(f"replay file: {replay_path}")
    if view and result.outcome is not None:
        from .viewing import view_document

        if replay_path:
            page = Path(replay_path).with_suffix(".html")
        else:
            page = Path(tempfile.mkdtemp(prefix="cgarena-view-")) / f"{cls.name}-seed{seed}.html"
        with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
            view_document(replay_document(result, params), page, no_open)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    if result.interrupted:
        sys.exit(130)


def _not_started(player: PlayerResult) -> str | None:
    """Why ``player``'s bot could not be started for the match, in words; ``None`` when it was. (A
    bot that crashes on its first input did start: that is a game it lost.)"""
    if player.verdict is not Verdict.CRASH or not player.message.startswith("failed to start"):
        return None
    return f"bot {player.index} ({player.name}) {player.message}"


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP stop the match: the bots are killed, then the command ends (the
    match's clean-up is shielded from further signals, see :mod:`arena.match.shield`).

    From the first of them on, Ctrl-C is ignored to the end of the process: the partial result is
    still printed and the exit status is 130 however often Ctrl-C is pressed, even as Python exits
    (which puts its own handlers back to the default, death by SIGINT)."""
    stopped = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopped
        if stopped:  # the match is already stopping
            return
        stopped = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if not (stopped and sig == signal.SIGINT):
                signal.signal(sig, handler)
