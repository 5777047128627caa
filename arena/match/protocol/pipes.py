"""A bot's standard input and output, as the arena uses them on every turn: the input written
whole, the answer's lines read within one deadline.

Nothing here knows about processes or games: :class:`BotPipes` is given the two pipes' ends
(non-blocking) by :class:`arena.match.process.botprocess.BotProcess` and splits the output into lines
with :class:`arena.match.protocol.lines.LineSplitter`. This runs twice a turn for every bot of every game,
so the usual case (the pipe takes the input at once, the answer comes in one read) makes no
object but the lines.
"""

from __future__ import annotations

import enum
import os
import select
import selectors
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .lines import LineSplitter

__all__ = ["BotPipes", "ReadStatus", "ReadResult"]

_READ_CHUNK = 1 << 16


class ReadStatus(str, enum.Enum):
    LINE = "line"
    TIMEOUT = "timeout"
    EOF = "eof"
    """The bot closed its output (usually: it exited or crashed)."""


@dataclass(frozen=True, slots=True)
class ReadResult:
    status: ReadStatus
    line: str | None
    elapsed_ms: float
    """From the end of the last write to the arrival of the line (or the give-up)."""


class BotPipes:
    """The arena's ends of a bot's stdin (``stdin_fd``) and stdout (``stdout_fd``), both
    non-blocking; :meth:`close` forgets them (their owner closes them)."""

    def __init__(self, stdin_fd: int, stdout_fd: int, splitter: LineSplitter) -> None:
        self._stdin_fd, self._stdout_fd = stdin_fd, stdout_fd
        self._splitter = splitter
        self._poller = select.epoll(1)
        self._poller.register(stdout_fd, select.EPOLLIN)
        self._poll = self._poller.poll
        self.stdin_closed = False
        """A write found the pipe broken (the bot exited, most likely)."""
        self.stdout_eof = False
        self._last_write = time.monotonic()

    def close(self) -> None:
        """Stop using the pipes (closed by their owner: their numbers may be another file's then)."""
        self._poller.close()
        self._stdin_fd = self._stdout_fd = -1

    def send(self, lines: Sequence[str], deadline: float | None = None) -> bool:
        """Write ``lines`` (each followed by ``\\n``). Returns False if the bot cannot take them
        (closed its input, or did not read them before ``deadline``)."""
        if not lines:
            self._last_write = time.monotonic()
            return True
        if self.stdin_closed:
            return False
        text = ("\n".join(lines) + "\n").encode("utf-8")
        fd = self._stdin_fd
        try:  # the usual case: the pipe takes the whole input at once
            written = os.write(fd, text)
        except BlockingIOError:
            written = 0
        except OSError:
            self.stdin_closed = True
            return False
        if written == len(text):
            self._last_write = time.monotonic()
            return True
        return self._send_rest(memoryview(text)[written:], deadline)

    def _send_rest(self, data: memoryview, deadline: float | None) -> bool:
        """Write what is left of an input that the pipe did not take at once (it was full)."""
        fd = self._stdin_fd
        sel: selectors.BaseSelector | None = None  # only made when the pipe is full
        try:
            while data:
                try:
                    written = os.write(fd, data)
                    data = data[written:]
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, OSError):
                    self.stdin_closed = True
                    return False
                if sel is None:
                    sel = selectors.DefaultSelector()
                    sel.register(fd, selectors.EVENT_WRITE)
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not sel.select(timeout) and deadline is not None:
                    return False
        finally:
            if sel is not None:
                sel.close()
        self._last_write = time.monotonic()
        return True

    def read_lines(self, count: int, timeout_s: float | None) -> tuple[tuple[str, ...] | None, float, ReadStatus]:
        """The next ``count`` answer lines, all within one deadline, ``timeout_s`` seconds (None =
        forever) from the end of the last :meth:`send` (the engine's rule: the limit covers every
        expected line): (the lines, or ``None`` when they did not all come; the ms from the end of
        the write to the arrival of the last line read, or to the give-up; the status). Lines
        already buffered are taken at once."""
        start = self._last_write
        deadline = None if timeout_s is None else start + timeout_s
        got: list[str] = []
        while True:
            if self._take(got, count):
                return tuple(got), (time.monotonic() - start) * 1000, ReadStatus.LINE
            arrived, status = self._wait_output(deadline)
            if status is ReadStatus.EOF:
                return None, (arrived - start) * 1000, status
            if status is ReadStatus.TIMEOUT:
                return self._last_chance(got, count, start, arrived)
            if self._take(got, count):
                return tuple(got), (arrived - start) * 1000, ReadStatus.LINE

    def _take(self, got: list[str], count: int) -> bool:
        """Move buffered lines into ``got`` until it holds ``count``: whether it does."""
        pop = self._splitter.pop
        while len(got) < count:
            line = pop()
            if line is None:
                return False
            got.append(line)
        return True

    def _last_chance(
        self, got: list[str], count: int, start: float, now: float
    ) -> tuple[tuple[str, ...] | None, float, ReadStatus]:
        """At the deadline: the lines that arrived exactly then, if they complete the answer."""
        while not self._take(got, count):  # nothing left buffered: read what came, if anything
            if self.stdout_eof:
                return None, (now - start) * 1000, ReadStatus.TIMEOUT
            self._read_available(self._stdout_fd)
            if not self._splitter.pending:
                return None, (now - start) * 1000, ReadStatus.TIMEOUT
        return tuple(got), (time.monotonic() - start) * 1000, ReadStatus.LINE

    def _wait_output(self, deadline: float | None) -> tuple[float, ReadStatus]:
        """Wait until a complete line is buffered (``LINE``), the output ends (``EOF``) or
        ``deadline`` passes (``TIMEOUT``, after reading what came until then): (when, status)."""
        if self.stdout_eof:
            return time.monotonic(), ReadStatus.EOF
        fd = self._stdout_fd
        poll = self._poll
        splitter = self._splitter
        while True:
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return now, ReadStatus.TIMEOUT  # then the last chance: data that came at the deadline
            if not poll(-1 if deadline is None else deadline - now):
                continue
            arrived = time.monotonic()
            self._read_available(fd)
            if splitter.pending:
                return arrived, ReadStatus.LINE
            if self.stdout_eof:
                return arrived, ReadStatus.EOF

    def _read_available(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.stdout_eof = True
                self._splitter.feed_eof()
                return
            self._splitter.feed(chunk)
            if self._splitter.pending:
                return
