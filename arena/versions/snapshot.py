"""Frozen bot versions on disk: one folder per version, named by its content hash.

The store (:func:`store_for`: a folder beside the results database, ``arena.sqlite-bots``)::

    STORE/
      <hash>/              one frozen version: 64 hexadecimal digits, the SHA-256 of its manifest
        manifest.json      how it runs and every file of it (name, SHA-256, executable or not)
        tree/              its files in their relative layout, read-only (mode 444, or 555 for an
                           executable); its command and working directory point in here
      .freezing-*/         a snapshot being written: renamed to its hash once complete
      .replaced-*/         a damaged snapshot being removed
      .removed-*/          a snapshot no version uses any more, being removed (:func:`discard`)

The manifest holds everything that makes the version, so its hash does: the files (their names
relative to the tree, contents and executable bits) and how it runs (its command with its
arguments, working directory, environment, data files and leagues). Not in it: the bot's name
(the same content under two names is stored once), the store's place (a store moved with its
database still works: paths are rebuilt from it) and the Python interpreter (a Python bot runs
with the arena's interpreter of the day: the word ``python`` of its command). Its format:
:mod:`.manifest`.

A snapshot appears under its hash only complete (written in a temporary folder, then renamed); an
existing one is reused only when intact with no file added (:func:`damage`: a ``json.py`` beside a
script would shadow the standard library's), else replaced by a clean copy. :func:`verify` checks
a stored version before it is played (a user may edit or delete the store); a file added since (a
bot that wrote in its folder outside the sandbox) is named (:func:`strays`) and ignored.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from .. import paths
from ..errors import ArenaError
from ..match.launch.botspec import BotSpec, PythonSource
from .manifest import FrozenFile, How, Recipe, Word, decode, encode
from .provenance import HASH_LIMIT

__all__ = [
    "FreezeError",
    "Content",
    "Frozen",
    "FILE_LIMIT",
    "TOTAL_LIMIT",
    "store_for",
    "write",
    "load",
    "damage",
    "strays",
    "verify",
    "discard",
]

FILE_LIMIT = HASH_LIMIT
"""The largest file frozen (1 GiB, as the bot hash reads): a larger one is refused."""
TOTAL_LIMIT = 4 << 30
"""The most bytes one frozen version holds (4 GiB)."""
MANIFEST = "manifest.json"
TREE = "tree"
_MANIFEST_LIMIT = 64 << 20
_HASH = re.compile(r"[0-9a-f]{64}")
_STALE_S = 24 * 3600
"""Age past which a temporary folder left by an interrupted freeze is removed."""


class FreezeError(ArenaError, ValueError):
    """A bot that cannot be frozen, or a stored version that cannot be read (one line: which bot,
    why, what to do)."""


@dataclass
class Content:
    """What goes in a snapshot's tree, by name: files copied, folders."""

    copies: dict[str, Path] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Frozen:
    """A frozen version of a bot."""

    spec: BotSpec
    """How to run it: its command, working directory and data point into :attr:`folder` (a command
    kept as given points where it did)."""
    hash: str
    """Its content hash: the SHA-256 (hexadecimal) of its manifest, and the name of its folder."""
    how: How
    files: tuple[FrozenFile, ...]
    folder: Path
    """``STORE/HASH`` (absolute)."""
    warning: str | None = None
    """Why it is not frozen (a command kept as given), in one line; ``None`` when it is."""
    notes: tuple[str, ...] = ()
    """What else :func:`arena.versions.freeze.freeze` saw, one line each: files its script may load,
    arguments naming files not frozen."""

    def to_dict(self) -> dict[str, Any]:
        """The version as the results database keeps it (JSON-ready): its hash, how it was frozen,
        what it runs as frozen (absolute paths, this interpreter), its files and what was said.
        The bot's name is not in it: a rename leaves it alone."""
        spec = self.spec
        return {
            "hash": self.hash,
            "how": self.how,
            "folder": str(self.folder),
            "argv": list(spec.argv),
            "cwd": spec.cwd,
            "env": dict(spec.env),
            "data": list(spec.data),
            "entry": None if spec.source is None else spec.source.entry,
            "launcher": None if spec.source is None else spec.source.launcher,
            "leagues": None if spec.leagues is None else list(spec.leagues),
            "files": [{"name": f.name, "sha256": f.sha256, "executable": f.executable} for f in self.files],
            "warning": self.warning,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str, store: Path | None = None) -> Frozen:
        """The version :meth:`to_dict` gave, named ``name``. With ``store`` (before a game), read
        back from the store by its hash (:func:`load`: paths rebuilt from where the store is now,
        with the interpreter of the day; ``hash`` is all it needs); without, as it was frozen.
        Raises :class:`FreezeError`."""
        try:
            notes = tuple(str(n) for n in data.get("notes") or ())
            if store is not None:
                return dataclasses.replace(load(store, str(data["hash"]), name), notes=notes)
            entry, launcher, leagues, how = data["entry"], data["launcher"], data["leagues"], data["how"]
            if how not in get_args(How):
                raise ValueError(f"how: {how!r}")
            spec = BotSpec(
                name=name,
                argv=tuple(str(w) for w in data["argv"]),
                cwd=None if data["cwd"] is None else str(data["cwd"]),
                env={str(k): str(v) for k, v in data["env"].items()},
                data=tuple(str(d) for d in data["data"]),
                source=None if entry is None else PythonSource(str(entry), int(launcher)),
                leagues=None if leagues is None else tuple(int(n) for n in leagues),
            )
            files = tuple(FrozenFile(str(f["name"]), str(f["sha256"]), bool(f["executable"])) for f in data["files"])
            return cls(spec, str(data["hash"]), how, files, Path(data["folder"]), data["warning"], notes)
        except FreezeError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FreezeError(f"bot {name!r}: its stored frozen version cannot be read ({exc!r})") from None


