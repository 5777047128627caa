"""The ``arena`` command group, the options its commands share, and the small commands (games,
bots). The command line is the only part of the arena that prints."""

from __future__ import annotations

import math
import shlex
import sys
from typing import Any

import click

import referee

from ..match import botspec
from ..match.seeds import SeedError, parse_seed

DEFAULT_GAME = "spring2021"


def java_long(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_seed(value)
    except SeedError as exc:
        raise click.BadParameter(str(exc)) from None


class FiniteFloatRange(click.FloatRange):
    """click's ``FloatRange`` that also refuses ``nan`` (it compares false with any bound, so it
    passes a range check; ``inf`` is refused by a finite bound)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if isinstance(number, float) and math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


def plural(n: int, word: str) -> str:
    """``1 worker``, ``2 workers``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cgarena")
def main() -> None:
    """Play CodinGame contest games locally, under the official rules."""


@main.command()
def games() -> None:
    """List the games (and their aliases)."""
    aliases = referee.aliases()
    for name in referee.names():
        cls = referee.get(name)
        extra = [a for a, target in aliases.items() if target == name]
        click.echo(f"{name:12} {cls.title}" + (f"  (also: {', '.join(extra)})" if extra else ""))


def game_params(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


@main.command("bots")
@click.argument("game", required=False)
def list_bots(game: str | None) -> None:
    """List the shipped bots (of GAME, or of every game) and how each is run."""
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
        for bot in botspec.shipped_bots(name):
            spec = botspec.resolve(bot, name)
            shown = shlex.join(spec.argv[1:]) if spec.argv[0] == sys.executable else spec.command_line()
            click.echo(f"  {bot:8} {shown}")
