"""Freezing a bot version: its files copied into the store (:mod:`.snapshot`) by content hash, so
that editing or rebuilding its source later never changes the version registered.

What is frozen, by kind of bot (:class:`arena.match.launch.botspec.BotSpec`):

- **A Python bot** (:attr:`BotSpec.source`: a script, a package, a shipped module): its module
  tree: the files the bot hash covers (:func:`arena.versions.provenance.bot_sources`) in their
  relative layout, run as before. Its arguments are kept; it runs with the arena's interpreter of
  the day. (Older releases could freeze one as its bundle: such versions still load and play.)
- **An executable given by path** (not an interpreter): the file, executable.
- **An interpreter and its script** (``node bot.js``, ``java -jar bot.jar``, ``python3 bot.py``):
  the script (a ``.py`` one with the local modules it imports), run by the same interpreter, which
  is not frozen. A note says that any other file the script loads is read as it is at each game
  (on CodinGame a bot is one file, so the script usually is the whole bot).
- **Any other command** (a program on ``PATH`` without a file argument: ``java Main``,
  ``python3 -m bot``, ``mybot``): kept as given, from its working directory of the day it was
  added, its data where it is, with a one-line warning (:attr:`.snapshot.Frozen.warning`).

**Declared data** (:attr:`BotSpec.data`: files and folders, folders whole) is copied along. Code,
data and the bot's working directory keep their relative layout in the snapshot's tree, and the
frozen bot runs from its working directory's place there, its command and data naming the copies;
a bot without a working directory of its own and without data (a script run by hand) runs from
wherever it is played. An argument naming an existing file or folder that is not frozen is named
in a note (and given as an absolute path when the bot runs from the snapshot).

Only regular files of at most :data:`.snapshot.FILE_LIMIT` bytes are read (:mod:`arena.paths`): a
FIFO, a device or a larger file among the bot's code or data, missing data, or data that is one
of the arena's own files (its database, replays, this store) is refused in one line
(:class:`.snapshot.FreezeError`) before anything is written. Inside a folder taken whole, the
arena's own files are left out, as from the bot hash.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from ..match.launch.botspec import BotSpec
from . import provenance, snapshot
from .manifest import How, Recipe, Word
from .provenance import ArenaFiles
from .snapshot import Content, FreezeError, Frozen

__all__ = ["freeze", "Frozen", "FreezeError"]

_PYTHON: Word = ("python", "")


@dataclass
class _Plan:
    """A bot's frozen form before it is written: what runs, the files, what to tell the user."""

    recipe: Recipe
    content: Content = field(default_factory=Content)
    notes: list[str] = field(default_factory=list)


class _Tree:
    """Where each path goes in the snapshot's tree: relative to the folder holding them all."""

    def __init__(self, places: Sequence[Path]) -> None:
        self.base = Path(os.path.commonpath([str(p) for p in places])) if places else Path("/")

    def word(self, path: Path) -> Word:
        return ("tree", path.relative_to(self.base).as_posix())


def _where(spec: BotSpec, word: str) -> Path:
    """``word`` as an absolute path, relative ones taken from the bot's working directory."""
    return Path(os.path.abspath(paths.located(word, spec.cwd)))


def _refuse(spec: BotSpec, why: str) -> FreezeError:
    return FreezeError(f"bot {spec.name!r} cannot be frozen: {why}")


def _declared(spec: BotSpec) -> list[Path]:
    """The declared data (absolute, real paths), each an existing folder or a regular file within
    the limit (else refused)."""
    declared = paths.data_paths(spec.data, spec.cwd)
    for text, path in zip(spec.data, declared, strict=True):
        why = None if paths.is_dir(path) else paths.not_regular(path, snapshot.FILE_LIMIT)
        if why is not None:
            raise _refuse(spec, f"its data {text}: {why}")
    return declared


