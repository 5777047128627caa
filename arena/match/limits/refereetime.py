"""A referee's own work, bounded: setting a game up, or playing one turn, may take at most
:data:`REFEREE_BUDGET_S` of CPU time in the arena's process (the bots' time is theirs, counted by
their own limits). A referee past it ends the match with a :class:`RefereeFailure`, as the official
engine ends a game past its quota: a game parameter the game cannot handle, or a bug of the game
(a plugin's), never hangs the arena.

The bound is a CPU-time timer (``ITIMER_VIRTUAL``: a loaded machine does not trip it) whose signal
interrupts the referee's Python code. Signals reach only the main thread: a match played in
another thread (a Dask worker's) runs unbounded.

The set-up is bounded by :func:`referee_time`, which arms the timer for the block. The turns are
bounded by one :class:`TurnClock` for the whole match: arming and disarming a timer around every
turn cost four system calls a turn, more than the rest of the arena's work on a turn of a fast
game. The clock's timer fires every tenth of the budget of CPU time, and a turn that sees more
than ten of its signals ends the match: a turn is stopped after between 1 and 1.1 times its
budget.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

from ...errors import ArenaError

__all__ = ["REFEREE_BUDGET_S", "RefereeFailure", "TurnClock", "referee_time"]

REFEREE_BUDGET_S = 10.0
"""The most CPU time a referee may spend setting a game up, or on one turn."""


class RefereeFailure(ArenaError):
    """The game could not be played on: its referee went past its time, or cannot set the game up
    with these parameters on this seed (the message says which)."""


def _overrun(game: str, budget: float, what: str) -> RefereeFailure:
    return RefereeFailure(
        f"the {game} referee took more than {budget:g} s of CPU time to {what}: a game parameter it "
        "cannot handle, or a bug of the game"
    )


@contextmanager
def referee_time(game: str, what: str, scale: float = 1.0, bounded: bool = True) -> Iterator[None]:
    """Within the block, the referee of ``game`` may spend :data:`REFEREE_BUDGET_S` times
    ``scale`` (the match's time scale, at least 1) of CPU time to do ``what`` ("set the game up",
    "play turn 12"); past it, :class:`RefereeFailure` is raised where it runs. Not ``bounded`` (a
    match without time limits, for debugging) or outside the main thread, nothing is timed."""
    if not bounded or threading.current_thread() is not threading.main_thread():
        yield
        return
    budget = REFEREE_BUDGET_S * max(1.0, scale)

    def overrun(signum: int, frame: FrameType | None) -> None:
        raise _overrun(game, budget, what)

    previous = signal.signal(signal.SIGVTALRM, overrun)
    signal.setitimer(signal.ITIMER_VIRTUAL, budget)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


class TurnClock:
    """Bounds the CPU time of each turn of a match with one timer (see the module's docstring).

    Use as a context manager around the turns; set :attr:`turn` to the turn's number when the
    referee's work on it starts, and to ``None`` when the arena leaves it (frames handed to the
    caller are not the referee's time). Not ``bounded``, or outside the main thread, it times
    nothing."""

    SLICES = 10
    """The timer fires every ``budget / SLICES`` of CPU time."""

    def __init__(self, game: str, scale: float = 1.0, bounded: bool = True) -> None:
        self.game = game
        self.budget = REFEREE_BUDGET_S * max(1.0, scale)
        self.bounded = bounded and threading.current_thread() is threading.main_thread()
        self.turn: int | None = None
        self._seen: int | None = None
        self._fires = 0
        self._previous: object = None

    def _tick(self, signum: int, frame: FrameType | None) -> None:
        turn = self.turn
        if turn is None or turn != self._seen:
            self._seen, self._fires = turn, 0
            return
        self._fires += 1
        if self._fires >= self.SLICES:
            raise _overrun(self.game, self.budget, f"play turn {turn}")

    def __enter__(self) -> TurnClock:
        if self.bounded:
            self._previous = signal.signal(signal.SIGVTALRM, self._tick)
            tick = self.budget / self.SLICES
            signal.setitimer(signal.ITIMER_VIRTUAL, tick, tick)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.bounded:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, self._previous)  # type: ignore[arg-type]
