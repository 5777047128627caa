"""The options of every command that plays games, made from the one settings table
(:data:`arena.settings.SETTINGS`): :func:`setting_options` makes a command's options of the
settings it names (``arena play``: how games are played; ``arena tournament``: every setting that
has a flag; ``arena ladder init`` and ``run``: how games are played, where and how many at once),
and :func:`play_settings` reads what was given into the one settings type,
:class:`arena.match.settings.PlaySettings`. A flag passes the text typed to the table's reader,
as a config file's value does, so a value is refused with the same one line from both."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import click

from arena.match.settings import PlaySettings
from arena.settings import SETTINGS, ConfigError, Setting, flags_to_mapping, read_play_settings, setting

__all__ = ["PLAYED", "setting_options", "shown_default", "play_settings", "given", "flagged"]

F = TypeVar("F", bound=Callable[..., Any])

PLAYED = ("time_scale", "time_margin", "memory_limit_mb", "params", "league", "sandbox", "lib", "env")
"""How games are played, as ``arena play`` takes it (the replays it writes are its ``--replay
FILE``) and a ladder fixes it when it is made (``init``; ``run`` checks it)."""

DEFAULTS_ELSEWHERE = {"format": "gauntlet", "workers": "the number of cores", "league": "the top league"}
"""The defaults of settings that the config, not :data:`SETTINGS`, gives (shown in the help)."""


def shown_default(s: Setting) -> str | None:
    """What ``--help`` shows as a setting's default: the table's (``1`` for 1.0), or the one the
    config gives; ``None`` for a switch or a setting without one."""
    if s.is_switch:
        return None
    if s.default is not None:
        return f"{s.default:g}" if isinstance(s.default, float) else str(s.default)
    return DEFAULTS_ELSEWHERE.get(s.key)


def setting_options(keys: Iterable[str] | None = None, *, default: str | None = None) -> Callable[[F], F]:
    """One option per setting of ``keys`` (default: every setting that has a flag), in the
    table's order, its default in the help: the table's, or ``default`` for all (``the ladder's
    own``). The option itself has no default (a flag not given leaves a config file's value, or
    the ladder's), so click cannot show it."""
    wanted = None if keys is None else set(keys)

    def add(command: F) -> F:
        for s in reversed(SETTINGS):
            if s.option is None or (wanted is not None and s.key not in wanted):
                continue
            shown = default if default is not None and not s.is_switch else shown_default(s)
            text = s.help if shown is None else f"{s.help}  [default: {shown}]"
            # is_flag only when it is one: click reads an explicit is_flag=False as a flag whose value
            # may be left out, which takes a value such as -2 for an unknown option
            kind: dict[str, Any] = {"is_flag": True} if s.is_switch else {"multiple": s.item is not None}
            command = click.option(s.option, s.dest, help=text, metavar=s.metavar, **kind)(command)
        return command

    return add


def given(flags: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The settings of ``keys`` that the flags give, as a config file holds them (a usage error
    for one that cannot be read)."""
    dests = {setting(k).dest for k in keys}
    try:
        return flags_to_mapping({k: v for k, v in flags.items() if k in dests})
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def flagged(message: str, keys: Iterable[str]) -> str:
    """``message`` of the table's readers, which starts with the setting it is about, with that
    setting named by its flag (``time_scale: ...`` -> ``--time-scale: ...``): what a user of the
    flags typed."""
    for key in keys:
        s = setting(key)
        if s.option is not None and re.match(rf"{re.escape(s.key)}\b", message):
            return s.option + message[len(s.key) :]
    return message


def play_settings(
    flags: Mapping[str, Any], game: str, keys: Iterable[str], base: PlaySettings | None = None
) -> PlaySettings:
    """How games of ``game`` are played, as the flags of ``keys`` say (over ``base``); a usage
    error, in one line naming the flag, for a value that cannot be used."""
    keys = tuple(keys)
    try:
        return read_play_settings(given(flags, keys), game, base=base)
    except ConfigError as exc:
        raise click.UsageError(flagged(str(exc), keys)) from None
