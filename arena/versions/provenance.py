"""What played a game: the referee's rules version and the files each bot runs, with their hash.

A tournament is resumed (or extended) only when both are unchanged, so that every stored game of
it was played by the same code. The bot hash covers the files' contents and their names relative
to the folder they share, so a project moved or cloned elsewhere still resumes its tournaments.

Which files make a bot (:func:`sources_of`), not every path on its command line:

- Its code: for a Python bot the arena runs (:attr:`BotSpec.source`) the script, or with ``-m
  MODULE`` the module's files and its packages' ``__init__.py`` under the folder it runs from; for
  a command, its program when given by path (not the Python interpreter) and, when that program
  is an interpreter (one started by name from ``PATH``, or Python, Node, Java... by path), the
  first argument that names a file or folder: its script. Every ``.py`` file of it adds the local
  modules it imports, transitively; a folder is taken whole.
- Its declared data: the files and folders its config lists under ``data:`` (folders whole).

The words after its code are its arguments (a log it appends to, an input it reads): not hashed,
or a bot writing its log would never resume; :func:`unchecked_arguments` names those that name
files, to say so.

The arena's own files are never opened as a bot's (:class:`ArenaFiles`), even inside a folder a
bot names: opening and closing the database file outside SQLite drops the POSIX locks SQLite holds
on it in this process, and the next program whose connection closes (the ``sqlite3`` shell, a
notebook) then takes itself for the last one and deletes the write-ahead log the arena is still
writing. Only regular files of at most :data:`HASH_LIMIT` bytes are read: a FIFO, a device or a
larger file is left out of the hash and named (:attr:`Sources.skipped`).

Databases written by cgarena 0.1.0 (results schema 1) used other formulas, still checked: the
referee was identified by a hash of its source files (that release's hashes, rules version 1 of
both games, are listed here) and the bot hash covered absolute file names (recomputed from the
names stored with it and today's contents, the files matched by their place under their shared
folder). Bots stored before the hash left out their arguments and the arena's files (it covered
every existing path on the command line) are recognised by that rule too (:func:`same_bot`).
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import referee

from .. import paths
from ..match.launch.botspec import BotSpec
from ..match.launch.jsbot import PRELUDE
from ..store.records import BotRow

__all__ = [
    "referee_version",
    "same_rules",
    "HASH_LIMIT",
    "ArenaFiles",
    "Sources",
    "sources_of",
    "bot_sources",
    "data_files",
    "unchecked_arguments",
    "code_words",
    "is_interpreter",
    "Identity",
    "identity",
    "source_hash",
    "legacy_source_hash",
    "same_sources",
    "same_bot",
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


# -- the arena's own files -------------------------------------------------------------------------

HASH_LIMIT = 1 << 30
"""The largest file a bot hash reads (1 GiB): a larger one is left out, and named."""

_SIDE_FILES = ("-wal", "-shm", "-journal", ".lock")


@dataclass(frozen=True)
class ArenaFiles:
    """The arena's own files, never opened as a bot's: the results database, its side files
    (``-wal``, ``-shm``, ``-journal``, the run lock's ``.lock``), the store of frozen versions
    beside it and the replays folder, by the names given and by their real names (a symbolic link
    is followed)."""

    files: frozenset[str] = frozenset()
    folders: tuple[str, ...] = ()

    @classmethod
    def of(cls, db: str | os.PathLike[str] | None, replays: str | os.PathLike[str] | None = None) -> ArenaFiles:
        files: set[str] = set()
        places = [] if replays is None else [os.fspath(replays)]
        if db is not None:
            for name in {os.path.abspath(db), os.path.realpath(db)}:
                files.update([name, *(name + side for side in _SIDE_FILES)])
            places.append(os.fspath(db) + "-bots")  # the store of frozen versions (arena.versions.snapshot.store_for)
        folders = tuple(sorted({f(p) for p in places for f in (os.path.abspath, os.path.realpath)}))
        return cls(frozenset(files), folders)

    def holds(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` is one of these files, or inside the replays folder."""
        if not self.files and not self.folders:
            return False
        for name in {os.path.abspath(path), os.path.realpath(path)}:
            if name in self.files or any(name == f or name.startswith(f.rstrip(os.sep) + os.sep) for f in self.folders):
                return True
        return False


# -- the files a bot runs -------------------------------------------------------------------------


def _local_imports(path: Path, roots: Sequence[Path] = ()) -> list[Path]:
    """Files next to a Python file that it imports (``import x`` / ``from x import``/``from .x``),
    and the modules under ``roots`` (the directories a ``-m`` bot runs from) that it imports by
    their absolute dotted names (``from bots.lib.timer import ...``)."""
    try:
        tree = ast.parse(paths.read_regular(path, HASH_LIMIT))
    except (SyntaxError, ValueError, OSError, paths.NotRegular):
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


@dataclass
class Sources:
    """The files that make a bot's hash, and those left out of it (``"PATH (why)"``)."""

    files: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class _Collector:
    """Gathers a bot's files, leaving out the arena's own and what is not a readable regular file."""

    def __init__(self, avoid: ArenaFiles) -> None:
        self.avoid = avoid
        self.found: dict[Path, None] = {}
        self.skipped: list[str] = []

    def _fits(self, path: Path) -> bool:
        """Whether ``path`` may be hashed: not one of the arena's files, and a regular file of
        at most :data:`HASH_LIMIT` bytes (a missing or unreadable one is hashed as such)."""
        if self.avoid.holds(path):
            self.skipped.append(f"{path} (the arena's own file)")
            return False
        why = paths.not_regular(path, HASH_LIMIT) if paths.exists(path) else None
        if why is not None:
            self.skipped.append(f"{path} ({why})")
        return why is None

    def files_of(self, path: Path) -> list[Path]:
        """``path`` itself, or the files of the folder ``path`` (taken whole)."""
        if not path.is_dir():
            return [path] if self._fits(path) else []
        if self.avoid.holds(path):
            self.skipped.append(f"{path} (the arena's own folder)")
            return []
        found = []
        for p in sorted(path.rglob("*")):
            if "__pycache__" in p.parts or ".git" in p.parts or p.suffix in (".pyc", ".pyo") or self.avoid.holds(p):
                continue
            if p.is_file():
                if self._fits(p):
                    found.append(p)
            elif not p.is_dir() and paths.exists(p):  # a FIFO, a device, a socket: named, never opened
                self._fits(p)
        return found

    def take(self, todo: list[Path], roots: Sequence[Path] = (), *, imports: bool = True) -> None:
        """Add ``todo`` and (with ``imports``), for every Python file among them, its local
        imports, transitively."""
        while todo:
            path = todo.pop()
            for f in self.files_of(path):
                if f in self.found:
                    continue
                self.found[f] = None
                if imports and f.suffix == ".py":
                    todo.extend(p.resolve() for p in _local_imports(f, roots))


_INTERPRETER = re.compile(
    r"(python|pypy|node|nodejs|deno|bun|java|ruby|perl|php|lua|luajit|julia|Rscript|bash|sh|dash|zsh|env)[0-9.]*"
)
"""Programs that run a script named among their arguments (when given by path; by name, any)."""


def is_interpreter(program: str) -> bool:
    """Whether a command's program runs a script named among its arguments, as the bot hash sees
    it: any program started by name from ``PATH``, or Python, Node, Java... by path (another
    program given by path is the bot itself)."""
    return "/" not in program or _INTERPRETER.fullmatch(Path(program).name) is not None


def code_words(spec: BotSpec) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of the bot's command that name its code (program, script, module), and its
    arguments (the rest)."""
    argv = spec.argv
    if spec.source is not None:  # python -u SCRIPT | python -u -m MODULE
        return argv[: spec.source.launcher], argv[spec.source.launcher :]
    if "-m" in argv[1:-1]:
        end = argv.index("-m") + 2
        return argv[:end], argv[end:]
    if not is_interpreter(argv[0]):
        return argv[:1], argv[1:]  # the program is the bot
    for i, word in enumerate(argv[1:], 1):  # an interpreter: its script is the bot
        if word == PRELUDE:  # node --require PRELUDE SCRIPT: the toolkit's CodinGame globals
            continue
        if word and not word.startswith("-") and paths.exists(_located(spec, word)):
            return argv[: i + 1], argv[i + 1 :]
    return argv[:1], argv[1:]


def _located(spec: BotSpec, word: str) -> Path:
    return Path(word) if os.path.isabs(word) or spec.cwd is None else Path(spec.cwd) / word


def sources_of(spec: BotSpec, avoid: ArenaFiles = ArenaFiles(), *, arguments: bool = False) -> Sources:
    """The files of the bot's code and of its declared data (:attr:`BotSpec.data`), leaving out
    the arena's files ``avoid`` and what is not a regular file of at most :data:`HASH_LIMIT`
    bytes. With ``arguments``, the rule of earlier releases: every existing file or folder on its
    command line is code."""
    interpreter = Path(sys.executable).resolve()
    collect = _Collector(avoid)
    todo: list[Path] = []
    roots: list[Path] = []
    argv = spec.argv
    if "-m" in argv[1:-1]:  # python [-u] -m MODULE: the module's files, found from the cwd
        root = Path(spec.cwd or ".").resolve()
        roots.append(root)
        todo.extend(_module_files(root, argv[argv.index("-m") + 1]))
    words = spec.argv if arguments else code_words(spec)[0]
    for i, arg in enumerate(words):
        path = _located(spec, arg)
        if not paths.exists(path):
            continue
        resolved = path.resolve()
        if resolved == interpreter or (i == 0 and path.name.startswith("python") and len(spec.argv) > 1):
            continue
        todo.append(resolved)
    collect.take(todo, roots)
    collect.take(paths.data_paths(spec.data), imports=False)
    return Sources(sorted(collect.found), collect.skipped)


def bot_sources(spec: BotSpec, avoid: ArenaFiles = ArenaFiles()) -> list[Path]:
    """The files of the bot's code (see :func:`sources_of`), without its declared data."""
    return sources_of(dataclasses.replace(spec, data=()), avoid).files


def data_files(data: Sequence[str], base: str | None = None, avoid: ArenaFiles = ArenaFiles()) -> list[Path]:
    """The files of a bot's declared data (folders taken whole; see :func:`arena.paths.data_paths`). Their
    contents join the bot's source hash, so changed data stops a resume like a changed source file."""
    collect = _Collector(avoid)
    collect.take(paths.data_paths(data, base), imports=False)
    return sorted(collect.found)


def unchecked_arguments(spec: BotSpec, avoid: ArenaFiles = ArenaFiles(), hashed: Sequence[Path] = ()) -> list[str]:
    """The bot's arguments that name an existing file or folder outside its code and declared data
    (and not the arena's, nor among the files ``hashed``): files it may read or write, which its
    hash does not cover."""
    covered = paths.data_paths(spec.data)
    out = []
    for word in code_words(spec)[1]:
        path = _located(spec, word)
        if not word or not paths.exists(path) or avoid.holds(path):
            continue
        real = path.resolve()
        if real not in hashed and not any(real == d or real.is_relative_to(d) for d in covered):
            out.append(word)
    return list(dict.fromkeys(out))


def _shared_folder(files: Sequence[PurePath]) -> PurePath:
    parents = {str(f.parent) for f in files}
    return PurePath(os.path.commonpath(sorted(parents))) if parents else PurePath(".")


def _file_digest(path: Path) -> bytes:
    """The SHA-256 of the file's contents, read piece by piece (that of ``<unreadable>`` when it
    cannot be read, is no regular file or is over :data:`HASH_LIMIT` bytes)."""
    h = hashlib.sha256()
    try:
        for piece in paths.regular_chunks(path, HASH_LIMIT):
            h.update(piece)
    except (OSError, paths.NotRegular):
        return hashlib.sha256(b"<unreadable>").digest()
    return h.digest()


def _digest(names: Sequence[str], files: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for name, f in zip(names, files):
        h.update(os.fsencode(name) + b"\0" + _file_digest(f))  # any file name, as its bytes
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


# -- a bot's identity, as stored ----------------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    """A bot as a tournament stores it (:attr:`row`), with what its hash leaves out: files of its
    code or data that are not hashed (``"PATH (why)"``) and its arguments that name files."""

    row: BotRow
    skipped: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()


def _row(spec: BotSpec, files: Sequence[Path]) -> BotRow:
    return BotRow(
        name=spec.name,
        command=spec.argv,
        env=dict(spec.env),
        source_hash=source_hash(files),
        files=tuple(str(f) for f in files),
    )


def identity(spec: BotSpec, avoid: ArenaFiles = ArenaFiles()) -> Identity:
    """The bot's stored row (its hash: :func:`sources_of`), and what that hash leaves out."""
    found = sources_of(spec, avoid)
    unchecked = unchecked_arguments(spec, avoid, found.files)
    return Identity(_row(spec, found.files), tuple(found.skipped), tuple(unchecked))


def same_bot(stored: BotRow, today: BotRow, spec: BotSpec, avoid: ArenaFiles = ArenaFiles()) -> bool:
    """Whether the stored bot is ``today``'s (run as ``spec``): by the formula it was stored with,
    over its code and declared data, or else over every existing path on its command line, the
    files earlier releases hashed."""
    if same_sources(stored, today):
        return True
    earlier = sources_of(spec, avoid, arguments=True).files
    return [str(f) for f in earlier] != list(today.files) and same_sources(stored, _row(spec, earlier))
