"""Source-text edits located by syntax-tree positions (which count UTF-8 bytes within a line)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

__all__ = ["Edit", "Positions", "apply_edits", "EditConflict", "source_lines"]

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def source_lines(text: str) -> list[str]:
    """The lines of Python source as the parser counts them (ends kept): only ``\n``, ``\r\n`` and
    ``\r`` end a line. ``str.splitlines`` also splits at a form feed, ``\v``, ``\x1c``-``\x1e``,
    ``\x85``, ``\u2028`` and ``\u2029``, which Python allows inside a line (in strings and
    comments, and a form feed in indentation)."""
    return _LINE.findall(text)


class EditConflict(ValueError):
    """Two edits overlap without one containing the other, or an edit's text is not as expected."""


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``new``."""

    start: int
    end: int
    new: str


class Positions:
    """Converts ``(lineno, col_offset)`` pairs from ``ast`` into offsets in the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = source_lines(text)
        self.starts: list[int] = []
        offset = 0
        for line in self.lines:
            self.starts.append(offset)
            offset += len(line)
        self.starts.append(offset)

    def offset(self, lineno: int, col: int) -> int:
        """Character offset of a 1-based line and a UTF-8 byte column."""
        if lineno > len(self.lines):
            return len(self.text)
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def line_start(self, lineno: int) -> int:
        return self.starts[lineno - 1]

    def line_end(self, lineno: int) -> int:
        """Offset just past the line's newline."""
        return self.starts[min(lineno, len(self.lines))]

    def name_token(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
        """Span of the name in a ``def``/``class`` statement (after any decorators)."""
        start = self.offset(node.lineno, node.col_offset)
        reader = io.StringIO(self.text[start:]).readline
        for tok in tokenize.generate_tokens(reader):
            if tok.type == tokenize.NAME and tok.string == node.name:
                line0 = self.text.count("\n", 0, start)
                base_line = tok.start[0] - 1
                if base_line == 0:
                    s = start + tok.start[1]
                else:
                    s = self.starts[line0 + base_line] + tok.start[1]
                return s, s + len(node.name)
        raise EditConflict(f"cannot find the name of {node.name!r} at line {node.lineno}")

    def whole_lines(self, node: ast.AST) -> tuple[int, int] | None:
        """The span of the full lines a statement occupies, when nothing else shares them
        (besides indentation and a trailing comment); ``None`` otherwise."""
        start, end = self.span(node)
        first = self.line_start(node.lineno)  # type: ignore[attr-defined]
        last_end = self.line_end(node.end_lineno)  # type: ignore[attr-defined]
        if self.text[first:start].strip():
            return None
        rest = self.text[end:last_end].strip()
        if rest and not rest.startswith("#"):
            return None
        return first, last_end


def apply_edits(text: str, edits: list[Edit], start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` with the edits that fall inside it applied. An edit inside another
    edit's span is dropped (the outer one replaces it); partial overlaps raise EditConflict.
    An insertion (``start == end``) at a region boundary goes with the region before it."""
    end = len(text) if end is None else end
    chosen: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.start != e.end, -e.end)):
        if e.start == e.end:  # an insertion belongs to the region it ends, not the one it starts
            if (start < e.start <= end or e.start == start == 0) and not (
                chosen and chosen[-1].start < e.start < chosen[-1].end
            ):
                chosen.append(e)
            continue
        if e.start < start or e.end > end:
            if e.start < end and e.end > start and not (e.start <= start and e.end >= end):
                raise EditConflict(f"edit {e} crosses the region {start}:{end}")
            continue
        if chosen and e.start < chosen[-1].end:
            if e.end <= chosen[-1].end:
                continue
            raise EditConflict(f"overlapping edits {chosen[-1]} and {e}")
        chosen.append(e)
    out: list[str] = []
    pos = start
    for e in chosen:
        out.append(text[pos : e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:end])
    return "".join(out)
