"""A bot's stderr, read until its end, kept bounded: the last bytes of it, what came since the
last turn (its last few KB), and how much came in all.

:class:`arena.match.process.botprocess.BotProcess` keeps one per bot; the replay stores each turn's share,
the result the tail and the total. One thread of the process reads every bot's stderr (an
``epoll`` over them, started at the first bot): a thread per bot cost more CPU than the rest of the
arena's work on a match.
"""

from __future__ import annotations

import os
import re
import select
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
    """The bounded record of one stream; :meth:`start` has it read by the process's stderr
    reader until its end."""

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
        self._ended = threading.Event()
        self._fd: int | None = None

    def start(self, fd: int) -> None:
        """Read ``fd`` (made non-blocking) until its end or :meth:`stop`."""
        os.set_blocking(fd, False)
        self._fd = fd
        _reader.add(fd, self)

    def stop(self) -> None:
        """Read no more (before the stream is closed: its number may be another file's then)."""
        if self._fd is not None:
            _reader.remove(self._fd, self)
            self._ended.set()

    def _take(self, chunk: bytes) -> None:
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
        if self._fd is not None:
            self._ended.wait(timeout_s)

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


class _Reader:
    """The process's one thread that reads every started stream (an ``epoll`` over them)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[int, StderrTail] = {}
        self._epoll: select.epoll | None = None

    def add(self, fd: int, tail: StderrTail) -> None:
        with self._lock:
            if self._epoll is None:
                self._epoll = select.epoll()
                threading.Thread(target=self._run, args=(self._epoll,), name="stderr", daemon=True).start()
            self._streams[fd] = tail
            self._epoll.register(fd, select.EPOLLIN)

    def remove(self, fd: int, tail: StderrTail) -> None:
        with self._lock:
            if self._streams.get(fd) is tail:
                self._forget(fd)

    def _forget(self, fd: int) -> None:
        """Read ``fd`` no more (the lock held)."""
        del self._streams[fd]
        try:
            if self._epoll is not None:
                self._epoll.unregister(fd)
        except OSError:
            pass

    def _run(self, epoll: select.epoll) -> None:
        while True:
            for fd, _ in epoll.poll():
                with self._lock:
                    tail = self._streams.get(fd)
                    if tail is None:
                        continue
                    ended = self._drain(fd, tail)
                    if ended:
                        self._forget(fd)
                if ended:
                    tail._ended.set()

    @staticmethod
    def _drain(fd: int, tail: StderrTail) -> bool:
        """Read what is there, at most a few chunks (the others' turn comes: the poll is level
        triggered), under the lock (the stream cannot be removed meanwhile); whether the stream
        ended."""
        for _ in range(4):
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except BlockingIOError:
                return False
            except OSError:
                return True
            if not chunk:
                return True
            tail._take(chunk)
        return False

    def forget(self) -> None:
        """In a forked child: no reader thread runs there, and the parent's streams are not its own."""
        self._lock = threading.Lock()
        self._streams = {}
        self._epoll = None


_reader = _Reader()
os.register_at_fork(after_in_child=_reader.forget)
