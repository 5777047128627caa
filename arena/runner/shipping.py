"""Bots on machines that do not have their source: what a Dask worker needs to play a game.

- **Python bots** (a script, a package, a shipped module:
  :attr:`arena.match.launch.botspec.BotSpec.source`) travel as their bundle, the one file ``bundle``
  makes: :func:`pack` bundles each once with the function it is given (the bundler sits above the
  arena, so the command line hands it over: :func:`bundler.ship.bundle_source`), and on the
  worker :func:`unpack` fetches it and writes it once per content hash into a cache folder,
  checking the hash of what arrived and of what is on disk before every game. The bot runs there
  with the worker's interpreter, from the bundle's folder (from its own folder when it declares
  data files, which must then be on the worker too).
- **Other bots** (executables, command lines) and data files must exist at the same paths on every
  worker: :func:`pack` also lists what a bot uses (its program, its folder, its data files, the
  arguments that name files here, the modules a bundle imports beyond the standard library) and
  :func:`missing` looks for them on a worker, so that the tournament stops before its first game
  with one line naming the bot and the worker.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..match.launch.botspec import BotSpec
from .executor import ExecutorError

__all__ = [
    "ShippingError",
    "Shipped",
    "Need",
    "Shipment",
    "pack",
    "missing",
    "describe_missing",
    "unpack",
    "cache_dir",
    "sha256_of",
]


class ShippingError(ExecutorError):
    """A bot cannot be sent to, or run on, a worker (the message names the bot and what to do)."""


@dataclass(frozen=True)
class Shipped:
    """A Python bot as it travels: its bundle's hash and what to run it with."""

    sha256: str
    args: tuple[str, ...]
    """The bot's arguments (what follows the interpreter and the script or module)."""
    keep_cwd: bool
    """Whether it runs from its own folder (it declares data files) rather than the bundle's."""


@dataclass(frozen=True)
class Need:
    """Something a bot uses that a worker must have."""

    bot: str
    what: str
    """What it is to the bot, for the message: ``"program"``, ``"folder"``, ``"data file"``..."""
    path: str
    """An absolute path, a program name looked up on ``PATH``, or a module name."""
    kind: str
    """``"path"`` (must exist), ``"program"`` (on ``PATH`` unless absolute) or ``"module"``
    (importable by the worker's interpreter)."""


@dataclass(frozen=True)
class Shipment:
    """What :func:`pack` made: per bot name its :class:`Shipped` form (Python bots only), the
    bundles by hash, and what the workers must have."""

    shipped: dict[str, Shipped]
    bundles: dict[str, str]
    needs: tuple[Need, ...]


