"""Flattening, pass 6: what the parts of one module's rewrite share.

:class:`Rewriter` holds the module, its facts and the name plan, and gathers what the rewrite
makes, in the order made: the text edits, the text of the top-level statements replaced whole,
the reasons to refuse and the clashes. :class:`~bundler.flat.rewrite_uses.UsesRewrite` and
:class:`~bundler.flat.rewrite_imports.ImportsRewrite` are its two parts.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from ..graph import Graph
from ..import_sites import Binding
from ..scopes import Scope
from ..textedit import Edit
from .classify import ModuleNames
from .collect import ModuleFacts
from .naming import NamePlan, Target
from .refusals import Refusals

__all__ = ["Rewriter", "deleted_globals", "enclosing_reaches_module"]


def deleted_globals(graph: Graph) -> frozenset[tuple[str, str]]:
    """(module, name) of every global a module deletes with ``del`` in its own top-level code."""
    out: set[tuple[str, str]] = set()
    for module in graph.modules.values():
        todo: list[ast.AST] = list(module.tree.body)
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Delete):
                out.update((module.name, t.id) for t in node.targets if isinstance(t, ast.Name))
            todo.extend(ast.iter_child_nodes(node))
    return frozenset(out)


def enclosing_reaches_module(scope: Scope, name: str) -> bool:
    """Would ``name``, free in ``scope``, resolve to the module namespace?"""
    s = scope.parent
    while s is not None and s.kind != "module":
        if s.kind != "class":
            if name in s.globals:
                return True
            if name in s.bindings or name in s.nonlocals:
                return False
        s = s.parent
    return True


class Rewriter:
    """One module's rewrite in progress: what every part reads and what they all add to."""

    def __init__(self, graph: Graph, facts: ModuleFacts, plan: NamePlan) -> None:
        self.m = facts.module
        self.facts = facts
        self.pos = facts.positions
        self.parents = facts.parents
        self.plan = plan
        self.names: ModuleNames = plan.names[self.m.name]
        self.final: Mapping[str, str] = plan.final[self.m.name]
        self.edits: list[Edit] = []
        self.top: dict[int, str] = {}
        self.found = Refusals(graph)
        self.deleted = deleted_globals(graph)
        self.clashes: set[tuple[str, str]] = set()

    def refuse(self, node: ast.AST | None, why: str) -> None:
        self.found.refuse(self.m, node, why)

    def binding_target(self, b: Binding) -> Target | None:
        return self.plan.target(b.module, b.attr) if b.module else None

    def clash(self, target: Target) -> None:
        """``target``'s final name is a local name where it is read: note it for renaming."""
        if target.owner is not None:
            self.clashes.add(target.owner)
