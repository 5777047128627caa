"""Flat mode: the modules' own text, in the order Python would run it, as one module.

Everything is an edit of the original text located by syntax-tree positions, so comments,
docstrings and multi-line strings stay byte for byte. What changes:

- a module's code is placed where Python would first run it: the importing module's text is cut
  at the import statement and the imported module's text goes there;
- local import statements go; a name they bound becomes an alias, its uses rewritten to the
  imported definition (``m.f`` for ``import pkg.mod as m`` too), or an assignment when the name
  is rebound later (Python copies the value at import time, so does the assignment);
- top-level names that two modules define differently are renamed (``name_module``) in every
  occurrence that scope analysis resolves to that module's namespace;
- ``if __name__ == "__main__":`` blocks of other modules and ``if TYPE_CHECKING:`` blocks go,
  ``__name__`` elsewhere becomes the module's name, ``from __future__`` imports move to the top,
  a standard-library import already made with the same name is not repeated.

Anything that could behave differently once the modules share one namespace raises
:class:`FlattenRefused` with every reason found.

The work is done in passes, each a module that takes the results of earlier ones and returns
its own (frozen data, no shared state):

1. :mod:`bundler.flat.collect`: index each module (positions, parents, import bindings, live
   names);
2. :mod:`bundler.flat.checks`: refusals that depend on neither names nor order;
3. :mod:`bundler.flat.classify`: sort each module's global names (aliases, own names,
   type-checking);
4. :mod:`bundler.flat.order`: the plan, Python's order of execution of the top-level statements;
5. :mod:`bundler.flat.naming`: the final name of every global, resolving clashes;
6. :mod:`bundler.flat.rewrite`: each module's text edits;
7. :mod:`bundler.flat.emit`: the pieces of text, in plan order.
"""

from __future__ import annotations

import ast

from ..errors import FlattenRefused, InternalError
from ..graph import Graph
from ..textedit import EditConflict
from .checks import DYNAMIC_ATTRS, check
from .classify import classify
from .collect import collect
from .emit import FlatBundle, Piece, emit
from .naming import plan_names
from .order import Unorderable, order, submodule_overwrites
from .refusals import merge
from .rewrite import rewrite

__all__ = ["FlatBundle", "Piece", "flatten"]

_DYNAMIC_ATTRS = DYNAMIC_ATTRS
"""The (module, attribute) uses refused, as :func:`flatten` passes them to the checks (a test
replaces it to allow one)."""


def flatten(graph: Graph) -> FlatBundle:
    """Flatten the graph's modules into one, or raise :class:`FlattenRefused` with the reasons."""
    collected = collect(graph)
    reasons = check(graph, collected, _DYNAMIC_ATTRS)
    classified = classify(graph, collected)
    reasons = merge(reasons, classified.reasons)
    try:
        plan = order(graph)
    except Unorderable as exc:
        raise FlattenRefused(list(merge(reasons, [exc.reason]))) from None
    reasons = merge(reasons, submodule_overwrites(graph, collected, plan))
    in_bundle = list(dict.fromkeys(name for name, _ in plan))
    # A module imported only under TYPE_CHECKING is not in the bundle: it binds nothing there.
    names = classified.only(in_bundle).names
    # A global whose final name is a local name where another module reads it gets another
    # final name (each round renames at least one more global, so this ends).
    force: frozenset[tuple[str, str]] = frozenset()
    while True:
        naming = plan_names(graph, collected, names, plan, force)
        edits = {name: rewrite(graph, collected.facts[name], naming) for name in in_bundle}
        clashes = frozenset().union(*(e.clashes for e in edits.values()))
        if clashes <= force:
            break
        force |= clashes
    for name in in_bundle:
        reasons = merge(reasons, edits[name].reasons)
    if reasons:
        raise FlattenRefused(list(reasons))
    try:
        emitted = emit(graph, collected, plan, edits)
    except EditConflict as exc:
        raise InternalError(f"flat mode: two edits of the text conflict ({exc})") from None
    if emitted.reasons:
        raise FlattenRefused(list(emitted.reasons))
    others = [name for name in in_bundle if name != graph.entry.name]
    defines_classes = any(isinstance(n, ast.ClassDef) for name in others for n in ast.walk(graph.modules[name].tree))
    return FlatBundle(
        list(collected.futures),
        list(emitted.pieces),
        naming.renamed(),
        graph.entry.name,
        tuple(others) if defines_classes else (),
    )
