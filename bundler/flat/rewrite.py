"""Flattening, pass 6: the edits that turn one module's text into its part of the flat file.

Takes the graph, one module's :class:`~bundler.flat.collect.ModuleFacts` and the
:class:`~bundler.flat.naming.NamePlan`; returns the module's :class:`ModuleEdits`: text edits
located by syntax-tree positions (renamed globals, uses of imported names rewritten to what they
name, ``__name__`` replaced by the module's name, imports inside blocks rewritten or removed, nested
``if TYPE_CHECKING:`` blocks replaced by ``pass``), the new text of the top-level statements that
change whole (imports, ``if TYPE_CHECKING:`` and other modules' ``if __name__ == "__main__":``
blocks), and the reasons found why the module cannot be flattened.

The work has two parts over one :class:`~bundler.flat.rewriter.Rewriter`: the uses of names
(:mod:`bundler.flat.rewrite_uses`) and the statements rewritten whole
(:mod:`bundler.flat.rewrite_imports`); this module runs them and checks what their edits did.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from ..graph import Graph
from ..textedit import Edit
from .collect import ModuleFacts
from .naming import NamePlan
from .rewrite_imports import ImportsRewrite
from .rewrite_uses import UsesRewrite

__all__ = ["ModuleEdits", "rewrite"]


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


class _ModuleRewrite(UsesRewrite, ImportsRewrite):
    """The edits of one module, made once by :func:`rewrite`."""

    def run(self) -> ModuleEdits:
        self.rewrite_uses()
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


def rewrite(graph: Graph, facts: ModuleFacts, plan: NamePlan) -> ModuleEdits:
    """The edits of one module of the bundle (see the module docstring)."""
    return _ModuleRewrite(graph, facts, plan).run()
