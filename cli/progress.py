"""What a long run (a tournament, a ladder) shows while it plays: :class:`RunView` turns the one
runner's events (:mod:`arena.runner.runner`) into a start line, warnings, a bot's first failure,
and the progress: a tqdm bar on a terminal, a plain line every so often elsewhere (:class:`Progress`).

When the output is not a terminal (CI logs, ``nohup``, a pipe) a bar is unreadable, so
:class:`Progress` writes lines instead, every so often and once the run is complete::

    progress: 120/400 games (30%), greedy vs wait 50-10-60 (W-D-L), score 45.8%, Elo -29 ±60, \
SPRT continue (LLR -0.41 [-2.94, 2.94]), 2.1 games/s, ETA 2m13s

The middle part describes where the run stands (:attr:`arena.runner.runner.GameDone.standing`):
for a tournament the two-bot comparison with the most games (its SPRT part only when it runs
one), for a ladder the first bots of the ranking and the least certain pair.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

import click

from arena.stats.counts import SprtModel
from arena.stats.headtohead import ComparisonStats

from .common import NA, plural, shown
from .report import elo_cells

if TYPE_CHECKING:  # the runner and the ladder load on first use
    from typing import NoReturn

    from tqdm import tqdm

    from arena.ladder.scheduler import LadderStanding
    from arena.runner.runner import Started
    from arena.store.records import GameRecord

__all__ = ["Progress", "RunView", "describe", "describe_leader", "describe_ranking", "format_duration", "progress_line"]

TOP = 5
"""Bots of a ladder's ranking shown in its progress."""

GAMES_LINES: int = 20
"""Without ``every_games``, a log line is due every 1/20 of the games this run has to play."""


# --------------------------------------------------------------------------- formatting


def _elo_text(st: ComparisonStats) -> str:
    """``Elo +89 ±120``, as the report's cells (:func:`cli.report.elo_cells`) rounded to the
    point: ``Elo > +46`` for a score of 100%; ``over 2 pairs`` when the Elo counts fewer games
    than the score (the complete pairs); empty without an Elo."""
    value, half = elo_cells(st, "+.0f", ".0f")
    if value == NA:
        return ""
    text = f"Elo {value}" + (f" {half}" if half != NA else "")
    if st.model == SprtModel.PENTANOMIAL and st.singles:
        text += f" over {plural(st.pairs, 'pair')}"
    return text


def describe_leader(st: ComparisonStats, *, counts: bool = True) -> str:
    """``greedy vs wait 50-10-60 (W-D-L), score 45.8%, Elo -29 ±60, SPRT continue (LLR -0.41
    [-2.94, 2.94])``; without ``counts`` the compact bar text ``greedy vs wait: 45.8% Elo -29 ±60``.
    Scores and Elo are from ``st.bots[0]``'s side."""
    a, b = st.bots
    if not counts:
        parts = [f"{a} vs {b}:"]
        if st.score is not None:
            parts.append(f"{100 * st.score:.1f}%")
            parts.append(_elo_text(st))
        return " ".join(p for p in parts if p)
    parts = [f"{a} vs {b} {st.wins}-{st.draws}-{st.losses} (W-D-L)"]
    if st.score is not None:
        parts.append(f"score {100 * st.score:.1f}%")
        parts.append(_elo_text(st))
    if st.sprt is not None:
        s = st.sprt
        parts.append(f"SPRT {s.state.describe()} (LLR {s.llr:.2f} [{s.lower_bound:.2f}, {s.upper_bound:.2f}])")
    return ", ".join(p for p in parts if p)


def describe_ranking(standing: LadderStanding) -> str:
    """``top: a +152 ±51, b +40 ±48; least certain: b above c, P 0.71``: a ladder's first bots
    (their rating and the half-width of its interval) and its least certain pair."""
    bots = standing.ranking.bots[:TOP]
    top = ", ".join(f"{b.name} {b.rating:+.0f} ±{(b.high - b.low) / 2:.0f}" for b in bots)
    text = f"top: {top}" if top else "no bot ranked yet"
    least = standing.least_certain
    if least is not None:
        text += f"; least certain: {least[0]} above {least[1]}, P {least[2]:.2f}"
    return text


