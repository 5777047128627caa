"""What a tournament stores, as plain typed records: a tournament, its bots and comparisons, the
process playing it, and each finished game with one record per player.

These records sit below everything that makes, moves or stores them: the task that plays a game
returns a :class:`GameRecord`, the executors carry it back, :mod:`arena.store.results` writes
and reads it, the standings count it. None of them needs another to know what a game is.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..match.protocol.latency import LimitUse

__all__ = [
    "TournamentStatus",
    "TournamentRow",
    "BotRow",
    "BotState",
    "PickRow",
    "ComparisonRow",
    "RunnerRow",
    "VersionRow",
    "VersionGames",
    "PlayerRecord",
    "GameRecord",
]


class TournamentStatus(str, enum.Enum):
    """A stored tournament's state (the value is what the database holds)."""

    RUNNING = "running"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class TournamentRow:
    """A stored tournament: its settings (as ``TournamentConfig.to_dict`` gave them), state and
    times."""

    id: int
    key: str
    """The hash of the settings that define its games (a run with the same key resumes it)."""
    settings: dict[str, Any]
    status: str
    games_target: int
    referee_version: str
    created: float
    updated: float


@dataclass(frozen=True)
class BotRow:
    """A bot of a stored tournament, with the hash of its files (a changed bot stops a resume)."""

    name: str
    command: tuple[str, ...]
    env: dict[str, str]
    source_hash: str
    files: tuple[str, ...]
    """The files the hash covers."""
    hash_scheme: int = 2
    """1: cgarena 0.1.0's hash (absolute file names), 2: names relative to the files' shared
    folder (see :mod:`arena.versions.provenance`)."""
    state: str = "active"
    """A ladder bot's place (:class:`BotState` value); a tournament's bots are all active."""
    added: float | None = None
    """When the bot joined its ladder (``None``: a tournament's bot, there from the start)."""
    frozen: dict[str, Any] | None = None
    """A ladder bot's frozen version (:meth:`arena.versions.freeze.Frozen.to_dict`): how to start
    it from its snapshot; ``None`` for a tournament's bot."""
    version: int | None = None
    """The id of the recorded version it plays (:class:`VersionRow`); ``None`` for a bot stored
    before versions were recorded, or not frozen."""


class BotState(str, enum.Enum):
    """Where a ladder bot stands (the value is what the database holds)."""

    ACTIVE = "active"
    """Plays, and is ranked."""
    RETIRED = "retired"
    """Plays no more games; its games still count and it is still ranked."""
    REMOVED = "removed"
    """Out of the ranking and of the fit; its games stay in the database."""


@dataclass(frozen=True)
class PickRow:
    """Why a ladder chose a pair of games (one seed, both seats) between two bots."""

    comparison: int
    pair: int
    reason: str
    picked: float


@dataclass(frozen=True)
class ComparisonRow:
    """A stored comparison: its bots in order and its SPRT decision, if any."""

    index: int
    bots: tuple[str, ...]
    decision: str | None = None
    decided_at_pair: int | None = None


@dataclass(frozen=True)
class RunnerRow:
    """The process playing a tournament, as it noted itself (for the message of a second run)."""

    pid: int
    host: str
    since: float


@dataclass(frozen=True)
class VersionRow:
    """A recorded bot version (see :mod:`arena.versions.registry`): one per name and content."""

    id: int
    name: str
    number: int
    """1, 2, 3... among the versions of :attr:`name`, in the order they were first recorded."""
    hash: str
    """The frozen version's content hash (:attr:`arena.versions.snapshot.Frozen.hash`): the name of
    its snapshot folder."""
    created: float
    """When it was first recorded (for a ladder's bot recorded by the migration to schema 10: when
    it was added to the ladder)."""
    origin: str
    """Where it was frozen from (:func:`arena.versions.registry.origin_of`: the BOT as given, a path
    made absolute); ``''`` when unknown (a ladder's bot recorded by the migration to schema 10)."""
    frozen: dict[str, Any] = field(compare=False)
    """Its frozen form, as :meth:`arena.versions.snapshot.Frozen.to_dict` gave it when it was first
    recorded."""


@dataclass(frozen=True)
class VersionGames:
    """The stored games of a version's bots, counted once per seat it played: ``games`` in all;
    ``wins``, ``draws`` and ``losses`` of the two-player games, from the game's ranks."""

    version: int
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class PlayerRecord:
    """One player of a finished game, as stored."""

    seat: int
    bot: str
    score: int
    rank: int
    """0 = first; equal scores share a rank."""
    status: str
    """How the bot's match went (:class:`arena.match.Verdict` value)."""
    message: str = ""
    latencies_ms: Sequence[float] = ()
    near_limit: int = 0
    """Answers over 80% of their limit: stored for older releases; :attr:`limit_use` replaces it."""
    stderr: str = ""
    """A bounded tail of the bot's stderr (longer when it failed; empty for a bot that played
    normally in a game stored before every bot's tail was kept)."""
    refused: int | None = 0
    """Well-formed but illegal actions the referee refused (the game went on); ``None`` for a game
    stored by a release that did not count them."""
    limit_use: LimitUse | None = None
    """How close its answers came to their limits; ``None`` for a game stored by a release that
    did not keep it."""
    overloaded: bool = False
    """Its timeout came in an overloaded window (never a failure of the bot's, see
    :mod:`arena.match.protocol.schedlag`); ``False`` for games stored before it was told."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as stored; ``players[i]`` is player ``i``."""

    comparison: int
    pair: int
    leg: int
    seed: int
    players: tuple[PlayerRecord, ...]
    winner: int | None
    end_reason: str
    turns: int
    duration_s: float
    referee_version: str = ""
    finished: float = field(default_factory=time.time)
    replay: str | None = field(default=None, compare=False)
    """The game's replay file, when the tournament kept one (its path, once stored)."""
    sandboxed: bool | None = None
    """Whether the bots ran in the sandbox (``None``: stored by a release that did not say)."""
    worker: str | None = field(default=None, compare=False)
    """The Dask worker that played the game (its address); ``None`` when it was played on this
    machine (or stored by a release that did not say)."""
    meta: dict[str, int | str] | None = None
    """The referee's facts about how the game started (:meth:`referee.Referee.metadata`: a map's
    holes, the first orders); ``None`` for a game stored by a release that did not keep them."""
    id: int | None = field(default=None, compare=False)
    """The game's number in its database (``arena matches show ID``), once stored."""
    replay_text: str | None = field(default=None, compare=False, repr=False)
    """The replay file's text, when the tournament keeps this game's replay: it travels with the
    record from wherever the game was played, and is written under its final name in the
    transaction that stores the game (never stored in the database itself)."""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.comparison, self.pair, self.leg)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.bot for p in self.players)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(p.rank for p in self.players)
