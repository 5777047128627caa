"""What the ``arena`` commands share: option types and callbacks, the words they print with, how
text from a bot is shown, and how a command stops on Ctrl-C."""

from __future__ import annotations

import contextlib
import datetime
import signal
from collections.abc import Callable, Iterator
from types import FrameType

import click

from arena.match.seeds import SeedError, parse_seed


def bundler(executor: str) -> Callable[[str], str] | None:
    """What sends Python bots to Dask workers as one file, for the ``dask`` executor (the arena
    below cannot import the bundler: this layer hands it over)."""
    if executor != "dask":
        return None
    from bundler.ship import bundle_source

    return bundle_source


def java_long(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_seed(value)
    except SeedError as exc:
        raise click.BadParameter(str(exc)) from None


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))} | {
    ord("\t"): "\\t",
    ord("\n"): "\\n",
    ord("\r"): "\\r",
}
"""Every control character (C0, DEL, C1) and how it is shown: its Python escape."""
_CONTROLS_IN_LINES = {c: text for c, text in _CONTROLS.items() if c not in (ord("\t"), ord("\n"))}


def shown(text: str, lines: bool = False) -> str:
    """``text`` as it may be printed when a bot wrote it, or any part of it (its answer, its
    stderr, a verdict or a failure quoting them): every control character written as its Python
    escape (``\\x1b``, ``\\r``), so that no escape sequence of the bot reaches the terminal (a
    clipboard write with OSC 52, a cleared screen, a line rewritten). With ``lines``, newlines
    and tabs are kept: a text printed line by line (split it after)."""
    return text.translate(_CONTROLS_IN_LINES if lines else _CONTROLS)


NA = "n/a"
"""What a figure that is not defined shows."""


def fmt(x: float | None, spec: str, none: str = NA) -> str:
    """``x`` formatted, ``none`` when it is ``None``; never a negative zero (``-0.0``, or
    ``-0.04`` shown with one decimal, is ``0.0``)."""
    if x is None:
        return none
    text = format(x, spec)
    if text.startswith("-") and float(text) == 0.0:
        text = format(0.0, spec)
    return text


def bundle_says(message: str) -> None:
    """What ``bundle`` (and its ``--cg-local`` link) says of each step, on stderr: ``bundle: MESSAGE``."""
    click.echo(f"bundle: {message}", err=True)


def minute(timestamp: float) -> str:
    """A stored time as the tables show it: local, to the minute (``2026-11-23 14:05``)."""
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def iso_utc(timestamp: float) -> str:
    """A stored time as the JSON outputs give it: ISO 8601 in UTC, to the second."""
    return datetime.datetime.fromtimestamp(timestamp, tz=datetime.UTC).isoformat(timespec="seconds")


def plural(n: int, word: str) -> str:
    """``1 worker``, ``2 workers``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


@contextlib.contextmanager
def stop_on_signals(*signals: signal.Signals) -> Iterator[None]:
    """The first of ``signals`` (Ctrl-C, SIGTERM...) stops the command: ``KeyboardInterrupt`` is
    raised where it runs, and its clean-up (bots killed, the tournament marked interrupted) is
    shielded from further signals (see :mod:`arena.match.process.shield`).

    From the first of them on, Ctrl-C is ignored to the end of the process: the partial result is
    still printed and the exit status is 130 however often Ctrl-C is pressed, even as Python exits
    (which puts its own handlers back to the default, death by SIGINT). The other signals get
    their handlers back when the command ends, so a stuck exit can still be ended from outside."""
    stopped = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopped
        if stopped:  # already stopping
            return
        stopped = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if not (stopped and sig == signal.SIGINT):
                signal.signal(sig, handler)
