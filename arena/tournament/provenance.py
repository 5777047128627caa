"""What played a game: the referee's rules version and the files each bot runs, with their hash.

A tournament is resumed (or extended) only when both are unchanged, so that every stored game of
it was played by the same code. The bot hash covers the files' contents and their names relative
to the folder they share, so a project moved or cloned elsewhere still resumes its tournaments.

Databases written by cgarena 0.1.0 (results schema 1) used other formulas, which are still
checked: the referee was identified by a hash of its source files (the hashes of that release,
rules version 1 of both games, are listed here) and the bot hash covered absolute file names
(recomputed from the names stored with it and the current contents, the files matched by their
place under their shared folder).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path, PurePath

import referee

from ..match import paths
from ..match.botspec import BotSpec
from .records import BotRow

__all__ = [
    "referee_version",
    "same_rules",
    "bot_sources",
    "data_files",
    "source_hash",
    "legacy_source_hash",
    "same_sources",
]

_LEGACY_REFEREES = {"spring2021": {"6fda0e051df8"}, "fall2020": {"bf0123950709"}}
"""Referee source hashes of cgarena 0.1.0, by game: all play rules version 1."""

_LEGACY_FORMAT = re.compile(r"cgarena [^,]+, (?P<game>\S+) referee (?P<hash>[0-9a-f]{12})")


def referee_version(game: str) -> str:
    """``"GAME rules N"``: the registry name and the referee's declared rules version."""
    cls = referee.get(game)
    return f"{cls.name} rules {cls.rules_version}"


def same_rules(stored: str, game: str) -> bool:
    """Whether games stored with referee version ``stored`` were played under today's rules."""
    if stored == referee_version(game):
        return True
    old = _LEGACY_FORMAT.fullmatch(stored)
    cls = referee.get(game)
    return (
        old is not None
        and old["game"] == cls.name
        and cls.rules_version == 1
        and old["hash"] in _LEGACY_REFEREES.get(cls.name, set())
    )


# -- the files a bot runs -------------------------------------------------------------------------


def _local_imports(path: Path, roots: Sequence[Path] = ()) -> list[Path]:
    """Files next to a Python file that it imports (``import x`` / ``from x import``/``from .x``),
    and the modules under ``roots`` (the directories a ``-m`` bot runs from) that it imports by
    their absolute dotted names (``from bots.lib.timer import ...``)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError, OSError):
        return []
    names: set[str] = set()
    dotted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
            dotted.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                names.add(node.module.split(".")[0])
                if not node.level:
                    dotted.add(node.module)
                    dotted.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif node.level:
                names.update(alias.name for alias in node.names)
    found = []
    for name in sorted(names):
        for candidate in (path.parent / f"{name}.py", path.parent / name):
            if candidate.exists():
                found.append(candidate)
    for root in roots:
        for name in sorted(dotted):
            found.extend(_module_files(root, name))
    return found


def _module_files(root: Path, module: str) -> list[Path]:
    """The file of ``module`` under ``root`` and the ``__init__.py`` of its packages."""
    parts = module.split(".")
    found = []
    for i in range(1, len(parts)):
        init = root.joinpath(*parts[:i], "__init__.py")
        if init.is_file():
            found.append(init)
    base = root.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base / "__main__.py"):
        if candidate.is_file():
            found.append(candidate)
    return found


def _files_of(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and "__pycache__" not in p.parts
            and ".git" not in p.parts
            and p.suffix not in (".pyc", ".pyo")
        )
    return [path]


def bot_sources(spec: BotSpec) -> list[Path]:
    """The files a bot runs: every existing file or directory on its command line (not the Python
    interpreter), and for a ``.py`` file the modules next to it that it imports, transitively."""
    interpreter = Path(sys.executable).resolve()
    found: dict[Path, None] = {}
    todo: list[Path] = []
    roots: list[Path] = []
    argv = list(spec.argv)
    if "-m" in argv[1:-1]:  # python [-u] -m MODULE: the module's files, found from the cwd
        root = Path(spec.cwd or ".").resolve()
        roots.append(root)
        todo.extend(_module_files(root, argv[argv.index("-m") + 1]))
    for i, arg in enumerate(spec.argv):
        path = Path(arg) if os.path.isabs(arg) or spec.cwd is None else Path(spec.cwd) / arg
        if not path.exists():
            continue
        resolved = path.resolve()
        if resolved == interpreter or (i == 0 and path.name.startswith("python") and len(spec.argv) > 1):
            continue
        todo.append(resolved)
    while todo:
        path = todo.pop()
        for f in _files_of(path):
            if f in found:
                continue
            found[f] = None
            if f.suffix == ".py":
                todo.extend(p.resolve() for p in _local_imports(f, roots))
    return sorted(found)


def data_files(data: Sequence[str], base: str | None = None) -> list[Path]:
    """The files of a bot's declared data (folders taken whole; see :func:`arena.match.paths.data_paths`). Their
    contents join the bot's source hash, so changed data stops a resume like a changed source file."""
    return sorted({f for path in paths.data_paths(data, base) for f in _files_of(path)})


def _shared_folder(files: Sequence[PurePath]) -> PurePath:
    parents = {str(f.parent) for f in files}
    return PurePath(os.path.commonpath(sorted(parents))) if parents else PurePath(".")


def _digest(names: Sequence[str], files: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for name, f in zip(names, files):
        try:
            data = f.read_bytes()
        except OSError:
            data = b"<unreadable>"
        h.update(os.fsencode(name) + b"\0" + hashlib.sha256(data).digest())  # any file name, as its bytes
    return h.hexdigest()[:16]


def source_hash(files: Sequence[Path]) -> str:
    """A hash of the files' contents and of their names relative to the folder they share."""
    files = sorted(files)
    root = _shared_folder(files)
    return _digest([f.relative_to(root).as_posix() for f in files], files)


def legacy_source_hash(stored_files: Sequence[str], files: Sequence[Path]) -> str | None:
    """The cgarena 0.1.0 hash of today's ``files`` (absolute names in the hash) under the names
    they had then (``stored_files``), or ``None`` when the two sets of files do not match up."""
    old = sorted(PurePath(f) for f in stored_files)
    new = sorted(files)
    if len(old) != len(new):
        return None
    old_root, new_root = _shared_folder(old), _shared_folder(new)
    if [o.relative_to(old_root) for o in old] != [n.relative_to(new_root) for n in new]:
        return None
    return _digest([str(o) for o in old], new)


def same_sources(stored: BotRow, today: BotRow) -> bool:
    """Whether a stored bot runs the same files as today's, by the formula it was stored with."""
    if stored.hash_scheme == 1:
        return legacy_source_hash(stored.files, [Path(f) for f in today.files]) == stored.source_hash
    return stored.source_hash == today.source_hash
