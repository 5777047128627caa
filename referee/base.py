"""The game-agnostic referee model: what a referee says and what it is told.

A referee is a pure game model. It never starts a process, reads a clock or prints. Each engine
turn it lists the *executions* the official engine would perform (which player, which input lines,
how many output lines to read, under which time limit); the caller runs them however it likes
(subprocesses, in-process bots, a recorded trace) and hands back, per player, the lines it read
(exactly ``expected_lines`` of them), or ``None`` when the player did not give them all in time or
died. The referee then resolves the turn and, once the game is over, reports an :class:`Outcome`.

This module is the whole protocol between a game and the arena:

* **construction**: ``cls(seed, params)``; ``seed`` is any Java long and fixes everything random
  (the map, the deck...); ``params`` are the game's named parameters as strings (a league level is
  one of them, e.g. ``league=2``, when the game has leagues); a bad one raises
  :class:`ParameterError` before any work;
* **class facts**: :attr:`Referee.name`, ``aliases``, ``title``, ``player_count`` (2 to 4),
  ``first_turn_time_ms``/``turn_time_ms`` and ``rules_version`` (stored with tournament results);
* **frames**: :meth:`Referee.requests` lists the turn's :class:`Request` objects (player, input
  lines, expected output lines, time limit), :meth:`Referee.apply` takes the answers and returns a
  :class:`FrameReport`;
* **replays**: :meth:`Referee.snapshot` is a JSON picture of the visible state after each frame;
* **outcome**: :meth:`Referee.outcome` is ``None`` while the game runs, then an :class:`Outcome`
  with one score and one rank per player.

:class:`referee.engine.EngineReferee` implements the official engine's turn loop on top of this,
so a game only writes its rules (see ``docs/adding-a-game.md``).

Typical loop::

    ref = referee.create("spring2021", seed=42)
    while not ref.is_over:
        requests = ref.requests()
        outputs = {r.player: bot_answer(r) for r in requests if r.expected_lines}
        ref.apply(outputs)          # {player: ("line 1", ...) or None}
    print(ref.outcome())
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

__all__ = [
    "Answer",
    "Outputs",
    "EndReason",
    "DeactivationCause",
    "Request",
    "InputPart",
    "Deactivation",
    "FrameReport",
    "Outcome",
    "RefereeError",
    "InvalidCommand",
    "RuleViolation",
    "ProtocolError",
    "ParameterError",
    "LEAGUE",
    "Referee",
]


Answer = str | Sequence[str] | None
"""A player's answer to one execution: its ``expected_lines`` lines in order (a single line may be
given as a plain ``str``), or ``None`` when it did not give them all in time, crashed or closed its
output."""

Outputs = Mapping[int, Answer]
"""The answers of one turn, by player index: exactly the players whose request expects lines."""


class EndReason(str, enum.Enum):
    """Why a game ended (the values are the ones used in the parity traces)."""

    MAX_ROUNDS = "max_rounds"
    """Spring 2021: the last day is over."""
    MAX_TURNS = "max_turns"
    """The engine's turn limit was reached (Fall 2020: 100 turns)."""
    DELIVERY_GOAL = "delivery_goal"
    """Fall 2020: a player brewed its sixth potion."""
    PLAYER_DEACTIVATED = "player_deactivated"
    """At most one player is still active (the others were disqualified)."""
    REFEREE_FAIL = "referee_fail"
    """The engine aborted the game (total game duration over the 30 s quota)."""


class DeactivationCause(str, enum.Enum):
    """Why a player was disqualified."""

    INVALID_INPUT = "invalid_input"
    """Its output line did not parse (see :class:`InvalidCommand`)."""
    TIMEOUT = "timeout"
    """It gave no answer in time (or exited, or crashed)."""
    ELIMINATED = "eliminated"
    """The game's rules put it out (it played correctly but lost its place in the game)."""


InputPart = Sequence[str] | Callable[[], Sequence[str]]
"""Input lines queued for a player: the lines, or a function that makes them when they are first
read (it must not depend on state that changes afterwards: a game captures what it needs)."""


