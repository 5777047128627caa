"""Clean-up that a second Ctrl-C or a SIGTERM cannot cut short.

Inside :func:`shielded`, SIGINT, SIGTERM and SIGHUP only note that they came; when the block
ends, the first one noted is delivered again (Ctrl-C then raises ``KeyboardInterrupt`` after
the bots are dead, not in the middle of killing them). Python runs signal handlers in the main
thread only, so elsewhere the block simply runs.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["shielded", "SHIELDED_SIGNALS"]

SHIELDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def shielded(redeliver: bool = True) -> Iterator[list[int]]:
    """Hold off SIGINT, SIGTERM and SIGHUP for the block; yields the list of those that came.

    With ``redeliver`` (the default), the first one that came is raised again after the block,
    under the handlers that were in place before it.
    """
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def note(signum: int, frame: FrameType | None) -> None:
        came.append(signum)

    previous = {}
    for signum in SHIELDED_SIGNALS:
        try:
            previous[signum] = signal.signal(signum, note)
        except (ValueError, OSError):
            continue
    try:
        yield came
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if came and redeliver:
            signal.raise_signal(came[0])