def sha256_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _third_party_modules(text: str) -> list[str]:
    """Top-level modules a bundle imports that are not in the standard library (numpy...)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return sorted(n for n in names if n not in sys.stdlib_module_names and n != "__future__")


def _path_needs(spec: BotSpec, *, program: bool) -> list[Need]:
    """What of ``spec`` must exist at the same path on a worker: its program (``program``), its
    folder, its data files, and the arguments that name a file or folder on this machine."""
    out: list[Need] = []
    where = Path(spec.cwd) if spec.cwd is not None else None
    if where is not None:
        out.append(Need(spec.name, "folder", str(where), "path"))
    for item in spec.data:
        out.append(Need(spec.name, "data file", str(Path(spec.cwd or ".", item).absolute()), "path"))
    if not program:
        return out
    first = spec.argv[0]
    if "/" in first:
        out.append(Need(spec.name, "program", str((where or Path.cwd()) / first), "path"))
    else:
        out.append(Need(spec.name, "program", first, "program"))
    for word in spec.argv[1:]:
        if not word or word.startswith("-"):
            continue
        try:
            path = (where or Path.cwd()) / word
            if path.exists():
                out.append(Need(spec.name, "file", str(path.absolute()), "path"))
        except (OSError, ValueError):
            continue  # no path can be this word
    return out


def pack(specs: Iterable[BotSpec], bundle: Callable[[str], str] | None) -> Shipment:
    """Bundle the Python bots of ``specs`` (each source once, with ``bundle(entry) -> text``) and
    list what the workers need. Raises :class:`ShippingError` naming a bot that cannot be bundled
    (or any Python bot, without ``bundle``)."""
    shipped: dict[str, Shipped] = {}
    bundles: dict[str, str] = {}
    by_entry: dict[str, str] = {}
    found: list[Need] = []
    for spec in specs:
        if spec.source is None:
            found += _path_needs(spec, program=True)
            continue
        sha = by_entry.get(spec.source.entry)
        if sha is None:
            if bundle is None:
                raise ShippingError(
                    f"bot {spec.name!r} is a Python bot, sent to Dask workers as its bundle, and no bundler was "
                    "given (arena tournament gives it; from Python, pass bundle=bundler.ship.bundle_source to "
                    "DaskExecutor.connect)"
                )
            try:
                text = bundle(spec.source.entry)
            except ValueError as exc:
                raise ShippingError(
                    f"bot {spec.name!r} cannot be sent to Dask workers as one file: {exc}; or give it as a "
                    f'command ("python3 {spec.source.entry}") present at the same path on every worker'
                ) from None
            sha = by_entry[spec.source.entry] = sha256_of(text)
            bundles[sha] = text
            found += [Need(spec.name, "module", m, "module") for m in _third_party_modules(text)]
        keep_cwd = bool(spec.data)
        shipped[spec.name] = Shipped(sha, spec.argv[spec.source.launcher :], keep_cwd)
        if keep_cwd:
            found += _path_needs(spec, program=False)
    return Shipment(shipped, bundles, tuple(dict.fromkeys(found)))


def missing(needs: Sequence[Need]) -> list[Need]:
    """What of ``needs`` this machine lacks (runs on each worker)."""
    out = []
    for need in needs:
        if need.kind == "module":
            ok = importlib.util.find_spec(need.path) is not None
        elif need.kind == "program":
            ok = shutil.which(need.path) is not None
        else:
            ok = os.path.exists(need.path)
        if not ok:
            out.append(need)
    return out


def describe_missing(need: Need, worker: str) -> str:
    """The one line for a bot that cannot run on ``worker``."""
    if need.kind == "module":
        return (
            f"bot {need.bot!r} cannot run on Dask worker {worker}: its bundle imports {need.path}, which the "
            f"worker's Python cannot import (pip install {need.path} on that machine)"
        )
    where = "on its PATH" if need.kind == "program" else "there"
    return (
        f"bot {need.bot!r} cannot run on Dask worker {worker}: its {need.what} {need.path} is missing {where}; "
        "bots other than Python files and packages, and data files, must be at the same paths on every worker"
    )


def cache_dir() -> Path:
    """Where a worker keeps the bundles it received (one folder per content hash)."""
    return Path(tempfile.gettempdir()) / f"cgarena-bundles-{os.getuid()}"


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def unpack(spec: BotSpec, shipped: Shipped, fetch: Callable[[], str]) -> BotSpec:
    """How ``spec`` runs on this worker: its bundle, from the cache when the file there has the
    right hash, else ``fetch()`` ed, checked against its hash and written (atomically), and run
    with this interpreter."""
    folder = cache_dir() / shipped.sha256
    path = folder / "bot.py"
    existing = _read_text(path)
    if existing is None or sha256_of(existing) != shipped.sha256:
        text = fetch()
        if sha256_of(text) != shipped.sha256:
            raise ShippingError(
                f"bot {spec.name!r}: its bundle arrived damaged on this worker (content hash "
                f"{sha256_of(text)[:12]}, expected {shipped.sha256[:12]})"
            )
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".bot-", suffix=".py")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    cwd = spec.cwd if shipped.keep_cwd else str(folder)
    return dataclasses.replace(spec, argv=(sys.executable, "-u", str(path), *shipped.args), cwd=cwd, source=None)
