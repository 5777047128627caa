"""One match as ``arena play`` asks for it: :func:`play_request` checks the request (the game, its
bots, their data files, the parameters, the replay file, the sandbox), makes sure every bot can
start, plays the match and writes its replay. It never prints: it reports the match it is about
to play (:class:`Ready`) and each frame through a callback, and returns a :class:`PlayedMatch`.

A request that cannot be played is refused before any bot starts, in one line:
:class:`RequestError` for a mistake in the request (a usage error, a replay file that would replace
a file it must not), :class:`BotsCannotStart` when a bot does not start (its error).

Ctrl-C (``KeyboardInterrupt``) from the bots' start check to the replay file written stops the
match as :func:`~arena.match.loop.play_match` does: the bots are killed and the match is returned
interrupted (see :func:`play_request`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import referee

from .. import paths
from ..errors import ArenaError
from . import sandbox
from .launch import botspec
from .launch.botspec import BotSpec
from .limits import TreeLimits, enforcement
from .loop import MatchOptions, play_match
from .preflight import start_failures
from .process.shield import shielded
from .replay import ReplayPathError, check_replay_path, replay_document, write_replay
from .result import Frame, MatchResult, PlayerResult, Verdict
from .settings import PlaySettings

__all__ = [
    "RequestError",
    "BotsCannotStart",
    "MatchRequest",
    "Ready",
    "PlayedMatch",
    "play_request",
]


class RequestError(ArenaError, ValueError):
    """The match cannot be played as asked (the message names what and says what to do)."""


class BotsCannotStart(ArenaError):
    """A bot cannot start where it would play (in the sandbox or not): no game is played. The
    message is the first bot's reason; :attr:`reasons` has every one."""

    def __init__(self, reasons: Sequence[str]) -> None:
        super().__init__(reasons[0])
        self.reasons = tuple(reasons)


@dataclass(frozen=True)
class MatchRequest:
    """What ``arena play`` was asked: how the game is played (``settings``), ``bots`` as BOT
    arguments (``NAME=BOT`` names one; none: the game's default match), ``data`` the files each
    bot reads by its place among ``bots`` (from 1), ``seed`` ``None`` for a random one, ``replay``
    the replay file to write (see :func:`~arena.match.replay.check_replay_path` for what it may
    replace)."""

    settings: PlaySettings
    bots: tuple[str, ...] = ()
    seed: int | None = None
    swap: bool = False
    no_timeout: bool = False
    data: Mapping[int, Sequence[str]] = field(default_factory=dict)
    replay: Path | None = None
    record: bool = False
    """Record every frame's inputs, outputs and stderr even without a replay file."""
    force: bool = False
    """Let the replay file replace an existing file that is not a replay (never a database or a
    bot's own file)."""


@dataclass(frozen=True)
class Ready:
    """The match about to be played: the game, the bots in seat order, the seed, whether the bots
    run in the sandbox, and why not when the request let it choose (``auto``), and whether the
    limits are only approximate here."""

    rules: type[referee.Referee]
    specs: tuple[BotSpec, ...]
    bots: tuple[str, ...]
    """The BOT arguments as given (or the default match's), before any swap."""
    seed: int
    sandboxed: bool
    note: str | None
    limits_note: str | None = None
    """The line that says the limits are only approximate on this machine, where they are."""


@dataclass(frozen=True)
class PlayedMatch:
    """How the match went."""

    ready: Ready
    result: MatchResult
    unstarted: tuple[str, ...] = ()
    """Bots that could not be started for the match itself (their file went away since the
    check...): then there is no game."""
    replay_error: str | None = None
    """Why the replay file could not be written (the match itself is played)."""
    started: bool = True
    """``False`` when Ctrl-C came during the bots' start check: the result is interrupted, no game
    was played and no replay file written."""

    def document(self, params: Mapping[str, str] | None) -> dict[str, Any]:
        """The replay document of the match (``record`` or a replay file must have been asked)."""
        return replay_document(self.result, params)


Pin = Callable[[Sequence[str], list["BotSpec | RequestError"]], list[BotSpec]]
"""What turns a request's bots into what plays (the versions layer freezes them): given the BOT
arguments and each one's spec as resolved from its source (or why it is none: a stored version's
name is no bot this layer knows), the specs to play."""


def play_request(
    request: MatchRequest,
    on_ready: Callable[[Ready], None] | None = None,
    on_frame: Callable[[Frame], None] | None = None,
    pin: Pin | None = None,
) -> PlayedMatch:
    """Check ``request``, make sure its bots start, play the match and write its replay file.
    ``on_ready`` is called once everything is checked, before the match starts; ``on_frame``
    after every frame; ``pin`` turns the bots resolved into what plays (their frozen versions).
    Raises :class:`RequestError` or :class:`BotsCannotStart` before any game.

    Ctrl-C stops it as it stops a match, the bots killed, the result interrupted: during the bots'
    start check, no game is played (:attr:`PlayedMatch.started` is false); during the match, the
    result is partial; once the game has ended (the bots' clean-up, the replay file written) it
    is whole, and the replay file is written whole first."""
    ready, options = _prepare(request, pin)
    try:
        failures = start_failures(ready.specs, request.settings.memory_limit_mb, sandboxed=ready.sandboxed)
    except KeyboardInterrupt:  # the bots started for the check are killed
        return PlayedMatch(ready, _unplayed(ready), started=False)
    if failures:
        raise BotsCannotStart([str(f) for f in failures])
    if on_ready is not None:
        on_ready(ready)
    result = play_match(ready.rules.name, ready.seed, list(ready.specs), options, on_frame=on_frame)
    unstarted = tuple(why for p in result.players if (why := _not_started(p)) is not None)
    played = PlayedMatch(ready, result, unstarted if not result.interrupted else ())
    if request.replay is None or played.unstarted:
        return played
    error = None
    try:
        with shielded():  # Ctrl-C waits for the whole file, then marks the match interrupted
            try:
                write_replay(request.replay, replay_document(result, request.settings.game_params()))
            except OSError as exc:
                error = f"{request.replay}: cannot write the replay ({exc.strerror or exc})"
    except KeyboardInterrupt:
        result.interrupted = True
    return dataclasses.replace(played, replay_error=error)


