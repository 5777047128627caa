"""What a BOT argument means: a shipped name, a ``.py`` file, a package, an executable, a command.

:func:`resolve` tries, in order (relative paths from ``base``, by default the current directory;
a tournament config passes its own): a name from the shipped bots file (``bots/shipped.yaml``) for
the game, alone or with extra arguments (``"beam --width 50"``), run from the directory that holds
the ``bots`` package (a user's own ``bots/`` folder cannot shadow it); an existing path, alone or
with arguments (a Python bot by :func:`python_command`, a ``.js`` file by :mod:`.jsbot`, another
file as is, when it is executable); otherwise a command line, split as a POSIX shell would split
it (never run through one), whose program must be an executable file or a command on ``PATH`` (a
command from a config runs in the config's directory). For users: docs/how-to/play.md.

A bot's name follows one rule everywhere (:mod:`arena.match.launch.botname`); ``NAME=BOT``
(:func:`split_name`) names it on the command line. :func:`with_run_options` adds ``--lib`` folders
and ``--env`` variables to a resolved bot.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from referee.suggest import did_you_mean

from ... import paths
from ...errors import ArenaError
from . import botname, jsbot, pymodule

__all__ = [
    "BotSpec",
    "BotSpecError",
    "PythonSource",
    "resolve",
    "split_name",
    "is_bot_name",
    "python_command",
    "with_run_options",
    "libs_first",
    "read_libs",
    "read_env",
    "shipped_bots",
    "default_bots",
    "REPO_ROOT",
    "BOTS_FILE",
]

REPO_ROOT = Path(__file__).resolve().parents[3]
BOTS_FILE = REPO_ROOT / "bots" / "shipped.yaml"


class BotSpecError(ArenaError, ValueError):
    """A BOT argument that names nothing runnable."""


@dataclass(frozen=True)
class PythonSource:
    """Where a Python bot run by this interpreter comes from: what ``bundle`` takes as its entry."""

    entry: str
    """The script, or the package directory (absolute)."""
    launcher: int
    """How many leading words of the bot's ``argv`` start it (``python -u FILE``: 3,
    ``python -u -m PKG``: 4); the words after them are the bot's arguments."""


@dataclass(frozen=True)
class BotSpec:
    """How to start one bot."""

    name: str
    argv: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    data: tuple[str, ...] = ()
    """Files and directories the bot reads (relative to ``cwd``): readable in the sandbox."""
    source: PythonSource | None = None
    """For a Python bot (a script, a package, a shipped module), its source; ``None`` for other
    bots, including a Python script given as a command (``python3 bot.py``)."""
    leagues: tuple[int, ...] | None = None
    """For a shipped bot, the league levels it plays legally (``leagues`` in ``bots/shipped.yaml``);
    ``None`` for a bot that does not say (a user's: it is played at any league)."""

    def league_refusal(self, game: str, level: int) -> str | None:
        """Why this bot is not played at ``level`` of ``game`` (a shipped bot that does not play
        that league), or ``None``."""
        if self.leagues is None or level in self.leagues:
            return None
        levels = ", ".join(str(n) for n in self.leagues)
        return (
            f"bot {self.name!r} (shipped) plays {game} at league {levels} only, not at league {level}: "
            f"pick a shipped bot that does (arena bots {game}), or your own"
        )

    def command_line(self) -> str:
        return shlex.join(self.argv)

    def full_env(self) -> dict[str, str] | None:
        if not self.env:
            return None
        merged = dict(os.environ)
        merged.update(self.env)
        return merged


def shipped_bots(game: str, bots_file: Path | None = None) -> dict[str, dict[str, Any]]:
    """The bots file's entries for ``game`` (empty if there are none); ``bots_file`` defaults to
    :data:`BOTS_FILE`."""
    bots_file = bots_file or BOTS_FILE
    if not bots_file.is_file():
        return {}
    try:
        data = yaml.safe_load(bots_file.read_text()) or {}
    except yaml.YAMLError as exc:
        raise BotSpecError(f"{bots_file}: not valid YAML ({exc})") from None
    entries = data.get(game) or {}
    if not isinstance(entries, dict):
        raise BotSpecError(f"{bots_file}: the entry for {game} must map bot names to settings")
    return entries


