"""The exact ``arena play`` command that plays a match again: every option that changes the game
or its judging, shell-quoted, so it can be pasted into a shell."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena import paths
from arena.ladder.settings import is_ladder
from arena.match.launch.botspec import BotSpec, is_bot_name
from arena.match.limits import DEFAULT_MEMORY_LIMIT_MB
from arena.match.settings import PlaySettings
from arena.store.records import GameRecord, TournamentRow
from arena.tournament.entries import BotEntry
from referee import LEAGUE

__all__ = [
    "play_again_command",
    "play_command",
    "bot_argument",
    "game_command",
    "stored_game_command",
    "ladder_game_command",
    "version_game_command",
]


def play_command(
    settings: PlaySettings,
    bots: Sequence[str],
    seed: int,
    *,
    swap: bool = False,
    no_timeout: bool = False,
    cwd: str | None = None,
    sandboxed: bool | None = None,
    data: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """``[cd DIR &&] arena play GAME BOT... --seed S [--data N=PATH ...] [options] [--sandbox on|off]
    [--lib DIR ...] [--env NAME=VALUE ...]``: the game played as ``settings`` say (their library
    folders, and the variables the bots need, given with ``--env``: the sandbox clears the caller's
    environment), ``bots`` in the order given on the command line, ``cwd`` the directory relative
    paths are taken from, ``data`` the files each bot reads, by its place among ``bots`` (from 1),
    in ``--data N=PATH`` order.

    ``sandboxed`` is whether the bots *did* run in the sandbox, and the command asks for exactly
    that, whatever mode was asked (``auto`` included): ``--sandbox on`` for a sandboxed game, so
    that playing it again where bots cannot be sandboxed fails in one line instead of playing
    unsandboxed; ``--sandbox off`` for a game played without the sandbox (asked for, or ``auto``
    where bubblewrap does not work). ``None`` (not known: a game stored before games recorded it)
    leaves the option out."""
    words = ["arena", "play", settings.game, *bots, "--seed", str(seed)]
    for place, files in sorted((data or {}).items()):
        for path in files:
            words += ["--data", f"{place}={path}"]
    if swap:
        words.append("--swap")
    if settings.time_scale != 1.0:
        words += ["--time-scale", repr(settings.time_scale)]
    if settings.time_margin_ms:
        words += ["--time-margin", f"{settings.time_margin_ms:g}"]
    if no_timeout:
        words.append("--no-timeout")
    if settings.memory_limit_mb is not None and settings.memory_limit_mb != DEFAULT_MEMORY_LIMIT_MB:
        words += ["--memory-limit", str(settings.memory_limit_mb)]
    for key, value in sorted(settings.game_params().items()):
        words += ["--league", str(value)] if key == LEAGUE else ["--param", f"{key}={value}"]
    if sandboxed is not None:
        words += ["--sandbox", "on" if sandboxed else "off"]
    for lib in settings.libs:
        words += ["--lib", lib]
    for key, value in sorted(settings.env.items()):  # the sandbox clears the caller's environment
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


def game_command(settings: PlaySettings, entries: Mapping[str, BotEntry], record: GameRecord) -> str:
    """The ``arena play`` command that plays a tournament game again: its bots in their seats, its
    seed, the tournament's limits and parameters (``settings``), the bots' data files
    (``--data N=PATH``, N the seat counted from 1), environment and folder, and the sandbox as the
    game ran in it (:func:`play_command`). For a game stored without saying whether it was
    sandboxed, the tournament's mode ``on`` or ``off`` still tells (``auto`` does not: no option)."""
    seated = [entries[name] for name in record.seats]
    env = {k: v for e in seated for k, v in e.env.items()}
    base = next((e.base for e in seated if e.base is not None), None)
    data = {seat: [_data_path(d, e.base, base) for d in e.data] for seat, e in enumerate(seated, 1) if e.data}
    sandboxed = record.sandboxed
    if sandboxed is None and settings.sandbox in ("on", "off"):
        sandboxed = settings.sandbox == "on"
    played = PlaySettings.from_dict({**_stored(settings), "env": env})  # the bots' env holds the libs
    bots = [bot_argument(e) for e in seated]
    return play_command(played, bots, record.seed, cwd=base, sandboxed=sandboxed, data=data)


def _stored(settings: PlaySettings) -> dict[str, Any]:
    """``settings`` as a stored tournament holds them, without ``lib`` and ``env``."""
    return {
        "game": settings.game, "league": settings.league, "params": dict(settings.params),
        "time_scale": settings.time_scale, "time_margin": settings.time_margin_ms,
        "memory_limit_mb": settings.memory_limit_mb, "sandbox": settings.sandbox,
    }  # fmt: skip


def _data_path(text: str, base: str | None, cwd: str | None) -> str:
    """A data path of a bot whose relative paths are taken from ``base``, as written in a command
    run from ``cwd``: as in its config, unless the two folders differ."""
    if base is None or base == cwd or paths.expanded(text).is_absolute():
        return text
    return str(paths.located(text, base))


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
    return game_command(PlaySettings.from_dict(settings), entries, record)


def ladder_game_command(settings: Mapping[str, Any], specs: Mapping[str, BotSpec], record: GameRecord) -> str:
    """The ``arena play`` command that plays a ladder game again: its bots' frozen versions
    (``specs``, by name) in their seats, its seed, the ladder's settings."""
    seated = [specs[name] for name in record.seats]
    env = {k: v for s in seated for k, v in s.env.items()}
    cwd = next((s.cwd for s in seated if s.cwd is not None), None)
    data = {seat: list(s.data) for seat, s in enumerate(seated, 1) if s.data}
    words = [shlex.join(s.argv) for s in seated]
    bots = [named(s.name, w) for s, w in zip(seated, words)]
    played = PlaySettings.from_dict({**settings, "env": {**(settings.get("env") or {}), **env}})
    return play_command(played, bots, record.seed, cwd=cwd, sandboxed=record.sandboxed, data=data)


def version_game_command(settings: Mapping[str, Any], labels: Mapping[str, str], record: GameRecord, db: str) -> str:
    """The ``arena play`` command that plays a stored game again with the versions that played it
    (``labels``: ``mybot@2`` by bot name; ``NAME=`` keeps each bot's name), read from ``db``:
    from anywhere, whatever its sources became since."""
    bots = [named(name, labels[name]) for name in record.seats]
    played = PlaySettings.from_dict(settings)
    command = play_command(played, bots, record.seed, sandboxed=record.sandboxed)
    return f"{command} --db {shlex.quote(db)}"


def play_again_command(db: str | Path, row: TournamentRow, record: GameRecord) -> str:
    """The command that plays the stored game ``record`` of ``db`` again (``arena matches show``
    and the dashboard print it): a tournament's with its bots as its config names them (their
    sources: as they are now); a ladder's with the versions that played it, from anywhere (with
    its frozen bots where they are not recorded as versions)."""
    if not is_ladder(row.settings):
        return stored_game_command(row.settings, record)
    from arena.ladder.commands import bot_specs
    from arena.store.results import Store
    from arena.versions.registry import labels

    with Store(db, read_only=True) as store:
        played = labels(store, row.id)
    if all(name in played for name in record.seats):
        return version_game_command(row.settings, played, record, str(db))
    return ladder_game_command(row.settings, bot_specs(db, row.id), record)