def _unplayed(ready: Ready) -> MatchResult:
    """The result of a match interrupted before it started."""
    players = [PlayerResult(i, spec.name, spec.command_line()) for i, spec in enumerate(ready.specs)]
    return MatchResult(ready.rules.name, ready.seed, players, None, interrupted=True, sandboxed=ready.sandboxed)


def _prepare(request: MatchRequest, pin: Pin | None = None) -> tuple[Ready, MatchOptions]:
    """The checked request (all but the bots' start): what will be played, and the match's options."""
    settings, params = request.settings, request.settings.game_params()
    try:
        rules = referee.get(settings.game)
    except referee.UnknownGame as exc:
        raise RequestError(str(exc)) from None
    bots = request.bots or botspec.default_bots(rules.name)
    if not bots:
        raise RequestError(f"{rules.name} has no shipped bots: give its {rules.player_count} BOTs")
    if len(bots) != rules.player_count:
        raise RequestError(f"{rules.name} is played by {rules.player_count} bots, got {len(bots)}")
    resolved = _resolved(request, bots, rules.name, pin is not None)
    sources = [s for s in resolved if isinstance(s, BotSpec)]
    specs = list(sources) if pin is None else pin(bots, resolved)
    try:
        level = rules.league_level(params)
    except referee.ParameterError as exc:
        raise RequestError(str(exc)) from None
    refused = next((why for spec in specs if (why := spec.league_refusal(rules.name, level))), None)
    if refused is not None:
        raise RequestError(refused)
    if request.replay is not None:
        own = [entry for s in [*specs, *sources] for entry in sandbox.bot_files(s.argv, s.cwd, s.data).entries]
        try:
            check_replay_path(request.replay, force=request.force, keep=own)
        except ReplayPathError as exc:
            raise RequestError(f"--replay: {exc}") from None
    if request.swap:
        specs.reverse()
    seed = request.seed if request.seed is not None else random.SystemRandom().randrange(-(2**63), 2**63)
    try:
        rules(seed, params)  # the parameters are checked before any bot starts
    except referee.ParameterError as exc:
        raise RequestError(str(exc)) from None
    try:
        confined, why_not = sandbox.decide(settings.sandbox)
    except sandbox.SandboxUnavailable as exc:
        raise RequestError(str(exc)) from None
    hide = (str(request.replay.resolve()),) if request.replay is not None else ()
    record = request.replay is not None or request.record
    options = settings.match_options(hide, record=record, no_timeout=request.no_timeout)
    limits = enforcement.limits_note(TreeLimits(options.memory_limit_mb, options.task_limit))
    return Ready(rules, tuple(specs), tuple(bots), seed, confined, why_not, limits), options


def _resolved(request: MatchRequest, bots: Sequence[str], game: str, deferred: bool) -> list[BotSpec | RequestError]:
    """Each bot resolved from its source, with the request's libraries, variables and data; with
    ``deferred``, why one is not (instead of raising it: a stored version's name, say)."""
    settings = request.settings
    out: list[BotSpec | RequestError] = []
    for text in bots:
        try:
            out.append(botspec.with_run_options(_spec(text, game), settings.libs, settings.env))
        except RequestError as exc:
            if not deferred:
                raise
            out.append(exc)
    return _with_data(out, request.data)


def _spec(text: str, game: str) -> BotSpec:
    label, bot = botspec.split_name(text)
    try:
        spec = botspec.resolve(bot, game)
    except botspec.BotSpecError as exc:
        raise RequestError(f"bot {text!r}: {exc}") from None
    return spec if label is None else dataclasses.replace(spec, name=label)


def _with_data(specs: list[BotSpec | RequestError], data: Mapping[int, Sequence[str]]) -> list[BotSpec | RequestError]:
    """``specs`` with the data files each bot reads (``data`` by place, from 1), checked."""
    for place, files in sorted(data.items()):
        if place > len(specs):
            raise RequestError(f"--data {place}={files[0]}: there is no bot {place} ({len(specs)} bots)")
        for given in files:
            reason = paths.missing(paths.expanded(given))
            if reason is not None:
                raise RequestError(f"--data {place}={given}: {reason}")
        found = tuple(str(p) for p in paths.data_paths(files))  # absolute: whatever the bot's folder
        spec = specs[place - 1]
        if isinstance(spec, BotSpec):
            specs[place - 1] = dataclasses.replace(spec, data=spec.data + found)
    return specs


def _not_started(player: PlayerResult) -> str | None:
    """Why ``player``'s bot could not be started for the match, in words; ``None`` when it was. (A
    bot that crashes on its first input did start: that is a game it lost.)"""
    if player.verdict is not Verdict.CRASH or not player.message.startswith("failed to start"):
        return None
    return f"bot {player.index} ({player.name}) {player.message}"
