"""One tournament game as plain data: what to play (:class:`GameTask`) and how it went
(:class:`arena.tournament.store.GameRecord`), with :func:`play_task` between them.

A task is frozen and picklable (scheduled game, game name, both bots' specs, match options,
referee version), so any executor can ship it to another process or machine; :func:`play_task` is
the one function an executor runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..match.botspec import BotSpec
from ..match.loop import MatchOptions, MatchResult, PlayerResult, Verdict, play_match
from .schedule import ScheduledGame
from .store import GameRecord, PlayerRecord

__all__ = ["GameTask", "play_task", "record_of", "STDERR_KEEP"]

STDERR_KEEP = 4096
"""Bytes of stderr kept per failed bot per game."""


@dataclass(frozen=True)
class GameTask:
    """Everything needed to play one scheduled game, anywhere."""

    game: ScheduledGame
    game_name: str
    specs: tuple[BotSpec, ...]
    """The bots in seat order."""
    options: MatchOptions
    referee_version: str

    @property
    def key(self) -> tuple[int, int, int]:
        """(comparison, pair, leg): the game's place in the tournament."""
        return (self.game.comparison, self.game.pair, self.game.leg)


def play_task(task: GameTask) -> GameRecord | None:
    """Play the task's game; ``None`` when it was interrupted (Ctrl-C, a stop signal)."""
    result = play_match(task.game_name, task.game.seed, list(task.specs), task.options)
    return None if result.interrupted else record_of(task, result)


def record_of(task: GameTask, result: MatchResult) -> GameRecord:
    """The stored form of a finished match."""
    outcome = result.outcome
    assert outcome is not None
    players = tuple(
        PlayerRecord(
            seat=p.index, bot=task.game.seats[p.index], score=int(outcome.scores[p.index]),
            rank=outcome.ranks[p.index], status=p.verdict.value, message=p.message,
            latencies_ms=p.latencies_ms, near_limit=p.near_limit, stderr=_kept_stderr(p), refused=p.refused,
        )
        for p in result.players
    )
    return GameRecord(
        comparison=task.game.comparison,
        pair=task.game.pair,
        leg=task.game.leg,
        seed=task.game.seed,
        players=players,
        winner=outcome.winner,
        end_reason=outcome.end_reason.value,
        turns=outcome.turns,
        duration_s=round(result.wall_s, 4),
        referee_version=task.referee_version,
    )


def _kept_stderr(player: PlayerResult) -> str:
    failed = player.verdict not in (Verdict.OK, Verdict.ELIMINATED)  # eliminated: the rules, not a fault
    return player.stderr_tail[-STDERR_KEEP:] if failed else ""
