"""Flattening, pass 1: index what the other passes look up in each module of the graph.

Takes the :class:`~bundler.graph.Graph` and returns a :class:`Collected`: per module, the
positions of its text, each node's parent, the names its import statements bind, and the
occurrences of names that stay in the flat file (those in ``if TYPE_CHECKING:`` imports and
``from __future__`` imports do not); for the whole graph, the ``__future__`` features and the
modules that run. Nothing is decided here and nothing is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from ..graph import Graph, Module
from ..import_sites import Binding, ImportSite
from ..scopes import Ref
from ..textedit import Positions

__all__ = [
    "ModuleFacts",
    "Collected",
    "collect",
    "executed_sites",
    "entry_parents",
    "external_paths",
    "annotation_exprs",
]


@dataclass(frozen=True)
class ModuleFacts:
    """One module, indexed. Read-only once made."""

    module: Module
    positions: Positions
    parents: Mapping[int, ast.AST]
    """``id(node)`` -> its parent node."""
    alias_bindings: Mapping[int, tuple[ImportSite, Binding]]
    """``id(ast.alias)`` -> the import site and what the clause binds (imports of every kind)."""
    star_bindings: tuple[tuple[ImportSite, Binding], ...]
    """Names bound by ``from <local module> import *``."""
    alias_refs: Mapping[int, Ref]
    """``id(ast.alias)`` -> the occurrence of the name the clause binds."""
    dropped: frozenset[int]
    """``id(ast.alias)`` of the clauses that are not in the flat file: ``if TYPE_CHECKING:``
    imports and top-level ``from __future__`` imports."""
    live_refs: tuple[Ref, ...]
    """Occurrences of names, but those of dropped clauses."""

    @property
    def name(self) -> str:
        return self.module.name

    def global_refs(self) -> list[Ref]:
        """Live occurrences that refer to the module namespace."""
        scope = self.module.scopes.module
        return [r for r in self.live_refs if r.resolved is scope]

    def in_function(self, node: ast.AST) -> bool:
        """Is ``node`` inside a function or lambda?"""
        cur = self.parents.get(id(node))
        while cur is not None:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return True
            cur = self.parents.get(id(cur))
        return False


@dataclass(frozen=True)
class Collected:
    """What :func:`collect` returns."""

    facts: Mapping[str, ModuleFacts]
    """Every module of the graph, by name, in the graph's order."""
    futures: tuple[str, ...]
    """``from __future__`` features imported at the top of any module, first seen first."""
    reachable: frozenset[str]
    """Modules that run (not those imported only for type checkers)."""


def executed_sites(module: Module) -> list[ImportSite]:
    """The module's import statements that run (not those for type checkers only)."""
    return [s for s in module.imports if not s.type_checking]


def external_paths(module: Module) -> dict[str, str]:
    """The module's names bound by its executed imports of non-local modules -> the dotted path
    of what each names (``import os.path`` binds ``os`` -> ``"os"``; ``from typing import
    get_type_hints as g`` binds ``g`` -> ``"typing.get_type_hints"``)."""
    out: dict[str, str] = {}
    for site in executed_sites(module):
        for b in site.bindings:
            if b.external:
                path = b.external.replace(":", ".")
                if b.alias is not None and isinstance(site.node, ast.Import) and not b.alias.asname:
                    path = path.split(".")[0]
                out[b.name] = path
    return out


def annotation_exprs(node: ast.AST) -> list[ast.expr]:
    """The annotations of a ``def`` (its arguments' and its return's) or of an annotated
    assignment; nothing for other nodes."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        every = a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]
        out = [arg.annotation for arg in every if arg.annotation is not None]
        return out + ([node.returns] if node.returns is not None else [])
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    return []


def entry_parents(graph: Graph) -> list[str]:
    """The packages Python imports before the entry when it runs it with ``-m``, outermost first."""
    pkg = graph.entry_point.package
    if not pkg:
        return []
    parts = pkg.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _is_future(site: ImportSite) -> bool:
    return isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__"


def _module_facts(m: Module) -> ModuleFacts:
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(m.tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    alias_bindings: dict[int, tuple[ImportSite, Binding]] = {}
    star_bindings: list[tuple[ImportSite, Binding]] = []
    dropped: set[int] = set()
    for site in m.imports:
        for b in site.bindings:
            if b.alias is not None:
                alias_bindings[id(b.alias)] = (site, b)
            elif b.module is not None:
                star_bindings.append((site, b))
        if site.type_checking or (_is_future(site) and site.top_level):
            dropped.update(id(a) for a in site.node.names)
    alias_refs = {id(r.node): r for r in m.scopes.refs if isinstance(r.node, ast.alias)}
    live = tuple(r for r in m.scopes.refs if id(r.node) not in dropped)
    return ModuleFacts(
        m, Positions(m.source), parents, alias_bindings, tuple(star_bindings), alias_refs, frozenset(dropped), live
    )


def _futures(graph: Graph) -> tuple[str, ...]:
    futures: list[str] = []
    for m in graph.modules.values():
        for site in m.imports:
            if not (_is_future(site) and site.top_level):
                continue
            for a in site.node.names:
                if a.name not in futures:
                    futures.append(a.name)
    return tuple(futures)


def _executed_modules(graph: Graph) -> frozenset[str]:
    seen: set[str] = set()
    todo = entry_parents(graph) + [graph.entry.name]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for site in executed_sites(graph.modules[name]):
            todo.extend(site.executes)
    return frozenset(seen)


def collect(graph: Graph) -> Collected:
    """Index every module of ``graph`` (see the module docstring); returns a :class:`Collected`."""
    facts = {m.name: _module_facts(m) for m in graph.modules.values()}
    return Collected(facts, _futures(graph), _executed_modules(graph))
