"""Splitting a bot's output into lines as the CodinGame engine reads them, with a memory bound.

A line ends at ``\\n``, ``\\r`` or ``\\r\\n`` (``BufferedReader.readLine`` rules). Lines not yet
asked for stay buffered for the next execution, as on CodinGame. A line longer than
``max_line_bytes`` keeps its first ``max_line_bytes`` bytes; the rest is read and dropped, so a
bot writing a 10 MB line cannot exhaust memory (the kept prefix still parses as it would have:
``WAIT`` followed by a huge message is still a WAIT).

This module is pure: it is fed bytes and hands out lines, whatever the transport.
"""

from __future__ import annotations

from collections import deque

__all__ = ["LineSplitter", "DEFAULT_MAX_LINE_BYTES"]

DEFAULT_MAX_LINE_BYTES = 1 << 20


class LineSplitter:
    """Incremental ``\\n`` / ``\\r`` / ``\\r\\n`` line splitter with a per-line byte cap."""

    __slots__ = ("_max", "_current", "_lines", "_after_cr")

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be positive")
        self._max = max_line_bytes
        self._current = bytearray()
        self._lines: deque[str] = deque()
        self._after_cr = False

    def feed(self, data: bytes) -> None:
        """Add output bytes; complete lines become available to :meth:`pop`."""
        whole = data[-1:] == b"\n" and not self._current and not self._after_cr and len(data) <= self._max
        if whole and b"\r" not in data:  # the usual answer: whole lines ending with \n, none too long
            if data.count(b"\n") == 1:
                self._lines.append(data[:-1].decode("utf-8", errors="replace"))
            else:
                self._lines.extend(line.decode("utf-8", errors="replace") for line in data[:-1].split(b"\n"))
            return
        start = 0
        n = len(data)
        if self._after_cr and n and data[0] == 0x0A:
            start = 1  # the \n of a \r\n pair
        self._after_cr = False
        while start < n:
            nl = data.find(b"\n", start)
            cr = data.find(b"\r", start)
            if nl < 0 and cr < 0:
                self._append(data[start:])
                return
            end = nl if cr < 0 or (0 <= nl < cr) else cr
            self._append(data[start:end])
            self._finish_line()
            if data[end] == 0x0D:
                if end + 1 < n:
                    start = end + 2 if data[end + 1] == 0x0A else end + 1
                else:
                    self._after_cr = True
                    return
            else:
                start = end + 1

    def feed_eof(self) -> None:
        """The stream ended: an unterminated last line is still a line (as readLine returns it)."""
        if self._current:
            self._finish_line()

    def pop(self) -> str | None:
        """The next complete line (without its terminator), or ``None`` if none is buffered."""
        return self._lines.popleft() if self._lines else None

    @property
    def pending(self) -> int:
        """Number of complete lines buffered."""
        return len(self._lines)

    def _append(self, chunk: bytes) -> None:
        room = self._max - len(self._current)
        if room > 0:
            self._current += chunk[:room]

    def _finish_line(self) -> None:
        self._lines.append(self._current.decode("utf-8", errors="replace"))
        self._current = bytearray()
