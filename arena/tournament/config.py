"""Tournament settings: a YAML file or flags -> frozen dataclasses; keys: docs/reference/config.md."""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

import referee

from .. import paths
from ..errors import ArenaError
from ..match.launch.botspec import libs_first
from ..match.seeds import IntAsTextLoader, SeedError, parse_seed_list
from ..match.settings import PlaySettings
from ..settings import (
    DEFAULT_DB,
    DEFAULT_MAX_FAILURES,
    MAX_GAMES,
    SETTINGS,
    ConfigError,
    integer,
    lib_texts,
    read_play_settings,
    read_workers,
    setting,
    text,
)
from ..stats.sprt import SprtParams
from .entries import BotEntry, SweepSettings, check_data, read_bots, read_sweep, with_variants
from .schedule import Format

__all__ = [
    "ConfigError",
    "TournamentConfig",
    "load_config",
    "config_from_mapping",
    "DEFAULT_DB",
    "MAX_CONFIG_BYTES",
    "MAX_ALIAS_VALUES",
    "YamlLimitError",
    "check_aliases",
    "ConfigLoader",
    "read_config_file",
]

_TOP_KEYS = {s.key.split(".")[0] for s in SETTINGS}

MAX_CONFIG_BYTES = 16 << 20
"""A config file larger than this (16 MiB) is surely not one."""
MAX_ALIAS_VALUES = 10_000
"""YAML aliases (``*name``) may repeat at most this many values in all: enough to reuse settings,
far too few for an alias bomb (a few lines that expand to billions of values)."""


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
    _file_libs(merged, base)
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
    bots = _with_shared(bots, play.libs, play.env)
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


class YamlLimitError(ArenaError, yaml.YAMLError):
    """A YAML document refused before it is built: aliases repeating too many values, or an alias
    inside its own anchor."""


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def check_aliases(root: yaml.Node, limit: int = MAX_ALIAS_VALUES) -> None:
    """Raise :class:`YamlLimitError` when the aliases of the document ``root`` repeat more than
    ``limit`` values (its size with every alias expanded, less its size as written), or when an
    alias is inside its own anchor. Linear in the size as written: nothing is expanded."""
    cap = 1 << 62
    sizes: dict[int, int] = {}  # id(node) -> size with aliases expanded (capped)
    open_nodes: set[int] = set()  # the current node's ancestors
    written = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            sizes[key] = min(cap, 1 + sum(sizes[id(c)] for c in _children(node)))
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise YamlLimitError("an alias refers to the value that contains it (a recursive structure)")
        open_nodes.add(key)
        written += 1
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in sizes)
    if sizes[id(root)] - written > limit:
        raise YamlLimitError(
            f"its aliases (*name) repeat more than {limit:,} values; write the values out, or use fewer aliases"
        )


class ConfigLoader(IntAsTextLoader):
    """The config file's YAML loader: :class:`arena.match.seeds.IntAsTextLoader` (integers as
    the command line reads them), refusing alias bombs (:func:`check_aliases`)."""

    def construct_document(self, node: yaml.Node) -> Any:
        check_aliases(node)
        return super().construct_document(node)


def read_config_file(path: Path) -> dict[str, Any]:
    """The settings in the config file ``path`` (an empty file has none), read safely: YAML with
    integers read as the command line reads them, alias bombs and recursive aliases refused
    (:class:`ConfigLoader`), and every problem (no file, not UTF-8, not YAML, not a mapping) a
    :class:`ConfigError`, one line naming the file."""
    path = Path(path)
    try:
        text = paths.read_regular(path, MAX_CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except paths.NotRegular as exc:  # a FIFO would wait for a writer, a device never end
        raise ConfigError(f"{path}: not a config file ({exc})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a config file (not UTF-8 text)") from None
    except ValueError:  # a NUL byte in the name
        raise ConfigError(f"{path}: {paths.unusable(path) or 'not a usable file name'}") from None
    try:
        data = yaml.load(text, Loader=ConfigLoader)
    except YamlLimitError as exc:
        raise ConfigError(f"{path}: refused: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: refused: values nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}: not valid YAML{where} ({problem})") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config is a mapping of settings (game:, bots:, ...)")
    return data


def _file_libs(data: MutableMapping[str, Any], base: Path) -> None:
    """The ``lib:`` folders of a config file, relative to its folder, made absolute in ``data``."""
    texts = lib_texts(data.get("lib")) if not isinstance(data.get("lib"), Mapping) else []
    if texts:
        data["lib"] = [t if paths.expanded(t).is_absolute() else str(paths.located(t, base)) for t in texts]


def _with_shared(bots: Sequence[BotEntry], libs: Sequence[str], env: Mapping[str, str]) -> list[BotEntry]:
    """Each bot with ``env`` under its own variables and ``libs`` first on its ``PYTHONPATH``: a
    tournament's ``lib:`` and ``env:`` (``--lib DIR``, ``--env NAME=VALUE``) are given to every bot
    as ``arena play`` gives them. So they are part of each bot's own environment
    (:attr:`BotEntry.env`) and of what the tournament is (a run with another ``--lib`` is another
    tournament), the sandbox shows the folders to the bots (:func:`arena.match.sandbox.confine`),
    and the command that plays a game again gives them with ``--env``."""
    if not libs and not env:
        return list(bots)
    return [replace(bot, env=libs_first({**env, **bot.env}, libs)) for bot in bots]