def _check_readable(spec: BotSpec, avoid: ArenaFiles) -> None:
    """Refuse a bot whose code or data holds what is not read (a FIFO, a device, a file over the
    limit, the arena's own files). Its data is given absolute: relative to the bot's working directory."""
    data = tuple(str(p) for p in _declared(spec))
    skipped = provenance.sources_of(dataclasses.replace(spec, data=data), avoid).skipped
    if skipped:
        more = f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""
        raise _refuse(
            spec,
            f"{skipped[0]}{more}: only regular files of at most {paths.size_text(snapshot.FILE_LIMIT)}, "
            "not the arena's own, are frozen (declare the files it reads rather than a folder that holds others)",
        )


def _arguments(
    spec: BotSpec, words: Sequence[str], tree: _Tree, data: Sequence[Path], moved: bool, plan: _Plan
) -> list[Word]:
    """The bot's arguments: a word naming declared data names its copy; one naming another existing
    file or folder is noted (and made absolute when the bot runs from the snapshot: ``moved``)."""
    out: list[Word] = []
    unfrozen: list[str] = []
    for word in words:
        path = _where(spec, word) if word and not word.startswith("-") else None
        if path is None or not paths.exists(path):
            out.append(("word", word))
            continue
        real = path.resolve()
        if any(real == d or real.is_relative_to(d) for d in data):
            out.append(tree.word(real))
            continue
        unfrozen.append(word)
        out.append(("word", str(path) if moved else word))
    if unfrozen:
        plan.notes.append(
            f"bot {spec.name!r}: its arguments {', '.join(unfrozen)} name files that are not frozen (read as "
            "they are at each game): declare them as data to freeze them"
        )
    return out


def _assemble(
    spec: BotSpec,
    how: How,
    code: Sequence[Path],
    launch: Callable[[_Tree], tuple[Word, ...]],
    avoid: ArenaFiles,
    python: tuple[Path, int] | None = None,
) -> _Plan:
    """The plan of a bot whose ``code`` files are copied, run as ``launch`` gives, followed by its
    arguments; ``python``: a Python bot's entry and launcher."""
    data = _declared(spec)
    data_files = provenance.data_files(spec.data, spec.cwd, avoid)
    anchor = Path(spec.cwd).resolve() if spec.cwd is not None else Path.cwd().resolve() if spec.data else None
    places = [p.parent for p in (*code, *data_files)] + [d for d in data if d.is_dir()]
    tree = _Tree(places + ([anchor] if anchor is not None else []))
    content = Content(
        copies={tree.word(f)[1]: f for f in (*data_files, *code)},
        dirs={tree.word(d)[1] for d in data if d.is_dir()} | ({tree.word(anchor)[1]} if anchor is not None else set()),
    )
    plan = _Plan(Recipe(how, ()), content)
    arguments = _arguments(spec, provenance.code_words(spec)[1], tree, data, anchor is not None, plan)
    plan.recipe = Recipe(
        how=how,
        argv=(*launch(tree), *arguments),
        cwd=None if anchor is None else tree.word(anchor),
        env=dict(spec.env),
        data=tuple(tree.word(d) for d in data),
        entry=None if python is None else tree.word(python[0]),
        launcher=None if python is None else python[1],
        leagues=spec.leagues,
    )
    return plan


def _code(spec: BotSpec, words: Sequence[str], copied: Sequence[Path], tree: _Tree) -> tuple[Word, ...]:
    """The words that start the bot, a file copied named by its copy (never a module after ``-m``)."""
    out: list[Word] = []
    for i, word in enumerate(words):
        path = _where(spec, word) if word and not word.startswith("-") else None
        real = path.resolve() if path is not None and paths.exists(path) else None
        if real is not None and real in copied and (i == 0 or words[i - 1] != "-m"):
            out.append(tree.word(real))
        else:
            out.append(("word", word))
    return tuple(out)


def _python(spec: BotSpec, avoid: ArenaFiles) -> _Plan:
    assert spec.source is not None
    code = provenance.bot_sources(spec, avoid)
    launcher = spec.argv[: spec.source.launcher]
    return _assemble(
        spec,
        "module tree",
        code,
        lambda tree: (_PYTHON, *_code(spec, launcher, code, tree)[1:]),
        avoid,
        (Path(spec.source.entry), spec.source.launcher),
    )


