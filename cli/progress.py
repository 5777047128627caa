"""Progress of a long run: a tqdm bar on a terminal, a plain line every so often elsewhere.

On a terminal :class:`Progress` draws the usual bar. When the output is not a terminal (CI logs,
``nohup``, a pipe) a bar is unreadable, so it writes a line instead, at most every
``every_seconds`` seconds or every ``every_games`` games, and always once the run is complete::

    progress: 120/400 games (30%), greedy vs wait 50-10-60 (W-D-L), score 45.8%, Elo -29 ±60, \
SPRT continue (LLR -0.41 [-2.94, 2.94]), 2.1 games/s, ETA 2m13s

The comparison part describes the ``leader`` passed to :meth:`Progress.update` (the runner's
:class:`arena.tournament.runner.GameDone` ``.leader``, an :class:`arena.stats.ComparisonStats`);
its SPRT part appears only when the leader carries an SPRT result (``leader.sprt``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from arena.stats.counts import SprtModel
from arena.stats.headtohead import ComparisonStats

from .common import plural
from .report import NA, elo_cells

if TYPE_CHECKING:
    from typing import NoReturn

    from tqdm import tqdm

__all__ = ["Progress", "describe_leader", "format_duration", "progress_line"]

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


def _rate_text(rate: float) -> str:
    return f"{rate:.1f}" if rate >= 1.0 else f"{rate:.2g}"


def progress_line(done: int, total: int, leader: ComparisonStats | None, *, played: int, elapsed: float) -> str:
    """One log line. ``played`` games of ``done`` were played by this run in ``elapsed``
    seconds (the rest were stored by an earlier run): the rate and the ETA come from them. When
    ``done >= total`` the ETA is replaced by the time this run took."""
    head = f"progress: {done}/{total} games"
    if total > 0:
        head += f" ({100 * done // total}%)"
    parts = [head]
    if leader is not None:
        parts.append(describe_leader(leader))
    rate = played / elapsed if played > 0 and elapsed > 0 else None
    if rate is not None:
        parts.append(f"{_rate_text(rate)} games/s")
    if done >= total:
        parts.append(f"took {format_duration(elapsed)}")
    elif rate is None:
        parts.append("ETA ?")
    else:
        parts.append(f"ETA {format_duration((total - done) / rate)}")
    return ", ".join(parts)


# --------------------------------------------------------------------------- the progress display


class Progress:
    """A run's progress on ``stream``: a tqdm bar (``interactive``) or log lines.

    Make one with :meth:`create`, feed it with :meth:`update`, print messages with :meth:`write`
    and finish with :meth:`close`.

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
        total: int,
        initial: int,
        *,
        interactive: bool,
        every_seconds: float = 10.0,
        every_games: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if every_seconds < 0 or math.isnan(every_seconds):
            raise ValueError(f"every_seconds must be >= 0, not {every_seconds!r}")
        if every_games is not None and every_games < 1:
            raise ValueError(f"every_games must be >= 1, not {every_games!r}")
        self.stream = stream
        self.interactive = interactive
        self.every_seconds = every_seconds
        self.every_games = every_games if every_games is not None else max(1, (total - initial) // GAMES_LINES)
        self.clock = clock
        self.initial = initial
        self.total = total
        self.done = initial
        self.leader: ComparisonStats | None = None
        self.start = clock()
        self.last_time = self.start
        self.last_done = initial
        self.pending = False
        """An update whose line was not written yet."""
        self.finished = False
        """The final line (done >= total) was written."""
        self.closed = False
        self.bar: tqdm[NoReturn] | None = None
        if interactive:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="game", dynamic_ncols=True, file=stream)

    @classmethod
    def create(
        cls,
        stream: TextIO,
        total: int,
        initial: int,
        *,
        interactive: bool | None = None,
        every_seconds: float = 10.0,
        every_games: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Progress:
        """The progress of a run that has ``initial`` of ``total`` games done already.
        ``interactive=None`` draws a bar when ``stream`` is a terminal, log lines otherwise."""
        if interactive is None:
            interactive = _isatty(stream)
        return cls(
            stream,
            total,
            initial,
            interactive=interactive,
            every_seconds=every_seconds,
            every_games=every_games,
            clock=clock,
        )

    def update(self, done: int, total: int, leader: ComparisonStats | None = None) -> None:
        """``done`` of ``total`` games are done (``total`` may shrink as SPRT decisions come);
        ``leader`` is the comparison to show (``None``: none)."""
        if self.closed:
            return
        self.done, self.total, self.leader = done, total, leader
        if self.bar is not None:
            self.bar.total = total
            self.bar.update(done - self.bar.n)
            if leader is not None and leader.score is not None:
                self.bar.set_postfix_str(describe_leader(leader, counts=False), refresh=False)
            return
        self.pending = True
        now = self.clock()
        final = done >= total
        if final and self.finished:
            self.pending = False
            return
        if final or now - self.last_time >= self.every_seconds or done - self.last_done >= self.every_games:
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

    def line(self, now: float | None = None) -> str:
        """The log line for the current state."""
        now = self.clock() if now is None else now
        return progress_line(
            self.done, self.total, self.leader, played=self.done - self.initial, elapsed=now - self.start
        )

    def _line(self, now: float) -> None:
        print(self.line(now), file=self.stream, flush=True)
        self.last_time = now
        self.last_done = self.done
        self.pending = False
        self.finished = self.done >= self.total


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
