"""``bundle --verify``'s ``--env NAME=VALUE``: environment variables for the bots it plays (the
``arena`` commands read the same from the one settings table, :mod:`cli.options`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from arena.match.launch.botspec import BotSpecError, read_env

__all__ = ["env_option"]

F = TypeVar("F", bound=Callable[..., object])


def _env(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    try:
        return read_env(values, "")
    except BotSpecError as exc:
        raise click.BadParameter(str(exc).strip()) from None


def env_option(what: str) -> Callable[[F], F]:
    """``--env NAME=VALUE`` (repeatable), into the parameter ``env`` as a mapping."""
    return click.option(
        "--env",
        "env",
        multiple=True,
        callback=_env,
        metavar="NAME=VALUE",
        help=f"An environment variable for {what} (repeatable): the sandbox clears all others but PATH, "
        "LANG, HOME, TMPDIR.",
    )
