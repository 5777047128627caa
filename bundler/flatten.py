"""Flat mode: the modules' own text, in the order Python would run it, as one module.

Everything is an edit of the original text located by syntax-tree positions, so comments,
docstrings and multi-line strings stay byte for byte. What changes:

- a module's code is placed where Python would first run it: the importing module's text is cut
  at the import statement and the imported module's text goes there;
- local import statements go; a name they bound becomes an alias, its uses rewritten to the
  imported definition (``m.f`` for ``import pkg.mod as m`` too), or an assignment when the name
  is rebound later (Python copies the value at import time, so does the assignment);
- top-level names that two modules define differently are renamed (``name_module``) in every
  occurrence that scope analysis resolves to that module's namespace;
- ``if __name__ == "__main__":`` blocks of other modules and ``if TYPE_CHECKING:`` blocks go,
  ``__name__`` elsewhere becomes the module's name, ``from __future__`` imports move to the top,
  a standard-library import already made with the same name is not repeated.

Anything that could behave differently once the modules share one namespace raises
:class:`FlattenRefused` with every reason found.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

from .errors import FlattenRefused
from .graph import Binding, Graph, ImportSite, Module, is_main_guard
from .scopes import Ref, Scope
from .textedit import Edit, EditConflict, Positions, apply_edits

__all__ = ["FlatBundle", "Piece", "flatten"]

_DYNAMIC_NAMES = {
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
_DYNAMIC_ATTRS = {
    ("sys", "modules"): "sys.modules",
    ("importlib", "import_module"): "dynamic import (importlib.import_module)",
    ("importlib", "__import__"): "dynamic import (importlib.__import__)",
    ("importlib", "reload"): "importlib.reload",
    ("builtins", "__import__"): "dynamic import (builtins.__import__)",
}
_PURE_BUILTINS = frozenset(
    ["abs", "all", "any", "bool", "bytes", "callable", "chr", "classmethod", "complex", "dict", "divmod", "enumerate", "filter", "float", "format", "frozenset", "getattr", "hasattr", "hash", "hex", "int", "isinstance", "issubclass", "iter", "len", "list", "map", "max", "min", "next", "object", "oct", "ord", "pow", "property", "range", "repr", "reversed", "round", "set", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "zip"]
)
_BUILTIN_NAMES = frozenset(dir(builtins))

NameKey = tuple[str, ...]
"""What a global name holds: ``("stdlib", what)`` for a standard-library import (shared by the
modules that import the same thing), ``("module", module, name)`` otherwise, ``("free",)`` for a
builtin read."""


@dataclass(frozen=True)
class Piece:
    """A run of one module's text in the flat output."""

    module: str
    display: str
    text: str
    continued: bool
    """Not the module's first piece (its text resumes after modules it imported)."""


@dataclass
class FlatBundle:
    """The flattened body (no header) and what it is made of."""

    futures: list[str]
    pieces: list[Piece]
    renamed: dict[str, dict[str, str]] = field(default_factory=dict)
    """Module -> {original name: new name} for the names that had to change."""

    def text(self) -> str:
        out: list[str] = []
        if self.futures:
            out.append(f"from __future__ import {', '.join(self.futures)}\n")
        for piece in self.pieces:
            if not piece.text.strip():
                continue
            label = piece.display + (" (continued)" if piece.continued else "")
            if out and not out[-1].endswith("\n\n"):
                out.append("\n")
            out.append(f"# ---- {label} ----\n")
            out.append(piece.text if piece.text.endswith("\n") else piece.text + "\n")
        return "".join(out)

    def sizes(self) -> dict[str, str]:
        """Module display name -> its text (all pieces), for the size report."""
        texts: dict[str, str] = {}
        for p in self.pieces:
            texts[p.display] = texts.get(p.display, "") + p.text
        return texts


@dataclass(frozen=True)
class _Target:
    """What a name resolves to in the flat namespace: a global, or a module (namespace)."""

    final: str | None = None
    module: str | None = None


class _Refusal(Exception):
    """Stops the ordering at the first reason that makes every later step meaningless."""


