"""Flattening, pass 6: the edits that turn one module's text into its part of the flat file.

Takes the graph, one module's :class:`~bundler.flat.collect.ModuleFacts` and the
:class:`~bundler.flat.naming.NamePlan`; returns the module's :class:`ModuleEdits`: text edits
located by syntax-tree positions (renamed globals, uses of imported names rewritten to what they name,
``__name__`` replaced by the module's name, imports inside blocks rewritten or removed, nested
``if TYPE_CHECKING:`` blocks replaced by ``pass``), the new text of the top-level statements that
change whole (imports, ``if TYPE_CHECKING:`` and other modules' ``if __name__ == "__main__":``
blocks), and the reasons found why the module cannot be flattened.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from dataclasses import dataclass

from ..graph import Graph
from ..import_sites import Binding, ImportSite, is_main_guard, is_type_checking
from ..scopes import Ref, Scope
from ..textedit import Edit, Positions, apply_edits
from .classify import ModuleNames
from .collect import ModuleFacts, annotation_exprs
from .naming import NamePlan, Target
from .refusals import Refusals

__all__ = ["ModuleEdits", "rewrite", "deleted_globals"]

BUILTIN_NAMES = frozenset(dir(builtins))


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


@dataclass(frozen=True)
class ModuleEdits:
    """What :func:`rewrite` returns for one module."""

    edits: tuple[Edit, ...]
    """Edits of the module's text (in the order made: :func:`~bundler.textedit.apply_edits`
    sorts them by position, keeping that order between equals)."""
    top_replacements: Mapping[int, str]
    """Top-level statement index -> the text that replaces the whole statement ("" removes it)."""
    reasons: tuple[str, ...]
    clashes: frozenset[tuple[str, str]] = frozenset()
    """(module, own name) of the globals whose final name is a local name where this module
    reads them: with another final name the module could be flattened."""


def _clause(node: ast.Import | ast.ImportFrom, a: ast.alias) -> str:
    text = f"{a.name} as {a.asname}" if a.asname else a.name
    if isinstance(node, ast.Import):
        return f"import {text}"
    return f"from {'.' * node.level}{node.module or ''} import {text}"


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


def resolves_global(scope: Scope, name: str, original: str) -> bool:
    """Would a read of ``name``, put where ``original`` was read (and found global) in
    ``scope``, reach the module namespace?"""
    if scope.kind == "module":
        return True
    if scope.kind == "class":
        if name != original and name in scope.bindings:
            return False
        return enclosing_reaches_module(scope, name)
    if name in scope.globals:
        return True
    if name in scope.bindings or name in scope.nonlocals:
        return False
    return enclosing_reaches_module(scope, name)


class _ModuleRewrite:
    """The edits of one module, made once by :func:`rewrite`."""

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

    def run(self) -> ModuleEdits:
        m, pos, final, aliases = self.m, self.pos, self.final, self.names.aliases
        module_scope = m.scopes.module
        local_aliases = self.function_aliases()
        global_decls: dict[int, ast.Global] = {}
        first_binding: dict[str, int] = {}
        for r in self.facts.live_refs:
            if r.resolved is module_scope and r.kind == "store" and r.scope is module_scope:
                first_binding.setdefault(r.name, r.top_index)
                first_binding[r.name] = min(first_binding[r.name], r.top_index)
        for r in self.facts.live_refs:
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
                    if b.module is not None and b.attr is not None and (b.module, b.attr) in self.deleted:
                        self.refuse(
                            r.node,
                            f"reads {b.attr!r}, which module {b.module} deletes with del "
                            "(one namespace would give another error than the module)",
                        )
                    self.use_target(r, self.binding_target(b))
                elif name in final:
                    new = final[name]
                    if new != name:
                        if r.ambiguous:
                            self.refuse(r.node, f"class body reads {name!r} before or after binding it")
                        if (
                            r.kind == "load"
                            and name in BUILTIN_NAMES
                            and r.scope.kind != "function"
                            and r.top_index <= first_binding.get(name, -1)
                        ):
                            self.refuse(
                                r.node,
                                f"reads the builtin {name!r} before this module binds its own "
                                f"{name!r} (renamed {new!r}, the read would miss the builtin)",
                            )
                        self.rename(r, new)
                elif name in self.names.type_checking:
                    self.annotation_use(r, self.names.type_checking[name])
                elif name == "__name__" and not m.is_entry and r.kind == "load":
                    self.edits.append(Edit(*pos.span(r.node), repr(m.name)))
                elif name == "__name__" and r.kind == "load" and r.scope is not module_scope:
                    # The flat file sets __name__ for each module's top-level code; a function of
                    # the entry may run while another module's code does.
                    self.edits.append(Edit(*pos.span(r.node), repr("__main__")))
            elif r.resolved is not None and (r.resolved.kind != "module") and r.kind == "load":
                key = (id(r.resolved), r.name)
                if key in local_aliases:
                    b = local_aliases[key]
                    # A local name for a module (``import pkg.mod as m``, or ``from util import
                    # model as m`` where util's model is a module): its uses become module uses.
                    target = Target(module=b.module) if b.attr is None else self.binding_target(b)
                    if target is not None and target.module is not None:
                        self.use_target(r, target)
        for node in global_decls.values():
            names = [final.get(n, n) for n in node.names]
            self.edits.append(Edit(*pos.span(node), "global " + ", ".join(names)))
        self.rewrite_imports()
        self.rewrite_blocks()
        self.string_annotations()
        self.check_edited_constructs()
        return ModuleEdits(tuple(self.edits), dict(self.top), self.found.found(), frozenset(self.clashes))

    def check_edited_constructs(self) -> None:
        """Refuse the edits that would change what a construct means, not only what it names:
        a value pattern ``case mod.X:`` whose rewrite is a bare name (a capture pattern, which
        matches anything), and an f-string's debug form ``f"{expr=}"`` whose expression is
        rewritten (it prints its own source text)."""
        spans = [(e.start, e.end, e.new) for e in self.edits]
        if not spans:
            return
        source = self.m.source
        for node in ast.walk(self.m.tree):
            if isinstance(node, ast.MatchValue):
                start, end = self.pos.span(node.value)
                if any(a == start and b == end and new.isidentifier() for a, b, new in spans):
                    self.refuse(
                        node,
                        "a value pattern (case module.NAME:) would become a bare name, "
                        "which Python reads as a capture pattern matching anything",
                    )
            elif isinstance(node, ast.JoinedStr):
                for value in node.values:
                    if not isinstance(value, ast.FormattedValue):
                        continue
                    start, end = self.pos.span(value.value)
                    after = source[end:].lstrip()
                    if not after.startswith("=") or after.startswith("=="):
                        continue  # not the debug form: no '=' right after the expression
                    text = source[start:end]
                    if any(start <= a and b <= end for a, b, _ in spans):
                        self.refuse(
                            node,
                            f"the f-string debug form {{{text}=}} prints its expression's "
                            "source, which flattening rewrites",
                        )

    def string_annotations(self) -> None:
        """Rewrite the names inside string annotations (``def f(t: "model.Thing")``) as they
        would be rewritten in code, so that ``typing.get_type_hints`` and ``dataclasses`` (which
        evaluate them in the module's globals) find the same objects."""
        for node in ast.walk(self.m.tree):
            for expr in annotation_exprs(node):
                for sub in ast.walk(expr):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        self.string_annotation(sub)

    def string_annotation(self, node: ast.Constant) -> None:
        start, end = self.pos.span(node)
        text = self.m.source[start:end]
        value = node.value
        assert isinstance(value, str)
        quote = text[:1]
        # Only a plain one-line literal whose text is its value between quotes.
        if quote not in ("'", '"') or text != f"{quote}{value}{quote}" or "\\" in text:
            return
        try:
            tree = ast.parse(value, mode="eval")
        except SyntaxError:
            return
        inner = Positions(value)
        parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        edits: list[Edit] = []
        for name in ast.walk(tree):
            if not isinstance(name, ast.Name):
                continue
            found = self.annotation_name(name, parents)
            if found is not None:
                edits.append(Edit(*inner.span(found[0]), found[1]))
        if edits:
            self.edits.append(Edit(start, end, quote + apply_edits(value, edits) + quote))

    def annotation_name(self, name: ast.Name, parents: Mapping[int, ast.AST]) -> tuple[ast.AST, str] | None:
        """What a name read in a string annotation becomes, as (node replaced, text), or None."""
        if name.id in self.names.aliases:
            b = self.names.aliases[name.id]
        elif name.id in self.names.type_checking:
            b = self.names.type_checking[name.id]
        else:
            new = self.final.get(name.id, name.id)
            return (name, new) if new != name.id else None
        target = self.binding_target(b)
        node: ast.AST = name
        while target is not None and target.module is not None:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return None
            target = self.plan.target(target.module, parent.attr)
            node = parent
        if target is None or target.final is None:
            return None
        return (node, target.final) if target.final != ast.unparse(node) else None

    def function_aliases(self) -> dict[tuple[int, str], Binding]:
        """Names bound by local imports inside functions: (scope id, name) -> binding."""
        out: dict[tuple[int, str], Binding] = {}
        for alias_id, (_site, b) in self.facts.alias_bindings.items():
            r = self.facts.alias_refs.get(alias_id)
            if r is None or r.resolved is None or r.resolved.kind == "module" or b.module is None:
                continue
            out[(id(r.resolved), b.name)] = b
        return out

    def annotation_use(self, r: Ref, b: Binding) -> None:
        """A name bound only for type checkers: rewrite it when what it names is in the bundle."""
        target = self.binding_target(b)
        node: ast.AST = r.node
        while target is not None and target.module is not None:
            parent = self.parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return
            target = self.plan.target(target.module, parent.attr)
            node = parent
        if target is not None and target.final and target.final != r.name:
            self.edits.append(Edit(*self.pos.span(node), target.final))

    def rename(self, r: Ref, new: str) -> None:
        pos = self.pos
        node = r.node
        if isinstance(node, ast.Name):
            self.edits.append(Edit(*pos.span(node), new))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if r.scope is not self.m.scopes.module:
                self.refuse(
                    node,
                    f"defines the global {r.name!r} inside a function; renaming it "
                    f"would change its __name__ and __qualname__",
                )
                return
            # Python makes the object under its own name (decorators, __init_subclass__, the
            # __qualname__ of its methods see it), then it moves to its final name; the naming
            # pass made sure no other global of that spelling is bound at this point.
            line = pos.lines[node.lineno - 1]
            indent = line[: len(line) - len(line.lstrip())]
            at = pos.line_end(node.end_lineno or node.lineno)
            move = f"{indent}{new} = {node.name}; del {node.name}\n"
            if not pos.text[:at].endswith("\n"):
                move = "\n" + move
            self.edits.append(Edit(at, at, move))
        else:
            self.refuse(node, f"cannot rename {r.name!r} bound by a {type(node).__name__}")

    def clash(self, target: Target) -> None:
        """``target``'s final name is a local name where it is read: note it for renaming."""
        if target.owner is not None:
            self.clashes.add(target.owner)

    def use_target(self, r: Ref, target: Target | None) -> None:
        """Rewrite one use of an imported name (or module) to what it refers to."""
        if target is None:
            self.refuse(r.node, f"cannot tell what {r.name!r} refers to")
            return
        if r.kind != "load" or not isinstance(r.node, ast.Name):
            self.refuse(r.node, f"rebinds the imported name {r.name!r}")
            return
        node: ast.AST = r.node
        while target.module is not None:
            parent = self.parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                self.refuse(r.node, f"uses module {target.module} as an object (only module.name can be flattened)")
                return
            if not isinstance(parent.ctx, ast.Load):
                self.refuse(parent, f"assigns or deletes an attribute of module {target.module}")
                return
            names = self.plan.names.get(target.module)
            if parent.attr == "__name__" and (names is None or parent.attr not in names.own):
                self.edits.append(Edit(*self.pos.span(parent), repr(target.module)))
                return
            nxt = self.plan.target(target.module, parent.attr)
            if (target.module, parent.attr) in self.deleted:
                self.refuse(
                    parent,
                    f"reads {parent.attr!r}, which module {target.module} deletes with del "
                    "(one namespace would give another error than the module)",
                )
            if nxt is None:
                self.refuse(parent, f"{target.module} has no visible top-level name {parent.attr!r}")
                return
            node, target = parent, nxt
        assert target.final is not None
        if r.ambiguous:
            self.refuse(r.node, f"class body reads {r.name!r} before or after binding it")
        if not resolves_global(r.scope, target.final, r.name):
            self.clash(target)
            self.refuse(node, f"{target.final!r} is also a local name here")
            return
        self.edits.append(Edit(*self.pos.span(node), target.final))

    def rewrite_imports(self) -> None:
        m = self.m
        removed: list[ast.stmt] = []
        for site in m.imports:
            node = site.node
            if site.type_checking:
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                if site.top_level:
                    self.top[site.top_index] = ""
                continue
            scope_ref = None
            for a in node.names:
                scope_ref = self.facts.alias_refs.get(id(a)) or scope_ref
            scope = scope_ref.scope if scope_ref is not None else m.scopes.module
            if scope.kind == "class" and site.is_local:
                self.refuse(node, "imports a local module inside a class body")
                continue
            parts: list[str] = []
            changed = site.is_local
            by_alias = {id(b.alias): b for b in site.bindings if b.alias is not None}
            for a in node.names:
                if a.name == "*":
                    parts.extend(self.star_copies(site))
                    continue
                b = by_alias.get(id(a))
                if b is None:
                    changed = True  # a guarded import of a missing module
                    continue
                if b.module is not None:
                    parts.extend(self.local_binding(site, b, scope))
                    continue
                text, drop = self.external_clause(node, a, b, scope)
                if drop or text != _clause(node, a):
                    changed = True
                if not drop:
                    parts.append(text)
            if not changed:
                continue
            text = "; ".join(parts)
            if site.top_level:
                self.top[site.top_index] = text
            else:
                if text:
                    self.edits.append(Edit(*self.pos.span(node), text))
                else:
                    removed.append(node)
        self.remove_nested(removed)

    def remove_nested(self, removed: list[ast.stmt]) -> None:
        """Delete statements inside blocks: their whole lines when they have them, keeping one
        ``pass`` in a block that would be left empty."""
        pos = self.pos
        gone = {id(n) for n in removed}
        for node in removed:
            parent = self.parents.get(id(node))
            block = next(
                (
                    b
                    for f in ("body", "orelse", "finalbody", "handlers")
                    for b in [getattr(parent, f, None)]
                    if isinstance(b, list) and any(x is node for x in b)
                ),
                [node],
            )
            emptied = all(id(x) in gone for x in block)
            lines = pos.whole_lines(node)
            if (emptied and block[0] is node) or lines is None:
                self.edits.append(Edit(*pos.span(node), "pass"))
            else:
                self.edits.append(Edit(lines[0], lines[1], ""))

    def local_binding(self, site: ImportSite, b: Binding, scope: Scope) -> list[str]:
        """The statement text that replaces one local binding of an import (often nothing)."""
        if scope.kind == "module":
            if b.name in self.names.aliases:
                return []
            target = self.binding_target(b)
            if target is None or target.final is None:
                self.refuse(site.node, f"binds module {b.module} to {b.name!r}, which is rebound")
                return []
            return [f"{self.final.get(b.name, b.name)} = {target.final}"]
        target = self.binding_target(b)
        if target is None:
            self.refuse(site.node, f"cannot tell what {b.name!r} refers to")
            return []
        if target.module is not None:
            if self.count_stores(scope, b.name) != 1:
                self.refuse(site.node, f"rebinds {b.name!r}, a local name for module {b.module}")
            return []
        assert target.final is not None
        if not enclosing_reaches_module(scope, target.final):
            self.clash(target)
            self.refuse(site.node, f"{target.final!r} is a local name of an enclosing function")
            return []
        if b.name == target.final:
            # Dropping the local binding lets every use reach the global of the same name.
            if self.count_stores(scope, b.name) != 1:
                self.refuse(site.node, f"rebinds the imported name {b.name!r}")
            return []
        if target.final in scope.bindings and target.final not in scope.globals:
            self.clash(target)
            self.refuse(site.node, f"{target.final!r} is a local name here")
        return [f"{b.name} = {target.final}"]

    def star_copies(self, site: ImportSite) -> list[str]:
        """The assignments that copy, at import time, the names of ``from <local> import *``
        that are not aliases (their module rebinds them later)."""
        out: list[str] = []
        for b in site.bindings:
            if b.alias is not None or b.module is None or b.name not in self.final:
                continue
            target = self.binding_target(b)
            if target is None or target.final is None:
                self.refuse(site.node, f"cannot tell what {b.name!r} refers to")
                continue
            out.append(f"{self.final[b.name]} = {target.final}")
        return out

    def count_stores(self, scope: Scope, name: str) -> int:
        return sum(
            1 for r in self.m.scopes.refs if r.resolved is scope and r.name == name and r.kind in ("store", "del")
        )

    def external_clause(
        self, node: ast.Import | ast.ImportFrom, a: ast.alias, b: Binding, scope: Scope
    ) -> tuple[str, bool]:
        """The text of one non-local import clause, renamed as needed; drop=True when the same
        object already sits under the same global name."""
        if scope.kind != "module":
            return _clause(node, a), False
        new = self.final.get(b.name, b.name)
        if id(a) in self.plan.duplicates:
            return "", True
        if new == b.name:
            return _clause(node, a), False
        if isinstance(node, ast.ImportFrom):
            return f"from {'.' * node.level}{node.module or ''} import {a.name} as {new}", False
        if a.asname or "." not in a.name:
            return f"import {a.name} as {new}", False
        return f"{new} = __import__({a.name!r})", False

    def rewrite_blocks(self) -> None:
        """Drop ``if TYPE_CHECKING:`` blocks, and ``if __name__ == "__main__":`` outside the entry."""
        m = self.m
        for index, stmt in enumerate(m.tree.body):
            if (
                isinstance(stmt, ast.If)
                and not stmt.orelse
                and (is_type_checking(stmt.test) or (not m.is_entry and is_main_guard(stmt)))
            ):
                self.top[index] = ""
        for node in ast.walk(m.tree):
            if not isinstance(node, ast.If) or not is_type_checking(node.test):
                continue
            if any(node is top for top in m.tree.body) and not node.orelse:
                continue
            if node.orelse:
                self.refuse(node, "'if TYPE_CHECKING:' with an else branch")
            else:
                self.edits.append(Edit(*self.pos.span(node), "pass"))


def rewrite(graph: Graph, facts: ModuleFacts, plan: NamePlan) -> ModuleEdits:
    """The edits of one module of the bundle (see the module docstring)."""
    return _ModuleRewrite(graph, facts, plan).run()
