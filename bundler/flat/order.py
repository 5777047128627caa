"""Flattening, pass 4: the order in which the flat file runs the modules' statements.

Takes the graph; returns the plan (a tuple of :data:`Step`): Python's own order of execution,
where each local import statement that runs a module is preceded by that module's statements.
Raises :class:`Unorderable` on an import cycle that reads a module still running, and on a module
imported inside a block (conditionally, or in a function) whose early run could be observed.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ..graph import Graph, Module
from ..import_sites import Binding, ImportSite, is_main_guard, is_type_checking
from .collect import Collected, entry_parents, executed_sites, external_paths
from .refusals import Refusals, where

__all__ = ["Step", "Unorderable", "order", "statement_positions", "submodule_overwrites"]

Step = tuple[str, int | None]
"""``(module, index)``: ``index`` is ``None`` where the module starts, ``i >= 0`` for its top-level
statement ``i``, ``-i - 1`` for the blank lines and comments above statement ``i`` (emitted ahead
of the modules that statement imports)."""

_PURE_BUILTINS = frozenset(
    [
        "abs",
        "all",
        "any",
        "bool",
        "bytes",
        "callable",
        "chr",
        "classmethod",
        "complex",
        "dict",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "format",
        "frozenset",
        "getattr",
        "hasattr",
        "hash",
        "hex",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "object",
        "oct",
        "ord",
        "pow",
        "property",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "slice",
        "sorted",
        "staticmethod",
        "str",
        "sum",
        "super",
        "tuple",
        "type",
        "zip",
    ]
)
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


_PURE_MODULES = frozenset(
    [
        "abc",
        "array",
        "bisect",
        "cmath",
        "collections",
        "copy",
        "dataclasses",
        "decimal",
        "enum",
        "fractions",
        "functools",
        "heapq",
        "itertools",
        "keyword",
        "math",
        "numbers",
        "numpy",
        "operator",
        "re",
        "statistics",
        "string",
        "struct",
        "textwrap",
        "types",
        "typing",
    ]
)
"""Non-local modules whose functions, called at import time, depend on nothing but their
arguments and change nothing the program could see (``numpy.random`` aside)."""


def _immutable(value: object) -> bool:
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(v) for v in value)
    return isinstance(value, (int, float, complex, str, bytes, bool, type(None)))


class _Purity:
    """Decides whether running a module earlier than Python would could be observed."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._names: dict[str, tuple[dict[str, str], dict[str, Binding]]] = {}

    def names(self, m: Module) -> tuple[dict[str, str], dict[str, Binding]]:
        """The module's names bound to non-local things (name -> dotted path) and to local
        modules or their names (name -> binding), by its executed imports."""
        if m.name not in self._names:
            local = {
                b.name: b
                for site in executed_sites(m)
                for b in site.bindings
                if not b.external and b.module is not None
            }
            self._names[m.name] = (external_paths(m), local)
        return self._names[m.name]

    @staticmethod
    def pure_path(path: str) -> bool:
        parts = path.split(".")
        return parts[0] in _PURE_MODULES and not (parts[0] == "numpy" and "random" in parts)

    def stable_value(self, module: str, attr: str) -> str | None:
        """Why reading ``module.attr`` early could see another value than Python would, or None:
        only a ``def``, a ``class`` or an immutable constant bound once at top level is safe."""
        target = self.graph.modules.get(module)
        if target is None:
            return f"reads {module}.{attr}"
        scope = target.scopes.module
        stores = [
            r for r in target.scopes.refs if r.resolved is scope and r.name == attr and r.kind in ("store", "del")
        ]
        if len(stores) != 1 or stores[0].scope is not scope:
            return f"reads {module}.{attr}, which {module} may rebind"
        stmt = target.tree.body[stores[0].top_index]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name == attr:
            return None
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            try:
                value = ast.literal_eval(stmt.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                value = []
            if _immutable(value):
                return None
        return f"reads {module}.{attr}, whose value the program may change before Python would run this"

    def read(
        self,
        m: Module,
        node: ast.Name,
        parents: dict[int, ast.AST],
        external: dict[str, str],
        local: dict[str, Binding],
    ) -> str | None:
        """Why this read, at import time, could see something else when run early, or None."""
        if node.id in external:
            return None if self.pure_path(external[node.id]) else f"reads {external[node.id]}"
        b = local.get(node.id)
        if b is None or b.module is None:
            return None
        module, attr = b.module, b.attr
        cur: ast.expr = node
        while attr is None:  # a module: follow module.attr
            parent = parents.get(id(cur))
            if not (isinstance(parent, ast.Attribute) and parent.value is cur):
                return f"uses module {module} as an object"
            sub = f"{module}.{parent.attr}"
            if sub in self.graph.modules and parent.attr not in self.graph.modules[module].scopes.module_names():
                module, cur = sub, parent
                continue
            attr, cur = parent.attr, parent
        why = self.stable_value(module, attr)
        if why is None and isinstance(parents.get(id(cur)), (ast.Attribute, ast.Subscript)):
            return f"reads inside {module}.{attr}, which the program may change before Python would run this"
        return why

    def exprs(self, m: Module, exprs: list[ast.expr], decorators: int) -> str | None:
        external, local = self.names(m)
        parents = {id(c): n for e in exprs for n in _executed_nodes(e) for c in ast.iter_child_nodes(n)}
        for i, expr in enumerate(exprs):
            if i < decorators and isinstance(expr, (ast.Name, ast.Attribute)):
                root = _root_name(expr)
                if not (root in external and self.pure_path(external[root])) and root not in _PURE_BUILTINS:
                    return f"decorator {ast.unparse(expr)} runs code"
            for node in _executed_nodes(expr):
                if isinstance(node, ast.Call):
                    root = _root_name(node.func)
                    pure = root in _PURE_BUILTINS and root not in external and root not in local
                    if root in external:
                        pure = self.pure_path(external[root] + "." + ast.unparse(node.func).partition(".")[2])
                    if not pure:
                        return f"calls {ast.unparse(node.func)}"
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    why = self.read(m, node, parents, external, local)
                    if why:
                        return why
        return None

    def class_header(self, m: Module, stmt: ast.ClassDef) -> str | None:
        """A class whose creation runs code of the bot: a base class of the bot (its
        ``__init_subclass__``), a metaclass or another keyword."""
        external, _ = self.names(m)
        for expr in list(stmt.bases) + [k.value for k in stmt.keywords]:
            root = _root_name(expr)
            if root in _PURE_BUILTINS or (root in external and self.pure_path(external[root])):
                continue
            return (
                f"class {stmt.name} derives from {ast.unparse(expr)}, whose creation may run the bot's "
                f"code (__init_subclass__, a metaclass)"
            )
        return None

    def stmt(self, m: Module, stmt: ast.stmt) -> str | None:
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
            return self.exprs(m, exprs, decorators=len(stmt.decorator_list))
        if isinstance(stmt, ast.ClassDef):
            why = self.class_header(m, stmt) or self.exprs(m, list(stmt.decorator_list), len(stmt.decorator_list))
            if why:
                return why
            for sub in stmt.body:
                why = self.stmt(m, sub)
                if why:
                    return why
            return None
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred, ast.Store)) for n in ast.walk(t)):
                    return "assigns into an object (its effect could be seen)"
            return self.exprs(m, [stmt.value] if stmt.value is not None else [], 0)
        return f"runs a {type(stmt).__name__} statement at import time"

    def module(self, name: str, done: set[str], active: list[str], seen: set[str]) -> str | None:
        """Why running module ``name`` (and what it imports) early could be observed, or None."""
        if name in seen or name in done:
            return None
        if name in active:
            return f"{name} is still running (a cycle)"
        seen.add(name)
        m = self.graph.modules[name]
        for site in executed_sites(m):
            for t in site.executes:
                why = self.module(t, done, active, seen)
                if why:
                    return why
            if any(e.split(".")[0] in ("this", "antigravity") for e in site.external):
                return f"{where(self.graph, m, site.node)} imports a module that prints"
        for stmt in m.tree.body:
            why = self.stmt(m, stmt)
            if why:
                return f"{where(self.graph, m, stmt)}: {why}"
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
                    chain = " -> ".join(active[active.index(blocked) :] + [blocked])
                    raise refuse(m, site.node, f"import cycle {chain}")
                pending = [t for t in site.executes if t not in done and t not in active]
                if pending and site.top_level:
                    plan.append((name, -index - 1))  # the comments above the import first
                for target in site.executes:
                    if target in done or target in active:
                        continue
                    if not site.top_level:
                        why = _Purity(graph).module(target, done, active, set())
                        if why:
                            kind = "inside a function" if site.in_function else "conditionally"
                            raise refuse(
                                m,
                                site.node,
                                f"imports {target} {kind}; running it earlier than Python would is not safe: {why}",
                            )
                    run(target)
            plan.append((name, index))
        active.pop()
        done.add(name)

    for prefix in entry_parents(graph):
        if prefix not in done:
            run(prefix)
    run(graph.entry.name)
    return tuple(plan)


def statement_positions(plan: Sequence[Step]) -> dict[tuple[str, int], int]:
    """(module, top-level statement index) -> its position in the plan."""
    return {(name, index): i for i, (name, index) in enumerate(plan) if index is not None and index >= 0}


def submodule_overwrites(graph: Graph, collected: Collected, plan: tuple[Step, ...]) -> tuple[str, ...]:
    """Where a package binds a global named like one of its submodules before that submodule
    first runs: Python then replaces the package's global with the submodule (``pkg.sub`` is the
    module afterwards), which one flat namespace cannot do."""
    found = Refusals(graph)
    starts = {name: i for i, (name, index) in enumerate(plan) if index is None}
    positions = statement_positions(plan)
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
                found.refuse(
                    m,
                    r.node,
                    f"binds {r.name!r} before the submodule {sub} first runs, which "
                    f"replaces it with the module (one namespace cannot)",
                )
    return found.found()