def default_bots(game: str, bots_file: Path | None = None) -> tuple[str, ...]:
    """The default match of ``game``: the first two shipped bots (fewer if fewer are shipped)."""
    return tuple(shipped_bots(game, bots_file))[:2]


_NAME = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.#+-]*)=(\S.*)", re.DOTALL)


def is_bot_name(text: str) -> bool:
    """Whether ``text`` can name a bot in ``NAME=BOT`` (letters, digits and ``_.#+-``)."""
    return _NAME.fullmatch(f"{text}=x") is not None


def split_name(text: str) -> tuple[str | None, str]:
    """``"old=bot.py --x 1"`` -> ``("old", "bot.py --x 1")``; text without a ``NAME=`` prefix
    (or an existing file whose name has a ``=``) -> ``(None, text)``."""
    match = _NAME.fullmatch(text.strip())
    if match is None or paths.exists(paths.expanded(text.strip())):
        return None, text.strip()
    return match.group(1), match.group(2).strip()


def python_command(path: Path) -> tuple[tuple[str, ...], str | None]:
    """How a Python bot at ``path`` (a file or a directory) runs: the interpreter's arguments and
    the directory to run them from (``None``: any). The same rule as ``bundle``'s entry
    (:mod:`arena.match.launch.pymodule`)."""
    try:
        entry = pymodule.locate(path)
    except pymodule.NoMainError as exc:
        raise BotSpecError(f"{exc.path}: a directory bot needs a __main__.py") from None
    return (sys.executable, "-u", *entry.run_args()), None if entry.is_script else str(entry.root)


def _from_path(name: str, path: Path, args: tuple[str, ...] = ()) -> BotSpec:
    what = None if path.is_dir() else paths.not_regular(path)
    if what is not None:  # a FIFO would never give its text, a device never end it
        raise BotSpecError(f"{path}: {what}: a bot is a file, a directory or a command")
    if path.is_dir() or path.suffix == ".py":
        argv, cwd = python_command(path)
        return BotSpec(name=name, argv=argv + args, cwd=cwd, source=PythonSource(str(path.resolve()), len(argv)))
    if path.suffix.lower() in (".js", ".cjs"):
        node = jsbot.js_argv(path.resolve(), args)
        if node is None:
            raise BotSpecError(f"{path}: a JavaScript bot runs with node, which is not installed: {jsbot.NODE_INSTALL}")
        return BotSpec(name=name, argv=node)
    if not os.access(path, os.X_OK):
        raise BotSpecError(f"{path}: {jsbot.interpreter_hint(path)}")
    return BotSpec(name=name, argv=(str(path.resolve()),) + args)


_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_env(items: Sequence[str], what: str = "--env") -> dict[str, str]:
    """``NAME=VALUE`` items (``--env``, repeatable) -> ``{NAME: VALUE}``, the later one winning;
    :class:`BotSpecError` names an item that is not one."""
    out: dict[str, str] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not _VARIABLE.fullmatch(name):
            raise BotSpecError(f"{what} {item!r}: expected NAME=VALUE, NAME letters, digits and _ (e.g. DEBUG=1)")
        if "\0" in value:
            raise BotSpecError(f"{what} {name}: a value cannot hold a NUL byte")
        out[name] = value
    return out


def read_libs(items: Sequence[str], base: Path | None = None, what: str = "--lib") -> tuple[str, ...]:
    """``--lib DIR`` items -> their absolute paths (relative ones from ``base``, default the
    current directory); :class:`BotSpecError` names one that is not a directory."""
    out = []
    for item in items:
        path = paths.located(item, base or Path.cwd())
        reason = paths.missing(path)
        if reason is None and not path.is_dir():
            reason = "not a directory"
        if reason is not None:
            raise BotSpecError(f"{what} {item}: {reason}: give a folder of Python modules")
        out.append(os.path.abspath(path))
    return tuple(dict.fromkeys(out))


