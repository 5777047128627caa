"""One tournament game as plain data: what to play (:class:`GameTask`) and how it went
(:class:`arena.store.results.GameRecord`), with :func:`play_task` between them.

A task is frozen and picklable (scheduled game, game name, both bots' specs, match options,
referee version), so any executor can ship it to another process or machine; :func:`play_task` is
the one function an executor runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..match.launch.botspec import BotSpec
from ..match.loop import MatchOptions, play_match
from ..match.replay import replay_document, replay_text
from ..match.result import MatchResult, PlayerResult, Verdict
from ..match.settings import PlaySettings
from ..store.records import GameRecord, PlayerRecord
from .failures import FAILURES

__all__ = ["ScheduledGame", "GameTask", "ReplayPolicy", "play_task", "record_of", "STDERR_KEEP"]


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: its place (comparison, pair, leg), its seed and who sits where."""

    comparison: int
    pair: int
    leg: int
    """The seat of the comparison's first bot (two players: 0, or 1 with the seats swapped)."""
    seed: int
    seats: tuple[str, ...]

    @property
    def key(self) -> tuple[int, int, int]:
        """(comparison, pair, leg): the game's place, as its record's :attr:`GameRecord.key`."""
        return (self.comparison, self.pair, self.leg)


@dataclass(frozen=True)
class ReplayPolicy:
    """Which games of a tournament keep a replay file, and where it goes."""

    folder: str
    keep: str = "failures"
    """``all``, ``failures`` (a bot crashed, timed out or printed an invalid line), ``losses`` (the
    comparison's candidate did not finish first) or a number N (the first N games of each
    comparison)."""
    candidate: int = 0
    """Whose losses ``losses`` keeps: the comparison's bot of this index (0, its first: a
    tournament's candidate against the baseline; -1, its last: a ladder's newest bot)."""

    def wants(self, game: ScheduledGame, record: GameRecord, players: int) -> bool:
        if self.keep == "all":
            return True
        if self.keep == "failures":
            return any(p.status in FAILURES for p in record.players)
        if self.keep == "losses":  # bot k of the comparison sits at seat (leg + k) mod the seats
            return record.players[(game.leg + self.candidate) % players].rank > 0
        return game.pair * players + game.leg < int(self.keep)

    @classmethod
    def of(cls, settings: PlaySettings, candidate: int = 0) -> ReplayPolicy | None:
        """The replays ``settings`` keep (``None``: none)."""
        return None if settings.replays is None else cls(settings.replays, settings.keep, candidate)

    def path(self, game_id: int, seed: int) -> Path:
        """The replay file of the stored game ``game_id``, played on ``seed``."""
        return Path(self.folder) / f"game{game_id}-seed{seed}.json"


STDERR_KEEP = 4096
"""Characters of stderr kept per failed bot per game."""
STDERR_KEEP_PLAYED = 1024
"""Characters of stderr kept per game of a bot that played it to the end (``arena matches show``
shows every bot's tail)."""


@dataclass(frozen=True)
class GameTask:
    """Everything needed to play one scheduled game, anywhere."""

    game: ScheduledGame
    game_name: str
    specs: tuple[BotSpec, ...]
    """The bots in seat order."""
    options: MatchOptions
    referee_version: str
    replays: ReplayPolicy | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        """(comparison, pair, leg): the game's place in the tournament."""
        return self.game.key


def play_task(task: GameTask, should_stop: Callable[[], bool] | None = None) -> GameRecord | None:
    """Play the task's game; ``None`` when it was interrupted (Ctrl-C, a stop signal, or
    ``should_stop()`` true: it is asked after every turn). With a replay policy that wants this
    game, the record carries its replay's text (:attr:`GameRecord.replay_text`): the tournament
    writes it when it stores the game, wherever the game was played."""
    options = task.options if task.replays is None else dataclasses.replace(task.options, record=True)
    result = play_match(task.game_name, task.game.seed, list(task.specs), options, should_stop=should_stop)
    if result.interrupted:
        return None
    record = record_of(task, result)
    if task.replays is not None and task.replays.wants(task.game, record, len(task.specs)):
        text = replay_text(replay_document(result, task.options.params))
        record = dataclasses.replace(record, replay_text=text)
    return record


def record_of(task: GameTask, result: MatchResult) -> GameRecord:
    """The stored form of a finished match."""
    outcome = result.outcome
    assert outcome is not None
    players = tuple(
        PlayerRecord(
            seat=p.index,
            bot=task.game.seats[p.index],
            score=int(outcome.scores[p.index]),
            rank=outcome.ranks[p.index],
            status=p.verdict.value,
            message=p.message,
            latencies_ms=p.latencies_ms,
            near_limit=p.near_limit,
            limit_use=p.limit_use,
            overloaded=p.overloaded,
            stderr=_kept_stderr(p),
            refused=p.refused,
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
        sandboxed=result.sandboxed,
        meta=dict(result.metadata),
    )


def _kept_stderr(player: PlayerResult) -> str:
    failed = player.verdict not in (Verdict.OK, Verdict.ELIMINATED)  # eliminated: the rules, not a fault
    return player.stderr_tail[-(STDERR_KEEP if failed else STDERR_KEEP_PLAYED) :]
