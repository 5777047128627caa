"""Flattening, pass 5: the name every global gets in the flat file.

Takes the graph, what :mod:`bundler.flat.collect` indexed, the names :mod:`bundler.flat.classify`
sorted (restricted to the modules in the bundle) and the plan of :mod:`bundler.flat.order`; returns
a :class:`NamePlan`. A module's own name keeps its spelling unless a module earlier in priority (the
entry first, then the others in the order they run) or a builtin read somewhere already holds
something else under it; then it becomes ``name_<module>`` (``__x_<module>__`` for a dunder), with
a number added until the name appears nowhere in any module. The plan also says which
standard-library imports repeat one already made under the same name, and where each imported
name leads (:meth:`NamePlan.target`).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ..graph import Graph
from .classify import ModuleNames, NameKey
from .collect import Collected, executed_sites
from .order import Step, statement_positions

__all__ = ["Target", "NamePlan", "assign_names", "plan_names"]

_BUILTIN_NAMES = frozenset(dir(builtins))
_IDENTIFIER_FIELDS = ("id", "name", "arg", "asname", "attr")


@dataclass(frozen=True)
class Target:
    """What a name resolves to in the flat namespace: a global, or a module (namespace)."""

    final: str | None = None
    module: str | None = None
    owner: tuple[str, str] | None = None
    """(module, own name) of the global, when it is one."""


@dataclass(frozen=True)
class NamePlan:
    """What :func:`plan_names` returns."""

    final: Mapping[str, Mapping[str, str]]
    """Module in the bundle -> {own name: its name in the flat file}, the entry first."""
    duplicates: frozenset[int]
    """``id(ast.alias)`` of the standard-library import clauses that repeat one made earlier in
    the flat file, binding the same object to the same global (they are left out)."""
    names: Mapping[str, ModuleNames]
    """The classification the plan was made from."""
    modules: frozenset[str]
    """Every module of the graph."""

    def target(self, module: str, attr: str | None, seen: frozenset[tuple[str, str]] = frozenset()) -> Target | None:
        """Where ``module.attr`` (or the module itself) lives in the flat namespace; None when it
        cannot be told."""
        if attr is None:
            return Target(module=module)
        if (module, attr) in seen:
            return None
        seen = seen | {(module, attr)}
        names = self.names.get(module)
        if names is not None and attr in names.own:
            final = self.final.get(module, {}).get(attr)
            return Target(final=final, owner=(module, attr)) if final else None
        b = names.aliases.get(attr) if names is not None else None
        if b is not None and b.module is not None:
            return self.target(b.module, b.attr, seen)
        sub = f"{module}.{attr}"
        if sub in self.modules:
            return Target(module=sub)
        return None

    def renamed(self) -> dict[str, dict[str, str]]:
        """Module -> {original name: new name}, for the modules with names that had to change."""
        out = {n: {k: v for k, v in f.items() if k != v} for n, f in self.final.items()}
        return {k: v for k, v in out.items() if v}


def _tag(module: str) -> str:
    """The suffix that marks a renamed global of ``module``: its last name part (the package's
    for a ``__main__``), without underscores at the ends."""
    parts = module.split(".")
    tag = parts[-1].strip("_") or "main"
    if parts[-1] == "__main__" and len(parts) > 1:
        tag = parts[-2]
    return tag


def assign_names(
    owned: Sequence[tuple[str, Mapping[str, NameKey]]],
    claimed: Mapping[str, NameKey],
    forbidden: AbstractSet[str],
    force: AbstractSet[tuple[str, str]] = frozenset(),
) -> dict[str, dict[str, str]]:
    """The final name of each own name of each module.

    ``owned`` lists (module, {own name: what it holds}) in priority order; ``claimed`` is what the
    flat namespace already holds before any module gets a name (builtins read as such, as
    ``("free",)``); ``forbidden`` are the names a new name must not be (every identifier of every
    module, every builtin). A name keeps its spelling when the flat namespace holds nothing else
    under it, unless ``force`` lists it as (module, name). Returns module -> {own name: final
    name}, in the order of ``owned``; the inputs are not changed."""
    taken: dict[str, NameKey] = dict(claimed)
    avoid: set[str] = set(forbidden)
    final: dict[str, dict[str, str]] = {}
    for name, own in owned:
        finals: dict[str, str] = {}
        for var, key in sorted(own.items()):
            if taken.get(var, key) == key and (name, var) not in force:
                taken[var] = key
                finals[var] = var
                continue
            tag = _tag(name)
            dunder = len(var) > 4 and var.startswith("__") and var.endswith("__")
            stem = var[:-2] if dunder else var
            candidate = f"{stem}_{tag}" + ("__" if dunder else "")
            n = 2
            while candidate in avoid or candidate in taken:
                candidate = f"{stem}_{tag}{n}" + ("__" if dunder else "")
                n += 1
            taken[candidate] = key
            avoid.add(candidate)
            finals[var] = candidate
        final[name] = finals
    return final


def _identifiers(graph: Graph) -> set[str]:
    """Every name spelled anywhere in any module (names, attributes, arguments...)."""
    out: set[str] = set()
    for m in graph.modules.values():
        for node in ast.walk(m.tree):
            for attr in _IDENTIFIER_FIELDS:
                value = getattr(node, attr, None)
                if isinstance(value, str):
                    out.add(value)
    return out


def _free_reads(
    graph: Graph, collected: Collected, names: Mapping[str, ModuleNames], modules: Sequence[str]
) -> dict[str, NameKey]:
    """Global reads of names no module binds (builtins, mostly): they must keep their meaning."""
    claimed: dict[str, NameKey] = {}
    for name in modules:
        m = graph.modules[name]
        n = names[name]
        bound = set(n.own) | set(n.aliases) | set(n.type_checking)
        for r in collected.facts[name].global_refs():
            if r.kind == "load" and r.name not in bound:
                if r.name == "__name__" and not m.is_entry:
                    continue
                claimed.setdefault(r.name, ("free",))
    return claimed


def _duplicates(
    graph: Graph, names: Mapping[str, ModuleNames], final: Mapping[str, Mapping[str, str]], plan: Sequence[Step]
) -> frozenset[int]:
    """Standard-library imports that bind the same object to the same global as one earlier
    in the output (in output order)."""
    seen: set[tuple[str, NameKey]] = set()
    out: set[int] = set()
    for name, index in plan:
        if index is None:
            continue
        for site in executed_sites(graph.modules[name]):
            if not site.top_level or site.top_index != index:
                continue
            for b in site.bindings:
                key = names[name].own.get(b.name)
                if b.external is None or b.alias is None or key is None or key[0] != "stdlib":
                    continue
                item = (final[name].get(b.name, b.name), key)
                if item in seen:
                    out.add(id(b.alias))
                seen.add(item)
    return frozenset(out)


def _defined_names(collected: Collected, module: str) -> dict[str, list[int]]:
    """The module's globals bound by a ``def`` or ``class`` statement in its own top-level code
    -> the indexes of the top-level statements holding those definitions."""
    out: dict[str, list[int]] = {}
    scope = collected.facts[module].module.scopes.module
    for r in collected.facts[module].global_refs():
        if r.scope is scope and isinstance(r.node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.setdefault(r.name, []).append(r.top_index)
    return out


def _moves_overlap(
    collected: Collected,
    positions: Mapping[tuple[str, int], int],
    mover: str,
    defs: Sequence[int],
    owner: str,
    name: str,
) -> bool:
    """A renamed definition is made under its own name, then moved to its final name and the
    name deleted. Could that overwrite or delete the global that ``owner`` keeps under that
    name? Only when the owner binds it before (or in a function, at any time)."""
    last_def = max(positions.get((mover, i), -1) for i in defs)
    for site, b in collected.facts[owner].star_bindings:
        if b.name == name and positions.get((owner, site.top_index), -1) <= last_def:
            return True  # a copy made by 'from x import *' (classify makes it an own name)
    scope = collected.facts[owner].module.scopes.module
    for r in collected.facts[owner].global_refs():
        if r.name != name or r.kind not in ("store", "del"):
            continue
        if r.scope is not scope or positions.get((owner, r.top_index), -1) <= last_def:
            return True
    return False


def plan_names(
    graph: Graph,
    collected: Collected,
    names: Mapping[str, ModuleNames],
    plan: Sequence[Step],
    force: AbstractSet[tuple[str, str]] = frozenset(),
) -> NamePlan:
    """Name every global of the modules in ``plan`` (see the module docstring). ``names`` must
    give nothing to bind for modules not in the plan (:meth:`Classified.only`); ``force`` lists
    (module, name) that must not keep their spelling (a local name where they are read).

    A ``def`` or ``class`` that is renamed keeps its own name while Python makes it (decorators,
    ``__init_subclass__`` and ``__qualname__`` see what they see in the module), then moves to
    its final name; where that could touch another module's global of the same spelling, that
    global is renamed too."""
    modules = list(dict.fromkeys(name for name, _ in plan))
    entry = graph.entry.name
    priority = [entry] + [n for n in modules if n != entry]
    claimed = _free_reads(graph, collected, names, modules)
    forbidden = _BUILTIN_NAMES | _identifiers(graph)
    positions = statement_positions(plan)
    defined = {n: _defined_names(collected, n) for n in modules}
    forced = set(force)
    while True:
        final = assign_names([(n, names[n].own) for n in priority], claimed, forbidden, forced)
        keepers: dict[str, list[str]] = {}
        for n in priority:
            for var, new in final[n].items():
                if var == new:
                    keepers.setdefault(var, []).append(n)
        more = set()
        for n in modules:
            for var, new in final[n].items():
                if new == var or var not in defined[n]:
                    continue
                for owner in keepers.get(var, []):
                    if _moves_overlap(collected, positions, n, defined[n][var], owner, var):
                        more.add((owner, var))
        if not more:
            break
        forced |= more
    return NamePlan(final, _duplicates(graph, names, final, plan), names, frozenset(graph.modules))
