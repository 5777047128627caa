"""One error family: every exception class the arena defines derives from :class:`ArenaError`,
the root that :mod:`arena.api` exports (and the command layer catches), and no two classes of the
project's packages share a name (two different ``RefereeError`` s once did)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections import defaultdict
from pathlib import Path

import arena
import arena.api
import arena.errors
from tests.helpers.paths import REPO_ROOT

CLASS_NAMES_UNIQUE_IN = ("arena", "cli")
"""Packages whose classes all have names of their own (the games and the bots are each one
namespace per game or per bot: a ``League`` of each game is another class on purpose)."""
ERRORS_UNIQUE_IN = ("arena", "cli", "referee", "bundler")
"""Packages whose exception classes have names of their own, across all of them."""


def arena_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(arena.__path__, "arena.") if not m.name.endswith("_pyboot")]


def test_every_arena_exception_derives_from_the_root() -> None:
    outside = []
    for name in arena_modules():
        module = importlib.import_module(name)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            if not issubclass(cls, arena.errors.ArenaError):
                outside.append(f"{name}.{cls_name}")
    assert not outside, f"exceptions outside the arena's error family: {outside}"


def test_the_root_is_what_the_api_exports() -> None:
    assert arena.api.ArenaError is arena.errors.ArenaError is arena.ArenaError
    assert "ArenaError" in arena.api.__all__


def _classes(packages: tuple[str, ...], errors_only: bool) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for package in packages:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                if errors_only and not (node.name.endswith(("Error", "Exception", "Failure")) or _raises_kind(node)):
                    continue
                found[node.name].append(str(Path(path).relative_to(REPO_ROOT)))
    return found


def _raises_kind(node: ast.ClassDef) -> bool:
    """Whether a class derives, by name, from an exception class of the standard library."""
    bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in node.bases]
    return any(b.endswith(("Error", "Exception")) for b in bases)


def test_no_two_classes_share_a_name() -> None:
    same = {name: where for name, where in _classes(CLASS_NAMES_UNIQUE_IN, False).items() if len(where) > 1}
    assert not same, f"classes of the same name: {same}"
    errors = {name: where for name, where in _classes(ERRORS_UNIQUE_IN, True).items() if len(where) > 1}
    assert not errors, f"exception classes of the same name: {errors}"