def describe(standing: object, *, short: bool = False) -> str:
    """Where a run stands, in words (empty when there is nothing to say): a tournament's leading
    comparison (:func:`describe_leader`; ``short``: the bar's compact form), a ladder's ranking
    (:func:`describe_ranking`)."""
    if isinstance(standing, ComparisonStats):
        return describe_leader(standing, counts=not short) if not short or standing.score is not None else ""
    if standing is None:
        return ""
    from arena.ladder.scheduler import LadderStanding

    return describe_ranking(standing) if isinstance(standing, LadderStanding) else ""


def format_duration(seconds: float) -> str:
    """``45s``, ``2m13s``, ``1h02m``, ``3d04h`` (rounded to the second); ``?`` if not finite."""
    if not math.isfinite(seconds):
        return "?"
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 86400}d{s % 86400 // 3600:02d}h"


def progress_line(done: int, total: int | None, standing: object, *, played: int, elapsed: float) -> str:
    """One log line. ``played`` games of ``done`` were played by this run in ``elapsed``
    seconds (the rest were stored by an earlier run): the rate and the ETA come from them. When
    ``done >= total`` the ETA is replaced by the time this run took; an open-ended run
    (``total`` ``None``) has no ETA."""
    head = f"progress: {done}/{total} games" if total is not None else f"progress: {done} games"
    if total:
        head += f" ({100 * done // total}%)"
    parts = [head, describe(standing)]
    rate = played / elapsed if played > 0 and elapsed > 0 else None
    if rate is not None:
        parts.append(f"{rate:.1f} games/s" if rate >= 1.0 else f"{rate:.2g} games/s")
    if total is not None and done >= total:
        parts.append(f"took {format_duration(elapsed)}")
    elif total is not None:
        parts.append("ETA ?" if rate is None else f"ETA {format_duration((total - done) / rate)}")
    return ", ".join(p for p in parts if p)


# --------------------------------------------------------------------------- the progress display


class Progress:
    """A run's progress on ``stream``: a tqdm bar (``interactive``) or log lines.

    It has ``initial`` of ``total`` games done already (``interactive=None``: a bar when
    ``stream`` is a terminal). Feed it with :meth:`update`, print messages with :meth:`write` and
    finish with :meth:`close`.

    Log mode: :meth:`update` writes a line when at least ``every_seconds`` seconds have passed
    since the last line (or since the start), or when at least ``every_games`` games were done
    since then, and always when ``done >= total``. Nothing is written between updates, so there is
    at most one line per game. ``every_games`` defaults to 1/20 of the games this run has to play
    (``max(1, (total - initial) // 20)``): about twenty lines in a fast run, one line every
    ``every_seconds`` in a slow one. :meth:`close` writes the last state if it was not written yet
    (an interrupted run's log then ends with where it stopped).
    """

    def __init__(
        self,
        stream: TextIO,
        total: int | None,
        initial: int,
        *,
        interactive: bool | None = None,
        every_seconds: float = 10.0,
        every_games: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if every_seconds < 0 or math.isnan(every_seconds):
            raise ValueError(f"every_seconds must be >= 0, not {every_seconds!r}")
        if every_games is not None and every_games < 1:
            raise ValueError(f"every_games must be >= 1, not {every_games!r}")
        self.stream = stream
        self.interactive = _isatty(stream) if interactive is None else interactive
        self.every_seconds = every_seconds
        if every_games is None and total is not None:  # an open-ended run: a line every so often only
            every_games = max(1, (total - initial) // GAMES_LINES)
        self.every_games = every_games
        self.clock = clock
        self.initial = initial
        self.total = total
        self.done = initial
        self.standing: object = None
        self.start = clock()
        self.last_time = self.start
        self.last_done = initial
        self.pending = False
        """An update whose line was not written yet."""
        self.finished = False
        """The final line (done >= total) was written."""
        self.closed = False
        self.bar: tqdm[NoReturn] | None = None
        if self.interactive:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="game", dynamic_ncols=True, file=stream)

    def update(self, done: int, total: int | None, standing: object = None) -> None:
        """``done`` of ``total`` games are done (``total`` may shrink as SPRT decisions come;
        ``None``: open-ended); ``standing`` is where the run stands (:func:`describe`)."""
        if self.closed:
            return
        self.done, self.total, self.standing = done, total, standing
        if self.bar is not None:
            self.bar.total = total
            self.bar.update(done - self.bar.n)
            text = describe(standing, short=True)
            if text:
                self.bar.set_postfix_str(text, refresh=False)
            return
        self.pending = True
        now = self.clock()
        final = total is not None and done >= total
        if final and self.finished:
            self.pending = False
            return
        counted = self.every_games is not None and done - self.last_done >= self.every_games
        if final or counted or now - self.last_time >= self.every_seconds:
            self._line(now)

    def write(self, text: str, file: TextIO | None = None) -> None:
        """A message line on ``file`` (default: the progress stream) that does not break the bar."""
        target = self.stream if file is None else file
        if self.bar is not None:
            from tqdm import tqdm

            tqdm.write(text, file=target)
        else:
            print(text, file=target, flush=True)

    def close(self) -> None:
        """Remove the bar from the screen's bookkeeping, or write the last unwritten state."""
        if self.closed:
            return
        self.closed = True
        if self.bar is not None:
            self.bar.close()
        elif self.pending:
            self._line(self.clock())

    def _line(self, now: float) -> None:
        played, elapsed = self.done - self.initial, now - self.start
        line = progress_line(self.done, self.total, self.standing, played=played, elapsed=elapsed)
        print(line, file=self.stream, flush=True)
        self.last_time = now
        self.last_done = self.done
        self.pending = False
        self.finished = self.total is not None and self.done >= self.total


# --------------------------------------------------------------------------- a run's view


class RunView:
    """What a run shows while it plays (feed it the runner's events with :meth:`on_event`, then
    :meth:`close`): its warnings and notes (``notes(event)``, default the event's), its start line
    (``header(event)``, on standard output, or standard error with ``header_err``: the messages
    then go there too), the progress on standard error (none when ``quiet``) and a bot's first
    failure with ``hint(record)``, where to look at that game. ``stream`` sends it all to one
    stream (tests)."""

    def __init__(
        self,
        header: Callable[[Started], str],
        hint: Callable[[GameRecord], str],
        *,
        notes: Callable[[Started], Sequence[str]] | None = None,
        quiet: bool = False,
        header_err: bool = False,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.header, self.hint, self.quiet, self.header_err = header, hint, quiet, header_err
        self.notes = notes or (lambda event: event.notes)
        self.stream = stream
        self.clock = clock
        self.progress: Progress | None = None

    def say(self, text: str, err: bool = False) -> None:
        """A message line that does not break the progress bar."""
        stream = self.stream or (sys.stderr if err or self.header_err else sys.stdout)
        if self.progress is not None:
            self.progress.write(text, file=stream)
        else:
            click.echo(text, file=stream)

    def on_event(self, event: object) -> None:
        from arena.runner.runner import BotFailed, GameDone, Started

        if isinstance(event, Started):
            self.started(event)
        elif isinstance(event, GameDone):
            if self.progress is not None:
                self.progress.update(event.done, event.total, event.standing)
        elif isinstance(event, BotFailed) and event.failure.first:
            record, player = event.failure.record, event.failure.player
            what = f"failed for the first time: {player.status}" + (
                f" ({shown(player.message)})" if player.message else ""
            )
            if event.failure.overloaded:  # the message names the lag and the load, and what to do
                what = f"timed out for the first time, not counted as a failure: {shown(player.message)}"
            self.say(f"warning: bot {player.bot!r} {what}; {self.hint(record)}", err=True)

    def started(self, event: Started) -> None:
        err = self.stream or sys.stderr
        for w in event.warnings:
            click.echo(f"warning: {w}", file=err)
        for note in self.notes(event):
            click.echo(f"note: {note}", file=err)
        click.echo(self.header(event), file=self.stream or (sys.stderr if self.header_err else sys.stdout))
        if not self.quiet:
            self.progress = Progress(self.stream or sys.stderr, event.total, event.done, clock=self.clock)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.close()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