def store_for(database: str | os.PathLike[str]) -> Path:
    """The store of frozen versions beside the results database ``database``:
    ``arena.sqlite`` -> ``arena.sqlite-bots``."""
    return Path(os.fspath(database) + "-bots")


# -- the version as it runs ------------------------------------------------------------------------------


def _spec(recipe: Recipe, folder: Path, name: str) -> BotSpec:
    tree = folder / TREE

    def text(word: Word) -> str:
        kind, value = word
        return sys.executable if kind == "python" else str(tree / value) if kind == "tree" else value

    source = None
    if recipe.entry is not None and recipe.launcher is not None:
        source = PythonSource(text(recipe.entry), recipe.launcher)
    return BotSpec(
        name=name,
        argv=tuple(text(w) for w in recipe.argv),
        cwd=None if recipe.cwd is None else text(recipe.cwd),
        env=dict(recipe.env),
        data=tuple(text(w) for w in recipe.data),
        source=source,
        leagues=recipe.leagues,
    )


def _warning(spec: BotSpec) -> str:
    return (
        f"bot {spec.name!r} cannot be frozen: {spec.command_line()!r} names no script or executable "
        f"by path (its program {spec.argv[0]} is found on PATH at each game), so it plays as it is "
        'then; to freeze it, give the file it runs by path ("node bot.js", "java -jar bot.jar", '
        '"./bot"), or a Python bot'
    )


def _frozen(folder: Path, digest: str, recipe: Recipe, files: tuple[FrozenFile, ...], name: str) -> Frozen:
    spec = _spec(recipe, folder, name)
    warning = _warning(spec) if recipe.how == "command" else None
    return Frozen(spec, digest, recipe.how, files, folder, warning)


# -- writing -------------------------------------------------------------------------------------------


def _fill(tree: Path, content: Content, bot: str) -> tuple[FrozenFile, ...]:
    """Write the content's files in ``tree``: each copied file read as a regular file of at most
    :data:`FILE_LIMIT` bytes, all together at most :data:`TOTAL_LIMIT`."""
    total = 0
    out = []
    for name, source in sorted(content.copies.items()):
        dest = tree / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        try:
            executable = bool(os.stat(source).st_mode & 0o111)
            with open(dest, "xb") as handle:
                for piece in paths.regular_chunks(source, FILE_LIMIT):
                    total += len(piece)
                    if total > TOTAL_LIMIT:
                        raise FreezeError(
                            f"bot {bot!r} cannot be frozen: its files are over {paths.size_text(TOTAL_LIMIT)} "
                            f"together (at {source}): at most that much is frozen"
                        )
                    digest.update(piece)
                    handle.write(piece)
                handle.flush()
                os.fsync(handle.fileno())
        except paths.NotRegular as exc:
            raise FreezeError(
                f"bot {bot!r} cannot be frozen: {source}: {exc} (only regular files of at most "
                f"{paths.size_text(FILE_LIMIT)} are frozen)"
            ) from None
        except OSError as exc:
            raise FreezeError(f"bot {bot!r} cannot be frozen: {source}: {exc.strerror or exc}") from None
        os.chmod(dest, 0o555 if executable else 0o444)
        out.append(FrozenFile(name, digest.hexdigest(), executable))
    return tuple(out)


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _sweep(store: Path) -> None:
    """Remove what interrupted freezes left (temporary folders over a day old)."""
    now = time.time()
    for entry in store.glob(".*-*"):
        with suppress(OSError):
            if (
                entry.name.startswith((".freezing-", ".replaced-", ".removed-"))
                and now - entry.lstat().st_mtime > _STALE_S
            ):
                _remove(entry)


