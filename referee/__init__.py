"""Referees that reproduce the official CodinGame referees, and the registry that names them.

>>> import referee
>>> ref = referee.create("spring2021", seed=42)
>>> sorted(referee.names())
['fall2020', 'spring2021']

The arena reaches games only through :func:`get` / :func:`create`, never by importing a game.
Other packages add games through the entry-point group ``cgarena.games`` (see
``docs/adding-a-game.md``); they are found at each look-up, so installing one needs no restart.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .base import (
    LEAGUE,
    Answer,
    Deactivation,
    DeactivationCause,
    EndReason,
    FrameReport,
    InvalidCommand,
    Outcome,
    Outputs,
    ParameterError,
    ProtocolError,
    Referee,
    RefereeError,
    Request,
    RuleViolation,
)
from .suggest import did_you_mean

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "get",
    "create",
    "names",
    "aliases",
    "UnknownGame",
    "PluginError",
    "ENTRY_POINT_GROUP",
    "canonical_name",
    "Referee",
    "Request",
    "Answer",
    "Outputs",
    "FrameReport",
    "Outcome",
    "EndReason",
    "Deactivation",
    "DeactivationCause",
    "RefereeError",
    "InvalidCommand",
    "RuleViolation",
    "ProtocolError",
    "ParameterError",
    "LEAGUE",
]

ENTRY_POINT_GROUP = "cgarena.games"
"""Python entry-point group through which other packages add games: an entry point named after
the game, pointing at its :class:`Referee` subclass (``threeway = mypkg.referee:ThreeWay``)."""

# The games shipped here: name -> (module, class). Modules are imported on first use.
_GAMES: dict[str, tuple[str, str]] = {
    "spring2021": ("referee.spring2021.referee", "Spring2021Referee"),
    "fall2020": ("referee.fall2020.referee", "Fall2020Referee"),
}
_ALIASES: dict[str, str] = {
    "photosynthesis": "spring2021",
    "spring-challenge-2021": "spring2021",
    "witches-brew": "fall2020",
    "fall-challenge-2020": "fall2020",
}


class UnknownGame(LookupError):
    """No referee is registered under that name."""


class PluginError(UnknownGame):
    """A game plugin (entry point of group ``cgarena.games``) cannot be used."""


def _plugins() -> dict[str, EntryPoint]:
    """The installed game plugins by game name (shipped games keep their name).

    Reading every installed distribution's entry points costs about a millisecond, and a
    tournament of a plugin's game looks its game up for every match: the answer is kept for as
    long as the path and its folders stay as they were (installing or removing a distribution
    adds or removes a folder in one of them, which changes its time of change and its count of
    links)."""
    key = _path_state()
    if _plugins_seen and _plugins_seen[0][0] == key:
        return dict(_plugins_seen[0][1])
    from importlib.metadata import entry_points  # slow to import: only when plugins are looked for

    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        name = ep.name.strip().lower()
        if name not in _GAMES and name not in _ALIASES:
            found.setdefault(name, ep)
    _plugins_seen[:] = [(key, found)]
    _loaded.clear()
    return dict(found)


_plugins_seen: list[tuple[tuple[object, ...], dict[str, EntryPoint]]] = []
"""The state of the path at the last look for plugins, and what it found."""
_loaded: dict[tuple[str, str], type[Referee]] = {}
"""The plugins' referee classes loaded since that look, by entry point (name, value)."""


def _path_state() -> tuple[object, ...]:
    """What tells a change of the installed distributions: the path, and for each of its folders
    its time of change, its count of links, its size and its inode."""
    state: list[object] = []
    for entry in sys.path:
        try:
            st = os.stat(entry or ".")
        except (OSError, TypeError, ValueError):
            state.append((entry, None))
            continue
        state.append((entry, st.st_mtime_ns, st.st_nlink, st.st_size, st.st_ino))
    return tuple(state)


def _load(ep: EntryPoint) -> type[Referee]:
    known = _loaded.get((ep.name, ep.value))
    if known is not None:
        return known
    where = f"game plugin {ep.name!r} ({ep.value}"
    where += f", from {ep.dist.name})" if ep.dist is not None else ")"
    try:
        cls = ep.load()
    except Exception as exc:
        raise PluginError(f"{where} failed to load: {type(exc).__name__}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Referee)):
        raise PluginError(f"{where} is not a referee.Referee subclass")
    if getattr(cls, "name", None) != ep.name.strip().lower():
        raise PluginError(
            f"{where}: its class names the game {getattr(cls, 'name', None)!r}; "
            "the entry point's name and Referee.name must be the same (lower case)"
        )
    if not 2 <= cls.player_count <= 8:
        raise PluginError(f"{where}: player_count must be 2 to 8, not {cls.player_count}")
    _loaded[ep.name, ep.value] = cls
    return cls


def names() -> list[str]:
    """The registered game names (without aliases): the shipped games, then the plugins."""
    return [*_GAMES, *_plugins()]


def _aliases(plugins: Mapping[str, EntryPoint]) -> dict[str, str]:
    out = dict(_ALIASES)
    for name, ep in plugins.items():
        try:
            cls = _load(ep)
        except PluginError:
            continue
        for alias in cls.aliases:
            out.setdefault(alias.lower(), name)
    return out


def aliases() -> dict[str, str]:
    """Alias -> game name (a plugin's aliases are its class's ``aliases``)."""
    return _aliases(_plugins())


def _lookup(name: str) -> tuple[str, dict[str, EntryPoint]]:
    """The game name ``name`` stands for, and the plugins seen (one scan of the entry points)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in _GAMES:
        return key, {}
    plugins = _plugins()
    if key in plugins:
        return key, plugins
    every = _aliases(plugins)
    if key in every:
        return every[key], plugins
    names = sorted([*_GAMES, *plugins, *every])
    raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(names)}{did_you_mean(key, names)}")


def canonical_name(name: str) -> str:
    """The game name ``name`` (a name or an alias, any case) stands for."""
    return _lookup(name)[0]


def get(name: str) -> type[Referee]:
    """The referee class registered under ``name`` or one of its aliases (case-insensitive).

    Raises :class:`UnknownGame` for a name nobody registered, :class:`PluginError` for a plugin
    that cannot be loaded."""
    key, plugins = _lookup(name)
    if key in _GAMES:
        module_name, class_name = _GAMES[key]
        module = importlib.import_module(module_name)
        cls: type[Referee] = getattr(module, class_name)
        return cls
    return _load(plugins[key])


def create(
    name: str, seed: int, params: Mapping[str, str] | None = None, *, league: int | str | None = None
) -> Referee:
    """A new game of ``name`` for ``seed`` (any Java long) and optional game parameters, at the
    league ``league`` (a level or an official league name; the ``league`` parameter too; default:
    the top league, Bronze to Legend)."""
    if league is not None:
        params = {**(params or {}), LEAGUE: str(league)}
    return get(name)(seed, params)
