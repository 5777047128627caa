"""``--verify GAME``: the bundle must answer exactly as the source bot does.

Each game is played twice with the same seed and the same opponent, once with the source bot and
once with the bundle (in the same seat); every answer of every turn must be byte-identical. On a
difference the source bot is played a second time: if it differs from itself, the bot is not
deterministic and the report says so instead of blaming the bundle.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena import ArenaError, Bot, Seat, play_recorded
from arena.match.launch.pymodule import PythonEntry

from .errors import VerifyError

__all__ = ["VerifiedGame", "source_bot", "bundle_bot", "verify", "DEFAULT_TIME_SCALE"]

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


def source_bot(
    entry: PythonEntry, libs: Sequence[Path] = (), args: Sequence[str] = (), env: Mapping[str, str] | None = None
) -> Bot:
    """How the source bot runs normally: ``python -u bot.py``, or ``python -u -m pkg.main`` from
    the package root, with the variables ``env`` (``--env``) and the ``--lib`` directories first
    on ``PYTHONPATH`` (then that of ``env``, else ours: a sandboxed bot sees these folders)."""
    env = dict(env or {})
    if libs:
        paths = [str(Path(p).resolve()) for p in libs]
        rest = env.get("PYTHONPATH", os.environ.get("PYTHONPATH"))
        if rest:
            paths.append(rest)
        env["PYTHONPATH"] = os.pathsep.join(paths)
    argv = (sys.executable, "-u", *entry.run_args(), *args)
    name = entry.path.stem if entry.is_script else entry.module
    return Bot(argv=argv, cwd=str(entry.root), env=env, name=f"source:{name}")


def bundle_bot(path: Path, args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> Bot:
    """How the bundle runs: ``python -u bundle.py ARGS``, with the variables ``env`` (not the
    ``--lib`` folders: the bundle must run without them)."""
    argv = (sys.executable, "-u", str(Path(path).resolve()), *args)
    return Bot(argv=argv, env=dict(env or {}), name=f"bundle:{Path(path).name}")


def _shown(answer: tuple[str, ...] | None) -> str:
    return "no answer" if answer is None else repr("\n".join(answer))


def _first_difference(a: Seat, b: Seat) -> str | None:
    """Where two recordings of the same seat part (answers first, then the end), or None."""
    for (turn, x), (_, y) in zip(a.answers, b.answers):
        if x != y:
            return f"turn {turn}: {_shown(x)} against {_shown(y)}"
    if len(a.answers) != len(b.answers):
        return f"{len(a.answers)} answers against {len(b.answers)}"
    if a.status != b.status:
        return f"{a.status} against {b.status}"
    return None


def _play(
    game: str, seed: int, seat: int, bot: str | Bot, opponent: str | Bot, time_scale: float, sandbox: str
) -> list[Seat]:
    seats = [bot, opponent] if seat == 0 else [opponent, bot]
    try:
        return play_recorded(game, seed, seats, time_scale=time_scale, sandbox=sandbox)
    except ArenaError as exc:
        raise VerifyError(str(exc)) from None


def verify(
    game: str,
    source: str | Bot,
    bundle: str | Bot,
    opponent: str | Bot | None = None,
    seeds: Sequence[int] = (1, 2),
    time_scale: float = DEFAULT_TIME_SCALE,
    sandbox: str = "auto",
) -> list[VerifiedGame]:
    """Play every seed with the source bot and with the bundle (alternating seats, two-player
    games; in the sandbox as ``sandbox`` says: ``auto``, ``on`` or ``off``) and return the games,
    or raise :class:`VerifyError` naming the first difference."""
    opponent = opponent or source
    games: list[VerifiedGame] = []
    for i, seed in enumerate(seeds):
        seat = i % 2
        original = _play(game, seed, seat, source, opponent, time_scale, sandbox)
        mine = original[seat]
        if not mine.ok:
            raise VerifyError(f"seed {seed}: the source bot itself failed ({mine.status}: {mine.message})")
        bundled = _play(game, seed, seat, bundle, opponent, time_scale, sandbox)
        diff = _first_difference(original[seat], bundled[seat])
        if diff is not None:
            again = _play(game, seed, seat, source, opponent, time_scale, sandbox)
            if any(_first_difference(x, y) is not None for x, y in zip(original, again)):
                raise VerifyError(
                    f"seed {seed}: two runs of the source bot already differ, so the bot "
                    f"(or its opponent) is not deterministic; give it a fixed seed or "
                    f"setting to verify"
                )
            raise VerifyError(
                f"seed {seed}, seat {seat}: the bundle differs from the source bot at {diff} (source against bundle)"
            )
        games.append(VerifiedGame(seed, seat, mine.turns, len(mine.answers)))
    return games
