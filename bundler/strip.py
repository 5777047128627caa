"""Optional shrinking: comments and docstrings out, everything else byte for byte."""

from __future__ import annotations

import ast
import io
import tokenize

from .textedit import Edit, Positions, apply_edits, source_lines

__all__ = ["strip_comments", "strip_docstrings"]


def strip_comments(text: str) -> str:
    """Remove every comment; a line that held only a comment goes entirely."""
    lines = source_lines(text)
    cuts: dict[int, int] = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            cuts[tok.start[0] - 1] = tok.start[1]
    out: list[str] = []
    for i, line in enumerate(lines):
        if i not in cuts:
            out.append(line)
            continue
        before = line[: cuts[i]]
        if before.strip():
            out.append(before.rstrip() + "\n")
    return "".join(out)


def strip_docstrings(text: str, tree: ast.Module) -> str:
    """Remove the docstrings of the module, its classes and functions (``pass`` keeps a body
    that held only a docstring valid)."""
    pos = Positions(text)
    edits: list[Edit] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        if not body or not isinstance(body[0], ast.Expr):
            continue
        value = body[0].value
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        whole = pos.whole_lines(body[0])
        if len(body) > 1 and whole is not None:
            edits.append(Edit(whole[0], whole[1], ""))
        else:
            edits.append(Edit(*pos.span(body[0]), "pass"))
    return apply_edits(text, edits)
