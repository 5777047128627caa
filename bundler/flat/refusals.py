"""Reasons to refuse flat mode: how the flattening passes word them and put them together.

A reason is one line, ``where: why``, where ``where`` is the module's display name and the line of
the statement at fault. Each pass returns the reasons it found (each once, in the order found);
:func:`merge` joins the lists of successive passes, keeping the first occurrence of each.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ..graph import Graph, Module

__all__ = ["Refusals", "merge", "where"]


def where(graph: Graph, module: Module, node: ast.AST | None = None) -> str:
    """``path`` or ``path:line`` of a node of ``module``, as reasons show it."""
    line = getattr(node, "lineno", None)
    return f"{graph.display(module)}" + (f":{line}" if line else "")


class Refusals:
    """The reasons one pass finds. Private to the pass that makes it: the pass hands back
    :meth:`found`, never the object."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._reasons: list[str] = []

    def refuse(self, module: Module, node: ast.AST | None, why: str) -> None:
        """Record ``why`` at ``node`` of ``module``, unless the same reason is already recorded."""
        reason = f"{where(self._graph, module, node)}: {why}"
        if reason not in self._reasons:
            self._reasons.append(reason)

    def note(self, reason: str) -> None:
        """Record a reason worded elsewhere (the graph's import problems), as it is."""
        self._reasons.append(reason)

    def found(self) -> tuple[str, ...]:
        return tuple(self._reasons)


def merge(earlier: Sequence[str], later: Sequence[str]) -> tuple[str, ...]:
    """``earlier``, then the reasons of ``later`` it does not already give."""
    out = list(earlier)
    for reason in later:
        if reason not in out:
            out.append(reason)
    return tuple(out)
