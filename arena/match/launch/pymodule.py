"""How the path of a Python bot becomes a running module: the one rule for the arena, which runs
the bot (:func:`arena.match.launch.botspec.python_command`), and for the bundler, which reads it as it
runs (``bundle``'s entry and the directory it searches for the bot's modules).

- A directory runs its ``__main__.py``: as ``python -m PKG`` when the directory is a package (it
  has an ``__init__.py``), else as a script (``python DIR/__main__.py``).
- A file runs as a script (``python FILE``), unless it sits in a package and is its
  ``__main__.py`` or uses relative imports: then as a module of its package
  (``python -m PKG.MODULE``).
- A module of a package runs from the directory above its outermost package (``sys.path[0]``),
  a script from its own directory.

:func:`module_path` goes the other way: the file or package directory of a dotted module name.
:func:`read_python` reads a Python file: only a regular one (never a FIFO or a device) of at most
:data:`PYTHON_LIMIT` bytes. This module imports nothing else of the arena but :mod:`arena.paths`
(the standard library only): the bundler uses it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import ArenaError
from ...paths import NotRegular, read_regular

__all__ = [
    "PythonEntry",
    "NoMainError",
    "locate",
    "package_chain",
    "uses_relative_imports",
    "module_path",
    "PYTHON_LIMIT",
    "NotRegular",
    "read_python",
]

PYTHON_LIMIT = 64 << 20
"""The largest Python file read (64 MiB): a larger one is no bot's source."""


def read_python(path: Path) -> bytes:
    """The bytes of the Python file ``path``: :class:`NotRegular` (before anything is read) when
    it is not a regular file or is over :data:`PYTHON_LIMIT` bytes, :class:`OSError` when it
    cannot be read."""
    return read_regular(path, PYTHON_LIMIT)


@dataclass(frozen=True)
class PythonEntry:
    """How a Python bot runs normally."""

    path: Path
    """The file run as ``__main__`` (absolute)."""
    module: str
    """Its dotted name when it runs as a module of a package (``pkg.__main__``, ``pkg.main``),
    else ``"__main__"``."""
    package: str | None
    """``__package__`` while it runs (``None`` for a script)."""
    root: Path
    """``sys.path[0]``: the directory above the outermost package, or the script's directory."""

    @property
    def is_script(self) -> bool:
        return self.package is None

    def run_args(self) -> list[str]:
        """The interpreter's arguments that run the bot from :attr:`root`: ``FILE``, or ``-m``
        and the module (a package's ``__main__.py`` runs as the package)."""
        if self.package is None:
            return [str(self.path)]
        return ["-m", self.package if self.path.name == "__main__.py" else self.module]


class NoMainError(ArenaError, ValueError):
    """A directory without ``__main__.py``: no bot to run. ``path`` is the directory (absolute)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"{path}: no __main__.py")


def package_chain(directory: Path) -> tuple[list[str], Path]:
    """The names of the packages ``directory`` is nested in (outermost first) and the directory
    above them (``directory`` itself when it is no package)."""
    parts: list[str] = []
    while (directory / "__init__.py").is_file():
        parts.insert(0, directory.name)
        directory = directory.parent
    return parts, directory


def uses_relative_imports(path: Path, read: Callable[[Path], str | bytes] = read_python) -> bool:
    """Whether the file has a relative import (``from . import x``) anywhere. ``read`` gives its
    text: a file it raises ``OSError``, ``SyntaxError``, ``ValueError`` or :class:`NotRegular`
    for, or that does not parse, has none; any other exception of ``read`` reaches the caller."""
    try:
        tree = ast.parse(read(path))
    except (SyntaxError, ValueError, OSError, NotRegular):
        return False
    return any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))


def locate(path: Path, read: Callable[[Path], str | bytes] = read_python) -> PythonEntry:
    """How the bot at ``path`` (a file, or a directory with a ``__main__.py``) runs; raises
    :class:`NoMainError` for a directory without one. ``read`` reads a file of a package to see
    whether it uses relative imports (:func:`uses_relative_imports`)."""
    path = path.resolve()
    if path.is_dir():
        main = path / "__main__.py"
        if not main.is_file():
            raise NoMainError(path)
        if not (path / "__init__.py").is_file():
            return PythonEntry(main, "__main__", None, path)
        path = main
    parts, root = package_chain(path.parent)
    if not (parts and (path.name == "__main__.py" or uses_relative_imports(path, read))):
        return PythonEntry(path, "__main__", None, path.parent)
    package = ".".join(parts)
    return PythonEntry(path, f"{package}.{path.stem}", package, root)


def module_path(root: Path, module: str) -> Path | None:
    """The package directory or the file of ``module`` under ``root`` (``None``: neither exists)."""
    base = root.joinpath(*module.split("."))
    for candidate in (base, base.with_name(base.name + ".py")):
        if candidate.exists():
            return candidate
    return None
