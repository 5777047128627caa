"""Scope analysis: which occurrences of a name are the module's global (checked against Python's
own ``symtable`` where it can say, and by hand for class bodies)."""

from __future__ import annotations

import ast
import symtable
import textwrap

from bundler.scopes import analyze

SOURCE = textwrap.dedent("""
    x = 1
    y = 2

    def f(x):
        return x, y

    def g():
        global y
        y = 3
        z = [x for x in range(3)]
        return z

    def h():
        x = 5
        def inner():
            nonlocal x
            x += 1
            return x, y
        return inner

    def k():
        return [w for w in range(x)], (lambda x=x: x)(), [(v := i) for i in range(2)], v

    class C:
        y = y
        x = [x for _ in range(1)]
        def m(self):
            return y
""")


def global_lines(source: str, name: str) -> list[int]:
    refs = analyze(ast.parse(source)).global_refs()
    return sorted({getattr(r.node, "lineno", 0) for r in refs if r.name == name and r.kind == "load"})


def symtable_global_functions(source: str, name: str) -> set[str]:
    """Functions in which Python itself resolves ``name`` to the module namespace."""
    out: set[str] = set()

    def walk(table: symtable.SymbolTable) -> None:
        for child in table.get_children():
            if child.get_type() == "function":
                try:
                    sym = child.lookup(name)
                except KeyError:
                    sym = None
                if sym is not None and sym.is_global() and sym.is_referenced():
                    out.add(child.get_name())
            walk(child)

    walk(symtable.symtable(source, "<src>", "exec"))
    return out


def _table_name(node: ast.AST) -> str:
    """The name symtable gives the scope of ``node``."""
    if isinstance(node, ast.FunctionDef):
        return node.name
    return {
        ast.Lambda: "lambda",
        ast.ListComp: "listcomp",
        ast.SetComp: "setcomp",
        ast.DictComp: "dictcomp",
        ast.GeneratorExp: "genexpr",
    }[type(node)]


def test_function_reads_agree_with_symtable():
    scopes = analyze(ast.parse(SOURCE))
    for name in ("x", "y"):
        ours = {
            _table_name(r.scope.node)
            for r in scopes.global_refs()
            if r.name == name and r.kind == "load" and r.scope.kind in ("function", "comprehension")
        }
        assert ours == symtable_global_functions(SOURCE, name), name


def test_parameters_locals_and_comprehension_variables_are_not_global():
    lines = global_lines(SOURCE, "x")
    text = SOURCE.splitlines()
    for line in lines:
        assert "def f(x)" not in text[line - 1] and "return x, y" not in text[line - 1]
    assert any("range(x)" in text[line - 1] for line in lines)  # the comprehension's first iterable
    assert any("lambda x=x" in text[line - 1] for line in lines)  # the default, not the body


def test_global_declaration_and_walrus():
    scopes = analyze(ast.parse(SOURCE))
    stores = {(r.name, r.node.lineno) for r in scopes.global_refs() if r.kind == "store"}
    text = SOURCE.splitlines()
    assert any(name == "y" and text[line - 1].strip() == "y = 3" for name, line in stores)
    assert "v" not in scopes.module_names()  # := in a comprehension binds in k(), not globally


def test_class_body_reads():
    scopes = analyze(ast.parse(SOURCE))
    text = SOURCE.splitlines()
    reads = [(r, text[r.node.lineno - 1].strip()) for r in scopes.refs if r.kind == "load" and r.scope.kind == "class"]
    y_value = [r for r, line in reads if line == "y = y" and r.name == "y"]
    assert y_value and all(r.resolved is scopes.module and not r.ambiguous for r in y_value)
    # The method's y skips the class body: the module's y.
    method = [
        r
        for r in scopes.refs
        if r.name == "y" and r.scope.kind == "function" and getattr(r.scope.node, "name", "") == "m"
    ]
    assert method and method[0].resolved is scopes.module


def test_class_body_read_after_binding_is_the_class_attribute():
    source = "v = 1\nclass C:\n    v = 2\n    w = v\n    if True:\n        u = 3\n    t = u\n"
    scopes = analyze(ast.parse(source))
    w = next(r for r in scopes.refs if r.name == "v" and r.kind == "load")
    assert w.resolved is not scopes.module and not w.ambiguous
    t = next(r for r in scopes.refs if r.name == "u" and r.kind == "load")
    assert t.ambiguous  # bound under an if: order alone cannot decide
