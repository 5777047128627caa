"""The manifest of a frozen version (:mod:`.snapshot`): how it runs and every file of it, in JSON.

Its words are tagged, so that no text of a bot's command is ever mistaken for a path:
``["python", ""]`` (the arena's interpreter of the day), ``["tree", NAME]`` (a path in the
snapshot's tree, relative) or ``["word", TEXT]`` (kept as it is). :func:`encode` writes it the one
way (keys sorted, ASCII), so that its SHA-256 is the version's hash; :func:`decode` reads it back,
refusing anything else (a name leaving the tree, a value of the wrong type) with
:class:`ValueError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal, cast, get_args

__all__ = ["How", "Word", "FrozenFile", "Recipe", "FORMAT", "encode", "decode"]

How = Literal["bundle", "module tree", "script", "binary", "command"]
"""How a version was frozen: a Python bot as its bundle or its module tree; an interpreter's script
(the interpreter runs as installed); an executable file; a command kept as given (not frozen)."""
Word = tuple[str, str]
"""A word of a frozen command: ``("python", "")``, ``("tree", NAME)`` or ``("word", TEXT)``."""

FORMAT = 1
"""The manifest's format: another is not read."""


@dataclass(frozen=True)
class FrozenFile:
    """One file of a frozen version."""

    name: str
    """Its path in the snapshot's tree (POSIX, relative)."""
    sha256: str
    executable: bool


@dataclass(frozen=True)
class Recipe:
    """How a frozen version runs, with paths as :data:`Word` s (what the manifest records)."""

    how: How
    argv: tuple[Word, ...]
    cwd: Word | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    data: tuple[Word, ...] = ()
    entry: Word | None = None
    """A Python bot's entry in the tree (its :class:`arena.match.launch.botspec.PythonSource`);
    ``None`` for other bots."""
    launcher: int | None = None
    leagues: tuple[int, ...] | None = None


# -- encoding --------------------------------------------------------------------------------------


def encode(recipe: Recipe, files: Sequence[FrozenFile], dirs: Iterable[str]) -> bytes:
    """The manifest of the version run as ``recipe`` with ``files`` and the folders ``dirs`` of
    its tree (which must exist, even empty: its working directory, a data folder)."""
    doc = {
        "format": FORMAT,
        "how": recipe.how,
        "argv": [list(w) for w in recipe.argv],
        "cwd": None if recipe.cwd is None else list(recipe.cwd),
        "env": dict(recipe.env),
        "data": [list(w) for w in recipe.data],
        "entry": None if recipe.entry is None else list(recipe.entry),
        "launcher": recipe.launcher,
        "leagues": None if recipe.leagues is None else list(recipe.leagues),
        "files": [{"name": f.name, "sha256": f.sha256, "executable": f.executable} for f in files],
        "dirs": sorted(dirs),
    }
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode("ascii")


def _name(value: object, *, folder: bool = False) -> str:
    """A relative POSIX path inside the tree (``.`` only for a folder), else :class:`ValueError`."""
    if not isinstance(value, str) or not value or "\0" in value:
        raise ValueError(f"not a name: {value!r}")
    pure = PurePosixPath(value)
    if pure.is_absolute() or ".." in pure.parts or pure.as_posix() != value or (value == "." and not folder):
        raise ValueError(f"not a name in the tree: {value!r}")
    return value


def _word(value: object) -> Word:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise ValueError(f"not a word: {value!r}")
    kind, text = cast(list[str], value)
    if kind not in ("python", "tree", "word"):
        raise ValueError(f"not a kind of word: {kind!r}")
    return kind, _name(text, folder=True) if kind == "tree" else text


def _optional_word(value: object) -> Word | None:
    return None if value is None else _word(value)


def decode(raw: bytes) -> tuple[Recipe, tuple[FrozenFile, ...], tuple[str, ...]]:
    """The manifest's recipe, files and folders; :class:`ValueError` for anything else."""
    doc = json.loads(raw)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("how") not in get_args(How):
        raise ValueError("not a manifest of this format")
    env, launcher, leagues = doc["env"], doc["launcher"], doc["leagues"]
    if not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
        raise ValueError("env is no mapping of strings")
    if not (launcher is None or type(launcher) is int):
        raise ValueError("launcher is no number")
    if not (leagues is None or (isinstance(leagues, list) and all(type(n) is int for n in leagues))):
        raise ValueError("leagues is no list of numbers")
    files = []
    for item in doc["files"]:
        if not (
            isinstance(item, dict) and isinstance(item.get("sha256"), str) and type(item.get("executable")) is bool
        ):
            raise ValueError(f"not a file: {item!r}")
        files.append(FrozenFile(_name(item["name"]), item["sha256"], item["executable"]))
    recipe = Recipe(
        how=doc["how"],
        argv=tuple(_word(w) for w in doc["argv"]),
        cwd=_optional_word(doc["cwd"]),
        env=env,
        data=tuple(_word(w) for w in doc["data"]),
        entry=_optional_word(doc["entry"]),
        launcher=launcher,
        leagues=None if leagues is None else tuple(leagues),
    )
    return recipe, tuple(files), tuple(_name(d, folder=True) for d in doc["dirs"])
