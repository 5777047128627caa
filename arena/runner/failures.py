"""Bots that fail: the first failure of each bot is reported, and a bot failing too often early on
stops the tournament, since its results would measure the failure rather than its play.

A failure is a crash, a timeout or an invalid line (a disqualification by the bot's own fault); an
elimination by the rules, a refused action and a timeout in an overloaded window (the machine's
fault as much as the bot's, see :mod:`arena.match.protocol.schedlag`) are not. :class:`FailureWatch` counts each bot's
games in arrival order; the check covers its first ``window`` games (stored ones included on
resume) and stops as soon as the failures exceed ``max_share`` of the window, which no later
game could undo.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..match.result import Verdict
from ..store.records import GameRecord, PlayerRecord

__all__ = ["FAILURES", "Failure", "FailureWatch", "is_failure"]

FAILURES = frozenset({Verdict.CRASH.value, Verdict.TIMEOUT.value, Verdict.INVALID.value, Verdict.MEMORY.value})


def is_failure(player: PlayerRecord) -> bool:
    """Whether the bot failed in this game by its own fault (a timeout in an overloaded window
    did not)."""
    return player.status in FAILURES and not (player.overloaded and player.status == Verdict.TIMEOUT.value)


@dataclass(frozen=True)
class Failure:
    """A bot's failure in one game."""

    record: GameRecord
    player: PlayerRecord
    first: bool
    """The bot's first failure in this tournament (of this kind: overloaded or not)."""
    overloaded: bool = False
    """Not a failure of the bot's: a timeout in an overloaded window, reported (its first of each
    bot) but never counted toward the stop."""


class FailureWatch:
    """Per bot: games and failures among its first ``window`` games; ``max_share`` of 1 never
    stops."""

    def __init__(self, max_share: float, window: int, stored: Iterable[GameRecord] = ()) -> None:
        self.max_share = max_share
        self.window = window
        self.games: dict[str, int] = {}
        self.early_failures: dict[str, int] = {}
        self.failed: set[str] = set()
        self.overloaded: set[str] = set()
        """Bots that timed out in an overloaded window."""
        self.stop_reason: str | None = None
        for record in stored:
            self.add(record)
        self.stop_reason = None  # stored games are counted; only a new game can stop the run

    def add(self, record: GameRecord) -> list[Failure]:
        """Count one game; its failures (``first`` for a bot's first), and its timeouts in an
        overloaded window (``overloaded``, never counted). Sets :attr:`stop_reason` when a bot
        has failed in more than ``max_share`` of its first games."""
        out = []
        for p in record.players:
            n = self.games[p.bot] = self.games.get(p.bot, 0) + 1
            if p.overloaded and p.status == Verdict.TIMEOUT.value:
                out.append(Failure(record, p, first=p.bot not in self.overloaded, overloaded=True))
                self.overloaded.add(p.bot)
            if not is_failure(p):
                continue
            out.append(Failure(record, p, first=p.bot not in self.failed))
            self.failed.add(p.bot)
            if n <= self.window:
                k = self.early_failures[p.bot] = self.early_failures.get(p.bot, 0) + 1
                if k > self.max_share * self.window and self.max_share < 1:
                    self.stop_reason = (
                        f"bot {p.bot!r} failed in {k} of its first {n} games (more than "
                        f"{self.max_share:.0%} of its first {self.window}); last: {p.status}"
                        + (f" ({p.message})" if p.message else "")
                    )
        return out
