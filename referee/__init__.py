"""Referees that reproduce the official CodinGame referees, and the registry that names them.

>>> import referee
>>> ref = referee.create("spring2021", seed=42)
>>> sorted(referee.names())
['fall2020', 'spring2021']

The arena reaches games only through :func:`get` / :func:`create`, never by importing a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .base import (
    Deactivation,
    DeactivationCause,
    EndReason,
    FrameReport,
    InvalidCommand,
    Outcome,
    ParameterError,
    ProtocolError,
    Referee,
    RefereeError,
    Request,
    RuleViolation,
)

__all__ = [
    "get",
    "create",
    "names",
    "aliases",
    "UnknownGame",
    "Referee",
    "Request",
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
]

# Game name -> (module, class). Modules are imported on first use.
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


def names() -> list[str]:
    """The registered game names (without aliases)."""
    return list(_GAMES)


def aliases() -> dict[str, str]:
    """Alias -> game name."""
    return dict(_ALIASES)


def canonical_name(name: str) -> str:
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _GAMES:
        known = ", ".join(sorted([*_GAMES, *_ALIASES]))
        raise UnknownGame(f"unknown game {name!r}; known games: {known}")
    return key


def get(name: str) -> type[Referee]:
    """The referee class registered under ``name`` or one of its aliases (case-insensitive)."""
    module_name, class_name = _GAMES[canonical_name(name)]
    module = importlib.import_module(module_name)
    cls: type[Referee] = getattr(module, class_name)
    return cls


def create(name: str, seed: int, params: Mapping[str, str] | None = None) -> Referee:
    """A new game of ``name`` for ``seed`` (any Java long) and optional game parameters."""
    return get(name)(seed, params)
