"""Scope analysis of one module: which name occurrences refer to the module's global namespace.

Python's rules, applied to the syntax tree (no text matching): function, lambda and comprehension
scopes see their own bindings, then enclosing function scopes (never a class body), then the
module; ``global`` and ``nonlocal`` redirect; a comprehension's first iterable belongs to the
enclosing scope and an assignment expression in a comprehension binds in the enclosing function.
A class body reads its own namespace first and the module second; a read of a name the class
body also binds is resolved by statement order and flagged ambiguous when order cannot decide.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["Scope", "Ref", "ModuleScopes", "analyze"]


@dataclass(eq=False)
class Scope:
    """One namespace: the module, a function (or lambda), a class body or a comprehension."""

    kind: str
    """``"module"``, ``"function"``, ``"class"`` or ``"comprehension"``."""
    node: ast.AST
    parent: Scope | None
    bindings: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    first_binding: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """Class bodies: name -> (index of the first body statement binding it, unconditional?)."""
    has_star_import: bool = False

    def function_chain(self) -> list[Scope]:
        """This scope and its enclosing scopes that a nested function would see (no classes)."""
        chain: list[Scope] = []
        scope: Scope | None = self
        while scope is not None and scope.kind != "module":
            if scope is self or scope.kind != "class":
                chain.append(scope)
            scope = scope.parent
        return chain


@dataclass(eq=False)
class Ref:
    """One occurrence of a name: a read, a write, a deletion or a ``global`` declaration."""

    name: str
    node: ast.AST
    """An ``ast.Name``, the ``def``/``class`` statement, an ``ast.alias``, a ``global`` statement,
    an ``except`` handler or a match pattern."""
    scope: Scope
    kind: str
    """``"load"``, ``"store"``, ``"del"`` or ``"decl"``."""
    top_index: int
    """Index of the module-body statement that contains the occurrence."""
    nested: bool
    """Inside a compound statement of the module body (``if``, ``for``, ``try``, ``with``...)."""
    in_loop: bool
    class_index: int = -1
    """For occurrences directly in a class body: index of the class-body statement."""
    in_value: bool = False
    """For class-body reads: inside the value of the statement that binds (``X = X``)."""
    resolved: Scope | None = None
    ambiguous: bool = False


@dataclass
class ModuleScopes:
    """The analysis of one module."""

    module: Scope
    refs: list[Ref]
    function_scopes: dict[int, Scope]
    """``id(def/lambda/class/comprehension node)`` -> its scope."""

    def global_refs(self) -> list[Ref]:
        """Occurrences that refer to the module namespace (or to builtins through it)."""
        return [r for r in self.refs if r.resolved is self.module]

    def module_names(self) -> set[str]:
        """Names the module binds in its own namespace (including via ``global`` in functions)."""
        return {r.name for r in self.global_refs() if r.kind in ("store", "del")}

    def free_names(self) -> set[str]:
        """Global names the module reads but never binds: builtins (or errors at run time)."""
        bound = self.module_names()
        return {r.name for r in self.global_refs() if r.kind == "load" and r.name not in bound}


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match, ast.TryStar)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass
class _Ctx:
    scope: Scope
    top_index: int = -1
    nested: bool = False
    in_loop: bool = False
    class_index: int = -1
    in_value: bool = False


class _Walker:
    def __init__(self, tree: ast.Module) -> None:
        self.module = Scope("module", tree, None)
        self.refs: list[Ref] = []
        self.scopes: dict[int, Scope] = {}

    # -- recording -----------------------------------------------------------------------------

    def ref(self, ctx: _Ctx, name: str, node: ast.AST, kind: str) -> None:
        scope = ctx.scope
        if kind in ("store", "del"):
            scope.bindings.add(name)
            if scope.kind == "class" and name not in scope.first_binding:
                scope.first_binding[name] = (ctx.class_index, True)
        self.refs.append(
            Ref(
                name,
                node,
                scope,
                kind,
                ctx.top_index,
                ctx.nested,
                ctx.in_loop,
                ctx.class_index if scope.kind == "class" else -1,
                ctx.in_value,
            )
        )

    def child(self, ctx: _Ctx, scope: Scope, **changes: object) -> _Ctx:
        new = _Ctx(scope, ctx.top_index, ctx.nested, ctx.in_loop, -1, False)
        for key, value in changes.items():
            setattr(new, key, value)
        return new

    # -- walking -------------------------------------------------------------------------------

    def run(self) -> ModuleScopes:
        tree = self.module.node
        assert isinstance(tree, ast.Module)
        for index, stmt in enumerate(tree.body):
            self.visit(stmt, _Ctx(self.module, top_index=index))
        for r in self.refs:
            r.resolved, r.ambiguous = self.resolve(r)
        return ModuleScopes(self.module, self.refs, self.scopes)

    def visit_body(self, stmts: list[ast.stmt], ctx: _Ctx) -> None:
        for stmt in stmts:
            self.visit(stmt, ctx)

    def visit(self, node: ast.AST, ctx: _Ctx) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.visit_function(node, ctx)
        elif isinstance(node, ast.Lambda):
            self.visit_lambda(node, ctx)
        elif isinstance(node, ast.ClassDef):
            self.visit_class(node, ctx)
        elif isinstance(node, _COMPREHENSIONS):
            self.visit_comprehension(node, ctx)
        elif isinstance(node, ast.NamedExpr):
            self.visit_named_expr(node, ctx)
        elif isinstance(node, ast.Name):
            kind = {ast.Load: "load", ast.Store: "store", ast.Del: "del"}[type(node.ctx)]
            self.ref(ctx, node.id, node, kind)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            self.visit_declaration(node, ctx)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.visit_import(node, ctx)
        elif isinstance(node, ast.ExceptHandler):
            if node.type is not None:
                self.visit(node.type, ctx)
            if node.name:
                self.ref(ctx, node.name, node, "store")
            self.visit_body(node.body, ctx)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar, ast.MatchMapping)):
            self.visit_pattern(node, ctx)
        elif isinstance(node, ast.AugAssign):
            self.visit(node.value, self.with_value(ctx))
            if isinstance(node.target, ast.Name):
                self.ref(self.with_value(ctx), node.target.id, node.target, "load")
            self.visit(node.target, ctx)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            self.visit_assign(node, ctx)
        elif isinstance(node, _COMPOUND):
            self.visit_compound(node, ctx)
        else:
            self.generic(node, ctx)

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: _Ctx) -> None:
        """Decorators, defaults and annotations in the enclosing scope; the body in its own."""
        for d in node.decorator_list:
            self.visit(d, ctx)
        self.visit_arguments_outer(node.args, ctx)
        if node.returns is not None:
            self.visit(node.returns, ctx)
        self.ref(ctx, node.name, node, "store")
        inner = Scope("function", node, ctx.scope)
        self.scopes[id(node)] = inner
        self.bind_arguments(node.args, inner)
        self.visit_body(node.body, self.child(ctx, inner))

    def visit_lambda(self, node: ast.Lambda, ctx: _Ctx) -> None:
        self.visit_arguments_outer(node.args, ctx)
        inner = Scope("function", node, ctx.scope)
        self.scopes[id(node)] = inner
        self.bind_arguments(node.args, inner)
        self.visit(node.body, self.child(ctx, inner))

    def visit_class(self, node: ast.ClassDef, ctx: _Ctx) -> None:
        """Decorators, bases and keywords in the enclosing scope; each body statement in the
        class's own, with its index."""
        for d in node.decorator_list:
            self.visit(d, ctx)
        for b in node.bases:
            self.visit(b, ctx)
        for k in node.keywords:
            self.visit(k.value, ctx)
        self.ref(ctx, node.name, node, "store")
        inner = Scope("class", node, ctx.scope)
        self.scopes[id(node)] = inner
        for index, stmt in enumerate(node.body):
            self.visit(stmt, self.child(ctx, inner, class_index=index))

    def visit_comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, ctx: _Ctx
    ) -> None:
        """The first iterable in the enclosing scope, the rest in the comprehension's own."""
        gens = node.generators
        self.visit(gens[0].iter, ctx)
        inner = Scope("comprehension", node, ctx.scope)
        self.scopes[id(node)] = inner
        ictx = self.child(ctx, inner)
        for i, gen in enumerate(gens):
            if i:
                self.visit(gen.iter, ictx)
            self.visit(gen.target, ictx)
            for cond in gen.ifs:
                self.visit(cond, ictx)
        if isinstance(node, ast.DictComp):
            self.visit(node.key, ictx)
            self.visit(node.value, ictx)
        else:
            self.visit(node.elt, ictx)

    def visit_named_expr(self, node: ast.NamedExpr, ctx: _Ctx) -> None:
        """``x := value`` binds ``x`` in the scope that encloses the comprehensions it is in."""
        self.visit(node.value, ctx)
        target_scope = ctx.scope
        while target_scope.kind == "comprehension" and target_scope.parent is not None:
            target_scope = target_scope.parent
        tctx = _Ctx(target_scope, ctx.top_index, ctx.nested, ctx.in_loop, ctx.class_index)
        assert isinstance(node.target, ast.Name)
        self.ref(tctx, node.target.id, node.target, "store")

    def visit_declaration(self, node: ast.Global | ast.Nonlocal, ctx: _Ctx) -> None:
        scope = ctx.scope
        target = scope.globals if isinstance(node, ast.Global) else scope.nonlocals
        for name in node.names:
            target.add(name)
            self.refs.append(Ref(name, node, scope, "decl", ctx.top_index, ctx.nested, ctx.in_loop))

    def visit_import(self, node: ast.Import | ast.ImportFrom, ctx: _Ctx) -> None:
        for alias in node.names:
            if alias.name == "*":
                ctx.scope.has_star_import = True
                continue
            bound = alias.asname or alias.name.split(".")[0]
            self.ref(ctx, bound, alias, "store")

    def visit_pattern(self, node: ast.MatchAs | ast.MatchStar | ast.MatchMapping, ctx: _Ctx) -> None:
        """The match patterns that bind a name: ``case x``, ``case [*rest]``, ``case {**rest}``."""
        if isinstance(node, ast.MatchMapping):
            for key in node.keys:
                self.visit(key, ctx)
            for p in node.patterns:
                self.visit(p, ctx)
            if node.rest:
                self.ref(ctx, node.rest, node, "store")
            return
        if isinstance(node, ast.MatchAs) and node.pattern is not None:
            self.visit(node.pattern, ctx)
        if node.name:
            self.ref(ctx, node.name, node, "store")

    def visit_assign(self, node: ast.Assign | ast.AnnAssign, ctx: _Ctx) -> None:
        """The value first (marked as such for class bodies), then the annotation and targets."""
        if node.value is not None:
            self.visit(node.value, self.with_value(ctx))
        if isinstance(node, ast.AnnAssign):
            self.visit(node.annotation, ctx)
            if isinstance(node.target, ast.Name) and node.value is None and ctx.scope.kind != "function":
                # ``x: int`` in a module or class body binds nothing at run time.
                self.refs.append(
                    Ref(node.target.id, node.target, ctx.scope, "annotation", ctx.top_index, ctx.nested, ctx.in_loop)
                )
                return
            self.visit(node.target, ctx)
        else:
            for t in node.targets:
                self.visit(t, ctx)

    def visit_compound(self, node: ast.AST, ctx: _Ctx) -> None:
        """A block statement: what it contains is nested (and in a loop for loops); in a class
        body, a name first bound inside it is bound conditionally."""
        scope = ctx.scope
        inner_ctx = _Ctx(
            scope, ctx.top_index, True, ctx.in_loop or isinstance(node, _LOOPS), ctx.class_index, ctx.in_value
        )
        if scope.kind == "class":
            before = set(scope.first_binding)
            self.generic(node, inner_ctx)
            for name in set(scope.first_binding) - before:
                scope.first_binding[name] = (scope.first_binding[name][0], False)
        else:
            self.generic(node, inner_ctx)

    def with_value(self, ctx: _Ctx) -> _Ctx:
        return _Ctx(ctx.scope, ctx.top_index, ctx.nested, ctx.in_loop, ctx.class_index, True)

    def generic(self, node: ast.AST, ctx: _Ctx) -> None:
        for child in ast.iter_child_nodes(node):
            self.visit(child, ctx)

    def visit_arguments_outer(self, args: ast.arguments, ctx: _Ctx) -> None:
        for d in args.defaults:
            self.visit(d, ctx)
        for kd in args.kw_defaults:
            if kd is not None:
                self.visit(kd, ctx)
        for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if a is not None and a.annotation is not None:
                self.visit(a.annotation, ctx)

    @staticmethod
    def bind_arguments(args: ast.arguments, scope: Scope) -> None:
        for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if a is not None:
                scope.bindings.add(a.arg)

    # -- resolution ----------------------------------------------------------------------------

    def resolve(self, r: Ref) -> tuple[Scope, bool]:
        scope, name = r.scope, r.name
        if r.kind == "decl":
            if name in scope.globals:
                return self.module, False
            return self.enclosing(scope.parent, name), False
        if scope.kind == "module":
            return self.module, False
        if name in scope.globals:
            return self.module, False
        if name in scope.nonlocals:
            return self.enclosing(scope.parent, name), False
        if scope.kind == "class":
            if name not in scope.bindings:
                return self.enclosing(scope.parent, name), False
            if r.kind != "load":
                return scope, False
            first, unconditional = scope.first_binding.get(name, (-1, False))
            if r.class_index < first or (r.class_index == first and r.in_value):
                return self.enclosing(scope.parent, name), False
            if unconditional and r.class_index > first:
                return scope, False
            return scope, True
        if name in scope.bindings:
            return scope, False
        return self.enclosing(scope.parent, name), False

    def enclosing(self, scope: Scope | None, name: str) -> Scope:
        """Where a free ``name`` resolves from inside ``scope`` (class bodies are skipped)."""
        while scope is not None and scope.kind != "module":
            if scope.kind != "class":
                if name in scope.globals:
                    return self.module
                if name in scope.bindings and name not in scope.nonlocals:
                    return scope
            scope = scope.parent
        return self.module


def analyze(tree: ast.Module) -> ModuleScopes:
    """Scope analysis of a parsed module."""
    return _Walker(tree).run()
