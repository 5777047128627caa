"""What the ``arena`` commands share: option types and callbacks, and the words they print with."""

from __future__ import annotations

import math
from typing import Any

import click

from arena.match.seeds import SeedError, parse_seed

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


def game_params(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out
