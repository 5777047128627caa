"""The one thread of a process that looks at its running bots' limits every
:data:`arena.match.limits.WATCH_INTERVAL_S`.

Between the looks after each answer, it makes a bot past its memory killed even when it never
answers again. One thread serves every bot (a thread per bot cost more CPU than the rest of the
arena's work on a match), started at the first bot and asleep while no bot runs.

:func:`watch` adds a bot's look (a function that looks at its limits and says whether to stop,
after a breach it acted on); :func:`unwatch` removes it and returns once no look at it is in
progress, so that a bot being killed is never looked at meanwhile.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Hashable

from . import WATCH_INTERVAL_S

__all__ = ["watch", "unwatch"]

_lock = threading.Lock()
_wake = threading.Condition(_lock)
_looking = threading.Lock()
"""Held by the watcher while it looks (:func:`unwatch` waits for its end)."""
_looks: dict[Hashable, Callable[[], bool]] = {}
_first: dict[Hashable, float] = {}
"""When each bot's first look is due: a whole interval after its start, as a thread of its own
would have looked (a sandbox is still being made before; the bot has not run yet)."""
_thread: threading.Thread | None = None


def watch(key: Hashable, look: Callable[[], bool]) -> None:
    """Call ``look`` every :data:`WATCH_INTERVAL_S` from now on, until it returns true (it found
    a breach and acted on it) or :func:`unwatch` is called for ``key``."""
    global _thread
    with _lock:
        _looks[key] = look
        _first[key] = time.monotonic() + WATCH_INTERVAL_S
        if _thread is None:
            _thread = threading.Thread(target=_run, name="limits", daemon=True)
            _thread.start()
        _wake.notify()


def unwatch(key: Hashable) -> None:
    """Stop looking at ``key``; returns when no look at it is in progress."""
    with _lock:
        _first.pop(key, None)
        if _looks.pop(key, None) is None:
            return
    if threading.current_thread() is not _thread:
        with _looking:  # the look in progress, if any, ends first
            pass


def _run() -> None:
    while True:
        with _wake:
            while not _looks:
                _wake.wait()
        time.sleep(WATCH_INTERVAL_S)
        with _looking:
            with _lock:
                round_ = list(_looks.items())
            now = time.monotonic()
            for key, look in round_:
                with _lock:
                    if _looks.get(key) is not look:
                        continue  # unwatched meanwhile
                    if _first.get(key, now) > now:
                        continue  # too early: its first look comes at the next round or later
                    _first.pop(key, None)
                try:
                    done = look()
                except Exception:  # a look that fails stops, as a bot's own thread used to
                    done = True
                if done:
                    with _lock:
                        if _looks.get(key) is look:
                            del _looks[key]
                            _first.pop(key, None)


def _forget() -> None:
    """In a forked child: no watcher runs there, and the parent's bots are not the child's."""
    global _thread, _lock, _wake, _looking
    _thread = None
    _looks.clear()
    _first.clear()
    _lock = threading.Lock()
    _wake = threading.Condition(_lock)
    _looking = threading.Lock()


os.register_at_fork(after_in_child=_forget)
