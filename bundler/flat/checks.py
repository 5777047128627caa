"""Flattening, pass 2: the refusals that do not depend on names or order.

Takes the graph, what :mod:`bundler.flat.collect` indexed and the table of dynamic attributes to
refuse; returns the reasons found (empty when none), in this order: for each module, its problems
with imports (the same file run as two modules, imports the graph could not resolve statically,
an import of the entry, ``from <non-local> import *``); then ``from __future__ import
annotations`` mixed with annotations evaluated at run time; then, for each module that runs, the
features that name globals as text or look at the module object (``eval``, ``globals()``,
``sys.modules``...).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from ..graph import Graph, Module
from ..import_sites import ImportSite
from .collect import Collected, ModuleFacts, annotation_exprs, executed_sites, external_paths
from .refusals import Refusals, where

__all__ = ["DYNAMIC_NAMES", "DYNAMIC_ATTRS", "MODULE_IDENTITY_IMPORTS", "check"]

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
    return not body or (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant))


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
                found.refuse(
                    m, site.node, f"imports the entry module {entry.name}, which Python would run a second time"
                )
            if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__" and not site.top_level:
                continue
            if site.external and any(a.name == "*" for a in site.node.names):
                found.refuse(
                    m,
                    site.node,
                    f"'from {site.external[0]} import *' binds names that cannot be listed without running it",
                )


def _module_futures(m: Module) -> set[str]:
    out: set[str] = set()
    for site in m.imports:
        if isinstance(site.node, ast.ImportFrom) and site.node.module == "__future__":
            out.update(a.name for a in site.node.names)
    return out


def _evaluated_annotations(m: Module, facts: ModuleFacts) -> list[ast.expr]:
    """The annotations Python evaluates when the module runs (without ``from __future__ import
    annotations``): those of ``def`` statements, and module and class variable annotations."""
    return [
        expr
        for node in ast.walk(m.tree)
        if not (isinstance(node, ast.AnnAssign) and facts.in_function(node))
        for expr in annotation_exprs(node)
    ]


_EFFECTS = (
    ast.Call,
    ast.NamedExpr,
    ast.Lambda,
    ast.Await,
    ast.Yield,
    ast.YieldFrom,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _reads_annotations(graph: Graph, collected: Collected) -> tuple[Module, ast.AST, str] | None:
    """The first place where the program looks at annotations as objects: ``__annotations__``,
    ``get_type_hints``, dataclasses' ``fields()`` (whose ``type`` is the annotation)."""
    readers = {"typing.get_type_hints", "dataclasses.fields", "inspect.signature", "inspect.get_annotations"}
    for m in graph.modules.values():
        if m.name not in collected.reachable:
            continue
        bound = external_paths(m)
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Attribute) and node.attr in ("__annotations__", "__dataclass_fields__"):
                return m, node, node.attr
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and f"{bound.get(node.value.id)}.{node.attr}" in readers
            ):
                return m, node, ast.unparse(node)
            if isinstance(node, ast.Name) and bound.get(node.id) in readers:
                return m, node, node.id
    return None


def _check_futures(graph: Graph, collected: Collected, found: Refusals) -> None:
    """With ``from __future__ import annotations`` in one module the flat file has it for all:
    the annotations of the other modules are no longer evaluated when their definitions run.
    That is unseen when they have no effects and nothing reads annotations as objects."""
    if "annotations" not in collected.futures:
        return
    reader = _reads_annotations(graph, collected)
    for m in graph.modules.values():
        if m.name not in collected.reachable or m.path is None or _module_futures(m) >= {"annotations"}:
            continue
        evaluated = _evaluated_annotations(m, collected.facts[m.name])
        if not evaluated:
            continue
        if reader is not None:
            other, node, name = reader
            found.refuse(
                m,
                evaluated[0],
                f"has annotations evaluated at definition time, another module uses "
                f"'from __future__ import annotations', and {where(graph, other, node)} "
                f"reads annotations ({name}); one file cannot have both",
            )
            continue
        for expr in evaluated:
            effect = next((n for n in ast.walk(expr) if isinstance(n, _EFFECTS)), None)
            if effect is not None:
                found.refuse(
                    m,
                    expr,
                    f"has an annotation that runs code ({ast.unparse(effect)}) at definition "
                    f"time, but another module uses 'from __future__ import annotations' "
                    f"(one file cannot have both)",
                )
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


MODULE_IDENTITY_IMPORTS = {
    "pickle": "pickles objects by module-qualified name",
    "_pickle": "pickles objects by module-qualified name",
    "copyreg": "registers pickling by module-qualified name",
    "shelve": "pickles objects by module-qualified name",
    "multiprocessing": "pickles objects by module-qualified name",
    "concurrent": "pickles objects by module-qualified name (process pools)",
    "inspect": "finds objects' modules by name",
    "pydoc": "finds objects' modules by name",
}
"""Standard modules that look classes and functions up by ``__module__``: in one flat module
every one of them is ``__main__.Name``."""

_CLASS_FACTORIES = frozenset(
    {
        "namedtuple",
        "NamedTuple",
        "TypedDict",
        "make_dataclass",
        "Enum",
        "IntEnum",
        "Flag",
        "IntFlag",
        "StrEnum",
        "NewType",
        "TypeVar",
    }
)
"""Functions that make a class (or a typing object) whose ``__module__`` is the caller's
``__name__``."""


def _check_module_identity(facts: ModuleFacts, found: Refusals) -> None:
    """Where the program could see that its modules are one: pickling and module look-ups by
    name; and, in a module other than the entry, classes made while a function runs (a flat file
    sets ``__name__`` for each module's top-level code only, so their ``__module__`` would be
    that of whatever code is running then)."""
    m = facts.module
    for site in executed_sites(m):
        for name in site.external:
            top = name.split(".")[0]
            if top in MODULE_IDENTITY_IMPORTS:
                found.refuse(
                    m,
                    site.node,
                    f"imports {top}, which {MODULE_IDENTITY_IMPORTS[top]}; one flat module cannot stand for several",
                )
    if m.is_entry:
        return
    for node in ast.walk(m.tree):
        made = None
        if isinstance(node, ast.ClassDef):
            made = f"class {node.name}"
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in _CLASS_FACTORIES or (name == "type" and len(node.args) == 3):
                made = f"{name}()"
        if made is not None and facts.in_function(node):
            found.refuse(
                m, node, f"makes {made} inside a function: its __module__ would not be {m.name} in a flat file"
            )


def _defines_objects(m: Module) -> bool:
    """Does the module define a class or function at its top level (objects with a __module__)?"""
    return any(isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(m.tree))


def check(graph: Graph, collected: Collected, dynamic_attrs: DynamicAttrs) -> tuple[str, ...]:
    """The reasons (see the module docstring) why ``graph`` cannot be flattened whatever its names;
    ``dynamic_attrs`` is the table of refused attributes (normally :data:`DYNAMIC_ATTRS`)."""
    found = Refusals(graph)
    _check_imports(graph, found)
    _check_futures(graph, collected, found)
    for m in graph.modules.values():
        if m.name in collected.reachable:
            _check_dynamic(collected.facts[m.name], dynamic_attrs, found)
    others = [m for m in graph.modules.values() if m.name in collected.reachable and not m.is_entry]
    if any(_defines_objects(m) for m in others):
        for m in graph.modules.values():
            if m.name in collected.reachable:
                _check_module_identity(collected.facts[m.name], found)
    return found.found()
