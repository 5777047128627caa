"""The root of every arena error: :class:`ArenaError`.

Every exception the arena raises for a user's mistake or a failure it can explain (a bot that
cannot be resolved or frozen, a setting that cannot be used, a database that cannot be written, a
run that cannot go on) derives from it, and its text is one line: what went wrong and what to do.
The command layer catches this root and prints that line; a caller that needs to tell the cases
apart catches the precise class (:class:`arena.runner.runner.StorageFailure` to say how to
resume, say). Errors that are also a kind of ``ValueError`` (a value given that cannot be used)
derive from both, so code catching ``ValueError`` keeps working.

It imports nothing of the arena, so any module can derive its errors from it; :mod:`arena.api`
exports it.
"""

from __future__ import annotations

__all__ = ["ArenaError"]


class ArenaError(Exception):
    """Something the arena cannot do as asked (the message says why and what to do, in one line)."""
