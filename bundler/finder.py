"""Where a module's code is: Python's path-based module search (packages, modules, namespace
packages) over a fixed list of directories."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .stdlib import unshadowable

__all__ = ["ModuleFile", "Finder", "prefixes"]


@dataclass(frozen=True)
class ModuleFile:
    """Where a module's code lives."""

    name: str
    path: Path | None
    """``None`` for a namespace package (no code)."""
    is_package: bool
    search: tuple[Path, ...] = ()
    """``__path__`` of a package."""


class Finder:
    """Python's path-based module search over a fixed list of directories."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self.cache: dict[str, ModuleFile | None] = {}

    def find(self, name: str) -> ModuleFile | None:
        if name not in self.cache:
            self.cache[name] = self._find(name)
        return self.cache[name]

    def _find(self, name: str) -> ModuleFile | None:
        parent, _, last = name.rpartition(".")
        if parent:
            pkg = self.find(parent)
            if pkg is None or not pkg.is_package:
                return None
            dirs: tuple[Path, ...] = pkg.search
        else:
            if unshadowable(name):
                return None
            dirs = tuple(self.roots)
        portions: list[Path] = []
        for d in dirs:
            pkg_dir = d / last
            if (pkg_dir / "__init__.py").is_file():
                return ModuleFile(name, pkg_dir / "__init__.py", True, (pkg_dir,))
            if (d / f"{last}.py").is_file():
                return ModuleFile(name, d / f"{last}.py", False)
            if pkg_dir.is_dir() and last.isidentifier():
                portions.append(pkg_dir)
        if portions:
            return ModuleFile(name, None, True, tuple(portions))
        return None


def prefixes(name: str) -> list[str]:
    """``a.b.c`` -> ``["a", "a.b", "a.b.c"]``: the packages Python imports before the module, then
    the module."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]
