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
        data: [weights.bin, book/]      # files or folders the bot reads: their contents are part
                                        # of its identity, so a changed file stops a resume
    format: gauntlet                    # or round-robin
    baseline: base                      # gauntlet only (default: the last bot)
    games: 200                          # games per comparison (pairs of games on one seed)
    seed: 1                             # master seed: the whole schedule follows from it
    seeds: lost.txt                     # or: the maps to play (a file, A..B, A,B,C or a list),
                                        # each once per seat, instead of seeds from `seed`
    workers: 2                          # at most twice the cores (force_workers: true for more)
    time_scale: 1.0
    memory_limit_mb: 768                # for each bot, all its processes together
    sandbox: auto                       # run bots in bubblewrap: auto, on (or fail), off
    params: {}                          # game parameters
    sprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: pentanomial}
    sweep: {bot: candidate, grid: {day: [8, 10, 12, 14]}}
    db: arena.sqlite

Relative paths in a file (bots, ``db``, a seed file) are taken from the file's directory, so a
config means the same from any working directory; commands run there too.

Everything here is validated before any game starts: :func:`load_config` and
:func:`config_from_mapping` raise :class:`ConfigError` with a message naming the setting.
Hostile input is refused in one line too: YAML aliases may repeat at most
:data:`MAX_ALIAS_VALUES` values (no alias bomb), a setting that is one value (a name, a path, a
parameter, an argument) must be a text or a number, not a list or a mapping, and every number must
be finite and within its range (e.g. ``games`` at most :data:`MAX_GAMES`).
"""

from __future__ import annotations

import datetime
import itertools
import math
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

import referee

from ..match import paths
from ..match.botspec import split_name
from ..match.limits import DEFAULT_MEMORY_LIMIT_MB
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

MAX_GAMES = 1_000_000_000
"""The most games per comparison (the schedule is computed, not listed, so any count up to this
starts at once)."""
MAX_TIME_SCALE = 1000.0
"""The largest time scale: a 50 ms turn becomes 50 s."""
MAX_MEMORY_MB = 1024 * 1024
"""The largest memory limit of a bot (1 TB)."""
MAX_ELO = 1000.0
"""SPRT bounds are Elo differences within +-this."""
MAX_FORCED_WORKERS = 1024
"""Even with ``force_workers``, no more workers than this."""
MAX_SWEEP_VARIANTS = 1000
"""The most variants a sweep grid may make."""
MAX_ALIAS_VALUES = 10_000
"""YAML aliases (``*name``) may repeat at most this many values in all: enough to reuse settings,
far too few for an alias bomb (a few lines that expand to billions of values)."""


def max_workers() -> int:
    """The most workers allowed without ``force_workers``: twice the cores. More only starve the
    bots, which are timed in wall-clock time."""
    return 2 * (os.cpu_count() or 1)


class ConfigError(ValueError):
    """A tournament setting that cannot be used (the message names it and says what to do)."""


class YamlLimitError(yaml.YAMLError):
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
    data: tuple[str, ...] = ()
    """Files or folders the bot reads (weights, an opening book), relative to ``base``: their
    contents are part of the bot's identity, like its source files, so a tournament is not
    resumed with changed data."""

    def substituted(self, values: Mapping[str, str]) -> BotEntry:
        """A copy with every ``{name}`` placeholder replaced by ``values[name]``."""

        def sub(text: str) -> str:
            return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)

        return replace(
            self,
            bot=sub(self.bot),
            args=tuple(sub(a) for a in self.args),
            env={k: sub(v) for k, v in self.env.items()},
            data=tuple(sub(d) for d in self.data),
        )

    def placeholders(self) -> set[str]:
        texts = [self.bot, *self.args, *self.env.values(), *self.data]
        return {m.group(1) for t in texts for m in _PLACEHOLDER.finditer(t)}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "bot": self.bot}
        if self.args:
            out["args"] = list(self.args)
        if self.env:
            out["env"] = dict(sorted(self.env.items()))
        if self.data:
            out["data"] = list(self.data)
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
    sandbox: str = "auto"
    """``auto``, ``on`` or ``off``: run the bots in the sandbox (:mod:`arena.match.sandbox`).
    Not part of the schedule: each game records whether its bots were sandboxed."""
    executor: str = "local"
    """Where games are played: ``local`` (worker processes here) or ``dask`` (a Dask cluster:
    :mod:`arena.tournament.dask_executor`). Not part of the schedule."""
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
            out.update(replays=self.replays.folder, keep=self.replays.keep)
        out["sandbox"] = self.sandbox
        return out


# -- parsing ---------------------------------------------------------------------------------------

_TOP_KEYS = {
    "game",
    "bots",
    "format",
    "baseline",
    "games",
    "pairs",
    "seed",
    "seeds",
    "workers",
    "time_scale",
    "memory_limit_mb",
    "params",
    "sprt",
    "sweep",
    "db",
    "max_failures",
    "replays",
    "keep",
    "force_workers",
    "sandbox",
    "executor",
    "scheduler",
    "local_cluster",
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
    base = path.resolve().parent
    merged = dict(data)
    if isinstance(merged.get("db"), str) and merged["db"] and not paths.expanded(merged["db"]).is_absolute():
        merged["db"] = str(base / merged["db"])
    if isinstance(merged.get("replays"), str) and not paths.expanded(merged["replays"]).is_absolute():
        merged["replays"] = str(base / merged["replays"])
    if isinstance(merged.get("seeds"), str) and paths.is_file(base / merged["seeds"]):
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
    unknown = sorted(str(k) for k in set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    if "game" not in data:
        raise ConfigError("missing setting 'game' (e.g. game: spring2021)")
    try:
        game = referee.canonical_name(_text(data["game"], "game"))
        cls = referee.get(game)
    except referee.UnknownGame as exc:
        raise ConfigError(str(exc)) from None

    bots = _bots(data.get("bots"), base)
    players = cls.player_count
    default_format = Format.GAUNTLET if players == 2 else Format.ROUND_ROBIN
    fmt = _text(data.get("format", default_format.value), "format")
    if fmt not in tuple(Format):
        raise ConfigError(f"format {fmt!r} is not one of: {', '.join(f.value for f in Format)}")
    notes: list[str] = []
    counts = [k for k in ("games", "pairs", "seeds") if data.get(k) is not None]
    if len(counts) > 1:
        raise ConfigError(
            f"give one of 'games', 'pairs' or 'seeds', not {' and '.join(repr(k) for k in counts)} "
            "(a seed list plays each seed once per seat)"
        )
    seeds = None
    if data.get("seeds") is not None:
        try:
            seeds = parse_seed_list(data["seeds"])
        except SeedError as exc:
            raise ConfigError(f"seeds: {exc}") from None
        games = players * len(seeds)
    elif data.get("pairs") is not None:
        games = players * _int(data, "pairs", minimum=1, maximum=MAX_GAMES // players)
    else:
        asked = _int(data, "games", default=100, minimum=1, maximum=MAX_GAMES)
        games = -(-asked // players) * players
        if games != asked:
            notes.append(
                f"games {asked} rounded up to {games}: each seed is played once per seat ({players} games per seed)"
            )
    try:
        seed = parse_seed(data.get("seed", 0))
    except SeedError as exc:
        raise ConfigError(f"seed: {exc}") from None
    workers = _workers(data)
    time_scale = _float(data, "time_scale", default=1.0)
    if time_scale <= 0:
        raise ConfigError("time_scale must be positive")
    if time_scale > MAX_TIME_SCALE:
        raise ConfigError(f"time_scale: at most {MAX_TIME_SCALE:g}, got {time_scale:g}")
    memory = _int(data, "memory_limit_mb", default=DEFAULT_MEMORY_LIMIT_MB, minimum=16, maximum=MAX_MEMORY_MB)
    params = _str_map(data.get("params"), "params")
    try:
        cls(0, params or None)
    except referee.ParameterError as exc:
        raise ConfigError(f"params: {exc}") from None
    sprt = _sprt(data.get("sprt"))
    sweep = _sweep(data.get("sweep"), bots)
    db = _text(data.get("db") or DEFAULT_DB, "db")
    if (reason := paths.unusable(db)) is not None:
        raise ConfigError(f"db: {db}: {reason}")
    max_failures = _float(data, "max_failures", DEFAULT_MAX_FAILURES)
    if not 0 <= max_failures <= 1:
        raise ConfigError(f"max_failures: a share of games between 0 and 1, got {max_failures}")
    replays = None
    if data.get("replays") is not None:
        folder = paths.expanded(_text(data["replays"], "replays"))
        if (reason := paths.unusable(folder)) is not None:
            raise ConfigError(f"replays: {folder}: {reason}")
        if paths.exists(folder) and not paths.is_dir(folder):
            raise ConfigError(f"replays: {folder} is a file, not a folder")
        if not paths.exists(folder) and not paths.is_dir(folder.parent):
            raise ConfigError(f"replays: {folder.parent} does not exist (create it, or give another folder)")
        try:
            replays = ReplayPolicy(str(folder.resolve()), _text(data.get("keep") or "failures", "keep"))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    elif data.get("keep") is not None:
        raise ConfigError("keep: says which replays to keep; give the folder too (replays: DIR, --replays DIR)")

    baseline = None if data.get("baseline") is None else _text(data["baseline"], "baseline")
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
    for entry in bots:  # after the sweep: a data path may hold a {placeholder}
        _check_data(entry)
    if len(bots) < players:
        raise ConfigError(f"{game} needs at least {players} bots, got {len(bots)}")
    if players != 2:
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
    sandbox = data.get("sandbox")
    if sandbox is None or isinstance(sandbox, bool):  # YAML reads a bare on / off as true / false
        sandbox = {None: "auto", True: "on", False: "off"}[sandbox]
    if sandbox not in ("auto", "on", "off"):
        raise ConfigError(f"sandbox: expected auto, on or off, got {_shown(sandbox)}")
    executor, scheduler, local_cluster = _executor(data)
    return TournamentConfig(
        game=game,
        bots=tuple(bots),
        format=fmt,
        baseline=baseline,
        games=games,
        seed=seed,
        workers=workers,
        time_scale=time_scale,
        memory_limit_mb=memory,
        params=params,
        sprt=sprt,
        sweep=sweep,
        db=db,
        seeds=seeds,
        max_failures=max_failures,
        replays=replays,
        players=players,
        notes=tuple(notes),
        sandbox=str(sandbox),
        executor=executor,
        scheduler=scheduler,
        local_cluster=local_cluster,
    )


def _executor(data: Mapping[str, Any]) -> tuple[str, str | None, int | None]:
    """``executor``, with ``scheduler`` or ``local_cluster`` for ``dask``."""
    executor = data.get("executor") or "local"
    if executor not in ("local", "dask"):
        raise ConfigError(f"executor: expected local or dask, got {_shown(executor)}")
    scheduler = None if data.get("scheduler") is None else _text(data["scheduler"], "scheduler")
    if scheduler is not None and (not scheduler.strip() or any(c.isspace() for c in scheduler)):
        raise ConfigError(f"scheduler: expected an address such as tcp://HOST:8786, got {_shown(scheduler)}")
    local = None
    if data.get("local_cluster") is not None:
        local = _int(data, "local_cluster", minimum=1, maximum=MAX_FORCED_WORKERS)
    if executor == "local":
        for key, value in (("scheduler", scheduler), ("local_cluster", local)):
            if value is not None:
                raise ConfigError(f"{key}: only for the Dask executor (executor: dask, --executor dask)")
    elif (scheduler is None) == (local is None):
        raise ConfigError(
            "executor: dask needs a scheduler address (scheduler: tcp://HOST:8786, --scheduler) "
            "or a cluster made here (local_cluster: N, --local-cluster N), one of the two"
        )
    return str(executor), scheduler, local


def _bots(raw: Any, base: Path | None = None) -> list[BotEntry]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError("'bots' must be a list of bots (each a name/path/command, or bot: with args:/env:)")
    entries: list[tuple[str | None, BotEntry]] = []
    for i, item in enumerate(raw, 1):
        if isinstance(item, (str, int, float)):
            label, text = split_name(_text(item, f"bots[{i}]"))
            item = {"bot": text, **({"name": label} if label else {})}
        if not isinstance(item, dict):
            raise ConfigError(f"bots[{i}]: expected a string or a mapping with 'bot:'")
        unknown = sorted(str(k) for k in set(item) - {"name", "bot", "args", "env", "data"})
        if unknown:
            raise ConfigError(f"bots[{i}]: unknown key {unknown[0]!r} (known: name, bot, args, env, data)")
        if not item.get("bot"):
            raise ConfigError(f"bots[{i}]: missing 'bot' (a shipped name, a path or a command)")
        args = item.get("args") or []
        if isinstance(args, str):
            raise ConfigError(f"bots[{i}]: 'args' must be a list, e.g. [--depth, '3']")
        if not isinstance(args, list):
            raise ConfigError(f"bots[{i}]: 'args' must be a list")
        data = item.get("data") or []
        if not isinstance(data, list):
            data = [data]  # one file
        bot = _text(item["bot"], f"bots[{i}].bot")
        label = _text(item["name"], f"bots[{i}].name") if item.get("name") not in (None, "") else None
        entries.append(
            (
                label,
                BotEntry(
                    name=label or _default_name(bot),
                    bot=bot,
                    args=tuple(_text(a, f"bots[{i}].args[{j}]") for j, a in enumerate(args, 1)),
                    env=_str_map(item.get("env"), f"bots[{i}].env"),
                    base=None if base is None else str(base),
                    data=tuple(_text(d, f"bots[{i}].data[{j}]") for j, d in enumerate(data, 1)),
                ),
            )
        )
    chosen = [label for label, _ in entries if label is not None]
    dup = next((n for n in chosen if chosen.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"two bots are named {dup!r}: give each a distinct name (NAME=BOT, or 'name:')")
    bad = next((n for n in chosen if any(c in n for c in "\n\r\t") or _readable(n) != n), None)
    if bad is not None:
        raise ConfigError(f"bot name {bad!r} is not usable (a name is one line of UTF-8 text)")
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
    return _readable(name.removesuffix(".py") or bot)


def _readable(text: str) -> str:
    """``text`` with the bytes of a file name that is not UTF-8 (kept by Python as surrogate
    escapes, which no text column or terminal takes) shown as U+FFFD."""
    try:
        raw = text.encode("utf-8", "surrogateescape")  # a file name's own bytes
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate written in YAML ("\\udc00")
    return raw.decode("utf-8", "replace")


def _sprt(raw: Any) -> SprtParams | None:
    if raw is None or raw is False:
        return None
    if raw is True:
        return SprtParams()
    if not isinstance(raw, dict):
        raise ConfigError("sprt: expected a mapping (elo0, elo1, alpha, beta, model)")
    unknown = sorted(str(k) for k in set(raw) - {"elo0", "elo1", "alpha", "beta", "model"})
    if unknown:
        raise ConfigError(f"sprt: unknown key {unknown[0]!r} (known: elo0, elo1, alpha, beta, model)")
    elo0, elo1 = _float(raw, "elo0", 0.0, "sprt."), _float(raw, "elo1", 5.0, "sprt.")
    alpha, beta = _float(raw, "alpha", 0.05, "sprt."), _float(raw, "beta", 0.05, "sprt.")
    model = _text(raw.get("model", SprtModel.PENTANOMIAL.value), "sprt.model")
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not -MAX_ELO <= value <= MAX_ELO:
            raise ConfigError(f"sprt: {name} must be between {-MAX_ELO:g} and {MAX_ELO:g} Elo, got {value:g}")
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
    bot = _text(raw.get("bot") or names[-1], "sweep.bot")
    if bot not in names:
        raise ConfigError(f"sweep: bot {bot!r} is not one of the bots ({', '.join(names)})")
    grid_raw = raw.get("grid")
    if not isinstance(grid_raw, dict) or not grid_raw:
        raise ConfigError("sweep: 'grid' must map each parameter to a list of values, e.g. {depth: [2, 3, 4]}")
    grid = []
    for key, values in grid_raw.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"sweep: grid {key!r} must be a non-empty list of values")
        texts = tuple(_text(v, f"sweep: grid {key!r}") for v in values)
        if len(set(texts)) != len(texts):
            raise ConfigError(f"sweep: grid {key!r} repeats a value")
        grid.append((_text(key, "sweep: grid"), texts))
    variants = math.prod(len(values) for _, values in grid)
    if variants > MAX_SWEEP_VARIANTS:
        raise ConfigError(
            f"sweep: the grid makes {variants:,} variants (at most {MAX_SWEEP_VARIANTS:,}); give fewer values"
        )
    template = bots[names.index(bot)]
    missing = [k for k, _ in grid if k not in template.placeholders()]
    if missing:
        raise ConfigError(f"sweep: bot {bot!r} does not use {{{missing[0]}}}: put it in its bot:, args:, env: or data:")
    return SweepSettings(bot=bot, grid=tuple(grid))


def _str_map(raw: Any, what: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{what}: expected a mapping of NAME: value")
    return {_text(k, what): _text(v, f"{what}.{k}") for k, v in raw.items()}


_SCALARS = (str, int, float, datetime.date)


def _shown(raw: Any) -> str:
    """``raw`` for an error message: its repr, cut short."""
    text = repr(raw) if isinstance(raw, (*_SCALARS, type(None))) else type(raw).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _text(raw: Any, what: str) -> str:
    """A setting that is one value (a name, a path, a parameter...): a text or a number (a bool or
    a date, as YAML reads ``yes`` or ``2024-01-01``, is taken as its text), never a list or a
    mapping, and without NUL bytes (no file name, argument or environment value may hold one)."""
    if not isinstance(raw, _SCALARS):  # bool is an int
        what_it_is = (
            "nothing"
            if raw is None
            else "a list"
            if isinstance(raw, list)
            else "a mapping"
            if isinstance(raw, dict)
            else f"a {type(raw).__name__} value"
        )
        raise ConfigError(f"{what}: expected a text or a number, got {what_it_is}")
    text = str(raw)
    if "\0" in text:
        raise ConfigError(f"{what}: {_shown(text)} contains a NUL byte")
    return text


def _workers(data: Mapping[str, Any]) -> int:
    """``workers``: at most :func:`max_workers` unless ``force_workers`` (then at most
    :data:`MAX_FORCED_WORKERS`)."""
    forced = data.get("force_workers") or False
    if not isinstance(forced, bool):
        raise ConfigError(f"force_workers: expected true or false, got {_shown(forced)}")
    cap = MAX_FORCED_WORKERS if forced else max_workers()
    workers = _int(data, "workers", default=min(os.cpu_count() or 1, cap), minimum=1)
    if workers > cap:
        if forced:
            raise ConfigError(f"workers: at most {MAX_FORCED_WORKERS}, got {workers}")
        raise ConfigError(
            f"workers: {workers} is more than twice the {os.cpu_count() or 1} cores (at most {cap}): bots are timed "
            f"in wall-clock time and would be starved; use --workers {cap} or fewer, or --force-workers "
            "(force_workers: true) to run that many anyway"
        )
    return workers


def _check_data(entry: BotEntry) -> None:
    """Each data path of a bot names an existing file or folder (from the config's folder)."""
    base = Path(entry.base) if entry.base is not None else Path.cwd()
    for text in entry.data:
        path = paths.expanded(text)
        reason = paths.missing(path if path.is_absolute() else base / path)
        if reason is not None:
            raise ConfigError(f"bot {entry.name!r}: data {text}: {reason} (from {base})")


def _int(
    data: Mapping[str, Any],
    key: str,
    default: int | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """An integer setting (an int, a whole float or the text of an integer literal), in range."""
    raw = data.get(key, default)
    if raw is None:
        raise ConfigError(f"missing setting {key!r}")
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise ConfigError(f"{key}: expected an integer, got {_shown(raw)}")
    try:
        value = int(raw.strip(), 0) if isinstance(raw, str) else int(raw)
    except (TypeError, ValueError, OverflowError):  # OverflowError: .inf
        raise ConfigError(f"{key}: expected an integer, got {_shown(raw)}") from None
    if isinstance(raw, float) and raw != value:
        raise ConfigError(f"{key}: expected an integer, got {_shown(raw)}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"{key}: must be at least {minimum}, got {_shown(value)}")
    if maximum is not None and value > maximum:
        raise ConfigError(f"{key}: must be at most {maximum:,}, got {_shown(value)}")
    return value


def _float(data: Mapping[str, Any], key: str, default: float, prefix: str = "") -> float:
    """A number setting: finite (``.inf`` and ``.nan`` are refused, from a file or a flag)."""
    raw = data.get(key, default)
    try:
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise TypeError
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"{prefix}{key}: expected a number, got {_shown(raw)}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{prefix}{key}: expected a finite number, got {_shown(raw)}")
    return value
