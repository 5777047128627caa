"""``--verify GAME``: the bundle must answer exactly as the source bot does.

Each game is played twice with the same seed and the same opponent, once with the source bot and
once with the bundle (in the same seat); every answer of every turn must be byte-identical. On a
difference the source bot is played a second time: if it differs from itself, the bot is not
deterministic and the report says so instead of blaming the bundle.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import referee
from arena.botspec import BotSpec, BotSpecError, resolve
from arena.match import MatchOptions, MatchResult, Verdict, play_match

from .errors import VerifyError
from .graph import EntryPoint

__all__ = ["VerifiedGame", "source_spec", "bundle_spec", "verify", "DEFAULT_TIME_SCALE"]

DEFAULT_TIME_SCALE = 5.0
"""Verification compares answers, not speed: time limits are relaxed so that a loaded machine
does not turn a slow answer into a difference."""


@dataclass(frozen=True)
class VerifiedGame:
    """One seed on which the bundle answered exactly as the source bot."""

    seed: int
    seat: int
    turns: int
    answers: int


def source_spec(entry: EntryPoint, libs: Sequence[Path] = ()) -> BotSpec:
    """How the source bot runs normally: ``python -u bot.py``, or ``python -u -m pkg.main`` from
    the package root, with the ``--lib`` directories on ``PYTHONPATH``."""
    env: dict[str, str] = {}
    if libs:
        paths = [str(Path(p).resolve()) for p in libs]
        if os.environ.get("PYTHONPATH"):
            paths.append(os.environ["PYTHONPATH"])
        env["PYTHONPATH"] = os.pathsep.join(paths)
    argv = (sys.executable, "-u", *entry.run_args())
    name = entry.path.stem if entry.is_script else entry.module
    return BotSpec(name=f"source:{name}", argv=argv, cwd=str(entry.root), env=env)


def bundle_spec(path: Path, game: str) -> BotSpec:
    try:
        spec = resolve(str(path), game)
    except BotSpecError as exc:
        raise VerifyError(f"cannot run the bundle: {exc}") from None
    return BotSpec(name=f"bundle:{path.name}", argv=spec.argv, cwd=spec.cwd, env=spec.env)


def _answers(result: MatchResult, seat: int) -> list[tuple[int, str | None]]:
    return [(frame.turn, e.output) for frame in result.frames for e in frame.executions
            if e.player == seat and e.expected_lines]


def _first_difference(a: MatchResult, b: MatchResult, seat: int) -> str | None:
    """Where two recordings of the same seat part (answers first, then the end), or None."""
    left, right = _answers(a, seat), _answers(b, seat)
    for (turn, x), (_, y) in zip(left, right):
        if x != y:
            return f"turn {turn}: {x!r} against {y!r}"
    if len(left) != len(right):
        return f"{len(left)} answers against {len(right)}"
    if a.players[seat].verdict != b.players[seat].verdict:
        return f"{a.players[seat].verdict.value} against {b.players[seat].verdict.value}"
    return None


def _play(game: str, seed: int, seat: int, bot: BotSpec, opponent: BotSpec,
          options: MatchOptions) -> MatchResult:
    seats = [bot, opponent] if seat == 0 else [opponent, bot]
    result = play_match(game, seed, seats, options)
    if result.interrupted:
        raise KeyboardInterrupt
    return result


def verify(
    game: str,
    source: BotSpec,
    bundle: BotSpec,
    opponent: BotSpec | None = None,
    seeds: Sequence[int] = (1, 2),
    time_scale: float = DEFAULT_TIME_SCALE,
) -> list[VerifiedGame]:
    """Play every seed with the source bot and with the bundle (alternating seats) and return
    the games, or raise :class:`VerifyError` naming the first difference."""
    try:
        players = referee.get(game)(0, None).player_count
    except referee.UnknownGame as exc:
        raise VerifyError(str(exc)) from None
    if players != 2:
        raise VerifyError(f"{game}: verification plays two-player games only")
    opponent = opponent or source
    options = MatchOptions(record=True, time_scale=time_scale)
    games: list[VerifiedGame] = []
    for i, seed in enumerate(seeds):
        seat = i % 2
        original = _play(game, seed, seat, source, opponent, options)
        mine = original.players[seat]
        if mine.verdict is not Verdict.OK:
            raise VerifyError(f"seed {seed}: the source bot itself failed ({mine.verdict.value}: "
                              f"{mine.message})")
        bundled = _play(game, seed, seat, bundle, opponent, options)
        diff = _first_difference(original, bundled, seat)
        if diff is not None:
            again = _play(game, seed, seat, source, opponent, options)
            if _first_difference(original, again, seat) is not None or \
                    _first_difference(original, again, 1 - seat) is not None:
                raise VerifyError(f"seed {seed}: two runs of the source bot already differ, so the bot "
                                  f"(or its opponent) is not deterministic; give it a fixed seed or "
                                  f"setting to verify")
            raise VerifyError(f"seed {seed}, seat {seat}: the bundle differs from the source bot at "
                              f"{diff} (source against bundle)")
        games.append(VerifiedGame(seed, seat, original.turns, len(_answers(original, seat))))
    return games
