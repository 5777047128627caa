"""The ``arena`` command group: each command lives in a module of its own (play, tournament,
ladder, versions, results, matches, view) and is added here, with the two small commands (games, bots)."""

from __future__ import annotations

import shlex
import sys
from typing import Any

import click

import referee
from arena.errors import ArenaError
from arena.match.launch import botspec

from . import ladder, matches, new, play, results, serve, tournament, versions, view
from .common import shown


class ArenaGroup(click.Group):
    """The ``arena`` group: an :class:`arena.errors.ArenaError` that a command lets through (the
    root of every error the arena explains) ends it with its one line, exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            raise click.ClickException(shown(str(exc))) from None


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.version_option(package_name="cgarena")
def main() -> None:
    """Play CodinGame contest games locally, under the official rules."""


@main.command()
def games() -> None:
    """List the games (and their aliases) with their leagues (--league LEVEL or NAME)."""
    aliases = referee.aliases()
    for name in referee.names():
        cls = referee.get(name)
        extra = [a for a, target in aliases.items() if target == name]
        click.echo(f"{name:12} {cls.title}" + (f"  (also: {', '.join(extra)})" if extra else ""))
        for level in range(1, cls.top_league + 1):
            what = "the default" if level == cls.top_league else cls.league_rules.get(level, "")
            click.echo(f"{'':12}   {cls.league_label(level)}" + (f": {what}" if what else ""))


@main.command("bots")
@click.argument("game", required=False)
def list_bots(game: str | None) -> None:
    """List the shipped bots (of GAME, or of every game) to choose an opponent: what each does,
    its measured strength, its speed, its options, how it is run and the leagues it plays."""
    if game is not None:
        try:
            names = [referee.get(game).name]
        except referee.UnknownGame as exc:
            raise click.UsageError(str(exc)) from None
    else:
        names = referee.names()
    for name in names:
        defaults = botspec.default_bots(name)
        click.echo(f"{name} (default match: {' vs '.join(defaults) or 'none'})")
        for bot, entry in botspec.shipped_bots(name).items():
            click.echo("\n".join(_bot_lines(name, bot, entry or {})))
    click.echo(f"measured: {MEASURED}")


MEASURED = (
    "strength from the Measured table of docs/reference/bots.md (arena tournament GAME BOT1 BOT2 --games 200 "
    "--workers 1, official time limits, 2026-11-23); speed per turn after the first"
)
"""Where the strengths and speeds of ``bots/shipped.yaml`` come from."""


def _bot_lines(game: str, bot: str, entry: dict[str, Any]) -> list[str]:
    """A shipped bot as ``arena bots`` shows it: its name and what it does, then its strength and
    speed, its options, and how it is run (those it has)."""
    spec = botspec.resolve(bot, game)
    shown = shlex.join(spec.argv[1:]) if spec.argv[0] == sys.executable else spec.command_line()
    leagues = "" if spec.leagues is None else f"; leagues {', '.join(map(str, spec.leagues))}"
    pad = " " * 12
    lines = [f"  {bot:9} {entry.get('about', '')}".rstrip()]
    measured = [f"{k}: {entry[k]}" for k in ("strength", "speed") if entry.get(k)]
    if measured:
        lines.append(pad + "; ".join(measured))
    if entry.get("options"):
        lines.append(pad + "options: " + ", ".join(str(o) for o in entry["options"]))
    lines.append(f"{pad}runs as: {shown}{leagues}")
    return lines


for command in (
    play.play,
    tournament.tournament,
    ladder.ladder,
    versions.versions,
    results.results,
    matches.matches,
    matches.list_tournaments,
    view.view,
    new.new,
    serve.serve,
):
    main.add_command(command)
