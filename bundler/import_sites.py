"""A module's import statements: where each one sits (at the top level, in a function, under
``if TYPE_CHECKING:``, guarded by a ``try`` that catches ``ImportError``), found with ``ast``, and,
once the graph resolves them, what each imports and binds."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["Binding", "ImportSite", "find_import_sites", "is_main_guard", "is_type_checking"]


@dataclass(frozen=True)
class Binding:
    """What one name bound by an import statement refers to."""

    name: str
    """The name bound in the importing scope."""
    module: str | None
    """The local module it refers to (``None`` for a non-local module)."""
    attr: str | None = None
    """A name in ``module``; ``None`` when the name is the module itself."""
    external: str | None = None
    """For a non-local import: ``"module"`` or ``"module:attr"``."""
    alias: ast.alias | None = None
    """The ``import`` clause that binds it (``None`` for names a star import binds)."""


@dataclass
class ImportSite:
    """One import statement in a module, resolved."""

    node: ast.Import | ast.ImportFrom
    top_index: int
    """Index of the module-body statement that contains it."""
    top_level: bool
    """Directly a statement of the module body."""
    in_function: bool
    type_checking: bool
    """Never executed: inside ``if TYPE_CHECKING:``, or inside the ``if __name__ == "__main__":``
    block of a module that is not the entry."""
    guarded: bool
    """Inside a ``try`` that catches ``ImportError``."""
    executes: list[str] = field(default_factory=list)
    """Local modules the statement imports, in the order Python runs them."""
    bindings: list[Binding] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    star_from: str | None = None
    """``from X import *`` of a local X: its name."""
    problems: list[str] = field(default_factory=list)
    """Why this import cannot be flattened (it still works in modules mode)."""

    @property
    def is_local(self) -> bool:
        return bool(self.executes) or self.star_from is not None


def is_type_checking(test: ast.expr) -> bool:
    """Is this ``if`` test ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)?"""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _catches_import_error(node: ast.Try | ast.TryStar) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in types:
            if isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError", "Exception", "BaseException"):
                return True
    return False


def is_main_guard(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` (either way round)."""
    if not isinstance(stmt, ast.If):
        return False
    t = stmt.test
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq)):
        return False
    sides = [t.left, t.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


def find_import_sites(tree: ast.Module, is_entry: bool) -> list[ImportSite]:
    """Every import statement of a module, in the order of the text, with where it sits (not yet
    resolved). Outside the entry, the imports of an ``if __name__ == "__main__":`` block never
    run: they count as type-checking ones."""
    sites: list[ImportSite] = []

    def walk(node: ast.AST, index: int, top: bool, in_function: bool, tc: bool, guarded: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            sites.append(ImportSite(node, index, top, in_function, tc, guarded))
            return
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.body:
                walk(child, index, False, in_function, True, guarded)
            for child in node.orelse:
                walk(child, index, False, in_function, tc, guarded)
            return
        if isinstance(node, (ast.Try, ast.TryStar)) and _catches_import_error(node):
            for child in node.body:
                walk(child, index, False, in_function, tc, True)
            for part in (node.handlers, node.orelse, node.finalbody):
                for item in part:
                    walk(item, index, False, in_function, tc, guarded)
            return
        func = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for sub in ast.iter_child_nodes(node):
            walk(sub, index, False, in_function or func, tc, guarded)

    for index, stmt in enumerate(tree.body):
        if not is_entry and is_main_guard(stmt) and isinstance(stmt, ast.If) and not stmt.orelse:
            for child in stmt.body:
                walk(child, index, False, False, True, False)
            continue
        walk(stmt, index, True, False, False, False)
    return sites
