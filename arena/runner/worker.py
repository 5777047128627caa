"""A local tournament worker: a process that plays the games its executor sends, one at a time.

:class:`arena.runner.executor.LocalExecutor` starts each worker with :func:`command`: a fresh
interpreter that imports only what playing a game needs (this module, :mod:`.task` and the
match layer), not the program that started it. (``multiprocessing``'s ``spawn`` would import the
main program again in every worker, e.g. the whole command line interface with numpy: half a
second of CPU per worker.) Tasks and records travel pickled over a socket pair, as
:class:`multiprocessing.connection.Connection` messages.
"""

from __future__ import annotations

import json
import multiprocessing.connection
import os
import signal
import sys
from typing import Any

from ..match.launch.botspec import REPO_ROOT
from ..match.limits.refereetime import RefereeFailure
from ..match.process.plumbing import die_with_parent
from ..store.records import GameRecord
from .task import GameTask, play_task

__all__ = ["command", "serve"]

_ROOT = str(REPO_ROOT)
"""The directory that holds the ``arena`` package (on the worker's path, whatever its cwd)."""

_BOOT = "import json, sys; sys.path[:] = json.loads(sys.argv[3]); from arena.runner.worker import main; main()"

_in_match = False
_stopping = False


def command(fd: int, parent: int) -> list[str]:
    """The command line of a worker that talks over ``fd`` and dies with ``parent``: this
    interpreter, with this process's import path (so it imports the same ``arena``)."""
    path = [p for p in sys.path if p]  # not "" (the current directory): the worker's is the bots'
    if _ROOT not in path:
        path.insert(0, _ROOT)
    return [sys.executable, "-c", _BOOT, str(fd), str(parent), json.dumps(path)]


def main() -> None:
    """The worker's entry point (see :func:`command`)."""
    fd, parent = int(sys.argv[1]), int(sys.argv[2])
    serve(multiprocessing.connection.Connection(fd), parent)


def _on_stop_signal(signum: int, frame: Any) -> None:
    """SIGINT (Ctrl-C reaches the whole process group) or SIGTERM (from the main process): stop
    the game in progress once; later signals must not interrupt the bots' clean-up.

    The interrupt is not raised inside a finalizer (``__del__``, e.g. a ``Popen`` collected
    mid-game): Python would print it as ignored and play on. The match then stops at its next
    turn, where :func:`_stop_requested` is asked."""
    global _stopping
    if _stopping:
        return
    _stopping = True
    if not _in_match:
        os._exit(0)  # idle: nothing to clean up
    if not _in_finalizer(frame):
        raise KeyboardInterrupt


def _in_finalizer(frame: Any) -> bool:
    """Whether ``frame`` runs inside a ``__del__`` method, which swallows any exception."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _stop_requested() -> bool:
    """Asked by the match before every turn: a stop signal has come."""
    return _stopping


def serve(
    conn: multiprocessing.connection.Connection[GameRecord | RefereeFailure | None, GameTask | None], parent: int
) -> None:
    """Play each task received, send back its :class:`GameRecord` (None if stopped, the
    :class:`RefereeFailure` when the game could not be played on)."""
    global _in_match
    die_with_parent(parent)
    signal.signal(signal.SIGINT, _on_stop_signal)
    signal.signal(signal.SIGTERM, _on_stop_signal)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        _in_match = True
        record: GameRecord | RefereeFailure | None
        try:
            record = play_task(task, _stop_requested)
        except RefereeFailure as exc:  # the game's fault, not the worker's: the tournament says it
            record = exc
        except KeyboardInterrupt:  # stopped before the match had started its bots
            return
        finally:
            _in_match = False
        try:
            conn.send(record)
        except (BrokenPipeError, OSError):
            return
        if record is None or _stopping:  # interrupted
            return
