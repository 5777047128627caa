"""What ``arena ladder run`` shows while it plays: a tqdm bar on a terminal (its total: ``--games``,
or open-ended), a plain line every so often elsewhere (logs, ``nohup``, pipes)::

    ladder 1: 120 games stored (+40 this run), 1.9 games/s; top: beam +152 ±51, mcts +40 ±48, \
greedy -60 ±50; least certain: mcts above greedy, P 0.71

and the warnings and first failures of bots on their own lines."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import click

from .common import shown

if TYPE_CHECKING:
    from arena.standings.ranking import Ranking

__all__ = ["LadderProgress", "status_line", "TOP"]

TOP = 5
"""Bots shown in the progress line."""
EVERY_S = 10.0
"""Off a terminal: at most one line this often (and one at the end)."""


def _rating(value: float, low: float, high: float) -> str:
    half = (high - low) / 2
    return f"{value:+.0f} ±{half:.0f}"


def status_line(ranking: Ranking, least: tuple[str, str, float] | None) -> str:
    """``top: a +152 ±51, b +40 ±48; least certain: b above c, P 0.71``."""
    top = ", ".join(f"{b.name} {_rating(b.rating, b.low, b.high)}" for b in ranking.bots[:TOP])
    text = f"top: {top}" if top else "no bot ranked yet"
    if least is not None:
        text += f"; least certain: {least[0]} above {least[1]}, P {least[2]:.2f}"
    return text


class LadderProgress:
    """Feeds on the run's events (see :mod:`arena.ladder.runner`)."""

    def __init__(self, quiet: bool, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.clock = clock
        self.bar: Any = None
        self.ladder_id = 0
        self.last = self.start = clock()
        self.pending: str | None = None
        self.played = 0

    def say(self, text: str) -> None:
        if self.bar is not None:
            from tqdm import tqdm

            tqdm.write(text, file=self.stream)
        else:
            click.echo(text, file=self.stream)

    def on_event(self, event: object) -> None:
        from arena.ladder.runner import LadderGameDone, LadderStarted
        from arena.tournament.runner import BotFailed

        if isinstance(event, LadderStarted):
            self.started(event)
        elif isinstance(event, LadderGameDone):
            self.game(event)
        elif isinstance(event, BotFailed) and event.failure.first:
            record, player = event.failure.record, event.failure.player
            what = f"failed for the first time: {player.status}" + (
                f" ({shown(player.message)})" if player.message else ""
            )
            if event.failure.overloaded:  # the machine's: the message names the lag and the load
                what = f"timed out for the first time, not counted as a failure: {shown(player.message)}"
            self.say(
                f"warning: bot {player.bot!r} {what}; game {record.id}, seed {record.seed} "
                f"(details: arena matches show {record.id})"
            )

    def started(self, event: Any) -> None:
        self.ladder_id = event.ladder_id
        for w in event.warnings:
            click.echo(f"warning: {w}", err=True)
        what = "until stopped (Ctrl-C)" if event.target is None else f"{event.target} games"
        unfinished = (
            f", with the {event.unfinished} games left of pairs already picked (after any new bot's placement)"
            if event.unfinished
            else ""
        )
        click.echo(
            f"ladder {event.ladder_id}: {event.stored} games stored, {len(event.bots)} active bots "
            f"({', '.join(event.bots)}); playing {what}{unfinished}",
            err=True,
        )
        if self.quiet:
            return
        if _isatty(self.stream):
            from tqdm import tqdm

            self.bar = tqdm(total=event.target, unit="game", dynamic_ncols=True, file=self.stream)

    def game(self, event: Any) -> None:
        self.played = event.played
        if self.quiet:
            return
        status = status_line(event.ranking, event.least_certain)
        if self.bar is not None:
            self.bar.update(event.played - self.bar.n)
            self.bar.set_postfix_str(status, refresh=False)
            return
        now = self.clock()
        rate = event.played / (now - self.start) if now > self.start else 0.0
        line = (
            f"ladder {self.ladder_id}: {event.stored} games stored (+{event.played} this run), "
            f"{rate:.2g} games/s; {status}"
        )
        done = event.target is not None and event.played >= event.target
        if done or now - self.last >= EVERY_S:
            click.echo(line, file=self.stream)
            self.last, self.pending = now, None
        else:
            self.pending = line

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.pending is not None:
            click.echo(self.pending, file=self.stream)
            self.pending = None


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