class _Flattener:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.modules = graph.modules
        self.reasons: list[str] = []
        self.pos: dict[str, Positions] = {m.name: Positions(m.source) for m in self.modules.values()}
        # Per module: alias node id -> (site, binding); names bound by local imports.
        self.alias_binding: dict[str, dict[int, tuple[ImportSite, Binding]]] = {}
        self.star_bindings: dict[str, list[tuple[ImportSite, Binding]]] = {}
        self.alias_refs: dict[str, dict[int, Ref]] = {}
        self.dropped_nodes: dict[str, set[int]] = {}
        self.aliases: dict[str, dict[str, Binding]] = {}
        """Module -> module-level names that are pure aliases of another module's name."""
        self.own: dict[str, dict[str, NameKey]] = {}
        """Module -> module-level names it owns -> their sharing key."""
        self.final: dict[str, dict[str, str]] = {}
        self.parents: dict[str, dict[int, ast.AST]] = {}
        self.futures: list[str] = []
        self.edits: dict[str, list[Edit]] = {m: [] for m in self.modules}
        self.top_replacements: dict[str, dict[int, str]] = {m: {} for m in self.modules}
        self.duplicates: set[int] = set()
        """``import`` clauses (alias ids) that repeat a standard-library import made earlier."""
        self.reachable: set[str] = set()
        self.tc_aliases: dict[str, dict[str, Binding]] = {}
        """Module -> names bound only under ``if TYPE_CHECKING:`` (used in annotations)."""

    # -- helpers -------------------------------------------------------------------------------

    def where(self, module: Module, node: ast.AST | None = None) -> str:
        line = getattr(node, "lineno", None)
        return f"{self.graph.display(module)}" + (f":{line}" if line else "")

    def refuse(self, module: Module, node: ast.AST | None, why: str) -> None:
        reason = f"{self.where(module, node)}: {why}"
        if reason not in self.reasons:
            self.reasons.append(reason)

    def executed_sites(self, module: Module) -> list[ImportSite]:
        return [s for s in module.imports if not s.type_checking]

    # -- analysis ------------------------------------------------------------------------------

    def prepare(self) -> None:
        entry = self.graph.entry
        paths: dict[str, str] = {}
        for m in self.modules.values():
            if m.path is not None:
                key = str(m.path)
                if key in paths:
                    self.refuse(m, None, f"the same file runs as two modules ({paths[key]} and {m.name})")
                paths[key] = m.name
            parents: dict[int, ast.AST] = {}
            for node in ast.walk(m.tree):
                for child in ast.iter_child_nodes(node):
                    parents[id(child)] = node
            self.parents[m.name] = parents
            self.alias_binding[m.name] = {}
            self.star_bindings[m.name] = []
            dropped: set[int] = set()
            for site in m.imports:
                for b in site.bindings:
                    if b.alias is not None:
                        self.alias_binding[m.name][id(b.alias)] = (site, b)
                    elif b.module is not None:
                        self.star_bindings[m.name].append((site, b))
                if site.type_checking:
                    dropped.update(id(a) for a in site.node.names)
                for p in site.problems:
                    if not site.type_checking:
                        self.reasons.append(p.replace(str(m.path), self.graph.display(m)) if m.path else p)
                if entry.name in site.executes and not m.is_entry:
                    self.refuse(m, site.node, f"imports the entry module {entry.name}, which Python "
                                              f"would run a second time")
                if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__":
                    if not site.top_level:
                        continue
                    for a in site.node.names:
                        if a.name not in self.futures:
                            self.futures.append(a.name)
                    dropped.update(id(a) for a in site.node.names)
                if site.external and any(a.name == "*" for a in site.node.names):
                    self.refuse(m, site.node, f"'from {site.external[0]} import *' binds names that "
                                              f"cannot be listed without running it")
            self.dropped_nodes[m.name] = dropped
            self.alias_refs[m.name] = {
                id(r.node): r for r in m.scopes.refs if isinstance(r.node, ast.alias)
            }
        self.reachable = self.executed_modules()
        self.check_futures()

    def executed_modules(self) -> set[str]:
        """Modules that run (not those imported only for type checkers)."""
        seen: set[str] = set()
        todo = self.entry_parents() + [self.graph.entry.name]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for site in self.executed_sites(self.modules[name]):
                todo.extend(site.executes)
        return seen

    def check_futures(self) -> None:
        if "annotations" not in self.futures:
            return
        for m in self.modules.values():
            if m.name not in self.reachable or m.path is None or self.module_futures(m) >= {"annotations"}:
                continue
            for node in ast.walk(m.tree):
                evaluated = (
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and (node.returns is not None or any(
                         a.annotation is not None for a in node.args.args + node.args.posonlyargs
                         + node.args.kwonlyargs + [x for x in (node.args.vararg, node.args.kwarg) if x]))
                )
                if evaluated:
                    self.refuse(m, node, "has annotations evaluated at definition time, but another "
                                         "module uses 'from __future__ import annotations' (one file "
                                         "cannot have both)")
                    break
            for node in m.tree.body:
                for sub in ast.walk(node):
                    if isinstance(sub, ast.AnnAssign) and not self.in_function(m, sub):
                        self.refuse(m, sub, "has module or class annotations evaluated at run time, "
                                            "but another module uses 'from __future__ import annotations'")
                        break

    def in_function(self, m: Module, node: ast.AST) -> bool:
        parents = self.parents[m.name]
        cur = parents.get(id(node))
        while cur is not None:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return True
            cur = parents.get(id(cur))
        return False

    def module_futures(self, m: Module) -> set[str]:
        out: set[str] = set()
        for site in m.imports:
            if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__":
                out.update(a.name for a in site.node.names)
        return out

    def live_refs(self, m: Module) -> list[Ref]:
        dropped = self.dropped_nodes[m.name]
        return [r for r in m.scopes.refs if id(r.node) not in dropped]

    def check_dynamic(self, m: Module) -> None:
        bound = self.module_bound(m)
        for r in self.live_refs(m):
            if r.resolved is not m.scopes.module:
                continue
            if r.name in _DYNAMIC_NAMES and r.name not in bound:
                if r.name == "vars" and self.call_has_args(m, r.node):
                    continue
                self.refuse(m, r.node, f"uses {_DYNAMIC_NAMES[r.name]}")
            if r.name == "locals" and r.scope.kind == "module":
                self.refuse(m, r.node, "uses locals() at module level")
            if r.name == "__name__" and r.kind != "load":
                self.refuse(m, r.node, "assigns __name__")
        for site in self.executed_sites(m):
            for b in site.bindings:
                if b.external and ":" in b.external:
                    mod, attr = b.external.split(":")
                    if (mod, attr) in _DYNAMIC_ATTRS:
                        self.refuse(m, site.node, f"uses {_DYNAMIC_ATTRS[(mod, attr)]}")
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                ext = self.external_module_of(m, node.value)
                if ext is not None and (ext, node.attr) in _DYNAMIC_ATTRS:
                    self.refuse(m, node, f"uses {_DYNAMIC_ATTRS[(ext, node.attr)]}")

    def call_has_args(self, m: Module, node: ast.AST) -> bool:
        parent = self.parents[m.name].get(id(node))
        return isinstance(parent, ast.Call) and parent.func is node and bool(parent.args)

    def external_module_of(self, m: Module, name: ast.Name) -> str | None:
        """The non-local module a name is bound to by ``import X`` in this module, if any."""
        for site in self.executed_sites(m):
            for b in site.bindings:
                if b.name == name.id and b.external and ":" not in b.external:
                    return b.external if b.alias and b.alias.asname else b.external.split(".")[0]
        return None

    def module_bound(self, m: Module) -> set[str]:
        return {r.name for r in self.live_refs(m)
                if r.resolved is m.scopes.module and r.kind in ("store", "del")}

    # -- names ---------------------------------------------------------------------------------

    def classify(self) -> None:
        """Split each module's global names into aliases of other modules' names and its own."""
        for m in self.modules.values():
            refs = [r for r in self.live_refs(m) if r.resolved is m.scopes.module]
            stores: dict[str, list[Ref]] = {}
            declared: set[str] = set()
            for r in refs:
                if r.kind in ("store", "del"):
                    stores.setdefault(r.name, []).append(r)
                elif r.kind == "decl" and r.scope.kind != "module":
                    declared.add(r.name)
            aliases: dict[str, Binding] = {}
            own: dict[str, NameKey] = {}
            for name, sites in stores.items():
                binding = self.single_local_alias(m, sites, declared)
                if binding is not None:
                    aliases[name] = binding
                    continue
                own[name] = self.sharing_key(m, name, sites, declared)
            for site, b in self.star_bindings[m.name]:
                if not site.top_level:
                    self.refuse(m, site.node, "'import *' inside a block")
                elif b.name in stores or b.name in aliases:
                    self.refuse(m, site.node, f"'import *' name {b.name!r} is also bound otherwise")
                else:
                    aliases[b.name] = b
            self.aliases[m.name] = aliases
            self.own[m.name] = own
            tc: dict[str, Binding] = {}
            for site in m.imports:
                if site.type_checking:
                    for b in site.bindings:
                        if b.module is not None and b.name not in stores:
                            tc[b.name] = b
            self.tc_aliases[m.name] = tc

    def single_local_alias(self, m: Module, stores: list[Ref], declared: set[str]) -> Binding | None:
        """The binding when every binding of a name is a local import of the same thing
        (``import pkg.a`` and ``import pkg.b`` both bind ``pkg``), stable after import."""
        if not stores or stores[0].name in declared:
            return None
        found: set[tuple[str | None, str | None]] = set()
        binding: Binding | None = None
        for r in stores:
            if not isinstance(r.node, ast.alias) or r.in_loop:
                return None
            entry = self.alias_binding[m.name].get(id(r.node))
            if entry is None or entry[1].module is None:
                return None
            binding = entry[1]
            found.add((binding.module, binding.attr))
        if binding is None or len(found) != 1:
            return None
        if binding.attr is None:
            return binding
        return binding if self.stable(binding.module, binding.attr, set()) else None

    def stable(self, module: str | None, attr: str, seen: set[tuple[str, str]]) -> bool:
        """True when ``module.attr`` is bound once, at top level, and never rebound."""
        if module is None or (module, attr) in seen:
            return False
        seen.add((module, attr))
        m = self.modules[module]
        refs = [r for r in self.live_refs(m) if r.resolved is m.scopes.module and r.name == attr]
        stores = [r for r in refs if r.kind in ("store", "del")]
        if any(r.kind == "decl" and r.scope.kind != "module" for r in refs):
            return False
        if len(stores) == 1 and not stores[0].in_loop and stores[0].kind == "store":
            return True
        if not stores:
            for _site, b in self.star_bindings[module]:
                if b.name == attr and b.module:
                    return b.attr is None or self.stable(b.module, b.attr, seen)
            if m.is_package and f"{module}.{attr}" in self.modules:
                return True
        return False

    def sharing_key(self, m: Module, name: str, stores: list[Ref], declared: set[str]) -> NameKey:
        """Names bound only by one top-level import of the same standard-library object share a
        global across modules; any other name belongs to its module."""
        if len(stores) == 1 and name not in declared and isinstance(stores[0].node, ast.alias):
            entry = self.alias_binding[m.name].get(id(stores[0].node))
            if entry is not None:
                site, b = entry
                if site.top_level and b.external:
                    if isinstance(site.node, ast.Import):
                        alias = b.alias
                        assert alias is not None
                        target = alias.name if alias.asname else alias.name.split(".")[0]
                        return ("stdlib", target)
                    return ("stdlib", b.external)
        return ("module", m.name, name)

    def assign_names(self, order: list[str]) -> None:
        claimed: dict[str, NameKey] = {}
        forbidden: set[str] = set(_BUILTIN_NAMES)
        for m in self.modules.values():
            for node in ast.walk(m.tree):
                for attr in ("id", "name", "arg", "asname", "attr"):
                    value = getattr(node, attr, None)
                    if isinstance(value, str):
                        forbidden.add(value)
        for name in order:
            m = self.modules[name]
            bound = set(self.own[name]) | set(self.aliases[name]) | set(self.tc_aliases[name])
            for r in self.live_refs(m):
                if r.resolved is m.scopes.module and r.kind == "load" and r.name not in bound:
                    if r.name == "__name__" and not m.is_entry:
                        continue
                    claimed.setdefault(r.name, ("free",))
        priority = [self.graph.entry.name] + [n for n in order if n != self.graph.entry.name]
        for name in priority:
            finals: dict[str, str] = {}
            for var, key in sorted(self.own[name].items()):
                if claimed.get(var, key) == key:
                    claimed[var] = key
                    finals[var] = var
                    continue
                parts = name.split(".")
                tag = parts[-1].strip("_") or "main"
                if parts[-1] == "__main__" and len(parts) > 1:
                    tag = parts[-2]
                dunder = len(var) > 4 and var.startswith("__") and var.endswith("__")
                stem = var[:-2] if dunder else var
                candidate = f"{stem}_{tag}" + ("__" if dunder else "")
                n = 2
                while candidate in forbidden or candidate in claimed:
                    candidate = f"{stem}_{tag}{n}" + ("__" if dunder else "")
                    n += 1
                claimed[candidate] = key
                forbidden.add(candidate)
                finals[var] = candidate
            self.final[name] = finals

    def find_duplicates(self, plan: list[tuple[str, int | None]]) -> None:
        """Standard-library imports that bind the same object to the same global as one earlier
        in the output (in output order)."""
        seen: set[tuple[str, NameKey]] = set()
        for name, index in plan:
            if index is None:
                continue
            m = self.modules[name]
            for site in self.executed_sites(m):
                if not site.top_level or site.top_index != index:
                    continue
                for b in site.bindings:
                    key = self.own[name].get(b.name)
                    if b.external is None or b.alias is None or key is None or key[0] != "stdlib":
                        continue
                    item = (self.final[name].get(b.name, b.name), key)
                    if item in seen:
                        self.duplicates.add(id(b.alias))
                    seen.add(item)

    def target(
        self, module: str, attr: str | None, seen: frozenset[tuple[str, str]] = frozenset()
    ) -> _Target | None:
        """Where ``module.attr`` (or the module itself) lives in the flat namespace."""
        if attr is None:
            return _Target(module=module)
        if (module, attr) in seen:
            return None
        seen = seen | {(module, attr)}
        if attr in self.own.get(module, {}):
            final = self.final.get(module, {}).get(attr)
            return _Target(final=final) if final else None
        b = self.aliases.get(module, {}).get(attr)
        if b is not None and b.module is not None:
            return self.target(b.module, b.attr, seen)
        sub = f"{module}.{attr}"
        if sub in self.modules:
            return _Target(module=sub)
        return None

    # -- execution order -----------------------------------------------------------------------

    def order(self) -> list[tuple[str, int | None]]:
        """Emission plan: (module, top-level statement index) steps, with module starts as
        (module, None); raises _Refusal on a cycle."""
        plan: list[tuple[str, int | None]] = []
        done: set[str] = set()
        active: list[str] = []

        def run(name: str) -> None:
            m = self.modules[name]
            active.append(name)
            plan.append((name, None))
            by_index: dict[int, list[ImportSite]] = {}
            for site in self.executed_sites(m):
                if site.executes:
                    by_index.setdefault(site.top_index, []).append(site)
            for index in range(len(m.tree.body)):
                for site in by_index.get(index, []):
                    blocked = self.blocked(site, active)
                    if blocked:
                        chain = " -> ".join(active[active.index(blocked):] + [blocked])
                        self.refuse(m, site.node, f"import cycle {chain}")
                        raise _Refusal
                    pending = [t for t in site.executes if t not in done and t not in active]
                    if pending and site.top_level:
                        plan.append((name, -index - 1))  # the comments above the import first
                    for target in site.executes:
                        if target in done or target in active:
                            continue
                        if not site.top_level:
                            why = self.impure(target, done, active, set())
                            if why:
                                kind = "inside a function" if site.in_function else "conditionally"
                                self.refuse(m, site.node, f"imports {target} {kind}; running it earlier "
                                                          f"than Python would is not safe: {why}")
                                raise _Refusal
                        run(target)
                plan.append((name, index))
            active.pop()
            done.add(name)

        for prefix in self.entry_parents():
            if prefix not in done:
                run(prefix)
        run(self.graph.entry.name)
        return plan

    def entry_parents(self) -> list[str]:
        pkg = self.graph.entry_point.package
        if not pkg:
            return []
        parts = pkg.split(".")
        return [".".join(parts[: i + 1]) for i in range(len(parts))]

    def blocked(self, site: ImportSite, active: list[str]) -> str | None:
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

    def impure(self, name: str, done: set[str], active: list[str], seen: set[str]) -> str | None:
        """Why running module ``name`` (and what it imports) early could be observed, or None."""
        if name in seen or name in done:
            return None
        if name in active:
            return f"{name} is still running (a cycle)"
        seen.add(name)
        m = self.modules[name]
        bound_external = {b.name for s in self.executed_sites(m) for b in s.bindings if b.external}
        for site in self.executed_sites(m):
            for t in site.executes:
                why = self.impure(t, done, active, seen)
                if why:
                    return why
            if any(e.split(".")[0] in ("this", "antigravity") for e in site.external):
                return f"{self.where(m, site.node)} imports a module that prints"
        for stmt in m.tree.body:
            why = self.impure_stmt(m, stmt, bound_external)
            if why:
                return f"{self.where(m, stmt)}: {why}"
        return None

    def impure_stmt(self, m: Module, stmt: ast.stmt, ext: set[str]) -> str | None:
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
            return None
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return None
        if isinstance(stmt, ast.If) and ((self.is_main_guard(stmt) and not m.is_entry)
                                         or _is_type_checking(stmt.test)):
            return None
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            exprs: list[ast.expr] = list(stmt.decorator_list) + list(stmt.args.defaults)
            exprs += [d for d in stmt.args.kw_defaults if d is not None]
            return self.impure_exprs(exprs, ext, decorators=len(stmt.decorator_list))
        if isinstance(stmt, ast.ClassDef):
            exprs = list(stmt.decorator_list) + list(stmt.bases) + [k.value for k in stmt.keywords]
            why = self.impure_exprs(exprs, ext, decorators=len(stmt.decorator_list))
            if why:
                return why
            for sub in stmt.body:
                why = self.impure_stmt(m, sub, ext)
                if why:
                    return why
            return None
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred, ast.Store))
                           for n in ast.walk(t)):
                    return "assigns into an object (its effect could be seen)"
            return self.impure_exprs([stmt.value] if stmt.value is not None else [], ext, 0)
        return f"runs a {type(stmt).__name__} statement at import time"

    def impure_exprs(self, exprs: list[ast.expr], ext: set[str], decorators: int) -> str | None:
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

    @staticmethod
    def is_main_guard(stmt: ast.If) -> bool:
        return is_main_guard(stmt)

    # -- rewriting -----------------------------------------------------------------------------

    def resolves_global(self, scope: Scope, name: str, original: str) -> bool:
        """Would a read of ``name``, put where ``original`` was read (and found global) in
        ``scope``, reach the module namespace?"""
        if scope.kind == "module":
            return True
        if scope.kind == "class":
            if name != original and name in scope.bindings:
                return False
            return self.enclosing_reaches_module(scope, name)
        if name in scope.globals:
            return True
        if name in scope.bindings or name in scope.nonlocals:
            return False
        return self.enclosing_reaches_module(scope, name)

    def rewrite(self, m: Module) -> None:
        pos = self.pos[m.name]
        edits = self.edits[m.name]
        module_scope = m.scopes.module
        final = self.final[m.name]
        aliases = self.aliases[m.name]
        local_aliases = self.function_aliases(m)
        global_decls: dict[int, ast.Global] = {}
        for r in self.live_refs(m):
            if isinstance(r.node, ast.alias):
                continue  # import statements are rewritten whole
            if r.resolved is module_scope:
                name = r.name
                if r.kind == "decl":
                    if name in final and final[name] != name:
                        assert isinstance(r.node, ast.Global)
                        global_decls[id(r.node)] = r.node
                    continue
                if name in aliases:
                    b = aliases[name]
                    self.use_target(m, r, self.target(b.module, b.attr) if b.module else None)
                elif name in final:
                    new = final[name]
                    if new != name:
                        if r.ambiguous:
                            self.refuse(m, r.node, f"class body reads {name!r} before or after binding it")
                        self.rename(m, r, new)
                elif name in self.tc_aliases[m.name]:
                    self.annotation_use(m, r, self.tc_aliases[m.name][name])
                elif name == "__name__" and not m.is_entry and r.kind == "load":
                    edits.append(Edit(*pos.span(r.node), repr(m.name)))
            elif r.resolved is not None and (r.resolved.kind != "module") and r.kind == "load":
                key = (id(r.resolved), r.name)
                if key in local_aliases:
                    b = local_aliases[key]
                    if b.attr is None:
                        self.use_target(m, r, _Target(module=b.module))
        for node in global_decls.values():
            names = [final.get(n, n) for n in node.names]
            edits.append(Edit(*pos.span(node), "global " + ", ".join(names)))
        self.rewrite_imports(m)
        self.rewrite_blocks(m)

    def function_aliases(self, m: Module) -> dict[tuple[int, str], Binding]:
        """Names bound by local imports inside functions: (scope id, name) -> binding."""
        out: dict[tuple[int, str], Binding] = {}
        for alias_id, (_site, b) in self.alias_binding[m.name].items():
            r = self.alias_refs[m.name].get(alias_id)
            if r is None or r.resolved is None or r.resolved.kind == "module" or b.module is None:
                continue
            out[(id(r.resolved), b.name)] = b
        return out

    def annotation_use(self, m: Module, r: Ref, b: Binding) -> None:
        """A name bound only for type checkers: rewrite it when what it names is in the bundle."""
        target = self.target(b.module, b.attr) if b.module else None
        node: ast.AST = r.node
        parents = self.parents[m.name]
        while target is not None and target.module is not None:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return
            target = self.target(target.module, parent.attr)
            node = parent
        if target is not None and target.final and target.final != r.name:
            self.edits[m.name].append(Edit(*self.pos[m.name].span(node), target.final))

    def rename(self, m: Module, r: Ref, new: str) -> None:
        pos = self.pos[m.name]
        node = r.node
        if isinstance(node, ast.Name):
            self.edits[m.name].append(Edit(*pos.span(node), new))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.edits[m.name].append(Edit(*pos.name_token(node), new))
            # The object keeps the name it has in Python (reprs, error messages, registries that
            # read __name__ after definition).
            line = pos.lines[node.lineno - 1]
            indent = line[: len(line) - len(line.lstrip())]
            at = pos.line_end(node.end_lineno or node.lineno)
            restore = f"{indent}{new}.__name__ = {new}.__qualname__ = {node.name!r}\n"
            if not pos.text[:at].endswith("\n"):
                restore = "\n" + restore
            self.edits[m.name].append(Edit(at, at, restore))
        else:
            self.refuse(m, node, f"cannot rename {r.name!r} bound by a {type(node).__name__}")

    def use_target(self, m: Module, r: Ref, target: _Target | None) -> None:
        """Rewrite one use of an imported name (or module) to what it refers to."""
        pos = self.pos[m.name]
        if target is None:
            self.refuse(m, r.node, f"cannot tell what {r.name!r} refers to")
            return
        if r.kind != "load" or not isinstance(r.node, ast.Name):
            self.refuse(m, r.node, f"rebinds the imported name {r.name!r}")
            return
        node: ast.AST = r.node
        parents = self.parents[m.name]
        while target.module is not None:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                self.refuse(m, r.node, f"uses module {target.module} as an object (only module.name "
                                       f"can be flattened)")
                return
            if not isinstance(parent.ctx, ast.Load):
                self.refuse(m, parent, f"assigns or deletes an attribute of module {target.module}")
                return
            if parent.attr == "__name__" and parent.attr not in self.own.get(target.module, {}):
                self.edits[m.name].append(Edit(*pos.span(parent), repr(target.module)))
                return
            nxt = self.target(target.module, parent.attr)
            if nxt is None:
                self.refuse(m, parent, f"{target.module} has no visible top-level name {parent.attr!r}")
                return
            node, target = parent, nxt
        assert target.final is not None
        if r.ambiguous:
            self.refuse(m, r.node, f"class body reads {r.name!r} before or after binding it")
        if not self.resolves_global(r.scope, target.final, r.name):
            self.refuse(m, node, f"{target.final!r} is also a local name here")
            return
        self.edits[m.name].append(Edit(*pos.span(node), target.final))

    def rewrite_imports(self, m: Module) -> None:
        pos = self.pos[m.name]
        removed: list[ast.stmt] = []
        final = self.final[m.name]
        aliases = self.aliases[m.name]
        for site in m.imports:
            node = site.node
            if site.type_checking:
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                if site.top_level:
                    self.top_replacements[m.name][site.top_index] = ""
                continue
            scope_ref = None
            for a in node.names:
                scope_ref = self.alias_refs[m.name].get(id(a)) or scope_ref
            scope = scope_ref.scope if scope_ref is not None else m.scopes.module
            if scope.kind == "class" and site.is_local:
                self.refuse(m, node, "imports a local module inside a class body")
                continue
            parts: list[str] = []
            changed = site.is_local
            by_alias = {id(b.alias): b for b in site.bindings if b.alias is not None}
            for a in node.names:
                if a.name == "*":
                    continue
                b = by_alias.get(id(a))
                if b is None:
                    changed = True  # a guarded import of a missing module
                    continue
                if b.module is not None:
                    parts.extend(self.local_binding(m, site, b, scope, aliases, final))
                    continue
                text, drop = self.external_clause(m, site, node, a, b, scope, final)
                if drop or text != _clause(node, a):
                    changed = True
                if not drop:
                    parts.append(text)
            if not changed:
                continue
            text = "; ".join(parts)
            if site.top_level:
                self.top_replacements[m.name][site.top_index] = text
            else:
                if text:
                    self.edits[m.name].append(Edit(*pos.span(node), text))
                else:
                    removed.append(node)
        self.remove_nested(m, removed)

    def remove_nested(self, m: Module, removed: list[ast.stmt]) -> None:
        """Delete statements inside blocks: their whole lines when they have them, keeping one
        ``pass`` in a block that would be left empty."""
        pos = self.pos[m.name]
        parents = self.parents[m.name]
        gone = {id(n) for n in removed}
        for node in removed:
            parent = parents.get(id(node))
            block = next((b for f in ("body", "orelse", "finalbody", "handlers")
                          for b in [getattr(parent, f, None)] if isinstance(b, list)
                          and any(x is node for x in b)), [node])
            emptied = all(id(x) in gone for x in block)
            lines = pos.whole_lines(node)
            if (emptied and block[0] is node) or lines is None:
                self.edits[m.name].append(Edit(*pos.span(node), "pass"))
            else:
                self.edits[m.name].append(Edit(lines[0], lines[1], ""))

    def local_binding(self, m: Module, site: ImportSite, b: Binding, scope: Scope,
                      aliases: dict[str, Binding], final: dict[str, str]) -> list[str]:
        """The statement text that replaces one local binding of an import (often nothing)."""
        if scope.kind == "module":
            if b.name in aliases:
                return []
            target = self.target(b.module, b.attr) if b.module else None
            if target is None or target.final is None:
                self.refuse(m, site.node, f"binds module {b.module} to {b.name!r}, which is rebound")
                return []
            return [f"{final.get(b.name, b.name)} = {target.final}"]
        target = self.target(b.module, b.attr) if b.module else None
        if target is None:
            self.refuse(m, site.node, f"cannot tell what {b.name!r} refers to")
            return []
        if target.module is not None:
            if self.count_stores(scope, b.name, m) != 1:
                self.refuse(m, site.node, f"rebinds {b.name!r}, a local name for module {b.module}")
            return []
        assert target.final is not None
        if not self.enclosing_reaches_module(scope, target.final):
            self.refuse(m, site.node, f"{target.final!r} is a local name of an enclosing function")
            return []
        if b.name == target.final:
            # Dropping the local binding lets every use reach the global of the same name.
            if self.count_stores(scope, b.name, m) != 1:
                self.refuse(m, site.node, f"rebinds the imported name {b.name!r}")
            return []
        if target.final in scope.bindings and target.final not in scope.globals:
            self.refuse(m, site.node, f"{target.final!r} is a local name here")
        return [f"{b.name} = {target.final}"]

    def enclosing_reaches_module(self, scope: Scope, name: str) -> bool:
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

    def count_stores(self, scope: Scope, name: str, m: Module) -> int:
        return sum(1 for r in m.scopes.refs
                   if r.resolved is scope and r.name == name and r.kind in ("store", "del"))

    def external_clause(self, m: Module, site: ImportSite, node: ast.Import | ast.ImportFrom,
                        a: ast.alias, b: Binding, scope: Scope, final: dict[str, str]) -> tuple[str, bool]:
        """The text of one non-local import clause, renamed as needed; drop=True when the same
        object already sits under the same global name."""
        if scope.kind != "module":
            return _clause(node, a), False
        new = final.get(b.name, b.name)
        if id(a) in self.duplicates:
            return "", True
        if new == b.name:
            return _clause(node, a), False
        if isinstance(node, ast.ImportFrom):
            return f"from {'.' * node.level}{node.module or ''} import {a.name} as {new}", False
        if a.asname or "." not in a.name:
            return f"import {a.name} as {new}", False
        return f"{new} = __import__({a.name!r})", False

    def rewrite_blocks(self, m: Module) -> None:
        """Drop ``if TYPE_CHECKING:`` blocks, and ``if __name__ == "__main__":`` outside the entry."""
        pos = self.pos[m.name]
        for index, stmt in enumerate(m.tree.body):
            if isinstance(stmt, ast.If) and not stmt.orelse and (
                    _is_type_checking(stmt.test) or (not m.is_entry and self.is_main_guard(stmt))):
                self.top_replacements[m.name][index] = ""
        for node in ast.walk(m.tree):
            if not isinstance(node, ast.If) or not _is_type_checking(node.test):
                continue
            if any(node is top for top in m.tree.body) and not node.orelse:
                continue
            if node.orelse:
                self.refuse(m, node, "'if TYPE_CHECKING:' with an else branch")
            else:
                self.edits[m.name].append(Edit(*pos.span(node), "pass"))

    # -- output --------------------------------------------------------------------------------

    def pieces(self, plan: list[tuple[str, int | None]]) -> list[Piece]:
        pieces: list[Piece] = []
        current: str | None = None
        buffer: list[str] = []
        started: set[str] = set()
        cursor: dict[str, int] = {}

        def flush() -> None:
            nonlocal buffer
            if current is not None and buffer:
                m = self.modules[current]
                pieces.append(Piece(current, self.graph.display(m), "".join(buffer),
                                    current in started))
                started.add(current)
            buffer = []

        groups = {name: self.line_groups(self.modules[name]) for name in self.modules}
        for name, index in plan:
            if index is None:
                continue
            m = self.modules[name]
            if current != name:
                flush()
                current = name
            group_of = groups[name]
            if index < 0:
                buffer.append(self.lead_text(m, -index - 1, cursor))
                continue
            if index not in group_of:
                continue  # part of a group emitted with an earlier statement
            last = group_of[index]
            buffer.append(self.statement_text(m, index, last, cursor))
        flush()
        for name, tail_from in cursor.items():
            m = self.modules[name]
            if m.source[tail_from:].strip():
                tail = apply_edits(m.source, self.edits[name], tail_from, len(m.source))
                last_i = max(i for i, p in enumerate(pieces) if p.module == name)
                p = pieces[last_i]
                pieces[last_i] = Piece(name, p.display, p.text + tail, p.continued)
        return pieces

    def line_groups(self, m: Module) -> dict[int, int]:
        """First statement index of each group of top-level statements sharing lines -> last."""
        groups: dict[int, int] = {}
        body = m.tree.body
        i = 0
        while i < len(body):
            j = i
            while j + 1 < len(body) and body[j + 1].lineno == body[j].end_lineno:
                j += 1
            groups[i] = j
            if j > i and any(k in self.top_replacements[m.name] for k in range(i, j + 1)):
                self.refuse(m, body[i], "an import that must be removed shares its line with another "
                                        "statement")
            i = j + 1
        return groups

    def lead_text(self, m: Module, index: int, cursor: dict[str, int]) -> str:
        """The blank lines and comments between the previous statement and statement ``index``."""
        pos = self.pos[m.name]
        start = cursor.get(m.name, 0)
        stmt_start = pos.line_start(_first_line(m.tree.body[index]))
        if stmt_start <= start:
            return ""
        cursor[m.name] = stmt_start
        return apply_edits(m.source, self.edits[m.name], start, stmt_start)

    def statement_text(self, m: Module, first: int, last: int, cursor: dict[str, int]) -> str:
        pos = self.pos[m.name]
        body = m.tree.body
        start = cursor.get(m.name, 0)
        stmt = body[first]
        stmt_start = pos.line_start(_first_line(stmt))
        end = pos.line_end(body[last].end_lineno or body[last].lineno)
        cursor[m.name] = end
        replacement = self.top_replacements[m.name].get(first)
        if replacement is None:
            return apply_edits(m.source, self.edits[m.name], start, end)
        lead = apply_edits(m.source, self.edits[m.name], start, stmt_start)
        return lead + (replacement + "\n" if replacement else "")

    def run(self) -> FlatBundle:
        self.prepare()
        for m in self.modules.values():
            if m.name in self.reachable:
                self.check_dynamic(m)
        self.classify()
        try:
            plan = self.order()
        except _Refusal:
            raise FlattenRefused(self.reasons) from None
        order = list(dict.fromkeys(name for name, _ in plan))
        missing = [n for n in self.modules if n not in order]
        for n in missing:  # only imported under TYPE_CHECKING: not in the bundle
            self.own[n] = {}
            self.aliases[n] = {}
        self.assign_names(order)
        self.find_duplicates(plan)
        for name in order:
            self.rewrite(self.modules[name])
        if self.reasons:
            raise FlattenRefused(self.reasons)
        try:
            pieces = self.pieces(plan)
        except EditConflict as exc:
            raise FlattenRefused([f"internal edit conflict: {exc}"]) from None
        if self.reasons:
            raise FlattenRefused(self.reasons)
        renamed = {n: {k: v for k, v in f.items() if k != v} for n, f in self.final.items()}
        return FlatBundle(self.futures, pieces, {k: v for k, v in renamed.items() if v})


def _first_line(stmt: ast.stmt) -> int:
    decorators: list[ast.expr] | None = getattr(stmt, "decorator_list", None)
    if decorators:
        return min(d.lineno for d in decorators)
    return stmt.lineno


def _clause(node: ast.Import | ast.ImportFrom, a: ast.alias) -> str:
    text = f"{a.name} as {a.asname}" if a.asname else a.name
    if isinstance(node, ast.Import):
        return f"import {text}"
    return f"from {'.' * node.level}{node.module or ''} import {text}"


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


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def flatten(graph: Graph) -> FlatBundle:
    """Flatten the graph's modules into one, or raise :class:`FlattenRefused` with the reasons."""
    return _Flattener(graph).run()