def _binary(spec: BotSpec, avoid: ArenaFiles) -> _Plan:
    program = _where(spec, spec.argv[0])
    why = paths.not_regular(program, snapshot.FILE_LIMIT)
    if why is not None:
        raise _refuse(spec, f"{spec.argv[0]}: {why}")
    code = [program.resolve()]
    return _assemble(spec, "binary", code, lambda tree: _code(spec, spec.argv[:1], code, tree), avoid)


def _script(spec: BotSpec, words: Sequence[str], avoid: ArenaFiles) -> _Plan:
    program = _where(spec, spec.argv[0]).resolve()
    code = [f for f in provenance.bot_sources(spec, avoid) if f != program]
    plan = _assemble(spec, "script", code, lambda tree: _code(spec, words, code, tree), avoid)
    names = ", ".join(f.name for f in code)
    plan.notes.insert(
        0,
        f"bot {spec.name!r}: {spec.argv[0]} runs as installed and only its script is frozen ({names}): any "
        "other file it loads is read as it is at each game (declare it as data, or bundle the bot into one file)",
    )
    return plan


def _command(spec: BotSpec) -> _Plan:
    cwd = os.path.abspath(spec.cwd or ".")
    recipe = Recipe(
        how="command",
        argv=tuple(("word", w) for w in spec.argv),
        cwd=("word", cwd),
        env=dict(spec.env),
        data=tuple(("word", d) for d in spec.data),
        leagues=spec.leagues,
    )
    return _Plan(recipe)


def _plan(spec: BotSpec, avoid: ArenaFiles, lenient: bool) -> _Plan:
    if not spec.argv:
        raise _refuse(spec, "it has no command")
    words = provenance.code_words(spec)[0]
    binary = spec.source is None and not provenance.is_interpreter(spec.argv[0])
    script = len(words) > 1 and "-m" not in words and paths.is_file(_where(spec, words[-1]))
    if spec.source is None and not binary and not script:
        return _command(spec)
    _check_readable(dataclasses.replace(spec, data=()) if lenient else spec, avoid)
    if spec.source is not None:
        return _python(spec, avoid)
    return _binary(spec, avoid) if binary else _script(spec, words, avoid)


def _unreadable(spec: BotSpec) -> tuple[BotSpec, tuple[str, ...]]:
    """``spec`` without the declared data that cannot be frozen (a FIFO, a device, a file over
    the limit), and that data's absolute paths."""
    keep: list[str] = []
    left: list[str] = []
    for text, path in zip(spec.data, paths.data_paths(spec.data, spec.cwd), strict=True):
        unread = not path.is_dir() and paths.not_regular(path, snapshot.FILE_LIMIT) is not None
        (left if unread and paths.missing(path) is None else keep).append(str(path) if unread else text)
    return dataclasses.replace(spec, data=tuple(keep)), tuple(left)


def freeze(
    spec: BotSpec,
    store: Path,
    avoid: ArenaFiles | None = None,
    *,
    lenient: bool = False,
) -> Frozen:
    """Freeze the bot ``spec`` into ``store`` (see the module's text for what is frozen, and
    :mod:`.snapshot` for the store): the version it is now, run as :attr:`Frozen.spec`.
    ``avoid``: the arena's own files (its database, its replays), never frozen. The same content
    is stored once; an existing snapshot of it is checked, and replaced when damaged. Raises
    :class:`FreezeError` (one line) when the bot cannot be frozen; ``lenient``: declared data that
    cannot be (a FIFO, a device, a file over the limit, inside a data folder too) is left where it
    is and read there at each game, as a tournament reads it (its hash names what it leaves out)."""
    store = Path(os.path.abspath(store))
    avoid = avoid or ArenaFiles()
    folders = {*avoid.folders, str(store), os.path.realpath(store)}
    spec, left = _unreadable(spec) if lenient else (spec, ())
    plan = _plan(spec, ArenaFiles(avoid.files, tuple(sorted(folders))), lenient)
    if left:
        plan.recipe = dataclasses.replace(plan.recipe, data=plan.recipe.data + tuple(("word", d) for d in left))
    return snapshot.write(store, spec.name, plan.recipe, plan.content, plan.notes)
