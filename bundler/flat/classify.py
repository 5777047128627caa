"""Flattening, pass 3: what each module-level name of each module is.

Takes the graph and what :mod:`bundler.flat.collect` indexed; returns a :class:`Classified` that
sorts each module's global names into

- *aliases*: names bound only by local imports of one stable thing (``from .a import f``,
  ``import pkg.mod``, the names of ``from .a import *``): in the flat file their uses become uses
  of what they name, and they get no global of their own;
- *own* names, each with a :data:`NameKey` saying what it holds: modules that bind a name to the
  same standard-library object (``import math``) may share one global, any other name belongs to
  its module;
- names bound only under ``if TYPE_CHECKING:`` (read in annotations);

with the reasons found on the way (star imports that cannot be flattened).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from ..graph import Graph, Module
from ..import_sites import Binding
from ..scopes import Ref
from .collect import Collected, ModuleFacts
from .refusals import Refusals

__all__ = ["NameKey", "ModuleNames", "Classified", "classify"]

NameKey = tuple[str, ...]
"""What a global name holds: ``("stdlib", what)`` for a standard-library import (shared by the
modules that import the same thing), ``("module", module, name)`` otherwise, ``("free",)`` for a
builtin read, ``("unread", "__all__")`` for the ``__all__`` lists when no code reads one."""


@dataclass(frozen=True)
class ModuleNames:
    """One module's global names, sorted."""

    aliases: Mapping[str, Binding]
    """Names that are pure aliases of another module (or of a name in it)."""
    own: Mapping[str, NameKey]
    """Names the module binds itself -> what they hold."""
    type_checking: Mapping[str, Binding]
    """Local-module names bound only under ``if TYPE_CHECKING:`` (used in annotations)."""


@dataclass(frozen=True)
class Classified:
    """What :func:`classify` returns."""

    names: Mapping[str, ModuleNames]
    """Every module of the graph, by name."""
    reasons: tuple[str, ...]

    def only(self, modules: Collection[str]) -> Classified:
        """The same, but a module not in ``modules`` (not in the bundle) binds nothing but its
        type-checking names."""
        names = {name: n if name in modules else replace(n, aliases={}, own={}) for name, n in self.names.items()}
        return replace(self, names=names)


class _Classifier:
    def __init__(self, graph: Graph, collected: Collected) -> None:
        self.graph = graph
        self.facts = collected.facts
        self.found = Refusals(graph)
        self.all_read = any(
            (isinstance(n, ast.Name) and n.id == "__all__" and isinstance(n.ctx, ast.Load))
            or (isinstance(n, ast.Attribute) and n.attr == "__all__")
            for m in graph.modules.values()
            for n in ast.walk(m.tree)
        )
        """Does any code read ``__all__``? (The bundler reads it statically for star imports.)"""

    def module(self, facts: ModuleFacts) -> ModuleNames:
        m = facts.module
        stores: dict[str, list[Ref]] = {}
        declared: set[str] = set()
        for r in facts.global_refs():
            if r.kind in ("store", "del"):
                stores.setdefault(r.name, []).append(r)
            elif r.kind == "decl" and r.scope.kind != "module":
                declared.add(r.name)
        aliases: dict[str, Binding] = {}
        own: dict[str, NameKey] = {}
        for name, sites in stores.items():
            binding = self.single_local_alias(facts, sites, declared)
            if binding is not None:
                aliases[name] = binding
                continue
            if name == "__all__" and not self.all_read:
                own[name] = ("unread", "__all__")  # one global for every module: nothing reads it
                continue
            own[name] = self.sharing_key(facts, name, sites, declared)
        for site, b in facts.star_bindings:
            if not site.top_level:
                self.found.refuse(m, site.node, "'import *' inside a block")
            elif b.name in stores or b.name in aliases:
                self.found.refuse(m, site.node, f"'import *' name {b.name!r} is also bound otherwise")
            elif b.attr is None or self.stable(b.module, b.attr, set()):
                aliases[b.name] = b
            else:
                # A copy taken at import time, as Python takes it: later rebindings in the
                # module it came from do not show through.
                own[b.name] = ("module", facts.name, b.name)
        tc: dict[str, Binding] = {}
        for site in m.imports:
            if site.type_checking:
                for b in site.bindings:
                    if b.module is not None and b.name not in stores:
                        tc[b.name] = b
        return ModuleNames(aliases, own, tc)

    def single_local_alias(self, facts: ModuleFacts, stores: list[Ref], declared: set[str]) -> Binding | None:
        """The binding when every binding of a name is a local import of the same thing
        (``import pkg.a`` and ``import pkg.b`` both bind ``pkg``), stable after import."""
        if not stores or stores[0].name in declared:
            return None
        found: set[tuple[str | None, str | None]] = set()
        binding: Binding | None = None
        for r in stores:
            if not isinstance(r.node, ast.alias) or r.in_loop:
                return None
            entry = facts.alias_bindings.get(id(r.node))
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
        facts = self.facts[module]
        m: Module = facts.module
        refs = [r for r in facts.global_refs() if r.name == attr]
        stores = [r for r in refs if r.kind in ("store", "del")]
        if any(r.kind == "decl" and r.scope.kind != "module" for r in refs):
            return False
        if len(stores) == 1 and not stores[0].in_loop and stores[0].kind == "store":
            return True
        if not stores:
            for _site, b in facts.star_bindings:
                if b.name == attr and b.module:
                    return b.attr is None or self.stable(b.module, b.attr, seen)
            if m.is_package and f"{module}.{attr}" in self.graph.modules:
                return True
        return False

    @staticmethod
    def sharing_key(facts: ModuleFacts, name: str, stores: list[Ref], declared: set[str]) -> NameKey:
        """Names bound only by one top-level import of the same standard-library object share a
        global across modules; any other name belongs to its module."""
        if len(stores) == 1 and name not in declared and isinstance(stores[0].node, ast.alias):
            entry = facts.alias_bindings.get(id(stores[0].node))
            if entry is not None:
                site, b = entry
                if site.top_level and b.external:
                    if isinstance(site.node, ast.Import):
                        alias = b.alias
                        assert alias is not None
                        target = alias.name if alias.asname else alias.name.split(".")[0]
                        return ("stdlib", target)
                    return ("stdlib", b.external)
        return ("module", facts.name, name)


def classify(graph: Graph, collected: Collected) -> Classified:
    """Sort the global names of every module of ``graph`` (see the module docstring)."""
    classifier = _Classifier(graph, collected)
    names = {name: classifier.module(facts) for name, facts in collected.facts.items()}
    return Classified(names, classifier.found.found())
