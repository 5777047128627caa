"""``arena play``: one match, printed as it goes, with its replay file."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

import referee
from arena.match.launch import botspec
from arena.match.process.shield import shielded
from arena.match.request import (
    BotsCannotStart,
    MatchRequest,
    Pin,
    PlayedMatch,
    Ready,
    RequestError,
    play_request,
)
from arena.match.result import Frame, Verdict
from arena.match.settings import DEFAULT_GAME, PlaySettings
from arena.settings import DEFAULT_DB
from arena.store.database import StoreError
from referee.suggest import did_you_mean

from .common import java_long, shown, stop_on_signals
from .options import PLAYED, play_settings, setting_options
from .repro import play_command
from .viewing import view_document


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
    help="Write the full replay (inputs, outputs, timings, snapshots) to this JSON file: a new file, or a replay "
    "file it replaces.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Let --replay replace an existing file that is not a replay (never a database or a bot's own file).",
)
@setting_options((*PLAYED, "db"))
@click.option("--no-timeout", is_flag=True, help="Wait for every answer forever (debugging).")
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
    force: bool,
    no_timeout: bool,
    data: dict[int, list[str]],
    view: bool,
    no_open: bool,
    show_stderr: bool,
    verbose: bool,
    **flags: Any,
) -> None:
    """Play one match of GAME between its BOTs, one per seat in seat order (default:
    spring2021, also when the first argument is a bot: arena play greedy beam; default bots: the
    game's first two shipped bots, beam against greedy).

    A BOT is a .py file, a package directory (run as python -m PKG), a directory with
    __main__.py, an executable, a command line in one string ("bot.py --depth 3"), or a shipped
    bot name from bots/shipped.yaml (arena bots lists them), optionally named: NAME=BOT.
    A bot's data files (weights, an opening book) are declared with --data N=PATH, N its place
    among the BOTs: in the sandbox it may read them, its opponents may not. Where there is a
    results database (--db, or arena.sqlite here), every bot plays as a version recorded there
    (frozen by content: an edited bot is the next version), and a BOT may name one: NAME@N,
    NAME@prev, NAME@latest (arena versions lists them).
    """
    game, bots = _game_first(game, bots)
    settings = play_settings(flags, game, PLAYED)
    replay = Path(replay_path) if replay_path else None
    request = MatchRequest(settings, bots, seed, swap, no_timeout, data, replay, show_stderr or view, force)
    out = click.echo if not as_json else functools.partial(click.echo, err=True)
    printer, played = _Printer(out, verbose, show_stderr), None
    try:
        with stop_on_signals(signal.SIGINT, signal.SIGTERM, signal.SIGHUP), _versions(flags.get("db"), settings) as pin:
            played = play_request(request, printer.on_ready, printer.on_frame, pin)
            with shielded():  # the match is over: a stop signal now waits for what it gave to be printed
                status = _render(played, request, out, as_json, view, no_open)
    except RequestError as exc:
        raise click.UsageError(shown(str(exc))) from None
    except BotsCannotStart as exc:
        raise click.ClickException(f"{shown(str(exc))}; fix it and play again") from None
    except KeyboardInterrupt:  # a stop signal outside the match: before it, or once it is printed
        if played is None:
            click.echo("interrupted: no game played", err=True)
        sys.exit(130)
    if status:
        sys.exit(status)


@contextlib.contextmanager
def _versions(db: str | None, settings: PlaySettings) -> Iterator[Pin | None]:
    """How the bots play as versions recorded in the results database: ``--db``, or the usual one
    where there is one (none is made for a match alone: then they play from their sources). Where
    it cannot be written, from their sources too, said in a note (a bot naming a stored version
    then cannot play: its error says why)."""
    from arena.store.results import Store
    from arena.versions.roster import play_pin

    if db is None and not Path(DEFAULT_DB).is_file():
        yield None
        return
    try:
        store = Store(db or DEFAULT_DB)
    except StoreError as exc:
        click.echo(f"note: the bots are not recorded as versions: {shown(str(exc))}", err=True)
        yield None
        return
    with store:
        yield play_pin(store, settings.libs, settings.env)


def _game_first(game: str, bots: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """GAME may be left out: a first argument that is no game but a bot of the default game is
    taken as that bot (a note says so); one that is neither is refused, naming both readings and
    the closest game or bot name."""
    try:
        referee.get(game)
        return game, bots
    except referee.PluginError:
        return game, bots  # a game that is there but cannot be used: the match says why
    except referee.UnknownGame:
        pass
    text = botspec.split_name(game)[1]
    try:
        botspec.resolve(text, DEFAULT_GAME)
    except botspec.BotSpecError as exc:
        games = f"{', '.join(referee.names())}; arena games lists them"
        if "/" in text or any(Path(word).suffix for word in text.split()):  # meant as a file: why it is none
            raise click.UsageError(f"{shown(game)!r} is no game ({games}) and no bot: {shown(str(exc))}") from None
        known = [*referee.names(), *referee.aliases(), *botspec.shipped_bots(DEFAULT_GAME)]
        raise click.UsageError(
            f"{shown(game)!r} is neither a game ({games}) nor a {DEFAULT_GAME} bot (GAME may be left out: "
            f"{DEFAULT_GAME} is played){did_you_mean(game, known)}"
        ) from None
    click.echo(f"note: {shown(game)!r} is no game: playing it as a bot of {DEFAULT_GAME}, the default game", err=True)
    return DEFAULT_GAME, (game, *bots)


def _render(
    played: PlayedMatch, request: MatchRequest, out: Callable[[str], None], as_json: bool, view: bool, no_open: bool
) -> int:
    """What the match gave (printed with ``out``): its result (or why there is none), its viewer,
    its JSON line. The exit status: 1 when a bot could not be started for the match, 130 when it
    was interrupted."""
    if played.unstarted:  # started above, not now (its file went away...): no game
        for why in played.unstarted:
            click.echo(f"error: {shown(why)}; fix it and play again", err=True)
        if as_json:  # still the details, for scripts (no replay: there is no game to see)
            click.echo(json.dumps(played.result.to_dict()))
        return 1
    if played.replay_error:
        click.echo(f"error: {shown(played.replay_error)}", err=True)
    _result(played, request, out)
    if view and played.result.outcome is not None:
        with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
            view_document(played.document(request.settings.game_params()), _page(played, request), no_open)
    if as_json:
        click.echo(json.dumps(played.result.to_dict()))
    return 130 if played.result.interrupted else 0


def _page(played: PlayedMatch, request: MatchRequest) -> Path:
    """Where ``--view`` writes the viewer: beside the replay file, or in a temporary folder."""
    if request.replay is not None and not played.replay_error:
        return request.replay.with_suffix(".html")
    folder = Path(tempfile.mkdtemp(prefix="cgarena-view-"))
    return folder / f"{played.ready.rules.name}-seed{played.ready.seed}.html"


class _Printer:
    """What is printed as the match goes: the match about to be played, then for each frame every
    summary line (``verbose``), or its errors, deactivations and progress marker; with
    ``show_stderr``, what each bot wrote on stderr."""

    def __init__(self, out: Callable[[str], None], verbose: bool, show_stderr: bool) -> None:
        self.out, self.verbose, self.show_stderr = out, verbose, show_stderr
        self.ready: Ready | None = None

    def on_ready(self, ready: Ready) -> None:
        self.ready = ready
        for note in (ready.note, ready.limits_note):
            if note:
                click.echo(f"note: {note}", err=True)
        names = " vs ".join(shown(s.name) for s in ready.specs)
        self.out(f"{ready.rules.title}: {names}, seed {ready.seed}{', sandboxed' if ready.sandboxed else ''}")

    def on_frame(self, frame: Frame) -> None:
        assert self.ready is not None
        report, names, out = frame.report, [shown(s.name) for s in self.ready.specs], self.out
        if self.verbose:  # the referee's lines quote the bots' answers
            for line in report.summary:
                out(f"  [{report.turn:3}] {shown(summary_line(line, names))}")
        else:
            for p, message in report.errors:
                out(f"  turn {report.turn:3}  player {p} ({names[p]}): {shown(message)}")
        judged = {j.player: j for j in frame.judgements}
        for d in report.deactivations:  # the arena's verdict (a crash is not a timeout), as in the result
            j, out_by_rules = judged.get(d.player), d.cause is referee.DeactivationCause.ELIMINATED
            how = "eliminated" if out_by_rules else "disqualified"
            why = f"{j.verdict.value} ({j.message})" if j is not None and j.message and not out_by_rules else d.reason
            out(f"  turn {report.turn:3}  player {d.player} ({names[d.player]}) {how}: {shown(why)}")
        marker = self.ready.rules.progress(frame.snapshot) if frame.snapshot and not self.verbose else None
        if marker:
            out(f"  turn {report.turn:3}  {marker}")
        if self.show_stderr:
            for e in frame.executions:
                for line in shown(e.stderr, lines=True).rstrip("\n").split("\n") if e.stderr else ():
                    out(f"  [{report.turn:3}] stderr {e.player}: {line}")


_PLAYER_TOKEN = re.compile(r"\$(\d+)")
_MARKUP = re.compile(r"[¤§][A-Z_]+[¤§]")


def summary_line(line: str, names: Sequence[str]) -> str:
    """A referee's summary line as the viewer shows it: ``$N`` replaced by player N's name (a
    number past the players is left as written), the colour markers (``¤RED¤...§RED§``) dropped."""
    named = _PLAYER_TOKEN.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], line)
    return _MARKUP.sub("", named)


def _result(played: PlayedMatch, request: MatchRequest, out: Callable[[str], None]) -> None:
    """The result, each player's verdict and timing, and how to play the match again."""
    result, ready = played.result, played.ready
    if not played.started:
        out("interrupted during the bots' start check: bots stopped, no game played")
    elif result.outcome is None:
        out(f"interrupted after {result.turns} turns: bots stopped, no result")
    else:
        o = result.outcome
        if o.winner is not None:
            verdict = f"player {o.winner} ({shown(ready.specs[o.winner].name)}) wins"
        elif len(o.scores) == 2:
            verdict = "draw"
        else:
            verdict = "tie for first between players " + ", ".join(str(i) for i, r in enumerate(o.ranks) if r == 0)
        ranks = f", ranks {[r + 1 for r in o.ranks]}" if len(o.scores) > 2 else ""
        out(f"result: {verdict}, scores {list(o.scores)}{ranks}, {o.end_reason.value} after {o.turns} turns")
        for p in result.players:
            lat = p.latency_summary()
            use, timing = p.limit_use, "no answer"
            if lat["median"] is not None and use.closest is not None:
                past = f", {use.past_limit} past it" if use.past_limit else ""
                timing = f"median {lat['median']:.1f} ms, max {lat['max']:.1f} ms"
                timing += f", closest call {use.closest:.0%} of the limit{past}"
            note = f" ({shown(p.message)})" if p.message else ""
            refused = f", {p.refused} action{'s' if p.refused != 1 else ''} refused" if p.refused else ""
            out(f"  player {p.index} {shown(p.name)}: {p.verdict.value}{note}{refused}; {timing}")
            if p.verdict in (Verdict.CRASH, Verdict.MEMORY):
                _stderr_tail(p.stderr_tail, out)
    again = play_command(
        request.settings, ready.bots, ready.seed, swap=request.swap, no_timeout=request.no_timeout,
        sandboxed=result.sandboxed, data=request.data,
    )  # fmt: skip
    out(f"replay this match with: {again}")
    if request.replay is not None and not played.replay_error:
        out(f"replay file: {request.replay}")


CRASH_STDERR_LINES = 8
"""How many of a crashed bot's last stderr lines the result shows (all of them: --show-stderr)."""


def _stderr_tail(tail: str, out: Callable[[str], None]) -> None:
    """The last lines a crashed bot wrote on stderr (its traceback), under its verdict."""
    lines = shown(tail, lines=True).rstrip().split("\n")[-CRASH_STDERR_LINES:] if tail.strip() else []
    if lines:
        out("    its last stderr lines (all of them: --show-stderr):")
    for line in lines:
        out(f"    | {line}")
