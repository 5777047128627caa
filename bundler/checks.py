"""Flattening, pass 2: the refusals that do not depend on names or order.

Takes the graph, what :mod:`bundler.collect` indexed and the table of dynamic attributes to refuse;
returns the reasons found (empty when none), in this order: for each module, its problems with
imports (the same file run as two modules, imports the graph could not resolve statically, an
import of the entry, ``from <non-local> import *``); then ``from __future__ import annotations``
mixed with annotations evaluated at run time; then, for each module that runs, the features that
name globals as text or look at the module object (``eval``, ``globals()``, ``sys.modules``...).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .collect import Collected, ModuleFacts, executed_sites
from .graph import Graph, ImportSite, Module
from .refusals import Refusals

__all__ = ["DYNAMIC_NAMES", "DYNAMIC_ATTRS", "check"]

DYNAMIC_NAMES = {
    "__import__": "dynamic import (__import__)",
    "eval": "eval() (code that names globals as text)",
    "exec": "exec() (code that names globals as text)",
    "globals": "globals()",
    "vars": "vars()",
    "__file__": "__file__",
    "__spec__": "__spec__",
    "__loader__": "__loader__",
    "__path__": "__path__",
    "__package__": "__package__",
    "__builtins__": "__builtins__",
    "__cached__": "__cached__",
    "__doc__": "the module's __doc__",
    "__dict__": "__dict__",
}
"""Global (or builtin) names whose use is refused -> how a reason names the use."""

DYNAMIC_ATTRS = {
    ("sys", "modules"): "sys.modules",
    ("importlib", "import_module"): "dynamic import (importlib.import_module)",
    ("importlib", "__import__"): "dynamic import (importlib.__import__)",
    ("importlib", "reload"): "importlib.reload",
    ("builtins", "__import__"): "dynamic import (builtins.__import__)",
}
"""(non-local module, attribute) whose use is refused -> how a reason names the use."""

DynamicAttrs = Mapping[tuple[str, str], str]


def _is_empty(m: Module) -> bool:
    """A module with no statement but maybe a docstring (an empty ``__init__.py``): running it
    under two names makes two modules that hold nothing."""
    body = m.tree.body
    return not body or (len(body) == 1 and isinstance(body[0], ast.Expr)
                        and isinstance(body[0].value, ast.Constant))


def _check_imports(graph: Graph, found: Refusals) -> None:
    entry = graph.entry
    paths: dict[str, str] = {}
    for m in graph.modules.values():
        if m.path is not None:
            key = str(m.path)
            if key in paths and not _is_empty(m):
                found.refuse(m, None, f"the same file runs as two modules ({paths[key]} and {m.name})")
            paths[key] = m.name
        for site in m.imports:
            for p in site.problems:
                if not site.type_checking:
                    found.note(p.replace(str(m.path), graph.display(m)) if m.path else p)
            if entry.name in site.executes and not m.is_entry:
                found.refuse(m, site.node, f"imports the entry module {entry.name}, which Python "
                                           f"would run a second time")
            if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__" and not site.top_level:
                continue
            if site.external and any(a.name == "*" for a in site.node.names):
                found.refuse(m, site.node, f"'from {site.external[0]} import *' binds names that "
                                           f"cannot be listed without running it")


def _module_futures(m: Module) -> set[str]:
    out: set[str] = set()
    for site in m.imports:
        if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__":
            out.update(a.name for a in site.node.names)
    return out


def _has_evaluated_annotations(node: ast.AST) -> bool:
    """A ``def`` whose annotations Python evaluates when it runs the ``def``."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = node.args
    every = args.args + args.posonlyargs + args.kwonlyargs + [x for x in (args.vararg, args.kwarg) if x]
    return node.returns is not None or any(a.annotation is not None for a in every)


def _check_futures(graph: Graph, collected: Collected, found: Refusals) -> None:
    if "annotations" not in collected.futures:
        return
    for m in graph.modules.values():
        if m.name not in collected.reachable or m.path is None or _module_futures(m) >= {"annotations"}:
            continue
        for node in ast.walk(m.tree):
            if _has_evaluated_annotations(node):
                found.refuse(m, node, "has annotations evaluated at definition time, but another "
                                      "module uses 'from __future__ import annotations' (one file "
                                      "cannot have both)")
                break
        facts = collected.facts[m.name]
        for node in m.tree.body:
            for sub in ast.walk(node):
                if isinstance(sub, ast.AnnAssign) and not facts.in_function(sub):
                    found.refuse(m, sub, "has module or class annotations evaluated at run time, "
                                         "but another module uses 'from __future__ import annotations'")
                    break


def _call_has_args(facts: ModuleFacts, node: ast.AST) -> bool:
    parent = facts.parents.get(id(node))
    return isinstance(parent, ast.Call) and parent.func is node and bool(parent.args)


def _external_module_of(sites: list[ImportSite], name: ast.Name) -> str | None:
    """The non-local module a name is bound to by ``import X`` in this module, if any."""
    for site in sites:
        for b in site.bindings:
            if b.name == name.id and b.external and ":" not in b.external:
                return b.external if b.alias and b.alias.asname else b.external.split(".")[0]
    return None


def _check_dynamic(facts: ModuleFacts, dynamic_attrs: DynamicAttrs, found: Refusals) -> None:
    m = facts.module
    global_refs = facts.global_refs()
    bound = {r.name for r in global_refs if r.kind in ("store", "del")}
    for r in global_refs:
        if r.name in DYNAMIC_NAMES and r.name not in bound:
            if r.name == "vars" and _call_has_args(facts, r.node):
                continue
            found.refuse(m, r.node, f"uses {DYNAMIC_NAMES[r.name]}")
        if r.name == "locals" and r.scope.kind == "module":
            found.refuse(m, r.node, "uses locals() at module level")
        if r.name == "__name__" and r.kind != "load":
            found.refuse(m, r.node, "assigns __name__")
    sites = executed_sites(m)
    for site in sites:
        for b in site.bindings:
            if b.external and ":" in b.external:
                mod, attr = b.external.split(":")
                if (mod, attr) in dynamic_attrs:
                    found.refuse(m, site.node, f"uses {dynamic_attrs[(mod, attr)]}")
    for node in ast.walk(m.tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            ext = _external_module_of(sites, node.value)
            if ext is not None and (ext, node.attr) in dynamic_attrs:
                found.refuse(m, node, f"uses {dynamic_attrs[(ext, node.attr)]}")


def check(graph: Graph, collected: Collected, dynamic_attrs: DynamicAttrs) -> tuple[str, ...]:
    """The reasons (see the module docstring) why ``graph`` cannot be flattened whatever its names;
    ``dynamic_attrs`` is the table of refused attributes (normally :data:`DYNAMIC_ATTRS`)."""
    found = Refusals(graph)
    _check_imports(graph, found)
    _check_futures(graph, collected, found)
    for m in graph.modules.values():
        if m.name in collected.reachable:
            _check_dynamic(collected.facts[m.name], dynamic_attrs, found)
    return found.found()