def _settle(store: Path, temporary: Path, digest: str) -> Path:
    """Put the complete snapshot ``temporary`` under its hash: an intact snapshot already there is
    kept (and ``temporary`` dropped), a damaged one replaced."""
    final = store / digest
    for _ in range(3):
        if damage(final, digest) is None:
            return final
        if os.path.lexists(final):
            aside = Path(tempfile.mkdtemp(prefix=".replaced-", dir=store))
            os.rename(final, aside / digest)
            _remove(aside)
        try:
            os.rename(temporary, final)
            return final
        except OSError as exc:  # another freeze of the same content put it there meanwhile
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                raise
    raise OSError(errno.EBUSY, f"{final} keeps changing while it is written")


def write(store: Path, bot: str, recipe: Recipe, content: Content, notes: Sequence[str] = ()) -> Frozen:
    """Snapshot ``content`` run as ``recipe`` into ``store`` (created if need be) under its content
    hash, and the version it is, named ``bot``. Raises :class:`FreezeError`."""
    store = Path(os.path.abspath(store))
    try:
        store.mkdir(parents=True, exist_ok=True)
        _sweep(store)
        temporary = Path(tempfile.mkdtemp(prefix=".freezing-", dir=store))
    except OSError as exc:
        raise FreezeError(f"bot {bot!r} cannot be frozen: the store {store}: {exc.strerror or exc}") from None
    try:
        (temporary / TREE).mkdir()
        files = _fill(temporary / TREE, content, bot)
        for folder in content.dirs:
            (temporary / TREE / folder).mkdir(parents=True, exist_ok=True)
        raw = encode(recipe, files, content.dirs)
        with open(temporary / MANIFEST, "xb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary / MANIFEST, 0o444)
        digest = hashlib.sha256(raw).hexdigest()
        final = _settle(store, temporary, digest)
    except OSError as exc:
        raise FreezeError(f"bot {bot!r} cannot be frozen: writing in {store}: {exc.strerror or exc}") from None
    finally:
        if temporary.exists():
            _remove(temporary)
    return dataclasses.replace(_frozen(final, digest, recipe, files, bot), notes=tuple(notes))


# -- reading and checking ----------------------------------------------------------------------------


def _manifest(folder: Path, digest: str) -> tuple[Recipe, tuple[FrozenFile, ...], tuple[str, ...]]:
    """The manifest of the snapshot ``folder``, checked against its hash; :class:`ValueError`
    saying what is wrong."""
    try:
        raw = paths.read_regular(folder / MANIFEST, _MANIFEST_LIMIT)
    except paths.NotRegular as exc:
        raise ValueError(f"its manifest is {exc}") from None
    except OSError as exc:
        raise ValueError("it is missing" if not paths.is_dir(folder) else f"its manifest: {exc.strerror}") from None
    if hashlib.sha256(raw).hexdigest() != digest:
        raise ValueError("its manifest was changed")
    try:
        return decode(raw)
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"its manifest cannot be read ({exc})") from None


def _file_damage(tree: Path, item: FrozenFile) -> str | None:
    path = tree / item.name
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return f"{item.name} was replaced by a link"
        digest = hashlib.sha256()
        for piece in paths.regular_chunks(path, FILE_LIMIT):
            digest.update(piece)
    except paths.NotRegular as exc:
        return f"{item.name} is {exc}"
    except OSError:
        return f"{item.name} is missing"
    if digest.hexdigest() != item.sha256:
        return f"{item.name} was changed"
    if bool(info.st_mode & 0o111) != item.executable:
        return f"{item.name} changed mode"
    return None


def _added(tree: Path, names: set[str]) -> list[str]:
    """The files in ``tree`` that are none of ``names`` (Python's ``__pycache__`` folders aside)."""
    out = []
    for top, folders, files in os.walk(tree):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for entry in sorted([*files, *(f for f in folders if os.path.islink(os.path.join(top, f)))]):
            name = Path(top, entry).relative_to(tree).as_posix()
            if name not in names:
                out.append(name)
    return out


