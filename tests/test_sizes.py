"""Pieces split by concept, and small functions: a module is one concept, named after it, split
by concept and never by line count, so its size is free up to 800 lines; past that (or where a
reviewer sees two concepts) its docstring says why it is one concept, in a paragraph that starts
``Why one module:``. No function over 80 lines (from its ``def`` line to its last line) in the
packages, and no click command function over 60 lines in the command layer (a command parses its
options, calls one library function and renders what it returns)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.paths import REPO_ROOT

CHECKED = ("arena", "bundler", "referee", "bots/lib", "cli")
MAX_MODULE_LINES = 800
WHY = "Why one module:"
"""What the docstring of a module over :data:`MAX_MODULE_LINES` lines says, and why."""
MAX_FUNCTION_LINES = 80
MAX_COMMAND_LINES = 60


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        call = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(call, ast.Attribute) and call.attr in ("command", "group"):
            return True
    return False


def oversized(root: Path) -> list[str]:
    """Every module, function and command over its size, in words."""
    out = []
    for folder in CHECKED:
        for path in sorted((root / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            where = path.relative_to(root)
            lines = len(text.splitlines())
            if lines > MAX_MODULE_LINES and WHY not in (ast.get_docstring(ast.parse(text)) or ""):
                out.append(f"{where}: {lines} lines, and its docstring does not say why it is one concept ({WHY} ...)")
            for node in _functions(ast.parse(text)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(f"{where}:{node.lineno} {node.name}: {length} lines (at most {MAX_FUNCTION_LINES})")
                elif _is_command(node) and length > MAX_COMMAND_LINES:
                    out.append(
                        f"{where}:{node.lineno} command {node.name}: {length} lines (at most {MAX_COMMAND_LINES})"
                    )
    return out


def test_modules_functions_and_commands_are_small() -> None:
    found = oversized(REPO_ROOT)
    assert not found, "\n".join(found)


def test_the_limits_are_seen(tmp_path: Path) -> None:
    """Each limit, one line past it, is reported; at the limit it is not."""
    (tmp_path / "arena").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    (tmp_path / "arena" / "ok.py").write_text(f"def f():\n{body}\n")
    (tmp_path / "arena" / "long.py").write_text(f"def g():\n{body}\n    y = 0\n")
    (tmp_path / "arena" / "big.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (tmp_path / "arena" / "said.py").write_text(
        f'"""A table.\n\n{WHY} every row of it."""\n' + "x = 1\n" * MAX_MODULE_LINES
    )
    (tmp_path / "cli").mkdir()
    command = "\n".join(f"    x{i} = {i}" for i in range(MAX_COMMAND_LINES))
    (tmp_path / "cli" / "c.py").write_text(f"import click\n@click.command()\ndef c():\n{command}\n")
    found = "\n".join(oversized(tmp_path))
    assert "ok.py" not in found
    assert f"long.py:1 g: {MAX_FUNCTION_LINES + 1} lines" in found
    assert f"big.py: {MAX_MODULE_LINES + 1} lines, and its docstring does not say why" in found
    assert "said.py" not in found
    assert f"c.py:3 command c: {MAX_COMMAND_LINES + 1} lines" in found
