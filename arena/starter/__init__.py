"""Starter bots: ``arena new GAME NAME`` writes a bot package that reads the game's input exactly
as its statement gives it and plays a legal move every turn, with a test of its reader against an
input recorded from the toolkit's referee and a README of the commands to play, test, run a
tournament and bundle it.

The templates are package data beside this module (``GAME/*.tmpl``, ``GAME/recorded_input.txt``
and the shared ``*.tmpl``); ``{{NAME}}``, ``{{GAME}}`` and ``{{TITLE}}`` in them are replaced.
"""

from __future__ import annotations

import keyword
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import referee

from ..errors import ArenaError
from ..paths import umask

__all__ = ["GAMES", "StarterError", "Starter", "write_starter"]

TEMPLATES = Path(__file__).resolve().parent
GAMES = ("spring2021", "fall2020")
"""The games with a starter bot."""
TEMPLATE_SUFFIX = ".tmpl"


class StarterError(ArenaError, ValueError):
    """A starter that cannot be written: the message says why and what to do."""


@dataclass(frozen=True)
class Starter:
    """A starter bot written: its game (canonical name), its folder and its files (names)."""

    game: str
    folder: Path
    files: tuple[str, ...]


def check_name(name: str) -> None:
    """``name`` must be the name of a Python package that no standard module hides or is hidden by
    (the bot runs as ``python -m NAME``)."""
    if not name.isidentifier() or keyword.iskeyword(name) or not name.isascii():
        raise StarterError(
            f"{name!r} is not a Python package name: use letters, digits and _ (not a digit first), e.g. my_bot"
        )
    if name in sys.stdlib_module_names or name in ("referee", "arena", "bots", "cli", "bundler", "tests"):
        raise StarterError(f"{name!r} is the name of a module the bot or the toolkit imports: pick another NAME")


def starter_game(game: str) -> str:
    """The canonical name of ``game`` (an alias is accepted), which must have a starter."""
    try:
        name = referee.get(game).name
    except referee.UnknownGame as exc:
        raise StarterError(str(exc)) from None
    if name not in GAMES:
        raise StarterError(f"no starter bot for {name}: there is one for {', '.join(GAMES)}")
    return name


def write_starter(game: str, name: str, parent: Path) -> Starter:
    """Write the starter bot of ``game`` as the package ``parent/name`` (``parent`` is made if
    missing). Raises :class:`StarterError` before writing anything for a game without a starter,
    a name that is no package name, or a folder that exists: nothing is ever overwritten. The
    files are written in a temporary folder beside it, then moved in place at once."""
    game = starter_game(game)
    check_name(name)
    target = parent / name
    if target.exists() or target.is_symlink():
        raise StarterError(f"{target} already exists: arena new never overwrites, pick another NAME or --dir")
    if parent.exists() and not parent.is_dir():
        raise StarterError(f"{parent} is not a folder: give --dir an existing folder or a new one")
    parent.mkdir(parents=True, exist_ok=True)
    words = {"{{NAME}}": name, "{{GAME}}": game, "{{TITLE}}": referee.get(game).title}
    sources = sorted(TEMPLATES.glob(f"*{TEMPLATE_SUFFIX}")) + sorted((TEMPLATES / game).iterdir())
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=parent))
    try:
        files = []
        for source in sources:
            out = source.name.removesuffix(TEMPLATE_SUFFIX)
            text = source.read_text(encoding="utf-8")
            if source.name.endswith(TEMPLATE_SUFFIX):
                for token, value in words.items():
                    text = text.replace(token, value)
            (work / out).write_text(text, encoding="utf-8")
            files.append(out)
        os.chmod(work, 0o777 & ~umask())
        os.rename(work, target)  # at once: never a half-written bot
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise StarterError(f"cannot write {target}: {exc.strerror or exc}") from None
    return Starter(game, target, tuple(files))