class Request:
    """One execution of one player, as the official engine performs it.

    Write ``lines`` to the player, then read ``expected_lines`` lines within ``time_limit_ms``.
    ``expected_lines == 0`` is the engine's frame with no player to run: the lines (possibly none)
    are delivered and nothing is read.

    A request is read-only and compares by value. Its lines may be made only when first read
    (:meth:`deferred`): a caller that never reads them, such as an in-process random playout, does
    not pay for formatting them.
    """

    __slots__ = ("_player", "_expected_lines", "_time_limit_ms", "_lines", "_parts")

    _lines: tuple[str, ...] | None
    _parts: Sequence[InputPart]

    def __init__(self, player: int, lines: Sequence[str], expected_lines: int, time_limit_ms: int) -> None:
        self._player = player
        self._expected_lines = expected_lines
        self._time_limit_ms = time_limit_ms
        self._lines = tuple(lines)
        self._parts = ()

    @classmethod
    def deferred(cls, player: int, parts: Sequence[InputPart], expected_lines: int, time_limit_ms: int) -> Request:
        """A request whose lines are the concatenation of ``parts`` (each a sequence of lines or a
        function returning one, called when :attr:`lines` is first read; ``parts`` itself must
        not change afterwards)."""
        request = cls.__new__(cls)
        request._player = player
        request._expected_lines = expected_lines
        request._time_limit_ms = time_limit_ms
        request._lines = None
        request._parts = parts
        return request

    @property
    def player(self) -> int:
        """The player executed (0-based seat index)."""
        return self._player

    @property
    def expected_lines(self) -> int:
        """How many lines the player must answer (0: nothing is read)."""
        return self._expected_lines

    @property
    def time_limit_ms(self) -> int:
        """The time allowed for the answer, in milliseconds."""
        return self._time_limit_ms

    @property
    def lines(self) -> tuple[str, ...]:
        """The input lines delivered to the player at this execution."""
        lines = self._lines
        if lines is None:
            parts = self._parts
            if len(parts) == 1:  # the usual case: one turn's lines
                part = parts[0]
                lines = tuple(part() if callable(part) else part)
            else:
                made: list[str] = []
                for part in parts:
                    made.extend(part() if callable(part) else part)
                lines = tuple(made)
            self._lines = lines
            self._parts = ()
        return lines

    def _key(self) -> tuple[int, tuple[str, ...], int, int]:
        return self._player, self.lines, self._expected_lines, self._time_limit_ms

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Request):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Request], tuple[int, tuple[str, ...], int, int]]:
        return Request, self._key()

    def __repr__(self) -> str:
        return (
            f"Request(player={self._player!r}, lines={self.lines!r}, "
            f"expected_lines={self._expected_lines!r}, time_limit_ms={self._time_limit_ms!r})"
        )


@dataclass(frozen=True, slots=True)
class Deactivation:
    """A disqualification: who, at which engine turn, why, and the official tooltip text."""

    player: int
    turn: int
    cause: DeactivationCause
    reason: str


@dataclass(frozen=True, slots=True)
class FrameReport:
    """What happened during one engine turn (one frame of the replay)."""

    turn: int
    summary: tuple[str, ...] = ()
    """The game summary lines, as the official referee writes them (``$0``/``$1`` = players)."""
    errors: tuple[tuple[int, str], ...] = ()
    """Rule violations (player, official message): the action was refused, the game went on."""
    deactivations: tuple[Deactivation, ...] = ()
    """Players disqualified or eliminated during this turn."""
    messages: tuple[tuple[int, str], ...] = ()
    """Free-text messages the players appended to their action (trimmed as the viewer does)."""
    phase: str | None = None
    """Game-specific frame type (Spring 2021: GATHERING, ACTIONS or SUN_MOVE)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game."""

    scores: tuple[int, ...]
    """Final scores as the referee reports them (-1 for a disqualified player)."""
    end_reason: EndReason
    turns: int
    """Number of engine turns played."""
    deactivations: tuple[Deactivation, ...] = ()
    texts: tuple[str, ...] = ()
    """Per-player end-screen text (Spring 2021: ``"X points and N trees"`` after a tie-break)."""
    message: str | None = None
    """Extra explanation (the engine's failure message for ``REFEREE_FAIL``)."""
    ranks: tuple[int, ...] = field(init=False)
    """0 = first; equal scores share a rank."""

    def __post_init__(self) -> None:
        ranks = tuple(sum(1 for other in self.scores if other > s) for s in self.scores)
        object.__setattr__(self, "ranks", ranks)

    @property
    def winner(self) -> int | None:
        """Index of the single best player, or ``None`` for a draw."""
        best = max(self.scores)
        leaders = [i for i, s in enumerate(self.scores) if s == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winner": self.winner,
            "end_reason": self.end_reason.value,
            "turns": self.turns,
            "deactivations": [
                {"player": d.player, "turn": d.turn, "cause": d.cause.value, "reason": d.reason}
                for d in self.deactivations
            ],
            "texts": list(self.texts),
            "message": self.message,
        }


class RefereeError(Exception):
    """Base class of the referee's errors."""


class InvalidCommand(RefereeError):
    """An output line that does not parse. The official referees disqualify the player (score -1).

    ``str(error)`` is the official tooltip: ``Invalid Input: Expected <expected> but got '<got>'``.
    """

    def __init__(self, expected: str, got: str) -> None:
        super().__init__(f"Invalid Input: Expected {expected} but got '{got}'")
        self.expected = expected
        self.got = got


class RuleViolation(RefereeError):
    """A well-formed but illegal action. The action is refused with the official message and the
    game goes on (Spring 2021: the player sleeps until the next day; Fall 2020: the turn is lost)."""