def with_run_options(spec: BotSpec, libs: Sequence[str] = (), env: Mapping[str, str] | None = None) -> BotSpec:
    """``spec`` with the variables ``env`` set (over its own) and the folders ``libs`` first on
    its ``PYTHONPATH`` (before a ``PYTHONPATH`` given in ``env`` or its own). A sandboxed bot
    sees every folder of its ``PYTHONPATH``, read-only (:func:`arena.match.sandbox.confine`)."""
    merged = libs_first({**spec.env, **(env or {})}, libs)
    return dataclasses.replace(spec, env=merged) if merged != dict(spec.env) else spec


def libs_first(env: Mapping[str, str], libs: Sequence[str]) -> dict[str, str]:
    """``env`` with the folders ``libs`` first on its ``PYTHONPATH`` (before the one it gives)."""
    rest = env.get("PYTHONPATH")
    return {**env, "PYTHONPATH": os.pathsep.join([*libs, *([rest] if rest else [])])} if libs else dict(env)


def _shipped(name: str, entry: Mapping[str, Any] | None, extra: tuple[str, ...], bots_file: Path) -> BotSpec:
    entry = entry or {}
    args = tuple(str(a) for a in entry.get("args", [])) + extra
    if "module" in entry:
        launcher = (sys.executable, "-u", "-m", str(entry["module"]))
        found = pymodule.module_path(REPO_ROOT, str(entry["module"]))
        source = None if found is None else PythonSource(str(found), len(launcher))
        spec = BotSpec(name=name, argv=launcher + args, cwd=str(REPO_ROOT), source=source)
    elif "path" in entry:
        spec = _from_path(name, REPO_ROOT / entry["path"], args)
    elif "command" in entry:
        spec = BotSpec(name=name, argv=tuple(shlex.split(entry["command"])) + args)
    else:
        raise BotSpecError(f"{bots_file}: bot {name!r} needs a module, a path or a command")
    env = {str(k): str(v) for k, v in (entry.get("env") or {}).items()}
    leagues = tuple(int(n) for n in entry["leagues"]) if "leagues" in entry else None
    return dataclasses.replace(spec, env=env, leagues=leagues)


def _is_path_like(token: str) -> bool:
    """Whether a command's first word names a file rather than a program to look up on ``PATH``
    (as a shell would, except that ``bot.py`` needs no ``./``)."""
    return "/" in token or token.endswith((".py", ".js")) or token.startswith("~")


def resolve(text: str, game: str, bots_file: Path | None = None, base: Path | None = None) -> BotSpec:
    """Turn a BOT argument into a :class:`BotSpec`, or raise :class:`BotSpecError`.

    ``base`` is the directory relative paths are taken from (default: the current one);
    ``bots_file`` the shipped bots' file (default :data:`BOTS_FILE`)."""
    bots_file = bots_file or BOTS_FILE
    text = text.strip()
    if not text:
        raise BotSpecError("empty bot: give a file, a directory, a command or a shipped bot name")
    if "\0" in text:
        raise BotSpecError(f"{text!r} contains a NUL byte: no file or command has one")
    shipped = shipped_bots(game, bots_file)
    if text in shipped:
        return _shipped(text, shipped[text], (), bots_file)
    here = Path.cwd() if base is None else base
    whole = paths.located(text, here)
    if paths.exists(whole):  # a command line is no file name (it may even be too long for one)
        return _from_path(botname.name_of_path(str(whole)), whole)
    try:
        words = tuple(shlex.split(text))
    except ValueError as exc:
        raise BotSpecError(f"cannot split bot command {text!r}: {exc}") from None
    program, rest = words[0], words[1:]
    if program in shipped:
        return _shipped(program, shipped[program], rest, bots_file)
    if _is_path_like(program):
        path = paths.located(program, here)
        reason = paths.missing(path)
        if reason is not None:
            raise BotSpecError(f"{program}: {reason} (from {here})")
        return _from_path(botname.default_name(text, here), path, rest)
    if shutil.which(program) is None:
        names = ", ".join(sorted(shipped)) or "none"
        raise BotSpecError(
            f"{program!r} is not a file, a directory, a command on PATH or a shipped {game} bot (shipped: {names})"
            + did_you_mean(program, shipped)
        )
    name = botname.default_name(text, here)
    return BotSpec(name=name, argv=jsbot.with_prelude(words), cwd=None if base is None else str(base))
