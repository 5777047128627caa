"""The exact ``arena play`` command that plays a match again: every option that changes the game
or its judging, shell-quoted, so it can be pasted into a shell."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena import paths
from arena.match.launch.botspec import BotSpec, is_bot_name
from arena.match.limits import DEFAULT_MEMORY_LIMIT_MB
from arena.store.records import GameRecord
from arena.tournament.entries import BotEntry
from referee import LEAGUE

__all__ = ["play_command", "bot_argument", "game_command", "stored_game_command", "ladder_game_command"]


def play_command(
    game: str,
    bots: Sequence[str],
    seed: int,
    *,
    swap: bool = False,
    time_scale: float = 1.0,
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    no_timeout: bool = False,
    params: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    time_margin_ms: float = 0.0,
    cwd: str | None = None,
    sandboxed: bool | None = None,
    data: Mapping[int, Sequence[str]] | None = None,
    libs: Sequence[str] = (),
) -> str:
    """``[cd DIR &&] arena play GAME BOT... --seed S [--data N=PATH ...] [options] [--sandbox on|off]
    [--lib DIR ...] [--env NAME=VALUE ...]``: ``bots`` in the order given on the command line,
    ``libs`` their library folders, ``env`` the variables the bots need (given with ``--env``: the
    sandbox clears the caller's environment), ``cwd`` the directory relative paths are taken from,
    ``data`` the files each bot reads, by its place among ``bots`` (from 1), in ``--data N=PATH`` order.

    ``sandboxed`` is whether the bots *did* run in the sandbox, and the command asks for exactly
    that, whatever mode was asked (``auto`` included): ``--sandbox on`` for a sandboxed game, so
    that playing it again where bots cannot be sandboxed fails in one line instead of playing
    unsandboxed; ``--sandbox off`` for a game played without the sandbox (asked for, or ``auto``
    where bubblewrap does not work). ``None`` (not known: a game stored before games recorded it)
    leaves the option out."""
    words = ["arena", "play", game, *bots, "--seed", str(seed)]
    for place, files in sorted((data or {}).items()):
        for path in files:
            words += ["--data", f"{place}={path}"]
    if swap:
        words.append("--swap")
    if time_scale != 1.0:
        words += ["--time-scale", repr(time_scale)]
    if time_margin_ms:
        words += ["--time-margin", f"{time_margin_ms:g}"]
    if no_timeout:
        words.append("--no-timeout")
    if memory_limit_mb is not None and memory_limit_mb != DEFAULT_MEMORY_LIMIT_MB:
        words += ["--memory-limit", str(memory_limit_mb)]
    for key, value in sorted((params or {}).items()):
        words += ["--league", str(value)] if key == LEAGUE else ["--param", f"{key}={value}"]
    if sandboxed is not None:
        words += ["--sandbox", "on" if sandboxed else "off"]
    for lib in libs:
        words += ["--lib", lib]
    for key, value in sorted((env or {}).items()):  # the sandbox clears the caller's environment
        words += ["--env", f"{key}={value}"]
    text = shlex.join(words)
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
    return named(entry.name, text)


def named(name: str, text: str) -> str:
    """``NAME=BOT``, or ``BOT`` alone when it is its own name (``greedy``, never ``greedy=greedy``)
    or the name cannot be written so."""
    return f"{name}={text}" if is_bot_name(name) and name != text else text


def game_command(
    game: str,
    entries: Mapping[str, BotEntry],
    record: GameRecord,
    *,
    time_scale: float = 1.0,
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    params: Mapping[str, str] | None = None,
    sandbox: str = "auto",
    time_margin_ms: float = 0.0,
) -> str:
    """The ``arena play`` command that plays a tournament game again: its bots in their seats, its
    seed, the tournament's limits and parameters, the bots' data files (``--data N=PATH``, N the
    seat counted from 1), environment and folder, and the sandbox as the game ran in it
    (:func:`play_command`). ``sandbox`` is the tournament's mode: for a game stored without saying
    whether it was sandboxed, ``on`` and ``off`` still tell (``auto`` does not: no option)."""
    seated = [entries[name] for name in record.seats]
    env = {k: v for e in seated for k, v in e.env.items()}
    base = next((e.base for e in seated if e.base is not None), None)
    data = {seat: [_data_path(d, e.base, base) for d in e.data] for seat, e in enumerate(seated, 1) if e.data}
    sandboxed = record.sandboxed
    if sandboxed is None and sandbox in ("on", "off"):
        sandboxed = sandbox == "on"
    return play_command(
        game,
        [bot_argument(e) for e in seated],
        record.seed,
        time_scale=time_scale,
        memory_limit_mb=memory_limit_mb,
        params=params,
        env=env,
        time_margin_ms=time_margin_ms,
        cwd=base,
        sandboxed=sandboxed,
        data=data,
    )


def _data_path(text: str, base: str | None, cwd: str | None) -> str:
    """A data path of a bot whose relative paths are taken from ``base``, as written in a command
    run from ``cwd``: as in its config, unless the two folders differ."""
    if base is None or base == cwd or paths.expanded(text).is_absolute():
        return text
    return str(Path(base) / paths.expanded(text))


def stored_game_command(settings: Mapping[str, Any], record: GameRecord) -> str:
    """:func:`game_command` from a stored tournament's settings (what ``arena matches show`` prints)."""
    dirs = settings.get("bot_dirs") or {}
    entries = {
        b["name"]: BotEntry(
            name=b["name"],
            bot=b["bot"],
            args=tuple(b.get("args") or ()),
            env=dict(b.get("env") or {}),
            base=dirs.get(b["name"]),
            data=tuple(b.get("data") or ()),
        )
        for b in settings.get("bots", [])
    }
    return game_command(
        str(settings["game"]),
        entries,
        record,
        time_scale=float(settings.get("time_scale", 1.0)),
        memory_limit_mb=settings.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB),
        params={
            **(settings.get("params") or {}),
            **({LEAGUE: str(settings["league"])} if "league" in settings else {}),
        },
        sandbox=str(settings.get("sandbox") or "auto"),
        time_margin_ms=float(settings.get("time_margin") or 0.0),
    )


def ladder_game_command(settings: Mapping[str, Any], specs: Mapping[str, BotSpec], record: GameRecord) -> str:
    """The ``arena play`` command that plays a ladder game again: its bots' frozen versions
    (``specs``, by name) in their seats, its seed, the ladder's settings."""
    seated = [specs[name] for name in record.seats]
    env = {k: v for s in seated for k, v in s.env.items()}
    cwd = next((s.cwd for s in seated if s.cwd is not None), None)
    data = {seat: list(s.data) for seat, s in enumerate(seated, 1) if s.data}
    words = [shlex.join(s.argv) for s in seated]
    bots = [named(s.name, w) for s, w in zip(seated, words)]
    return play_command(
        str(settings["game"]),
        bots,
        record.seed,
        time_scale=float(settings.get("time_scale", 1.0)),
        memory_limit_mb=settings.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB),
        params={
            **(settings.get("params") or {}),
            **({LEAGUE: str(settings["league"])} if settings.get("league") is not None else {}),
        },
        env=env,
        cwd=cwd,
        sandboxed=record.sandboxed,
        data=data,
    )
