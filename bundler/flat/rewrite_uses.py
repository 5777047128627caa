"""Flattening, pass 6, the uses of names: each occurrence of a global rewritten to its final name,
each use of an imported name (or module: ``m.f``) to what it names, ``__name__`` to the module's
name, the names inside string annotations likewise, and the refusals found on the way.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping

from ..import_sites import Binding
from ..scopes import Ref, Scope
from ..textedit import Edit, Positions, apply_edits
from .collect import annotation_exprs
from .naming import Target
from .rewriter import Rewriter, enclosing_reaches_module

__all__ = ["UsesRewrite", "resolves_global"]

BUILTIN_NAMES = frozenset(dir(builtins))


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


class UsesRewrite(Rewriter):
    """The part of a module's rewrite that edits the uses of names."""

    def rewrite_uses(self) -> None:
        """Rewrite every live occurrence of a global name, and of a local name for a module, but
        those in import statements (rewritten whole); then the ``global`` statements of renamed
        names."""
        module_scope = self.m.scopes.module
        local_aliases = self.function_aliases()
        first_binding = self.first_bindings()
        global_decls: dict[int, ast.Global] = {}
        for r in self.facts.live_refs:
            if isinstance(r.node, ast.alias):
                continue  # import statements are rewritten whole
            if r.resolved is module_scope:
                if r.kind != "decl":
                    self.global_use(r, first_binding)
                elif r.name in self.final and self.final[r.name] != r.name:
                    assert isinstance(r.node, ast.Global)
                    global_decls[id(r.node)] = r.node
            elif r.resolved is not None and (r.resolved.kind != "module") and r.kind == "load":
                self.local_use(r, local_aliases)
        for node in global_decls.values():
            names = [self.final.get(n, n) for n in node.names]
            self.edits.append(Edit(*self.pos.span(node), "global " + ", ".join(names)))

    def first_bindings(self) -> dict[str, int]:
        """Each global the module binds in its own top-level code -> the first statement that does."""
        module_scope = self.m.scopes.module
        first_binding: dict[str, int] = {}
        for r in self.facts.live_refs:
            if r.resolved is module_scope and r.kind == "store" and r.scope is module_scope:
                first_binding.setdefault(r.name, r.top_index)
                first_binding[r.name] = min(first_binding[r.name], r.top_index)
        return first_binding

    def global_use(self, r: Ref, first_binding: Mapping[str, int]) -> None:
        """One occurrence of a global name (no ``global`` statement): an imported name, an own name
        (renamed or not), a name bound for type checkers only, or ``__name__``."""
        m, name, final, aliases = self.m, r.name, self.final, self.names.aliases
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
            self.edits.append(Edit(*self.pos.span(r.node), repr(m.name)))
        elif name == "__name__" and r.kind == "load" and r.scope is not m.scopes.module:
            # The flat file sets __name__ for each module's top-level code; a function of
            # the entry may run while another module's code does.
            self.edits.append(Edit(*self.pos.span(r.node), repr("__main__")))

    def local_use(self, r: Ref, local_aliases: Mapping[tuple[int, str], Binding]) -> None:
        """One read of a local name: rewritten when a local import binds it to a module."""
        key = (id(r.resolved), r.name)
        if key in local_aliases:
            b = local_aliases[key]
            # A local name for a module (``import pkg.mod as m``, or ``from util import
            # model as m`` where util's model is a module): its uses become module uses.
            target = Target(module=b.module) if b.attr is None else self.binding_target(b)
            if target is not None and target.module is not None:
                self.use_target(r, target)

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
