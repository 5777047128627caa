"""Flattening, pass 7: the flat file's text, from the plan and each module's edits.

Takes the graph, what :mod:`bundler.flat.collect` indexed (the text positions), the plan of
:mod:`bundler.flat.order` and the :class:`~bundler.flat.rewrite.ModuleEdits` of every module in it;
returns :class:`Emitted`: the runs of module text (:class:`Piece`) in plan order, each a stretch of
one module's edited text (comments and blank lines included) cut at the imports that bring in
other modules, and the reasons found (an import that must go shares its line with another
statement).
:class:`FlatBundle` assembles the pieces into the body of the bundle.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..graph import Graph, Module
from ..textedit import apply_edits
from .collect import Collected
from .order import Step
from .refusals import Refusals
from .rewrite import ModuleEdits

__all__ = ["Piece", "FlatBundle", "Emitted", "emit"]


@dataclass(frozen=True)
class Piece:
    """A run of one module's text in the flat output."""

    module: str
    display: str
    text: str
    continued: bool
    """Not the module's first piece (its text resumes after modules it imported)."""


@dataclass
class FlatBundle:
    """The flattened body (no header) and what it is made of."""

    futures: list[str]
    pieces: list[Piece]
    renamed: dict[str, dict[str, str]] = field(default_factory=dict)
    """Module -> {original name: new name} for the names that had to change."""
    entry: str = "__main__"
    """The entry module's name (its code runs as ``__main__``)."""
    registered: tuple[str, ...] = ()
    """Module names that lead to this file in ``sys.modules`` (so that what looks a class's module
    up by ``__module__``, as dataclasses and typing do, finds the flat namespace)."""

    def text(self) -> str:
        out: list[str] = []
        if self.futures:
            out.append(f"from __future__ import {', '.join(self.futures)}\n")
        if self.registered:
            out.append(
                f'__import__("sys").modules.update(dict.fromkeys({list(self.registered)!r}, '
                f'__import__("sys").modules["__main__"]))\n'
            )
        shown = [p for p in self.pieces if p.text.strip()]
        single = len({p.module for p in shown}) == 1  # the header names the only file
        running = "__main__"
        for piece in shown:
            label = piece.display + (" (continued)" if piece.continued else "")
            if out and not out[-1].endswith("\n\n"):
                out.append("\n")
            if not single:
                out.append(f"# ---- {label} ----\n")
            # Classes and functions take __module__ from __name__ where they are made.
            name = "__main__" if piece.module == self.entry else piece.module
            if name != running:
                out.append(f"__name__ = {name!r}\n")
                running = name
            out.append(piece.text if piece.text.endswith("\n") else piece.text + "\n")
        return "".join(out)

    def sizes(self) -> dict[str, str]:
        """Module display name -> its text (all pieces), for the size report."""
        texts: dict[str, str] = {}
        for p in self.pieces:
            texts[p.display] = texts.get(p.display, "") + p.text
        return texts


@dataclass(frozen=True)
class Emitted:
    """What :func:`emit` returns."""

    pieces: tuple[Piece, ...]
    reasons: tuple[str, ...]


_UNCHANGED = ModuleEdits((), {}, ())


def _first_line(stmt: ast.stmt) -> int:
    decorators: list[ast.expr] | None = getattr(stmt, "decorator_list", None)
    if decorators:
        return min(d.lineno for d in decorators)
    return stmt.lineno


class _Emitter:
    def __init__(self, graph: Graph, collected: Collected, edits: Mapping[str, ModuleEdits]) -> None:
        self.graph = graph
        self.facts = collected.facts
        self.edits = edits
        self.found = Refusals(graph)
        self.cursor: dict[str, int] = {}
        """Module -> offset in its text up to which it has been emitted."""

    def module_edits(self, name: str) -> ModuleEdits:
        return self.edits.get(name, _UNCHANGED)

    def pieces(self, plan: Sequence[Step]) -> list[Piece]:
        pieces: list[Piece] = []
        current: str | None = None
        buffer: list[str] = []
        started: set[str] = set()

        def flush() -> None:
            nonlocal buffer
            if current is not None and buffer:
                m = self.graph.modules[current]
                pieces.append(Piece(current, self.graph.display(m), "".join(buffer), current in started))
                started.add(current)
            buffer = []

        groups = {name: self.line_groups(self.graph.modules[name]) for name in self.graph.modules}
        for name, index in plan:
            if index is None:
                continue
            m = self.graph.modules[name]
            if current != name:
                flush()
                current = name
            group_of = groups[name]
            if index < 0:
                buffer.append(self.lead_text(m, -index - 1))
                continue
            if index not in group_of:
                continue  # part of a group emitted with an earlier statement
            last = group_of[index]
            buffer.append(self.statement_text(m, index, last))
        flush()
        for name, tail_from in self.cursor.items():
            m = self.graph.modules[name]
            if m.source[tail_from:].strip():
                tail = apply_edits(m.source, list(self.module_edits(name).edits), tail_from, len(m.source))
                last_i = max(i for i, p in enumerate(pieces) if p.module == name)
                p = pieces[last_i]
                pieces[last_i] = Piece(name, p.display, p.text + tail, p.continued)
        return pieces

    def line_groups(self, m: Module) -> dict[int, int]:
        """First statement index of each group of top-level statements sharing lines -> last."""
        groups: dict[int, int] = {}
        body = m.tree.body
        top = self.module_edits(m.name).top_replacements
        i = 0
        while i < len(body):
            j = i
            while j + 1 < len(body) and body[j + 1].lineno == body[j].end_lineno:
                j += 1
            groups[i] = j
            if j > i and any(k in top for k in range(i, j + 1)):
                self.found.refuse(m, body[i], "an import that must be removed shares its line with another statement")
            i = j + 1
        return groups

    def lead_text(self, m: Module, index: int) -> str:
        """The blank lines and comments between the previous statement and statement ``index``."""
        pos = self.facts[m.name].positions
        start = self.cursor.get(m.name, 0)
        stmt_start = pos.line_start(_first_line(m.tree.body[index]))
        if stmt_start <= start:
            return ""
        self.cursor[m.name] = stmt_start
        return apply_edits(m.source, list(self.module_edits(m.name).edits), start, stmt_start)

    def statement_text(self, m: Module, first: int, last: int) -> str:
        pos = self.facts[m.name].positions
        edits = self.module_edits(m.name)
        body = m.tree.body
        start = self.cursor.get(m.name, 0)
        stmt = body[first]
        stmt_start = pos.line_start(_first_line(stmt))
        end = pos.line_end(body[last].end_lineno or body[last].lineno)
        self.cursor[m.name] = end
        replacement = edits.top_replacements.get(first)
        if replacement is None:
            return apply_edits(m.source, list(edits.edits), start, end)
        lead = apply_edits(m.source, list(edits.edits), start, stmt_start)
        return lead + (replacement + "\n" if replacement else "")


def emit(graph: Graph, collected: Collected, plan: Sequence[Step], edits: Mapping[str, ModuleEdits]) -> Emitted:
    """Cut and join the edited texts of the modules in ``plan`` (see the module docstring); a module
    without an entry in ``edits`` is emitted unchanged. Raises
    :class:`~bundler.textedit.EditConflict` when two edits overlap."""
    emitter = _Emitter(graph, collected, edits)
    pieces = emitter.pieces(plan)
    return Emitted(tuple(pieces), emitter.found.found())
