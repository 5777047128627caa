"""The exact ``arena play`` command that plays a match again: every option that changes the game
or its judging, shell-quoted, so it can be pasted into a shell."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..match.botspec import is_bot_name
from ..match.process import DEFAULT_MEMORY_LIMIT_MB
from ..tournament.config import BotEntry
from ..tournament.store import GameRecord

__all__ = ["play_command", "bot_argument", "game_command", "stored_game_command"]


def play_command(game: str, bots: Sequence[str], seed: int, *, swap: bool = False, time_scale: float = 1.0,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB, no_timeout: bool = False,
                 params: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None,
                 cwd: str | None = None) -> str:
    """``[cd DIR &&] [NAME=VALUE ...] arena play GAME BOT... --seed S [options]``: ``bots`` in the
    order given on the command line, ``env`` the variables the bots need, ``cwd`` the directory
    relative paths are taken from."""
    words = ["arena", "play", game, *bots, "--seed", str(seed)]
    if swap:
        words.append("--swap")
    if time_scale != 1.0:
        words += ["--time-scale", repr(time_scale)]
    if no_timeout:
        words.append("--no-timeout")
    if memory_limit_mb is not None and memory_limit_mb != DEFAULT_MEMORY_LIMIT_MB:
        words += ["--memory-limit", str(memory_limit_mb)]
    for key, value in sorted((params or {}).items()):
        words += ["--param", f"{key}={value}"]
    text = shlex.join(words)
    if env:
        text = " ".join(shlex.quote(f"{k}={v}") for k, v in sorted(env.items())) + " " + text
    if cwd is not None:
        text = f"cd {shlex.quote(cwd)} && {text}"
    return text


def bot_argument(entry: BotEntry) -> str:
    """A tournament bot as one BOT argument of ``arena play``: ``NAME=BOT ARGS`` (relative paths
    as in its config: run the command from :attr:`BotEntry.base`)."""
    text = entry.bot
    if entry.args:
        whole = Path(entry.base or ".") / text
        words = [text] if whole.exists() else shlex.split(text)
        text = shlex.join([*words, *entry.args])
    return f"{entry.name}={text}" if is_bot_name(entry.name) else text


def game_command(game: str, entries: Mapping[str, BotEntry], record: GameRecord, *, time_scale: float = 1.0,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
                 params: Mapping[str, str] | None = None) -> str:
    """The ``arena play`` command that plays a tournament game again: its bots in their seats, its
    seed, the tournament's limits and parameters, the bots' environment and folder."""
    seated = [entries[name] for name in record.seats]
    env = {k: v for e in seated for k, v in e.env.items()}
    base = next((e.base for e in seated if e.base is not None), None)
    return play_command(game, [bot_argument(e) for e in seated], record.seed, time_scale=time_scale,
                        memory_limit_mb=memory_limit_mb, params=params, env=env, cwd=base)


def stored_game_command(settings: Mapping[str, Any], record: GameRecord) -> str:
    """:func:`game_command` from a stored tournament's settings (what ``arena matches show`` prints)."""
    dirs = settings.get("bot_dirs") or {}
    entries = {
        b["name"]: BotEntry(name=b["name"], bot=b["bot"], args=tuple(b.get("args") or ()),
                            env=dict(b.get("env") or {}), base=dirs.get(b["name"]))
        for b in settings.get("bots", [])
    }
    return game_command(str(settings["game"]), entries, record, time_scale=float(settings.get("time_scale", 1.0)),
                        memory_limit_mb=settings.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB),
                        params=settings.get("params") or {})
