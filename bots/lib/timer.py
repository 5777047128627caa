"""When to stop searching: a clock with the contest's time limits, or a fixed node budget.

Both kinds are *turn limits* with the same two methods, so a search never knows which one it got:

- :meth:`start` is called once per turn, as soon as the turn's first input line has been read
  (CodinGame's clock runs from the moment the input is sent);
- :meth:`done` is asked by the search, as often as it likes, with the number of nodes (states
  expanded, playouts, ...) it has spent so far this turn.

:class:`TurnTimer` answers from the clock: the first turn gets its own, longer limit, every later
turn the per-turn limit, each minus a safety margin for reading, printing and the interpreter's
pauses. :class:`NodeBudget` answers from the node count only, so a bot run with it plays the same
moves on every machine at every load: tests, bundle verification and reproducible tournaments use
it (``--budget N`` on the bots' command lines).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["TurnLimit", "TurnTimer", "NodeBudget", "limit_from_args"]


class TurnLimit(Protocol):
    """What a search asks to know when to stop."""

    def start(self) -> None:
        """A new turn begins (call right after reading its first input line)."""

    def done(self, nodes: int) -> bool:
        """True when the search must stop, having spent ``nodes`` this turn."""


class TurnTimer:
    """The contest clock: ``first_ms`` on the first turn, ``turn_ms`` after, minus ``margin_ms``.

    The margin covers what happens after the search stops (building the answer, printing it) and
    the interpreter's occasional pauses (garbage collection); the search should also check
    :meth:`done` often enough that one step between checks stays well under the margin.

    On the first turn only ``first_share`` of ``first_ms`` is used: the referee's clock starts
    when it sends the input, which can be while the interpreter is still starting and importing
    (a few hundred milliseconds on a loaded machine), before the bot has read a line.
    """

    __slots__ = ("first_ms", "turn_ms", "margin_ms", "first_share", "turn", "_clock", "_deadline", "_started")

    def __init__(
        self,
        first_ms: float,
        turn_ms: float,
        margin_ms: float = 15.0,
        clock: Callable[[], float] = time.perf_counter,
        first_share: float = 0.6,
    ) -> None:
        if margin_ms >= turn_ms:
            raise ValueError(f"safety margin {margin_ms} ms leaves no time in a {turn_ms} ms turn")
        self.first_share = first_share
        self.first_ms = first_ms
        self.turn_ms = turn_ms
        self.margin_ms = margin_ms
        self.turn = 0
        """Turns started so far (1 during the first turn)."""
        self._clock = clock
        self._started = 0.0
        self._deadline = 0.0

    def start(self) -> None:
        limit = self.first_ms * self.first_share if self.turn == 0 else self.turn_ms
        self.turn += 1
        self._started = self._clock()
        self._deadline = self._started + (limit - self.margin_ms) / 1000.0

    def done(self, nodes: int = 0) -> bool:
        return self._clock() >= self._deadline

    def elapsed_ms(self) -> float:
        """Milliseconds since :meth:`start`."""
        return (self._clock() - self._started) * 1000.0

    def fraction(self, share: float) -> TurnTimer:
        """A timer for the first ``share`` of what is left of this turn (e.g. an opponent search).

        It is already started; the parent timer is unchanged.
        """
        sub = TurnTimer(self.first_ms, self.turn_ms, 0.0, self._clock, self.first_share)
        sub.turn = self.turn
        sub._started = self._clock()
        sub._deadline = sub._started + max(0.0, self._deadline - sub._started) * share
        return sub


class NodeBudget:
    """A fixed number of nodes per turn, whatever the clock says (deterministic play)."""

    __slots__ = ("nodes", "turn")

    def __init__(self, nodes: int) -> None:
        if nodes < 1:
            raise ValueError(f"a node budget must be at least 1, got {nodes}")
        self.nodes = nodes
        self.turn = 0

    def start(self) -> None:
        self.turn += 1

    def done(self, nodes: int = 0) -> bool:
        return nodes >= self.nodes

    def fraction(self, share: float) -> NodeBudget:
        """A budget of ``share`` of this one (at least one node)."""
        sub = NodeBudget(max(1, int(self.nodes * share)))
        sub.turn = self.turn
        return sub


def limit_from_args(
    budget: int | None, first_ms: float, turn_ms: float, margin_ms: float = 15.0
) -> TurnTimer | NodeBudget:
    """The limit a bot's command line asks for: ``--budget N`` nodes, else the contest clock."""
    if budget is not None:
        return NodeBudget(budget)
    return TurnTimer(first_ms, turn_ms, margin_ms)
