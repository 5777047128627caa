"""``did you mean greedy?``: the closest known name to a mistyped one (a game, a bot), for the
one-line errors of every look-up by name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name most like ``name`` (difflib's ratio, at least 0.6), ``None`` when none is
    close; ``name`` itself is never suggested."""
    names = [k for k in dict.fromkeys(known) if k != name]
    found = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if not found:  # case or surrounding blanks alone: "Greedy", "greedy "
        found = [k for k in names if k.lower() == name.strip().lower()][:1]
    return found[0] if found else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean greedy?"`` to end an error message with, or ``""``."""
    found = closest(name, known)
    return "" if found is None else f"; did you mean {found}?"
