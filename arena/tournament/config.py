"""Tournament settings: a YAML file or flags -> frozen dataclasses; keys: docs/reference/config.md."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import referee

from .. import paths
from ..match.seeds import SeedError, parse_seed_list
from ..match.settings import PlaySettings
from ..settings import (
    DEFAULT_DB,
    DEFAULT_MAX_FAILURES,
    MAX_GAMES,
    SETTINGS,
    ConfigError,
    integer,
    read_play_settings,
    read_workers,
    setting,
    text,
)
from ..stats.sprt import SprtParams
from .botenv import file_libs, with_shared
from .configfile import read_config_file
from .entries import BotEntry, SweepSettings, check_data, read_bots, read_sweep, with_variants
from .schedule import Format

__all__ = ["ConfigError", "TournamentConfig", "load_config", "config_from_mapping", "DEFAULT_DB"]

_TOP_KEYS = {s.key.split(".")[0] for s in SETTINGS}


@dataclass(frozen=True)
class TournamentConfig(PlaySettings):
    """Everything a tournament needs: how its games are played (the :class:`PlaySettings` it
    extends) and what it schedules. ``bots`` are the bots actually played (sweep variants
    expanded; the settings' ``libs`` and ``env`` already in each bot's environment);
    :meth:`schedule_key` is what must not change for a run to be resumed. Not part of the
    schedule: ``time_margin_ms``, ``max_failures``, ``replays``, ``sandbox`` (each game records
    whether its bots were sandboxed), where the games are played and how many at once; and the
    league, whose change is refused by name."""

    bots: tuple[BotEntry, ...] = ()
    format: str = Format.GAUNTLET.value
    baseline: str | None = None
    games: int = 100
    seed: int = 0
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    sprt: SprtParams | None = None
    sweep: SweepSettings | None = None
    db: str = DEFAULT_DB
    seeds: tuple[int, ...] | None = None
    """The maps to play, in order, instead of seeds derived from ``seed``."""
    max_failures: float = DEFAULT_MAX_FAILURES
    """Stop when a bot fails in more than this share of its first
    :data:`arena.runner.runner.FAILURE_WINDOW` games (1 never stops)."""
    executor: str = "local"
    """Where games are played: ``local`` (worker processes here) or ``dask`` (a Dask cluster:
    :mod:`arena.runner.dask_executor`)."""
    scheduler: str | None = None
    """``executor: dask``: the scheduler's address (``tcp://HOST:8786``)."""
    local_cluster: int | None = None
    """``executor: dask``: instead of a scheduler, a Dask cluster of this many workers made here."""
    players: int = 2
    """Seats per game (from the game; not a setting of its own, so not stored)."""
    notes: tuple[str, ...] = field(default=(), compare=False)
    """What was adjusted in the settings as given (e.g. an odd game count rounded), for the user."""

    @property
    def pairs(self) -> int:
        """Seeds per comparison, each played once per seat (two players: a pair of games, seats
        swapped). ``games`` is always a multiple of the seats."""
        return -(-self.games // self.players)

    def bot(self, name: str) -> BotEntry:
        for b in self.bots:
            if b.name == name:
                return b
        raise KeyError(name)

    def schedule_key(self) -> dict[str, Any]:
        """The settings that define the games and how they are judged. ``games``, ``workers``
        and ``db`` are left out: a resumed run may ask for more games or other workers."""
        return {
            "game": self.game,
            "bots": [b.to_dict() for b in self.bots],
            "format": self.format,
            "baseline": self.baseline,
            "seed": self.seed,
            "time_scale": self.time_scale,
            "memory_limit_mb": self.memory_limit_mb,
            "params": dict(sorted(self.params.items())),
            "sprt": asdict(self.sprt) if self.sprt else None,
            "sweep": self.sweep.to_dict() if self.sweep else None,
            **({"seeds": list(self.seeds)} if self.seeds is not None else {}),
        }

    def to_dict(self) -> dict[str, Any]:
        out = self.schedule_key()
        out.update(games=self.games, workers=self.workers, db=self.db, max_failures=self.max_failures)
        out["bot_dirs"] = {b.name: b.base for b in self.bots if b.base is not None}
        if self.replays is not None:
            out.update(replays=self.replays, keep=self.keep)
        out["sandbox"] = self.sandbox
        if self.league is not None:
            out["league"] = self.league
        if self.time_margin_ms:
            out["time_margin"] = self.time_margin_ms
        return out


# -- reading -----------------------------------------------------------------------------------


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read a YAML config; ``overrides`` (settings from flags, see
    :func:`arena.settings.flags_to_mapping`; their relative paths are taken from the
    current directory) replace the file's. Relative paths in the file are taken from its
    directory."""
    path = Path(path)
    merged = read_config_file(path)
    base = path.resolve().parent
    file_libs(merged, base)
    for key in ("db", "replays"):
        if isinstance(merged.get(key), str) and merged[key] and not paths.expanded(merged[key]).is_absolute():
            merged[key] = str(base / merged[key])
    if isinstance(merged.get("seeds"), str) and paths.is_file(base / merged["seeds"]):
        merged["seeds"] = str(base / merged["seeds"])
    overrides = overrides or {}
    if any(overrides.get(k) is not None for k in ("games", "pairs", "seeds")):
        for k in ("games", "pairs", "seeds"):  # a flag's count replaces the file's, whichever kind
            merged.pop(k, None)
    for key, value in overrides.items():
        if value is None:
            continue
        if key in ("sprt", "params", "sweep") and isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}  # a flag changes one setting of the file's
        else:
            merged[key] = value
    try:
        return config_from_mapping(merged, base=base)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def config_from_mapping(data: Mapping[str, Any], base: Path | None = None) -> TournamentConfig:
    """Validate settings (a parsed config file, or flags) into a :class:`TournamentConfig`.
    ``base``: the directory the bots' relative paths are taken from (default: the current one)."""
    unknown = sorted(str(k) for k in set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    game, players = _game(data)
    play = read_play_settings(data, game)  # a file's relative lib: folders are made absolute from it before
    bots = read_bots(data.get("bots"), base)
    fmt = setting("format").value(data, default=(Format.GAUNTLET if players == 2 else Format.ROUND_ROBIN).value)
    games, seeds, notes = _games(data, players)
    sprt = _sprt(data.get("sprt"))
    sweep = read_sweep(data.get("sweep"), bots)
    bots, baseline = with_variants(bots, sweep, fmt, setting("baseline").value(data))
    bots = with_shared(bots, play.libs, play.env)
    for entry in bots:  # after the sweep: a data path may hold a {placeholder}
        check_data(entry)
    if len(bots) < players:
        raise ConfigError(f"{game} needs at least {players} bots, got {len(bots)}")
    if players != 2:
        _two_bots_only(game, players, fmt, sprt, sweep)
    workers = read_workers(data)
    seed = setting("seed").value(data)
    db = setting("db").value(data) or DEFAULT_DB
    if (reason := paths.unusable(db)) is not None:
        raise ConfigError(f"db: {db}: {reason}")
    return TournamentConfig(
        **{f.name: getattr(play, f.name) for f in fields(PlaySettings)},
        bots=tuple(bots),
        format=fmt,
        baseline=baseline,
        games=games,
        seed=seed,
        workers=workers.count,
        sprt=sprt,
        sweep=sweep,
        db=str(db),
        seeds=seeds,
        max_failures=setting("max_failures").value(data),
        players=players,
        notes=tuple(notes),
        executor=workers.executor,
        scheduler=workers.scheduler,
        local_cluster=workers.local_cluster,
    )


def _game(data: Mapping[str, Any]) -> tuple[str, int]:
    """The game's canonical name and its number of players."""
    if "game" not in data:
        raise ConfigError("missing setting 'game' (e.g. game: spring2021)")
    try:
        game = referee.canonical_name(text(data["game"], "game"))
        return game, referee.get(game).player_count
    except referee.UnknownGame as exc:
        raise ConfigError(str(exc)) from None


def _games(data: Mapping[str, Any], players: int) -> tuple[int, tuple[int, ...] | None, list[str]]:
    """(games per comparison, the listed seeds or ``None``, notes): from ``games`` (rounded up to
    whole seeds), ``pairs`` or ``seeds``, one of them."""
    counts = [k for k in ("games", "pairs", "seeds") if data.get(k) is not None]
    if len(counts) > 1:
        raise ConfigError(
            f"give one of 'games', 'pairs' or 'seeds', not {' and '.join(repr(k) for k in counts)} "
            "(a seed list plays each seed once per seat)"
        )
    if data.get("seeds") is not None:
        try:
            seeds = parse_seed_list(data["seeds"])
        except SeedError as exc:
            raise ConfigError(f"seeds: {exc}") from None
        return players * len(seeds), seeds, []
    if data.get("pairs") is not None:
        return players * integer(1, MAX_GAMES // players)(data["pairs"], "pairs"), None, []
    asked = setting("games").value(data)
    games = -(-asked // players) * players
    if games == asked:
        return games, None, []
    note = f"games {asked} rounded up to {games}: each seed is played once per seat ({players} games per seed)"
    return games, None, [note]


def _two_bots_only(game: str, players: int, fmt: str, sprt: SprtParams | None, sweep: SweepSettings | None) -> None:
    """An N-player game has no head-to-head statistics."""
    for what, given in (
        ("format: gauntlet", fmt == Format.GAUNTLET),
        ("sprt", sprt is not None),
        ("sweep", sweep is not None),
    ):
        if given:
            raise ConfigError(
                f"{what} compares two bots head to head: {game} is a {players}-player game, "
                "use format: round-robin (rated with openskill)"
            )


def _sprt(raw: Any) -> SprtParams | None:
    if raw is None or raw is False:
        return None
    if raw is True:
        return SprtParams()
    if not isinstance(raw, dict):
        raise ConfigError("sprt: expected a mapping (elo0, elo1, alpha, beta, model)")
    names = ("elo0", "elo1", "alpha", "beta", "model")
    unknown = sorted(str(k) for k in set(raw) - set(names))
    if unknown:
        raise ConfigError(f"sprt: unknown key {unknown[0]!r} (known: {', '.join(names)})")
    elo0, elo1, alpha, beta, model = (setting(f"sprt.{name}").value(raw) for name in names)
    if elo1 <= elo0:
        raise ConfigError(f"sprt: elo1 ({elo1}) must be greater than elo0 ({elo0})")
    return SprtParams(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model=model)