class ProtocolError(RefereeError):
    """The referee was driven wrongly (outputs for the wrong players, a move after the end...)."""


class ParameterError(ValueError):
    """A bad seed or game parameter given when creating a referee."""


LEAGUE = "league"
"""The game parameter that selects a league level (see :meth:`Referee.league_level`)."""


class Referee(ABC):
    """A game, driven one engine turn at a time. Subclasses are registered by game name."""

    name: ClassVar[str]
    """Registry name, e.g. ``"spring2021"``."""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    player_count: ClassVar[int] = 2
    """Seats in every game (2 to 4 on CodinGame)."""
    first_turn_time_ms: ClassVar[int] = 1000
    turn_time_ms: ClassVar[int]
    rules_version: ClassVar[int] = 1
    """Raised whenever a change could alter any game (a rule fix, a new default): stored results
    are only extended with games played under the same rules version."""
    top_league: ClassVar[int] = 1
    """The number of league levels (the rules of CodinGame's leagues: 1 is the first Wood league,
    the top level plays the last leagues up to Legend); a game is played at the top level unless
    its ``league`` parameter says otherwise."""
    league_names: ClassVar[Mapping[str, int]] = {}
    """The official league names (lower case, as ``wood 2``) and the level each plays."""
    league_rules: ClassVar[Mapping[int, str]] = {}
    """What each level below the top one changes, in a few words (``arena games`` shows it)."""

    if TYPE_CHECKING:
        # The registry builds every game as ``cls(seed, params)`` (:func:`referee.create`); each
        # game defines that constructor itself, so it is declared for the type checker only.
        def __init__(self, seed: int, params: Mapping[str, str] | None = None) -> None: ...

    @property
    @abstractmethod
    def seed(self) -> int:
        """The game's seed (a Java long)."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """The current engine turn (1-based)."""

    @abstractmethod
    def requests(self) -> tuple[Request, ...]:
        """The executions of the current turn, in the engine's order. Empty once the game is over.

        Calling it again before :meth:`apply` returns the same requests.
        """

    @abstractmethod
    def apply(self, outputs: Outputs) -> FrameReport:
        """Resolve the current turn with the answer (see :data:`Answer`) of every player whose
        request expects lines; raises :class:`ProtocolError` for missing or extra players, or an
        answer with the wrong number of lines."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A JSON-serialisable picture of the visible game state, for replays and viewers."""

    @classmethod
    def league_level(cls, params: Mapping[str, Any] | None) -> int:
        """The league level that ``params`` ask for (the ``league`` parameter: a level ``1`` to
        :attr:`top_league`, or an official league name), the top one when they do not say;
        :class:`ParameterError` naming the levels and names otherwise."""
        raw = (params or {}).get(LEAGUE)
        if raw is None:
            return cls.top_league
        text = " ".join(str(raw).split()).lower()
        if text in cls.league_names:
            return cls.league_names[text]
        if text.isdecimal() and 1 <= int(text) <= cls.top_league:
            return int(text)
        names = ", ".join(f"{name} ({level})" for name, level in cls.league_names.items())
        levels = "1" if cls.top_league == 1 else f"1 to {cls.top_league}"
        named = f" or a league name: {names}" if names else ""
        raise ParameterError(f"{cls.name} has no league {raw!r}: give a level {levels}{named}")

    @classmethod
    def league_label(cls, level: int) -> str:
        """``league 1 (Wood 2)``: a level and the official leagues that play it."""
        names = [name.title() for name, at in cls.league_names.items() if at == level]
        return f"league {level}" + (f" ({', '.join(names)})" if names else "")

    def metadata(self) -> dict[str, int | str]:
        """Facts about how this game starts that players tell games apart by (a map's holes, the
        first orders on the table): names to whole numbers or short texts, read before the first
        turn. The arena stores them with each tournament and ladder game, and ``arena ladder show
        --where`` ranks the bots on the games whose facts match. None by default."""
        return {}

    def legal_actions(self, player: int) -> list[str]:
        """Every legal command for ``player`` in the current state (for random play and tests)."""
        raise NotImplementedError(f"{type(self).__name__} does not list legal actions")

    @classmethod
    def progress(cls, snapshot: Mapping[str, Any]) -> str | None:
        """A short human line at milestones of the game (end of a day...), else ``None``."""
        return None

    # Conveniences derived from requests().

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def players_to_act(self) -> list[int]:
        """Players whose answer is read this turn."""
        return [r.player for r in self.requests() if r.expected_lines > 0]

    def _request_for(self, player: int) -> Request:
        for request in self.requests():
            if request.player == player:
                return request
        raise ProtocolError(f"player {player} is not executed this turn")

    def input_lines(self, player: int) -> list[str]:
        return list(self._request_for(player).lines)

    def time_limit_ms(self, player: int) -> int:
        return self._request_for(player).time_limit_ms

    def expected_lines(self, player: int) -> int:
        return self._request_for(player).expected_lines
