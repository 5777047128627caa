"""Flattening, pass 4: the order in which the flat file runs the modules' statements.

Takes the graph; returns the plan (a tuple of :data:`Step`): Python's own order of execution,
where each local import statement that runs a module is preceded by that module's statements.
Raises :class:`Unorderable` on an import cycle that reads a module still running, and on a module
imported inside a block (conditionally, or in a function) whose early run could be observed.
"""

from __future__ import annotations

import ast

from .collect import Collected, entry_parents, executed_sites, is_type_checking
from .graph import Graph, ImportSite, Module, is_main_guard
from .refusals import Refusals, where

__all__ = ["Step", "Unorderable", "order", "submodule_overwrites"]

Step = tuple[str, int | None]
"""``(module, index)``: ``index`` is ``None`` where the module starts, ``i >= 0`` for its top-level
statement ``i``, ``-i - 1`` for the blank lines and comments above statement ``i`` (emitted ahead
of the modules that statement imports)."""

_PURE_BUILTINS = frozenset([
    "abs", "all", "any", "bool", "bytes", "callable", "chr", "classmethod", "complex", "dict", "divmod",
    "enumerate", "filter", "float", "format", "frozenset", "getattr", "hasattr", "hash", "hex", "int",
    "isinstance", "issubclass", "iter", "len", "list", "map", "max", "min", "next", "object", "oct", "ord",
    "pow", "property", "range", "repr", "reversed", "round", "set", "slice", "sorted", "staticmethod", "str",
    "sum", "super", "tuple", "type", "zip",
])
"""Builtins that a module may call at import time without effects anyone could see."""


class Unorderable(Exception):
    """The modules cannot be put in one order; ``reason`` says where and why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _root_name(expr: ast.expr) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Call, ast.Subscript)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _executed_nodes(expr: ast.AST) -> list[ast.AST]:
    """Nodes evaluated when ``expr`` is (lambda bodies are not)."""
    out: list[ast.AST] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _blocked(site: ImportSite, active: list[str]) -> str | None:
    """A module of ``active`` (still running) whose names this import needs now. An import
    inside a function reads the names when the function runs, in Python as in the flat file
    (where they are globals), so it is never blocked."""
    if site.in_function:
        return None
    for b in site.bindings:
        if b.module in active and b.module is not None:
            if b.attr is None and not site.in_function:
                continue  # binds a package object that is still running (``from . import x``)
            return b.module
    if site.star_from in active:
        return site.star_from
    for target in site.executes:
        if target in active and not any(t.startswith(target + ".") for t in site.executes):
            return target
    return None


def _impure_exprs(exprs: list[ast.expr], ext: set[str], decorators: int) -> str | None:
    for i, expr in enumerate(exprs):
        if i < decorators and isinstance(expr, (ast.Name, ast.Attribute)):
            root = _root_name(expr)
            if root not in ext and root not in _PURE_BUILTINS:
                return f"decorator {ast.unparse(expr)} runs code"
        for node in _executed_nodes(expr):
            if isinstance(node, ast.Call):
                root = _root_name(node.func)
                if root is None or (root not in ext and root not in _PURE_BUILTINS):
                    return f"calls {ast.unparse(node.func)}"
    return None


def _impure_stmt(m: Module, stmt: ast.stmt, ext: set[str]) -> str | None:
    """Why running this top-level statement could be observed, or None."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
        return None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return None
    if isinstance(stmt, ast.If) and ((is_main_guard(stmt) and not m.is_entry) or is_type_checking(stmt.test)):
        return None
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        exprs: list[ast.expr] = list(stmt.decorator_list) + list(stmt.args.defaults)
        exprs += [d for d in stmt.args.kw_defaults if d is not None]
        return _impure_exprs(exprs, ext, decorators=len(stmt.decorator_list))
    if isinstance(stmt, ast.ClassDef):
        exprs = list(stmt.decorator_list) + list(stmt.bases) + [k.value for k in stmt.keywords]
        why = _impure_exprs(exprs, ext, decorators=len(stmt.decorator_list))
        if why:
            return why
        for sub in stmt.body:
            why = _impure_stmt(m, sub, ext)
            if why:
                return why
        return None
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred, ast.Store))
                       for n in ast.walk(t)):
                return "assigns into an object (its effect could be seen)"
        return _impure_exprs([stmt.value] if stmt.value is not None else [], ext, 0)
    return f"runs a {type(stmt).__name__} statement at import time"


