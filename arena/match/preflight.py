"""Before the first game (of a tournament, or of ``arena play``): start each distinct bot once, so
that a bot that cannot start (a missing interpreter, a syntax error, a missing module, a crash
while loading) stops the command with its error, instead of losing every game as a crash. A bot
that starts and then crashes on its first input is not caught here: that is a game it lost.

A bot counts as started once it has run for :data:`START_WAIT_S` and then sits idle (asleep with
no CPU time for a few polls, read from ``/proc`` for its whole tree: blocked reading its first
input), or once it still runs after :data:`MAX_START_WAIT_S` (a slow start on a loaded machine).
A bot that exits before either with an error, or with nothing left on its output, cannot play.
Each bot is started as it will play (memory limit, sandbox or not), sent no input, and killed
with its whole tree.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from . import sandbox
from .launch.botspec import BotSpec
from .loop import MatchOptions, bot_process
from .process import proctree
from .process.botprocess import BotProcess, BotStartError, ExitInfo, ReadStatus
from .process.shield import shielded

__all__ = ["START_WAIT_S", "MAX_START_WAIT_S", "BATCH", "StartFailure", "start_failures"]

START_WAIT_S = 0.15
"""How long a bot runs before it can count as started (when it is then idle)."""
MAX_START_WAIT_S = 3.0
"""A bot still running this long after its start counts as started, idle or not."""
BATCH = 16
"""Bots started at the same time (a large sweep is checked a batch at a time)."""
_POLL_S = 0.02
_IDLE_POLLS = 3
"""Consecutive polls asleep without CPU time that make a bot idle."""
_EOF_WAIT_S = 0.05


@dataclass(frozen=True)
class StartFailure:
    """A bot that cannot start, and why."""

    bot: str
    """The bot's name in the tournament."""
    reason: str
    """What happened, in one line (with the line of its stderr that names its error, else its
    last line: :func:`arena.match.process.stderrtail.telling_line`)."""

    def __str__(self) -> str:
        return f"bot {self.bot!r} failed to start: {self.reason}"


def start_failures(
    specs: Sequence[BotSpec],
    memory_limit_mb: int | None = None,
    wait_s: float = START_WAIT_S,
    max_wait_s: float = MAX_START_WAIT_S,
    sandboxed: bool = False,
) -> list[StartFailure]:
    """The bots of ``specs`` that cannot start (each distinct command is started once, in the
    sandbox when ``sandboxed``), in the order of ``specs``; empty when all of them wait for their
    input. Ctrl-C (``KeyboardInterrupt``) while it runs is raised once the bots it started are
    killed."""
    distinct: dict[tuple[object, ...], BotSpec] = {}
    for spec in specs:
        distinct.setdefault((spec.argv, spec.cwd, tuple(sorted(spec.env.items()))), spec)
    todo = list(distinct.values())
    failures: list[StartFailure] = []
    for first in range(0, len(todo), BATCH):
        failures.extend(_check_batch(todo[first : first + BATCH], memory_limit_mb, wait_s, max_wait_s, sandboxed))
    return failures


@dataclass
class _Watch:
    """One bot being started: the CPU time it had at the last poll, and how many polls in a row
    found it asleep without using any."""

    index: int
    process: BotProcess
    cpu: int | None = None
    idle_polls: int = 0

    def poll_idle(self) -> bool:
        """Whether it is now idle (``True`` where ``/proc`` cannot tell: the wait decides)."""
        states = [s for s in map(proctree.stat, self.process.tree()) if s is not None]
        if not states:
            return True
        asleep, cpu = all(s.state == "S" for s in states), sum(s.cpu_ticks for s in states)
        self.idle_polls = self.idle_polls + 1 if asleep and cpu == self.cpu else 0
        self.cpu = cpu
        return self.idle_polls >= _IDLE_POLLS


def _check_batch(
    specs: Sequence[BotSpec], memory_limit_mb: int | None, wait_s: float, max_wait_s: float, sandboxed: bool
) -> list[StartFailure]:
    """Start the bots together and watch them until each exited, or waits for its input."""
    watches: list[_Watch] = []
    failures: list[tuple[int, StartFailure]] = []
    interrupted = False
    try:
        for i, spec in enumerate(specs):
            own = sandbox.bot_files(spec.argv, spec.cwd, spec.data) if sandboxed else None
            process = bot_process(spec, f"preflight-{spec.name}", MatchOptions(memory_limit_mb=memory_limit_mb), own)
            watches.append(_Watch(i, process))  # before it starts: an interrupted start still kills it
            try:
                process.start()
            except BotStartError as exc:
                watches.pop()
                failures.append((i, StartFailure(spec.name, str(exc))))
        start = time.monotonic()
        pending = list(watches)
        while pending:
            now = time.monotonic()
            still = []
            for watch in pending:
                info = watch.process.poll()
                if info.returncode is not None:
                    reason = _why_stopped(watch.process, info)
                    if reason is not None:
                        failures.append((watch.index, StartFailure(specs[watch.index].name, reason)))
                elif not ((watch.poll_idle() and now - start >= wait_s) or now - start >= max_wait_s):
                    still.append(watch)
            pending = still
            if pending:
                time.sleep(_POLL_S)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        # a second Ctrl-C must not leave bots running; a first one, while they are killed, then
        # stops the command as it would have a moment before
        with shielded(redeliver=not interrupted):
            for watch in watches:
                watch.process.kill_tree()
    return [failure for _, failure in sorted(failures, key=lambda item: item[0])]


def _why_stopped(process: BotProcess, info: ExitInfo) -> str | None:
    """Why a bot that exited while starting cannot play, or ``None`` when it can (it exited 0 but
    left children that hold its output: a launcher)."""
    if info.signal is None and info.returncode == 0:
        process.send([])  # starts the clock of the read below
        if process.read_line(_EOF_WAIT_S).status is not ReadStatus.EOF:
            return None
    how = f"it was killed by {info.signal}" if info.signal else f"it exited with code {info.returncode}"
    last = process.last_stderr_line()
    return f"{how} before its first input" + (f" ({last})" if last else "")
