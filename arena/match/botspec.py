"""What a BOT argument means: a shipped name, a ``.py`` file, a package, an executable, a command.

Resolution order for ``text``:

1. a name from the shipped bots file (``bots/shipped.yaml``, installed with the package) for the
   game being played: a module run as ``python -u -m MODULE`` from the directory that holds the
   ``bots`` package (so a user's own ``bots/`` folder in the current directory cannot shadow it),
   a path relative to that directory, or a command;
2. an existing path: a ``.py`` file runs with this interpreter, unbuffered (``python -u``), as
   CodinGame runs Python bots; a directory with ``__main__.py`` runs as ``python -u DIR``; another
   file must be executable and runs as is;
3. otherwise a command line, split as a POSIX shell would split it (never run through a shell);
   its program must exist (a path or a command on ``PATH``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["BotSpec", "BotSpecError", "resolve", "shipped_bots", "default_bots", "REPO_ROOT",
           "BOTS_FILE"]

REPO_ROOT = Path(__file__).resolve().parents[2]
BOTS_FILE = REPO_ROOT / "bots" / "shipped.yaml"


class BotSpecError(ValueError):
    """A BOT argument that names nothing runnable."""


@dataclass(frozen=True)
class BotSpec:
    """How to start one bot."""

    name: str
    argv: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)

    def command_line(self) -> str:
        return shlex.join(self.argv)

    def full_env(self) -> dict[str, str] | None:
        if not self.env:
            return None
        merged = dict(os.environ)
        merged.update(self.env)
        return merged


def shipped_bots(game: str, bots_file: Path = BOTS_FILE) -> dict[str, dict[str, Any]]:
    """The bots file's entries for ``game`` (empty if there are none)."""
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


def default_bots(game: str, bots_file: Path = BOTS_FILE) -> tuple[str, ...]:
    """The default match of ``game``: the first two shipped bots (fewer if fewer are shipped)."""
    return tuple(shipped_bots(game, bots_file))[:2]


def _python(path: Path) -> tuple[str, ...]:
    return (sys.executable, "-u", str(path))


def _from_path(path: Path, args: tuple[str, ...] = ()) -> tuple[str, ...]:
    if path.is_dir():
        if not (path / "__main__.py").is_file():
            raise BotSpecError(f"{path}: a directory bot needs a __main__.py")
        return _python(path) + args
    if path.suffix == ".py":
        return _python(path) + args
    if not os.access(path, os.X_OK):
        raise BotSpecError(f"{path}: not executable (chmod +x it, or give the command to run it)")
    return (str(path.resolve()),) + args


def resolve(text: str, game: str, bots_file: Path = BOTS_FILE) -> BotSpec:
    """Turn a BOT argument into a :class:`BotSpec`, or raise :class:`BotSpecError`."""
    text = text.strip()
    if not text:
        raise BotSpecError("empty bot: give a file, a directory, a command or a shipped bot name")
    shipped = shipped_bots(game, bots_file)
    if text in shipped:
        entry = shipped[text] or {}
        args = tuple(str(a) for a in entry.get("args", []))
        cwd = None
        if "module" in entry:
            argv = (sys.executable, "-u", "-m", str(entry["module"])) + args
            cwd = str(REPO_ROOT)
        elif "path" in entry:
            argv = _from_path(REPO_ROOT / entry["path"], args)
        elif "command" in entry:
            argv = tuple(shlex.split(entry["command"])) + args
        else:
            raise BotSpecError(f"{bots_file}: bot {text!r} needs a module, a path or a command")
        env = {str(k): str(v) for k, v in (entry.get("env") or {}).items()}
        return BotSpec(name=text, argv=argv, cwd=cwd, env=env)
    path = Path(text).expanduser()
    if path.exists():
        return BotSpec(name=path.name if path.name != "__main__.py" else path.parent.name,
                       argv=_from_path(path))
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:
        raise BotSpecError(f"cannot split bot command {text!r}: {exc}") from None
    program = argv[0]
    if "/" in program:
        if not Path(program).exists():
            raise BotSpecError(f"{program}: no such file")
        if len(argv) > 1 and program.endswith(".py"):
            return BotSpec(name=Path(program).name, argv=_python(Path(program)) + argv[1:])
    elif shutil.which(program) is None:
        names = ", ".join(sorted(shipped)) or "none"
        raise BotSpecError(
            f"{text!r} is not a file, a command on PATH or a shipped {game} bot (shipped: {names})"
        )
    name = Path(argv[1]).name if len(argv) > 1 and Path(argv[1]).suffix == ".py" else Path(program).name
    return BotSpec(name=name, argv=argv)
