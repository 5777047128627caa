"""What a match gives: each player's :class:`PlayerResult` (its :class:`Verdict`, latencies,
stderr), every :class:`Frame` played (its :class:`Execution` s and the arena's
:class:`Judgement` s) when recorded, and the :class:`MatchResult` that holds them, as
:func:`arena.match.loop.play_match` returns it and replays, tournaments and ``--json`` read it."""

from __future__ import annotations

import enum
import statistics
from dataclasses import dataclass, field
from typing import Any

from referee import FrameReport, Outcome

from .process.botprocess import ExitInfo
from .protocol.latency import LimitUse
from .protocol.schedlag import MachineLoad

__all__ = ["NEAR_LIMIT", "Verdict", "Execution", "Judgement", "Frame", "PlayerResult", "MatchResult"]

NEAR_LIMIT = 0.8
"""An answer over this share of its limit counted as near it in earlier releases (``near_limit``)."""


class Verdict(str, enum.Enum):
    """How a player's match went."""

    OK = "ok"
    TIMEOUT = "timeout"
    """Did not answer in time."""
    CRASH = "crash"
    """Failed to start, exited or closed its output before answering."""
    INVALID = "invalid"
    """Answered a line that does not parse."""
    ELIMINATED = "eliminated"
    """Put out of the game by its rules (not a fault of the bot)."""
    MEMORY = "memory"
    """Killed for using more memory than the limit, all its processes together."""


@dataclass(frozen=True)
class Execution:
    player: int
    input: tuple[str, ...]
    expected_lines: int
    time_limit_ms: float
    """The limit applied: the game's limit times the match's time scale (an ``int`` when whole)."""
    output: tuple[str, ...] | None
    """The ``expected_lines`` lines read, or ``None`` when they did not all come in time."""
    time_ms: float | None
    """From the end of the input's write to the arrival of the last expected line."""
    status: str
    stderr: str = ""


@dataclass(frozen=True)
class Judgement:
    """The arena's verdict on a player the referee took out during a frame (the referee words
    every missing answer ``Timeout!``; the arena tells a crash from a timeout)."""

    player: int
    verdict: Verdict
    message: str


@dataclass(frozen=True)
class Frame:
    turn: int
    executions: tuple[Execution, ...]
    report: FrameReport
    snapshot: dict[str, Any] | None
    """The referee's snapshot after the turn (when recording or watching frames)."""
    judgements: tuple[Judgement, ...] = ()
    """The arena's verdict on each player deactivated during this frame, in the report's order."""


@dataclass
class PlayerResult:
    index: int
    name: str
    command: str
    verdict: Verdict = Verdict.OK
    message: str = ""
    exit: ExitInfo = ExitInfo(None, None)
    latencies_ms: list[float] = field(default_factory=list)
    fractions: list[float] = field(default_factory=list)
    """Each answer's time over the limit applied to it (see :mod:`arena.match.protocol.latency`)."""
    load: MachineLoad | None = None
    """What was measured of the window where the bot did not answer in time, if it did not."""
    overloaded: bool = False
    """The bot's timeout came in an overloaded window (:mod:`arena.match.protocol.schedlag`): the
    machine's fault as much as the bot's, counted apart from ordinary timeouts."""
    watched: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    """The bot's processes whose run-queue wait is measured: its own process, or in the sandbox the
    wrapper's tree (found at its first answer)."""
    refused: int = 0
    """Well-formed actions the referee refused as illegal (the game went on)."""
    stderr_tail: str = ""
    stderr_bytes: int = 0

    def latency_summary(self) -> dict[str, float | None]:
        lat = self.latencies_ms
        return {
            "median": round(statistics.median(lat), 3) if lat else None,
            "max": round(max(lat), 3) if lat else None,
        }

    @property
    def near_limit(self) -> int:
        """Answers over 80% of their limit: the figure of earlier releases, kept in ``--json`` and
        replays for their readers; :attr:`limit_use` replaces it."""
        return sum(f > NEAR_LIMIT for f in self.fractions)

    @property
    def limit_use(self) -> LimitUse:
        """How close its answers came to their limits."""
        return LimitUse.of(self.fractions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": self.command,
            "status": self.verdict.value,
            "message": self.message,
            "exit_code": self.exit.returncode if self.exit.signal is None else None,
            "signal": self.exit.signal,
            "answers": len(self.latencies_ms),
            "latency_ms": self.latency_summary(),
            "near_limit": self.near_limit,
            "limit_use": self.limit_use.summary(),
            "overloaded": self.overloaded,
            "refused": self.refused,
            "stderr_bytes": self.stderr_bytes,
        }


@dataclass
class MatchResult:
    game: str
    seed: int
    players: list[PlayerResult]
    outcome: Outcome | None
    """``None`` when the match was interrupted before its end."""
    frames: list[Frame] = field(default_factory=list)
    interrupted: bool = False
    """Stopped by Ctrl-C (``KeyboardInterrupt``): the outcome is kept when it came after the game's
    end, during the bots' clean-up."""
    turns: int = 0
    wall_s: float = 0.0
    initial_snapshot: dict[str, Any] | None = None
    sandboxed: bool = False
    metadata: dict[str, int | str] = field(default_factory=dict)
    """The referee's facts about how the game started (:meth:`referee.Referee.metadata`)."""
    time_scale: float = 1.0
    """The time scale the match was played at (every limit applied was the game's times this)."""
    time_margin_ms: float = 0.0

    @property
    def winner(self) -> int | None:
        return self.outcome.winner if self.outcome else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "scores": list(self.outcome.scores) if self.outcome else None,
            "winner": self.winner,
            "end_reason": self.outcome.end_reason.value if self.outcome else "interrupted",
            "turns": self.outcome.turns if self.outcome else self.turns,
            "interrupted": self.interrupted,
            "wall_s": round(self.wall_s, 3),
            "sandbox": "on" if self.sandboxed else "off",
            "players": [p.to_dict() for p in self.players],
            "deactivations": self.outcome.to_dict()["deactivations"] if self.outcome else [],
        }
