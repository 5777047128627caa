"""JavaScript bots as CodinGame runs them, and the interpreter to suggest for a file that is not
executable.

CodinGame's JavaScript bots read their input with ``readline()`` and answer with ``print()`` and
``printErr()``, globals that Node.js does not have: a ``.js`` bot (``index.js``, or ``node
index.js``) runs as ``node --require PRELUDE index.js``, where :data:`PRELUDE` (``cg_prelude.js``)
defines them (``readline()`` reads standard input synchronously, ``undefined`` once it has ended).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path, PurePath

__all__ = ["PRELUDE", "NODE_INSTALL", "js_argv", "with_prelude", "interpreter_hint"]

PRELUDE = str(Path(__file__).resolve().with_name("cg_prelude.js"))
"""The file that defines ``readline``, ``print`` and ``printErr`` (``node --require`` runs it first)."""
NODE_INSTALL = "install Node.js (Debian/Ubuntu: apt-get install nodejs; or https://nodejs.org)"
"""What to do where ``node`` is missing."""

_BY_EXTENSION = {
    ".sh": "sh",
    ".bash": "bash",
    ".zsh": "zsh",
    ".py": "python3",
    ".rb": "ruby",
    ".pl": "perl",
    ".php": "php",
    ".lua": "lua",
    ".js": "node",
}


def js_argv(script: Path, args: Sequence[str] = ()) -> tuple[str, ...] | None:
    """How the ``.js`` bot ``script`` runs: ``node --require PRELUDE SCRIPT ARGS`` (``node`` by
    name, found on ``PATH`` as in the command ``node index.js``); ``None`` where it is not installed."""
    program = shutil.which("node") or shutil.which("nodejs")
    if program is None:
        return None
    return (PurePath(program).name, "--require", PRELUDE, str(script), *args)


def with_prelude(words: Sequence[str]) -> tuple[str, ...]:
    """A command ``node [OPTIONS] FILE.js ...`` with the prelude required first (unchanged when it
    is there already, or when it runs no ``.js`` file)."""
    words = tuple(words)
    if not words or PurePath(words[0]).name not in ("node", "nodejs") or PRELUDE in words:
        return words
    if not any(w.endswith((".js", ".cjs")) for w in words[1:]):
        return words
    return (words[0], "--require", PRELUDE, *words[1:])


def _shebang(path: Path) -> str | None:
    """The program of ``path``'s ``#!`` line (``/usr/bin/env python3`` -> ``python3``), or ``None``."""
    try:
        with open(path, "rb") as f:
            first = f.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if words and PurePath(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return PurePath(words[0]).name if words else None


def interpreter_hint(path: Path) -> str:
    """What to do with ``path``, a file that is not executable: run it with the interpreter its
    ``#!`` line or extension names (``"bash FILE"``), or ``chmod +x`` it."""
    shown = str(path)
    program = _shebang(path) or _BY_EXTENSION.get(path.suffix.lower())
    chmod = f"chmod +x {shown}"
    if program is None or shutil.which(program) is None:
        return f"not executable: {chmod} (it then runs as is), or put its interpreter first"
    return f'not executable: {chmod}, or run it with its interpreter: "{program} {shown}"'
