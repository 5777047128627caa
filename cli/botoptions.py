"""``--lib DIR`` and ``--env NAME=VALUE``, the options that give bots a library folder and
environment variables, shared by ``arena play`` and ``bundle --verify`` (``arena tournament``
reads the same from its settings table: ``lib:`` and ``env:``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from arena.match.launch.botspec import BotSpecError, read_env

__all__ = ["lib_option", "env_option"]

F = TypeVar("F", bound=Callable[..., object])


def _env(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    try:
        return read_env(values, "")
    except BotSpecError as exc:
        raise click.BadParameter(str(exc).strip()) from None


def lib_option(what: str) -> Callable[[F], F]:
    """``--lib DIR`` (repeatable), into the parameter ``libs``; ``what`` says whose path it is on."""
    return click.option(
        "--lib",
        "libs",
        multiple=True,
        metavar="DIR",
        help=f"A library folder: put first on {what} PYTHONPATH, readable in the sandbox (repeatable).",
    )


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
