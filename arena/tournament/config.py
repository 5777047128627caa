"""Tournament settings: a YAML file (or flags) -> frozen dataclasses, with one-line errors.

A config file looks like this (see ``configs/*.yaml`` for annotated examples)::

    game: spring2021
    bots:
      - name: base                      # a name of your choice (defaults to the bot's own name,
        bot: greedy                     # made distinct: greedy, greedy#2); a shipped name, a path
                                        # or a command line; "base=greedy" in a list is the same
      - name: candidate
        bot: bots/spring2021/greedy_bot.py
        args: [--complete-day, "{day}"] # extra arguments; {day} is a sweep parameter
        env: {MY_SETTING: "1"}
    format: gauntlet                    # or round-robin
    baseline: base                      # gauntlet only (default: the last bot)
    games: 200                          # games per comparison (pairs of games on one seed)
    seed: 1                             # master seed: the whole schedule follows from it
    seeds: lost.txt                     # or: the maps to play (a file, A..B, A,B,C or a list),
                                        # each once per seat, instead of seeds from `seed`
    workers: 2
    time_scale: 1.0
    memory_limit_mb: 768
    params: {}                          # game parameters
    sprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: pentanomial}
    sweep: {bot: candidate, grid: {day: [8, 10, 12, 14]}}
    db: arena.sqlite

Relative paths in a file (bots, ``db``, a seed file) are taken from the file's directory, so a
config means the same from any working directory; commands run there too.

Everything here is validated before any game starts: :func:`load_config` and
:func:`config_from_mapping` raise :class:`ConfigError` with a message naming the setting.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

import referee

from ..match.botspec import split_name
from ..match.process import DEFAULT_MEMORY_LIMIT_MB
from ..match.seeds import IntAsTextLoader, SeedError, parse_seed, parse_seed_list
from ..stats.sprt import SprtModel, SprtParams
from .schedule import Format
from .task import ReplayPolicy

__all__ = [
    "ConfigError",
    "BotEntry",
    "SweepSettings",
    "TournamentConfig",
    "load_config",
    "config_from_mapping",
    "DEFAULT_DB",
]

DEFAULT_DB = "arena.sqlite"
"""The results file used when no ``db`` / ``--db`` is given."""
DEFAULT_MAX_FAILURES = 0.25
"""A bot that fails (crash, timeout, invalid output) in more than this share of its first
:data:`FAILURE_WINDOW` games stops the tournament: its results would measure the failure."""
FAILURE_WINDOW = 20
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class ConfigError(ValueError):
    """A tournament setting that cannot be used (the message names it and says what to do)."""


@dataclass(frozen=True)
class BotEntry:
    """One bot of a tournament: what to run, under which name."""

    name: str
    bot: str
    """A shipped bot name, a path or a command line (as ``arena play`` takes it)."""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    sweep_point: tuple[tuple[str, str], ...] = ()
    """For a sweep variant: the parameter values it was made with."""
    base: str | None = field(default=None, compare=False)
    """The directory relative paths in ``bot`` are taken from (a config file's; ``None``: the
    current directory). Not a setting of the tournament: a moved project still resumes."""

    def substituted(self, values: Mapping[str, str]) -> BotEntry:
        """A copy with every ``{name}`` placeholder replaced by ``values[name]``."""

        def sub(text: str) -> str:
            return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)

        return replace(
            self,
            bot=sub(self.bot),
            args=tuple(sub(a) for a in self.args),
            env={k: sub(v) for k, v in self.env.items()},
        )

    def placeholders(self) -> set[str]:
        texts = [self.bot, *self.args, *self.env.values()]
        return {m.group(1) for t in texts for m in _PLACEHOLDER.finditer(t)}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "bot": self.bot}
        if self.args:
            out["args"] = list(self.args)
        if self.env:
            out["env"] = dict(sorted(self.env.items()))
        if self.sweep_point:
            out["sweep_point"] = dict(self.sweep_point)
        return out


@dataclass(frozen=True)
class SweepSettings:
    """Variants of one bot: one per point of the grid, each compared with the baseline."""

    bot: str
    grid: tuple[tuple[str, tuple[str, ...]], ...]

    def points(self) -> list[tuple[tuple[str, str], ...]]:
        names = [name for name, _ in self.grid]
        return [tuple(zip(names, values)) for values in itertools.product(*(v for _, v in self.grid))]

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "grid": {name: list(values) for name, values in self.grid}}


@dataclass(frozen=True)
class TournamentConfig:
    """Everything a tournament needs. ``bots`` are the bots actually played (sweep variants
    expanded); :meth:`schedule_key` is what must not change for a run to be resumed."""

    game: str
    bots: tuple[BotEntry, ...]
    format: str = Format.GAUNTLET.value
    baseline: str | None = None
    games: int = 100
    seed: int = 0
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    time_scale: float = 1.0
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB
    params: Mapping[str, str] = field(default_factory=dict)
    sprt: SprtParams | None = None
    sweep: SweepSettings | None = None
    db: str = DEFAULT_DB
    seeds: tuple[int, ...] | None = None
    """The maps to play, in order, instead of seeds derived from ``seed``."""
    max_failures: float = DEFAULT_MAX_FAILURES
    """Stop when a bot fails in more than this share of its first :data:`FAILURE_WINDOW` games
    (1 never stops). Not part of the schedule: a resumed run may change it."""
    replays: ReplayPolicy | None = None
    """Which games keep a replay file, in which folder (not part of the schedule either)."""

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
            out.update(replays=self.replays.folder, keep=self.replays.keep)
        return out


# -- parsing ---------------------------------------------------------------------------------------

_TOP_KEYS = {
    "game", "bots", "format", "baseline", "games", "pairs", "seed", "seeds", "workers", "time_scale",
    "memory_limit_mb", "params", "sprt", "sweep", "db", "max_failures", "replays", "keep",
}


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read a YAML config; ``overrides`` (from flags, relative paths from the current directory)
    replace top-level settings. Relative paths in the file are taken from its directory."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        data = yaml.load(text, Loader=IntAsTextLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}: not valid YAML{where} ({problem})") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config is a mapping of settings (game:, bots:, ...)")
    base = path.resolve().parent
    merged = dict(data)
    if isinstance(merged.get("db"), str) and merged["db"] and not Path(merged["db"]).expanduser().is_absolute():
        merged["db"] = str(base / merged["db"])
    if isinstance(merged.get("replays"), str) and not Path(merged["replays"]).expanduser().is_absolute():
        merged["replays"] = str(base / merged["replays"])
    if isinstance(merged.get("seeds"), str) and (base / merged["seeds"]).is_file():
        merged["seeds"] = str(base / merged["seeds"])
    if any((overrides or {}).get(k) is not None for k in ("games", "pairs", "seeds")):
        for k in ("games", "pairs", "seeds"):  # a flag's count replaces the file's, whichever kind
            merged.pop(k, None)
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        if key in ("sprt", "params") and isinstance(value, dict) and isinstance(merged.get(key), dict):
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
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    if "game" not in data:
        raise ConfigError("missing setting 'game' (e.g. game: spring2021)")
    try:
        game = referee.canonical_name(str(data["game"]))
        cls = referee.get(game)
    except referee.UnknownGame as exc:
        raise ConfigError(str(exc)) from None

    bots = _bots(data.get("bots"), base)
    players = cls.player_count
    default_format = Format.GAUNTLET if players == 2 else Format.ROUND_ROBIN
    fmt = str(data.get("format", default_format.value))
    if fmt not in tuple(Format):
        raise ConfigError(f"format {fmt!r} is not one of: {', '.join(f.value for f in Format)}")
    notes: list[str] = []
    counts = [k for k in ("games", "pairs", "seeds") if data.get(k) is not None]
    if len(counts) > 1:
        raise ConfigError(f"give one of 'games', 'pairs' or 'seeds', not {' and '.join(repr(k) for k in counts)} "
                          "(a seed list plays each seed once per seat)")
    seeds = None
    if data.get("seeds") is not None:
        try:
            seeds = parse_seed_list(data["seeds"])
        except SeedError as exc:
            raise ConfigError(f"seeds: {exc}") from None
        games = players * len(seeds)
    elif data.get("pairs") is not None:
        games = players * _int(data, "pairs", minimum=1)
    else:
        asked = _int(data, "games", default=100, minimum=1)
        games = -(-asked // players) * players
        if games != asked:
            notes.append(f"games {asked} rounded up to {games}: each seed is played once per seat "
                         f"({players} games per seed)")
    try:
        seed = parse_seed(data.get("seed", 0))
    except SeedError as exc:
        raise ConfigError(f"seed: {exc}") from None
    workers = _int(data, "workers", default=os.cpu_count() or 1, minimum=1)
    time_scale = _float(data, "time_scale", default=1.0)
    if time_scale <= 0:
        raise ConfigError("time_scale must be positive")
    memory = _int(data, "memory_limit_mb", default=DEFAULT_MEMORY_LIMIT_MB, minimum=16)
    params = _str_map(data.get("params"), "params")
    try:
        cls(0, params or None)
    except referee.ParameterError as exc:
        raise ConfigError(f"params: {exc}") from None
    sprt = _sprt(data.get("sprt"))
    sweep = _sweep(data.get("sweep"), bots)
    db = str(data.get("db") or DEFAULT_DB)
    max_failures = _float(data, "max_failures", DEFAULT_MAX_FAILURES)
    if not 0 <= max_failures <= 1:
        raise ConfigError(f"max_failures: a share of games between 0 and 1, got {max_failures}")
    replays = None
    if data.get("replays") is not None:
        folder = Path(str(data["replays"])).expanduser()
        if folder.exists() and not folder.is_dir():
            raise ConfigError(f"replays: {folder} is a file, not a folder")
        if not folder.exists() and not folder.parent.is_dir():
            raise ConfigError(f"replays: {folder.parent} does not exist (create it, or give another folder)")
        try:
            replays = ReplayPolicy(str(folder.resolve()), str(data.get("keep") or "failures"))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    elif data.get("keep") is not None:
        raise ConfigError("keep: says which replays to keep; give the folder too (replays: DIR, --replays DIR)")

    baseline = data.get("baseline")
    if sweep is not None:
        template = next(b for b in bots if b.name == sweep.bot)
        variants = []
        for point in sweep.points():
            label = ",".join(f"{k}={v}" for k, v in point)
            variant = template.substituted(dict(point))
            variants.append(replace(variant, name=f"{template.name}[{label}]", sweep_point=point))
        others = [b for b in bots if b.name != sweep.bot]
        if not others:
            raise ConfigError(f"sweep: add a baseline bot to compare the variants of {sweep.bot!r} with")
        if fmt != Format.GAUNTLET:
            raise ConfigError("sweep: variants are compared with the baseline, use format: gauntlet")
        bots = others + variants
        if baseline is None:
            baseline = others[0].name
    if baseline is not None:
        baseline = str(baseline)
        if fmt != Format.GAUNTLET:
            raise ConfigError("baseline: only a gauntlet has a baseline")
        if baseline not in {b.name for b in bots}:
            raise ConfigError(f"baseline {baseline!r} is not one of the bots ({', '.join(b.name for b in bots)})")
        if sweep is not None and baseline == sweep.bot:
            raise ConfigError("baseline: the swept bot cannot be the baseline")
    elif fmt == Format.GAUNTLET:
        baseline = bots[-1].name  # `arena tournament GAME NEW OLD`: NEW is measured against OLD
    if len(bots) < players:
        raise ConfigError(f"{game} needs at least {players} bots, got {len(bots)}")
    if players != 2:
        for what, given in (("format: gauntlet", fmt == Format.GAUNTLET), ("sprt", sprt is not None),
                            ("sweep", sweep is not None)):
            if given:
                raise ConfigError(f"{what} compares two bots head to head: {game} is a {players}-player game, "
                                  "use format: round-robin (rated with openskill)")
    return TournamentConfig(
        game=game, bots=tuple(bots), format=fmt, baseline=baseline, games=games, seed=seed,
        workers=workers, time_scale=time_scale, memory_limit_mb=memory, params=params,
        sprt=sprt, sweep=sweep, db=db, seeds=seeds, max_failures=max_failures, replays=replays, players=players,
        notes=tuple(notes),
    )


def _bots(raw: Any, base: Path | None = None) -> list[BotEntry]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError("'bots' must be a list of bots (each a name/path/command, or bot: with args:/env:)")
    entries: list[tuple[str | None, BotEntry]] = []
    for i, item in enumerate(raw, 1):
        if isinstance(item, (str, int, float)):
            label, text = split_name(str(item))
            item = {"bot": text, **({"name": label} if label else {})}
        if not isinstance(item, dict):
            raise ConfigError(f"bots[{i}]: expected a string or a mapping with 'bot:'")
        unknown = sorted(set(item) - {"name", "bot", "args", "env"})
        if unknown:
            raise ConfigError(f"bots[{i}]: unknown key {unknown[0]!r} (known: name, bot, args, env)")
        if not item.get("bot"):
            raise ConfigError(f"bots[{i}]: missing 'bot' (a shipped name, a path or a command)")
        args = item.get("args") or []
        if isinstance(args, str):
            raise ConfigError(f"bots[{i}]: 'args' must be a list, e.g. [--depth, '3']")
        if not isinstance(args, list):
            raise ConfigError(f"bots[{i}]: 'args' must be a list")
        bot = str(item["bot"])
        label = str(item["name"]) if item.get("name") not in (None, "") else None
        entries.append((label, BotEntry(
            name=label or _default_name(bot), bot=bot, args=tuple(str(a) for a in args),
            env=_str_map(item.get("env"), f"bots[{i}].env"), base=None if base is None else str(base),
        )))
    chosen = [label for label, _ in entries if label is not None]
    dup = next((n for n in chosen if chosen.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"two bots are named {dup!r}: give each a distinct name (NAME=BOT, or 'name:')")
    bad = next((n for n in chosen if any(c in n for c in "\n\r\t")), None)
    if bad is not None:
        raise ConfigError(f"bot name {bad!r} is not usable")
    taken = set(chosen)
    bots = []
    for label, entry in entries:  # unnamed bots get their own name, made distinct: greedy, greedy#2
        if label is None:
            name, k = entry.name, 2
            while name in taken:
                name, k = f"{entry.name}#{k}", k + 1
            entry = replace(entry, name=name)
            taken.add(name)
        bots.append(entry)
    return bots


def _default_name(bot: str) -> str:
    first = bot.split()[0] if bot.split() else bot
    name = Path(first).name
    if name.startswith("python") and len(bot.split()) > 1:
        name = Path(bot.split()[1]).name
    return name.removesuffix(".py") or bot


def _sprt(raw: Any) -> SprtParams | None:
    if raw is None or raw is False:
        return None
    if raw is True:
        return SprtParams()
    if not isinstance(raw, dict):
        raise ConfigError("sprt: expected a mapping (elo0, elo1, alpha, beta, model)")
    unknown = sorted(set(raw) - {"elo0", "elo1", "alpha", "beta", "model"})
    if unknown:
        raise ConfigError(f"sprt: unknown key {unknown[0]!r} (known: elo0, elo1, alpha, beta, model)")
    elo0, elo1 = _float(raw, "elo0", 0.0, "sprt."), _float(raw, "elo1", 5.0, "sprt.")
    alpha, beta = _float(raw, "alpha", 0.05, "sprt."), _float(raw, "beta", 0.05, "sprt.")
    model = str(raw.get("model", SprtModel.PENTANOMIAL.value))
    if elo1 <= elo0:
        raise ConfigError(f"sprt: elo1 ({elo1}) must be greater than elo0 ({elo0})")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise ConfigError(f"sprt: {name} must be between 0 and 0.5")
    if model not in tuple(SprtModel):
        raise ConfigError(f"sprt: model {model!r} is not one of: {', '.join(m.value for m in SprtModel)}")
    return SprtParams(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model=model)


def _sweep(raw: Any, bots: list[BotEntry]) -> SweepSettings | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"bot", "grid"}:
        raise ConfigError("sweep: expected a mapping with 'bot:' (the bot to vary) and 'grid:'")
    names = [b.name for b in bots]
    bot = str(raw.get("bot") or names[-1])
    if bot not in names:
        raise ConfigError(f"sweep: bot {bot!r} is not one of the bots ({', '.join(names)})")
    grid_raw = raw.get("grid")
    if not isinstance(grid_raw, dict) or not grid_raw:
        raise ConfigError("sweep: 'grid' must map each parameter to a list of values, e.g. {depth: [2, 3, 4]}")
    grid = []
    for key, values in grid_raw.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"sweep: grid {key!r} must be a non-empty list of values")
        texts = tuple(str(v) for v in values)
        if len(set(texts)) != len(texts):
            raise ConfigError(f"sweep: grid {key!r} repeats a value")
        grid.append((str(key), texts))
    template = bots[names.index(bot)]
    missing = [k for k, _ in grid if k not in template.placeholders()]
    if missing:
        raise ConfigError(
            f"sweep: bot {bot!r} does not use {{{missing[0]}}}: put it in its bot:, args: or env:"
        )
    return SweepSettings(bot=bot, grid=tuple(grid))


def _str_map(raw: Any, what: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{what}: expected a mapping of NAME: value")
    return {str(k): str(v) for k, v in raw.items()}


def _int(data: Mapping[str, Any], key: str, default: int | None = None, minimum: int | None = None) -> int:
    raw = data.get(key, default)
    if raw is None:
        raise ConfigError(f"missing setting {key!r}")
    if isinstance(raw, bool):
        raise ConfigError(f"{key}: expected an integer, got {raw!r}")
    try:
        value = int(raw, 0) if isinstance(raw, str) else int(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"{key}: expected an integer, got {raw!r}") from None
    if isinstance(raw, float) and raw != value:
        raise ConfigError(f"{key}: expected an integer, got {raw!r}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"{key}: must be at least {minimum}, got {value}")
    return value


def _float(data: Mapping[str, Any], key: str, default: float, prefix: str = "") -> float:
    raw = data.get(key, default)
    try:
        if isinstance(raw, bool):
            raise TypeError
        return float(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"{prefix}{key}: expected a number, got {raw!r}") from None
