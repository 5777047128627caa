"""The one rule that names a bot from its BOT argument, the same in ``arena play``, ``arena
tournament`` (and its configs), ``arena matches`` and wherever a bot is shown.

A bot named on the command line (``NAME=BOT``) or in a config (``name:``) keeps that name.
Otherwise its name is that of the file that *is* the bot, without its extension, and never an
interpreter's:

- a file: its name without the extension (``crash3.py`` -> ``crash3``, ``index.js`` -> ``index``,
  ``bot.sh`` -> ``bot``); a package's ``__main__.py`` or ``__init__.py``: its folder's name;
- a directory: its name (``mybot/`` -> ``mybot``, ``.`` -> the current folder's name);
- a command whose program is an interpreter (Python, Node, Java, a shell, ``env``...): the module
  it runs (``python3 -m mybot`` -> ``mybot``; ``python3 -m mybot.__main__`` -> ``mybot``) or its
  script, the first word after the program that is not an option (``node index.js`` -> ``index``,
  ``java -jar bot.jar`` -> ``bot``); the program's name only when there is neither;
- another command: its program, as a file (``./mybot --depth 3`` -> ``mybot``);
- a shipped bot, with or without arguments: its shipped name (``beam --width 5`` -> ``beam``).

Two bots of one tournament that get the same name are told apart by the tournament
(``greedy``, ``greedy#2``).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path, PurePath

__all__ = ["INTERPRETER", "default_name", "name_of_path"]

INTERPRETER = re.compile(
    r"(python|pypy|node|nodejs|deno|bun|java|ruby|perl|php|lua|luajit|julia|Rscript|bash|sh|dash|zsh|env)"
    r"[0-9.]*(\.exe)?"
)
"""The names of programs that run a script named among their arguments."""

_PACKAGE_FILES = ("__main__.py", "__init__.py")


def name_of_path(word: str, base: Path | None = None) -> str:
    """The name of the bot at path ``word`` (relative to ``base``, default the current folder):
    the file's name without its extension, a package file's folder, a directory's name."""
    path = PurePath(word)
    if path.name in _PACKAGE_FILES:
        path = path.parent
    if path.name in ("", ".", "..") or word.endswith(("/.", "/..")):
        path = PurePath((base or Path.cwd()).joinpath(word).resolve())
    name = path.name
    folder = (base or Path.cwd()).joinpath(path)
    try:
        is_dir = folder.is_dir()
    except (OSError, ValueError):  # a name no file can have: not a folder
        is_dir = False
    stem = name.rsplit(".", 1)[0] if "." in name[1:] and not is_dir else name
    return stem or name or word


def default_name(text: str, base: Path | None = None) -> str:
    """The name of the bot given as ``text`` (a path, a command line or a shipped name, without
    ``NAME=``), by the rule of the module's docstring."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if not words:
        return text
    while words and PurePath(words[0]).name == "env":  # env [NAME=VALUE...] PROGRAM ...
        words = [w for w in words[1:] if not (w.startswith("-") or "=" in w)] or words[:1]
    program, rest = words[0], words[1:]
    if not rest or INTERPRETER.fullmatch(PurePath(program).name) is None:
        return name_of_path(program, base)
    if "-m" in rest[:-1]:
        module = rest[rest.index("-m") + 1].removesuffix(".__main__")
        return module or program
    plain = [w for w in rest if not w.startswith("-")]
    files = [w for w in plain if "/" in w or "." in w.strip(".")]
    script = (files or plain or [program])[0]
    return name_of_path(script, base)
