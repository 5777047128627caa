"""The arena's API for other tools: play one recorded match and get each seat's answers.

This is the entry point the bundler plays through (``bundle --verify``), and the stable one for
scripts: everything else in :mod:`arena` may change shape between releases. The bundler uses one
other piece of the arena: :mod:`arena.match.launch.pymodule`, how the path of a Python bot runs.

>>> from arena import Bot, play_recorded
>>> seats = play_recorded("spring2021", 1, ["greedy", Bot(("python3", "-u", "my_bot.py"))])
>>> seats[1].answers[:2]  # (engine turn, answer lines or None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import referee

from .errors import ArenaError
from .match.launch.botspec import BotSpec, resolve
from .match.loop import MatchOptions, play_match
from .match.result import MatchResult, Verdict
from .match.sandbox import SandboxMode, decide

__all__ = ["Bot", "Seat", "ArenaError", "play_recorded"]


@dataclass(frozen=True)
class Bot:
    """A bot given by its exact command: ``argv`` run in ``cwd`` with ``env`` added."""

    argv: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    name: str = ""


@dataclass(frozen=True)
class Seat:
    """How one seat's bot played a match."""

    name: str
    answers: tuple[tuple[int, tuple[str, ...] | None], ...]
    """``(engine turn, answer lines)`` for every turn it was asked for an answer (``None``: they
    did not all come in time)."""
    status: str
    """``ok``, ``timeout``, ``crash``, ``invalid`` or ``memory`` (past the memory limit)."""
    message: str
    turns: int
    """Engine turns the match lasted."""

    @property
    def ok(self) -> bool:
        """Whether the bot played the whole match (no timeout, crash or invalid answer)."""
        return self.status == Verdict.OK


def play_recorded(
    game: str, seed: int, bots: Sequence[str | Bot], *, time_scale: float = 1.0, sandbox: str = "auto"
) -> list[Seat]:
    """Play one match of ``game`` with ``bots`` in seat order (a string is a BOT as ``arena play``
    takes it: a file, a folder, a command or a shipped name) and return every seat's answers.
    ``sandbox`` is ``auto``, ``on`` or ``off``, as ``arena play --sandbox`` (a sandboxed bot sees
    the folders of the ``PYTHONPATH`` in its ``env``).

    Raises :class:`ArenaError` before playing when a bot cannot be resolved, the game is unknown,
    the number of bots is wrong or ``sandbox`` is ``on`` where bots cannot be sandboxed;
    ``KeyboardInterrupt`` when the match was interrupted.
    """
    try:
        rules = referee.get(game)
    except referee.UnknownGame as exc:
        raise ArenaError(str(exc)) from None
    if len(bots) != rules.player_count:
        raise ArenaError(f"{rules.name} is played by {rules.player_count} bots, got {len(bots)}")
    specs = [_spec(bot, game, i) for i, bot in enumerate(bots)]
    try:
        mode = SandboxMode(sandbox)
    except ValueError:
        raise ArenaError(f"sandbox {sandbox!r}: expected auto, on or off") from None
    decide(mode)  # SandboxUnavailable, an ArenaError, for "on" where bots cannot be sandboxed
    result = play_match(game, seed, specs, MatchOptions(record=True, time_scale=time_scale, sandbox=mode))
    if result.interrupted:
        raise KeyboardInterrupt
    return [_seat(result, i) for i in range(len(specs))]


def _spec(bot: str | Bot, game: str, seat: int) -> BotSpec:
    if isinstance(bot, Bot):
        return BotSpec(name=bot.name or f"seat{seat}", argv=bot.argv, cwd=bot.cwd, env=dict(bot.env))
    return resolve(bot, game)  # BotSpecError, an ArenaError


def _seat(result: MatchResult, seat: int) -> Seat:
    player = result.players[seat]
    answers = tuple(
        (frame.turn, e.output)
        for frame in result.frames
        for e in frame.executions
        if e.player == seat and e.expected_lines
    )
    return Seat(
        name=player.name,
        answers=answers,
        status=player.verdict.value,
        message=player.message,
        turns=result.outcome.turns if result.outcome else result.turns,
    )
