"""Bots that write terminal escape sequences (``faulty.py``'s ``esc*`` modes: an OSC 52 clipboard
write, a screen clear, a C1 CSI) and how to tell that none reached the user's terminal."""

from __future__ import annotations

import shlex
import sys

from .paths import FAULTY

EVIL = "\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x9b31mred<i>it</i>"
"""The sequence ``faulty.py`` writes (its ``EVIL``: the bot runs alone, it cannot import this)."""
SHOWN = r"\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x9b31mred<i>it</i>"
"""The bots' sequence as it must be shown: every control character escaped."""
RAW = (b"\x1b", b"\x07", "\x9b".encode())
"""Bytes that must never be printed: ESC, BEL (ends an OSC), the C1 CSI (UTF-8)."""


def escaping_bot(mode: str, at: int = 3) -> str:
    """The BOT argument of ``faulty.py`` in one of its ``esc*`` modes, at its ``at``-th answer."""
    return f"{shlex.join([sys.executable, str(FAULTY)])} {mode} {at}"


def assert_shown_escaped(printed: bytes, times: int = 1) -> str:
    """``printed`` (what a command wrote, stdout and stderr) holds no raw control byte of the
    bots' and at least ``times`` copies of the sequence escaped; returns it as text."""
    for raw in RAW:
        assert raw not in printed, f"{raw!r} printed: {printed!r}"
    text = printed.decode()
    assert text.count(SHOWN) >= times, text
    return text
