"""The parts of CodinGame's game engine (``MultiplayerGameManager``) that shape a game.

Both official referees run inside the same engine loop, and several observable facts come from the
engine, not from the game: input lines are buffered per player and delivered at the player's next
execution; the time limit is the first-turn limit until a player has been executed once; a turn in
which the game executes nobody still "executes" player 0 with zero expected lines (delivering its
pending input); each execution that reads output adds the per-turn limit to a 30 s quota whose
overflow aborts the game; the loop stops at the turn limit, at ``endGame()`` or when no player is
active. :class:`EngineReferee` implements those once; a game implements three hooks.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, ClassVar, NoReturn, TypeVar

from .base import (
    Deactivation,
    DeactivationCause,
    EndReason,
    FrameReport,
    InputPart,
    InvalidCommand,
    Outcome,
    Outputs,
    ParameterError,
    ProtocolError,
    Referee,
    Request,
)
from .javarandom import check_java_long

__all__ = ["EngineReferee", "GAME_DURATION_HARD_QUOTA_MS", "DEFAULT_MAX_TURNS"]

GAME_DURATION_HARD_QUOTA_MS = 30_000
DEFAULT_MAX_TURNS = 200
_KNOWN_LINES = 4096
"""At most this many answer lines are remembered by a table of :meth:`EngineReferee._parse_known`
(then it starts again)."""

A = TypeVar("A")


class EngineReferee(Referee):
    """A referee running inside an emulation of the engine's turn loop.

    Subclasses implement:

    * :meth:`_begin_turn` - reset per-turn data, queue input with :meth:`_send` and return the
      players to execute (in execution order);
    * :meth:`_expected_lines` - how many lines a player answers this turn (default 1; a game
      with one line per unit returns the player's unit count);
    * :meth:`_resolve` - parse the outputs and update the game, using :meth:`_deactivate`,
      :meth:`_end_game`, :meth:`_error`, :meth:`_say`;
    * :meth:`_on_end` - final scoring (not called when the engine aborts the game);
    * the phase of a turn's report, if the game has phases: :meth:`_phase`, or, without a call a
      turn, ``_frame_phase`` set in :meth:`_begin_turn`.
    """

    # The engine's own attributes are slots: fast to read, and they leave the instance dictionary
    # to the game (CPython keeps attribute look-ups fast only for dictionaries of at most 30 keys).
    __slots__ = (
        "_seed",
        "scores",
        "active",
        "_pending",
        "_executed",
        "_turn",
        "_total_turn_time",
        "_requests",
        "_expecting",
        "_abort_pending",
        "_game_end_reason",
        "_outcome",
        "_deactivations",
        "_summary",
        "_errors",
        "_new_deactivations",
        "_messages",
        "_one_line",
        "_has_phase",
        "is_over",
        "_frame_phase",
        "_players",
        "_turn_ms",
        "_first_turn_ms",
        "_quota_ms",
    )

    hard_quota_ms: ClassVar[int] = GAME_DURATION_HARD_QUOTA_MS
    max_turns: int = DEFAULT_MAX_TURNS
    """The engine's turn limit (``gameManager.setMaxTurns``); games may override it."""
    timeout_summary: ClassVar[str] = "has not provided an action in time."
    """Summary text after ``$N `` when a player gives no answer (the game's wording)."""

    def __init__(self, seed: int) -> None:
        try:
            self._seed = check_java_long(seed)
        except ValueError as exc:
            raise ParameterError(str(exc)) from None
        n = self.player_count
        # The class facts read every turn, kept on the instance: a class attribute read through an
        # instance is a slow look-up in Python 3.11 (an instance's own attribute is not). A game
        # may still set ``max_turns`` on the instance (e.g. from a parameter) after this.
        self._players = n
        self._turn_ms, self._first_turn_ms = self.turn_time_ms, self.first_turn_time_ms
        self._quota_ms = self.hard_quota_ms
        self.max_turns = self.max_turns
        self.scores = [0] * n
        self.active = [True] * n
        self._pending: list[list[InputPart]] = [[] for _ in range(n)]
        self._executed = [False] * n
        self._turn = 1
        self._total_turn_time = 0
        self._requests: tuple[Request, ...] | None = None
        # (player, lines) of this turn, ascending (never changed in place: may be shared).
        self._expecting: Sequence[tuple[int, int]] = ()
        self._abort_pending = False
        self._game_end_reason: EndReason | None = None
        self._outcome: Outcome | None = None
        self.is_over: bool = False
        """Whether the game is over: a plain attribute (set with the outcome), not a property, so
        that the loop of an in-process playout reads it without a call of a Python method."""
        self._deactivations: list[Deactivation] = []
        # Per-turn report buffers.
        self._summary: list[str] = []
        self._errors: list[tuple[int, str]] = []
        self._new_deactivations: list[Deactivation] = []
        self._messages: list[tuple[int, str]] = []
        # Hooks a game may leave as they are, looked up once (not per turn).
        cls = type(self)
        self._one_line = cls._expected_lines is EngineReferee._expected_lines  # one line per answer
        self._has_phase = cls._phase is not EngineReferee._phase
        self._frame_phase: str | None = None
        """The phase reported for the turn when the game has no :meth:`_phase` hook: a game may
        set it in :meth:`_begin_turn` instead (no call a turn)."""

    # -- Referee API ---------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def turn(self) -> int:
        return self._turn

    def requests(self) -> tuple[Request, ...]:
        if self._outcome is not None:
            return ()
        if self._requests is None:
            self._requests = self._build_requests()
        return self._requests

    def apply(self, outputs: Outputs) -> FrameReport:
        if self._outcome is not None:
            raise ProtocolError("the game is over")
        if self._requests is None:
            self.requests()
        # The players that answer, ascending (games see the answers by player index).
        expecting = self._expecting
        if len(outputs) != len(expecting):
            self._wrong_players(outputs)
        answers: dict[int, tuple[str, ...] | None] = {}
        for p, expected in expecting:
            if p not in outputs:
                self._wrong_players(outputs)
            answer = outputs[p]
            if type(answer) is str and expected == 1:
                answers[p] = (answer,)
            else:
                answers[p] = _lines(p, answer, expected, self._turn)
        turn = self._turn
        phase = self._phase() if self._has_phase else self._frame_phase
        if self._abort_pending:
            self._finish(
                EndReason.REFEREE_FAIL,
                message=f"Total game duration too long (>{self.hard_quota_ms}ms)",
            )
        else:
            executed = self._executed
            for p in answers:
                executed[p] = True
            self._resolve(answers)
            self._turn = turn + 1
            if self._game_end_reason is not None:
                self._finish(self._game_end_reason)
            elif True not in self.active:
                self._finish(EndReason.PLAYER_DEACTIVATED)
            elif turn >= self.max_turns:
                self._finish(EndReason.MAX_TURNS)
        self._requests = None
        summary, errors, deactivations, messages = (
            self._summary,
            self._errors,
            self._new_deactivations,
            self._messages,
        )
        # _frame_report(...), written out (one call less a turn).
        report: FrameReport = _new(FrameReport)
        _set_turn(report, turn)
        _set_summary(report, tuple(summary))
        _set_errors(report, tuple(errors) if errors else ())
        _set_deactivations(report, tuple(deactivations) if deactivations else ())
        _set_messages(report, tuple(messages) if messages else ())
        _set_phase(report, phase)
        summary.clear()
        if errors:
            errors.clear()
        if deactivations:
            deactivations.clear()
        if messages:
            messages.clear()
        return report

    def _wrong_players(self, outputs: Outputs) -> NoReturn:
        expected = [p for p, _ in self._expecting]
        raise ProtocolError(f"turn {self._turn}: expected outputs for players {expected}, got {sorted(outputs)}")

    def outcome(self) -> Outcome | None:
        return self._outcome

    def snapshot(self) -> dict[str, Any]:
        snap = {
            "turn": self._turn,
            "scores": list(self.scores),
            "active": list(self.active),
        }
        snap.update(self._snapshot())
        return snap

    # -- hooks -----------------------------------------------------------------------------------

    @abstractmethod
    def _begin_turn(self) -> list[int]:
        """Start engine turn ``self.turn``: queue inputs, return the players to execute."""

    @abstractmethod
    def _resolve(self, outputs: dict[int, tuple[str, ...] | None]) -> None:
        """Resolve the turn from the answers (all expected lines, or ``None``) of the players
        returned by :meth:`_begin_turn`."""

    def _expected_lines(self, player: int) -> int:
        """Output lines ``player`` must give this turn (called after :meth:`_begin_turn`)."""
        return 1

    def _on_end(self) -> None:
        """Final scoring, called once when the game ends normally."""

    def _end_texts(self) -> tuple[str, ...]:
        return ()

    def _snapshot(self) -> dict[str, Any]:
        return {}

    def _phase(self) -> str | None:
        """The phase of the turn being resolved, for its report (default: ``_frame_phase``)."""
        return None

    # -- services for subclasses -----------------------------------------------------------------

    def _send(self, player: int, lines: InputPart) -> None:
        """``player.sendInputLine`` for each line: buffered until the player's next execution.

        ``lines`` may be a function returning the lines, called only if they are read (see
        :meth:`Request.deferred`); it must capture the state it formats, not look at ``self``
        later."""
        self._pending[player].append(lines)

    def _parse_outputs(self, outputs: dict[int, tuple[str, ...] | None], parse: Callable[[str], A]) -> list[A | None]:
        """:meth:`_parse_answers` for a game whose players answer one line a turn: ``parse``
        takes that line."""
        return self._handle_commands(outputs, parse, True)

    def _parse_answers(
        self, outputs: dict[int, tuple[str, ...] | None], parse: Callable[[tuple[str, ...]], A]
    ) -> list[A | None]:
        """The official ``handlePlayerCommands``: per player in index order, no answer ->
        disqualified (``Timeout!``); lines that do not parse (``parse`` raises
        :class:`InvalidCommand`) -> disqualified with the official tooltip (where ``&lt;``/``&gt;``
        are turned back into ``<``/``>``, as the referees do). Returns each player's action
        (``None`` when it has none); an action's ``message`` attribute, if any, is reported."""
        return self._handle_commands(outputs, parse, False)

    def _parse_known(
        self,
        outputs: dict[int, tuple[str, ...] | None],
        parse: Callable[[Any], A],
        first_line: bool,
        known: dict[str, A],
    ) -> list[A | None]:
        """:meth:`_parse_outputs` (``first_line``) or :meth:`_parse_answers` for answers of one
        line, with ``known``: lines that parsed before to an action without a ``message``, which
        need nothing more (no disqualification, no message to report) and are looked up directly.
        The actions of other lines are added to it (bounded); ``parse`` must give the same action
        for the same line every time."""
        actions: list[A | None] = [None] * self._players
        for p, lines in outputs.items():
            action = known.get(lines[0]) if lines is not None else None
            if action is None:
                actions = self._handle_commands(outputs, parse, first_line)
                if len(known) >= _KNOWN_LINES:
                    known.clear()
                for q, answer in outputs.items():
                    action = actions[q]
                    if answer is not None and action is not None and getattr(action, "message", None) is None:
                        known[answer[0]] = action
                return actions
            actions[p] = action
        return actions

    def _handle_commands(
        self, outputs: dict[int, tuple[str, ...] | None], parse: Callable[[Any], A], first_line: bool
    ) -> list[A | None]:
        actions: list[A | None] = [None] * self._players
        for p, lines in outputs.items():  # ascending: apply orders them
            if lines is None:
                self._deactivate(p, DeactivationCause.TIMEOUT, "Timeout!")
                self._say(f"¤RED¤${p} {self.timeout_summary}§RED§")
                self._say(f"${p} was disqualified.")
                continue
            try:
                action = parse(lines[0] if first_line else lines)
            except InvalidCommand as exc:
                reason = str(exc).replace("&lt;", "<").replace("&gt;", ">")
                self._deactivate(p, DeactivationCause.INVALID_INPUT, reason)
                self._say(f"¤RED¤${p} provided invalid input. Expected '{exc.expected}'")
                self._say(f"Got '{exc.got}'§RED§")
                self._say(f"${p} was disqualified.")
                continue
            actions[p] = action
            message = getattr(action, "message", None)
            if message is not None:
                self._message(p, message)
        return actions

    def _deactivate(self, player: int, cause: DeactivationCause, reason: str) -> None:
        """Take ``player`` out of the game: inactive, never executed again, score -1 (both official
        referees do this on disqualification; a game may set another score afterwards)."""
        self.active[player] = False
        self.scores[player] = -1
        d = Deactivation(player=player, turn=self._turn, cause=cause, reason=reason)
        self._deactivations.append(d)
        self._new_deactivations.append(d)

    def _end_game(self, reason: EndReason) -> None:
        """``gameManager.endGame()``: the loop stops after this turn."""
        self._game_end_reason = reason

    def _say(self, line: str) -> None:
        self._summary.append(line)

    def _error(self, player: int, message: str) -> None:
        self._errors.append((player, message))

    def _message(self, player: int, message: str) -> None:
        self._messages.append((player, message))

    # -- internals -------------------------------------------------------------------------------

    def _build_requests(self) -> tuple[Request, ...]:
        players = self._begin_turn()
        pending, executed = self._pending, self._executed
        turn_ms, first_ms = self._turn_ms, self._first_turn_ms
        if not players:  # nobody plays: player 0 is "executed" to deliver its input, if any
            self._expecting = ()
            limit = turn_ms if executed[0] else first_ms
            if not pending[0]:
                return _idle_requests(limit)
            parts, pending[0] = pending[0], []
            return (Request.deferred(0, parts, 0, limit),)
        requests = []
        total = self._total_turn_time + turn_ms * len(players)
        if self._one_line and total <= self._quota_ms:
            # The usual turn: every player answers one line, within the quota.
            self._total_turn_time = total
            for p in players:
                # Request.deferred(p, pending[p], 1, limit), written out (no call a request).
                request: Request = _new(Request)
                request._player = p
                request._expected_lines = 1
                request._time_limit_ms = turn_ms if executed[p] else first_ms
                request._lines = None
                request._parts = pending[p]
                requests.append(request)
                pending[p] = []  # delivered
            key = tuple(players)
            self._expecting = _ONE_LINE_EXPECTING.get(key) or _one_line_expecting(key)
            return tuple(requests)
        expecting = []
        one_line = self._one_line
        expected_lines = self._expected_lines
        for p in players:
            self._total_turn_time += turn_ms
            if self._total_turn_time > self._quota_ms:
                # The engine throws while executing this player: the game is aborted.
                self._abort_pending = True
                break
            expected = 1 if one_line else expected_lines(p)
            requests.append(Request.deferred(p, pending[p], expected, turn_ms if executed[p] else first_ms))
            pending[p] = []  # delivered
            if expected > 0:
                expecting.append((p, expected))
        expecting.sort()
        self._expecting = expecting
        return tuple(requests)

    def _finish(self, reason: EndReason, message: str | None = None) -> None:
        if reason is not EndReason.REFEREE_FAIL:
            self._on_end()
        self._outcome = Outcome(
            scores=tuple(self.scores),
            end_reason=reason,
            turns=self._turn - 1 if reason is not EndReason.REFEREE_FAIL else self._turn,
            deactivations=tuple(self._deactivations),
            texts=self._end_texts(),
            message=message,
        )
        self.is_over = True


_ONE_LINE_EXPECTING: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
"""The ``(player, 1)`` of a turn whose players all answer one line, by the players executed (in
execution order)."""


def _one_line_expecting(players: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    expecting = _ONE_LINE_EXPECTING[players] = tuple(sorted((p, 1) for p in players))
    return expecting


@cache
def _idle_requests(time_limit_ms: int) -> tuple[Request]:
    """The requests of a turn that executes nobody and has no input to deliver (requests are
    read-only and compare by value, so one object serves every such turn)."""
    return (Request(0, (), 0, time_limit_ms),)


_new = object.__new__
_set_turn, _set_summary, _set_errors, _set_deactivations, _set_messages, _set_phase = (
    FrameReport.__dict__[name].__set__ for name in ("turn", "summary", "errors", "deactivations", "messages", "phase")
)


def _frame_report(
    turn: int,
    summary: tuple[str, ...],
    errors: tuple[tuple[int, str], ...],
    deactivations: tuple[Deactivation, ...],
    messages: tuple[tuple[int, str], ...],
    phase: str | None,
) -> FrameReport:
    """``FrameReport(...)`` in a third of the time: a frozen dataclass's ``__init__`` sets each
    field through ``object.__setattr__``, and the engine makes one report per turn."""
    report: FrameReport = _new(FrameReport)
    _set_turn(report, turn)
    _set_summary(report, summary)
    _set_errors(report, errors)
    _set_deactivations(report, deactivations)
    _set_messages(report, messages)
    _set_phase(report, phase)
    return report


def _lines(player: int, answer: str | Sequence[str] | None, expected: int, turn: int) -> tuple[str, ...] | None:
    """An answer as a tuple of exactly ``expected`` lines (``None`` stays ``None``)."""
    if answer is None:
        return None
    lines = (answer,) if isinstance(answer, str) else tuple(answer)
    if len(lines) != expected or not all(isinstance(line, str) for line in lines):
        raise ProtocolError(f"turn {turn}: player {player} must answer {expected} line(s), got {answer!r}")
    return lines
