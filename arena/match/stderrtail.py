"""A bot's stderr, read by a thread of its own until its end, kept bounded: the last bytes of it,
what came since the last turn (its last few KB), and how much came in all.

:class:`arena.match.botprocess.BotProcess` keeps one per bot; the replay stores each turn's share,
the result the tail and the total.
"""

from __future__ import annotations

import os
import re
import threading
from collections import deque

__all__ = ["DEFAULT_STDERR_TAIL_BYTES", "DEFAULT_TURN_STDERR_BYTES", "StderrTail", "telling_line"]

DEFAULT_STDERR_TAIL_BYTES = 64 * 1024
DEFAULT_TURN_STDERR_BYTES = 4 * 1024
_READ_CHUNK = 1 << 16


_ERROR_LINE = re.compile(
    r"\s*(Uncaught\s+)?([\w$.]*(Error|Exception|Interrupt|Exit)\b.*|panic:.*|thread '.*' panicked.*|fatal error:.*)"
)
"""A line that names an error: ``ReferenceError: readline is not defined`` (Node), ``KeyError:
'boom'`` (Python), ``Exception in thread "main" java.lang...`` (Java), ``panic: ...`` (Go)..."""


_TRACEBACK = "Traceback (most recent call last):"


def telling_line(text: str) -> str:
    """The line of a bot's stderr ``text`` that tells what went wrong: the first that names an
    error (Node.js prints the error, then where it was, then its own version) after the last
    Python traceback's start when there is one (its error line ends it: the debug lines a bot
    wrote before are skipped), else the last non-empty line (without its surrounding blanks;
    empty when there is none)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    start = max((i for i, line in enumerate(lines) if line == _TRACEBACK), default=0)
    return next((line for line in lines[start:] if _ERROR_LINE.fullmatch(line)), lines[-1] if lines else "")


class StderrTail:
    """The bounded record of one stream; :meth:`start` reads it in a daemon thread."""

    def __init__(
        self, tail_bytes: int = DEFAULT_STDERR_TAIL_BYTES, turn_bytes: int = DEFAULT_TURN_STDERR_BYTES
    ) -> None:
        self._tail: deque[bytes] = deque()
        self._tail_size = 0
        self._tail_cap = tail_bytes
        self._turn = bytearray()
        self._turn_cap = turn_bytes
        self._total = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, fd: int, name: str) -> None:
        """Read ``fd`` until its end in a daemon thread called ``name``."""
        self._thread = threading.Thread(target=self._drain, args=(fd,), name=name, daemon=True)
        self._thread.start()

    def _drain(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._total += len(chunk)
                self._tail.append(chunk)
                self._tail_size += len(chunk)
                while self._tail_size - len(self._tail[0]) >= self._tail_cap:
                    self._tail_size -= len(self._tail.popleft())
                self._turn += chunk
                if len(self._turn) > self._turn_cap:
                    del self._turn[: len(self._turn) - self._turn_cap]

    def join(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for the stream to reach its end (nothing to wait for when
        :meth:`start` was never called)."""
        if self._thread is not None:
            self._thread.join(timeout_s)

    def take_turn(self) -> str:
        """What came since the last call (its last few KB)."""
        with self._lock:
            data = bytes(self._turn)
            self._turn.clear()
        return data.decode("utf-8", errors="replace")

    def tail(self) -> str:
        """The last bytes that came (bounded)."""
        with self._lock:
            data = b"".join(self._tail)[-self._tail_cap :]
        return data.decode("utf-8", errors="replace")

    def last_line(self, wait_s: float) -> str:
        """The line that tells what went wrong (:func:`telling_line`), cut to 200 characters,
        after waiting up to ``wait_s`` for the stream to end."""
        self.join(wait_s)
        return telling_line(self.tail())[:200]

    @property
    def total(self) -> int:
        """How many bytes came in all."""
        return self._total
