"""A referee's own work, bounded: setting a game up, or playing one turn, may take at most
:data:`REFEREE_BUDGET_S` of CPU time in the arena's process (the bots' time is theirs, counted by
their own limits). A referee past it ends the match with a :class:`RefereeError`, as the official
engine ends a game past its quota: a game parameter the game cannot handle, or a bug of the game
(a plugin's), never hangs the arena.

The bound is a CPU-time timer (``ITIMER_VIRTUAL``: a loaded machine does not trip it) whose signal
interrupts the referee's Python code. Signals reach only the main thread: a match played in
another thread (a Dask worker's) runs unbounded.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["REFEREE_BUDGET_S", "RefereeError", "referee_time"]

REFEREE_BUDGET_S = 10.0
"""The most CPU time a referee may spend setting a game up, or on one turn."""


class RefereeError(RuntimeError):
    """The game could not be played on: its referee went past its time, or cannot set the game up
    with these parameters on this seed (the message says which)."""


@contextmanager
def referee_time(game: str, what: str, scale: float = 1.0, bounded: bool = True) -> Iterator[None]:
    """Within the block, the referee of ``game`` may spend :data:`REFEREE_BUDGET_S` times
    ``scale`` (the match's time scale, at least 1) of CPU time to do ``what`` ("set the game up",
    "play turn 12"); past it, :class:`RefereeError` is raised where it runs. Not ``bounded`` (a
    match without time limits, for debugging) or outside the main thread, nothing is timed."""
    if not bounded or threading.current_thread() is not threading.main_thread():
        yield
        return
    budget = REFEREE_BUDGET_S * max(1.0, scale)

    def overrun(signum: int, frame: FrameType | None) -> None:
        raise RefereeError(
            f"the {game} referee took more than {budget:g} s of CPU time to {what}: a game parameter it "
            "cannot handle, or a bug of the game"
        )

    previous = signal.signal(signal.SIGVTALRM, overrun)
    signal.setitimer(signal.ITIMER_VIRTUAL, budget)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