def damage(folder: Path, digest: str, *, allow_added: bool = False) -> str | None:
    """What is wrong with the snapshot ``folder`` of the version ``digest`` (its manifest does not
    have that hash, a file is missing, changed, or changed mode; a file added, unless
    ``allow_added``: see :func:`strays`), or ``None``: intact."""
    try:
        _, files, dirs = _manifest(folder, digest)
    except ValueError as exc:
        return str(exc)
    tree = folder / TREE
    for item in files:
        why = _file_damage(tree, item)
        if why is not None:
            return why
    for name in dirs:
        if not paths.is_dir(tree / name):
            return f"its folder {name} is missing"
    added = [] if allow_added else _added(tree, {f.name for f in files})
    return f"{added[0]} was added" if added else None


def strays(frozen: Frozen) -> str | None:
    """The files found in the version ``frozen``'s folder that its manifest does not name (a bot
    that wrote beside itself outside the sandbox, a page saved there), in one line; ``None`` when
    there are none. They are not part of the version: a run says so and plays it as it is."""
    try:
        _, files, _ = _manifest(frozen.folder, frozen.hash)
    except ValueError:
        return None
    found = _added(frozen.folder / TREE, {f.name for f in files})
    if not found:
        return None
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return (
        f"bot {frozen.spec.name!r}, version {frozen.hash[:12]}: {', '.join(found[:3])}{more} found in its folder "
        "are not part of the version (its manifest names its files): ignored"
    )


def load(store: Path, digest: str, name: str) -> Frozen:
    """The version ``digest`` of ``store``, named ``name`` (its files are not checked:
    :func:`verify`). Raises :class:`FreezeError` when it is not there or its manifest does not
    match its hash."""
    if _HASH.fullmatch(digest) is None:
        raise FreezeError(f"bot {name!r}: {digest!r} is not a version's hash (64 hexadecimal digits)")
    folder = Path(os.path.abspath(store)) / digest
    try:
        recipe, files, _ = _manifest(folder, digest)
    except ValueError as exc:
        raise FreezeError(f"bot {name!r}, version {digest[:12]} in {store}: {exc}; register the bot again") from None
    return _frozen(folder, digest, recipe, files, name)


def _program_missing(spec: BotSpec) -> str | None:
    program = spec.argv[0]
    if "/" in program:
        found = os.access(Path(spec.cwd or ".") / program, os.X_OK)
    else:
        found = shutil.which(program, path=spec.env.get("PATH")) is not None
    return None if found else f"its program {program} is not found"


def verify(frozen: Frozen) -> str | None:
    """Why the stored version ``frozen`` cannot be played now (its snapshot was changed or removed,
    or the program of a script or a command is gone), in one line; ``None`` when it can (files
    added beside it are no reason: :func:`strays`)."""
    why = damage(frozen.folder, frozen.hash, allow_added=True)
    if why is None and frozen.how in ("script", "command"):
        why = _program_missing(frozen.spec)
    if why is None:
        return None
    return (
        f"bot {frozen.spec.name!r}, version {frozen.hash[:12]} ({frozen.folder}): {why}; it is not "
        "played: register the bot again to freeze it anew"
    )


# -- removing ------------------------------------------------------------------------------------------


def discard(store: Path, digest: str) -> int:
    """Remove the snapshot ``digest`` from ``store``, once no recorded version has that content:
    it is moved aside first (``.removed-*``, so that a freeze of the same content meanwhile writes
    it anew rather than finding half of it), then deleted, read-only files and all. Returns the
    bytes its files held (0 when there was no such snapshot). Raises :class:`OSError` when it
    cannot be moved aside (what could not be deleted after is left for a later freeze to sweep)."""
    if _HASH.fullmatch(digest) is None:
        raise ValueError(f"{digest!r} is not a version's hash (64 hexadecimal digits)")
    store = Path(os.path.abspath(store))
    folder = store / digest
    if folder.is_symlink() or not folder.is_dir():
        return 0
    aside = Path(tempfile.mkdtemp(prefix=".removed-", dir=store))
    try:
        os.rename(folder, aside / digest)
    except OSError:
        _remove(aside)
        raise
    size = 0
    for top, dirs, names in os.walk(aside):
        for name in dirs:
            with suppress(OSError):
                os.chmod(os.path.join(top, name), 0o700)  # a folder made read-only keeps its files
        for name in names:
            with suppress(OSError):
                size += os.lstat(os.path.join(top, name)).st_size  # a link's own size, not its target's
    _remove(aside)
    return size