def _impure(graph: Graph, name: str, done: set[str], active: list[str], seen: set[str]) -> str | None:
    """Why running module ``name`` (and what it imports) early could be observed, or None."""
    if name in seen or name in done:
        return None
    if name in active:
        return f"{name} is still running (a cycle)"
    seen.add(name)
    m = graph.modules[name]
    bound_external = {b.name for s in executed_sites(m) for b in s.bindings if b.external}
    for site in executed_sites(m):
        for t in site.executes:
            why = _impure(graph, t, done, active, seen)
            if why:
                return why
        if any(e.split(".")[0] in ("this", "antigravity") for e in site.external):
            return f"{where(graph, m, site.node)} imports a module that prints"
    for stmt in m.tree.body:
        why = _impure_stmt(m, stmt, bound_external)
        if why:
            return f"{where(graph, m, stmt)}: {why}"
    return None


def order(graph: Graph) -> tuple[Step, ...]:
    """The emission plan (see the module docstring): the packages above the entry, then the entry,
    each module's steps interleaved with those of the modules it imports; raises
    :class:`Unorderable`."""
    plan: list[Step] = []
    done: set[str] = set()
    active: list[str] = []

    def refuse(m: Module, node: ast.AST, why: str) -> Unorderable:
        return Unorderable(f"{where(graph, m, node)}: {why}")

    def run(name: str) -> None:
        m = graph.modules[name]
        active.append(name)
        plan.append((name, None))
        by_index: dict[int, list[ImportSite]] = {}
        for site in executed_sites(m):
            if site.executes:
                by_index.setdefault(site.top_index, []).append(site)
        for index in range(len(m.tree.body)):
            for site in by_index.get(index, []):
                blocked = _blocked(site, active)
                if blocked:
                    chain = " -> ".join(active[active.index(blocked):] + [blocked])
                    raise refuse(m, site.node, f"import cycle {chain}")
                pending = [t for t in site.executes if t not in done and t not in active]
                if pending and site.top_level:
                    plan.append((name, -index - 1))  # the comments above the import first
                for target in site.executes:
                    if target in done or target in active:
                        continue
                    if not site.top_level:
                        why = _impure(graph, target, done, active, set())
                        if why:
                            kind = "inside a function" if site.in_function else "conditionally"
                            raise refuse(m, site.node, f"imports {target} {kind}; running it earlier "
                                                       f"than Python would is not safe: {why}")
                    run(target)
            plan.append((name, index))
        active.pop()
        done.add(name)

    for prefix in entry_parents(graph):
        if prefix not in done:
            run(prefix)
    run(graph.entry.name)
    return tuple(plan)


def submodule_overwrites(graph: Graph, collected: Collected, plan: tuple[Step, ...]) -> tuple[str, ...]:
    """Where a package binds a global named like one of its submodules before that submodule
    first runs: Python then replaces the package's global with the submodule (``pkg.sub`` is the
    module afterwards), which one flat namespace cannot do."""
    found = Refusals(graph)
    starts = {name: i for i, (name, index) in enumerate(plan) if index is None}
    positions = {(name, index): i for i, (name, index) in enumerate(plan) if index is not None and index >= 0}
    for name in dict.fromkeys(n for n, _ in plan):
        m = graph.modules[name]
        if not m.is_package:
            continue
        scope = m.scopes.module
        for r in collected.facts[name].global_refs():
            sub = f"{name}.{r.name}"
            if r.kind not in ("store", "del") or sub not in starts:
                continue
            if r.scope is not scope or positions.get((name, r.top_index), -1) < starts[sub]:
                found.refuse(m, r.node, f"binds {r.name!r} before the submodule {sub} first runs, which "
                                        f"replaces it with the module (one namespace cannot)")
    return found.found()
