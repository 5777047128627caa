"""Flattening, pass 6, the statements rewritten whole: each import statement becomes what it
still has to do in the flat file (often nothing: an assignment where a name is rebound later, a
renamed non-local import), ``if TYPE_CHECKING:`` blocks and other modules' ``if __name__ ==
"__main__":`` blocks go, and the refusals found on the way.
"""

from __future__ import annotations

import ast

from ..import_sites import Binding, ImportSite, is_main_guard, is_type_checking
from ..scopes import Scope
from ..textedit import Edit
from .rewriter import Rewriter, enclosing_reaches_module

__all__ = ["ImportsRewrite"]


def _clause(node: ast.Import | ast.ImportFrom, a: ast.alias) -> str:
    text = f"{a.name} as {a.asname}" if a.asname else a.name
    if isinstance(node, ast.Import):
        return f"import {text}"
    return f"from {'.' * node.level}{node.module or ''} import {text}"


class ImportsRewrite(Rewriter):
    """The part of a module's rewrite that replaces or removes its import statements and blocks."""

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
