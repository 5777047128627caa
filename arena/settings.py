"""Every setting, declared once: its key in a config file, its flag, its type (the reader that
checks a raw value, from a file or a flag alike), its default and its help.

:data:`SETTINGS` is the one table, of every command: how games are played (read into
:class:`arena.match.settings.PlaySettings` by :func:`read_play_settings`: ``arena play``,
tournaments, ladders), where and how many at once (:data:`WORKER_KEYS`, read by
:func:`read_workers`: tournaments, ladder runs), and what a tournament schedules
(:mod:`arena.tournament.config` reads a config with these readers). The command line makes its
options from the same table (``cli/options.py``), so a setting cannot mean one thing in a file and
another on the command line, or in one command and another. A flag's value reaches the reader as
the text typed (``--games 10`` is ``"10"``, as YAML reads integers as text too, see
:class:`arena.match.seeds.IntAsTextLoader`), so both are refused with the same one-line
:class:`ConfigError`: ``games: must be at least 1, got 0``.
"""

from __future__ import annotations

import datetime
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import referee

from . import paths
from .errors import ArenaError
from .match.launch.botspec import BotSpecError, read_env, read_libs
from .match.limits import DEFAULT_MEMORY_LIMIT_MB
from .match.seeds import SeedError, parse_seed
from .match.settings import MAX_MEMORY_MB, MAX_TIME_MARGIN_MS, MAX_TIME_SCALE, PlaySettings

__all__ = [
    "ConfigError",
    "Setting",
    "SETTINGS",
    "setting",
    "flags_to_mapping",
    "text",
    "integer",
    "number",
    "choice",
    "switch",
    "shown",
    "MAX_GAMES",
    "MAX_FORCED_WORKERS",
    "MAX_ELO",
    "DEFAULT_MAX_FAILURES",
    "DEFAULT_DB",
    "WORKER_KEYS",
    "read_params",
    "string_map",
    "lib_texts",
    "read_play_settings",
    "Workers",
    "read_workers",
]

MAX_GAMES = 1_000_000_000
"""The most games per comparison (the schedule is computed, not listed, so any count up to this
starts at once)."""
MAX_FORCED_WORKERS = 1024
"""Even with ``force_workers``, no more workers than this."""
MAX_ELO = 1000.0
"""SPRT bounds are Elo differences within +-this."""
DEFAULT_MAX_FAILURES = 0.25
"""A bot that fails (crash, timeout, invalid output) in more than this share of its first games
stops the tournament: its results would measure the failure."""
DEFAULT_DB = "arena.sqlite"
"""The results file used when no ``db`` / ``--db`` is given."""
KEEP_CHOICES = ("all", "failures", "losses")
"""``keep``: these, or a number N (the first N games of each comparison)."""


class ConfigError(ArenaError, ValueError):
    """A tournament setting that cannot be used (the message names it and says what to do)."""


# -- readers: a raw value (YAML or flag text) -> the setting's value, or ConfigError ----------------

Reader = Callable[[Any, str], Any]
"""``reader(raw, key)``: the value of setting ``key`` given as ``raw`` (never ``None``)."""

_SCALARS = (str, int, float, datetime.date)


def shown(raw: Any) -> str:
    """``raw`` for an error message: its repr, cut short."""
    what = repr(raw) if isinstance(raw, (*_SCALARS, type(None))) else type(raw).__name__
    return what if len(what) <= 60 else what[:57] + "..."


def text(raw: Any, key: str) -> str:
    """A setting that is one value (a name, a path, a parameter...): a text or a number (a bool or
    a date, as YAML reads ``yes`` or ``2024-01-01``, is taken as its text), never a list or a
    mapping, and without NUL bytes (no file name, argument or environment value may hold one)."""
    if not isinstance(raw, _SCALARS):  # bool is an int
        kinds = {type(None): "nothing", list: "a list", dict: "a mapping"}
        what = kinds.get(type(raw), f"a {type(raw).__name__} value")
        raise ConfigError(f"{key}: expected a text or a number, got {what}")
    value = str(raw)
    if "\0" in value:
        raise ConfigError(f"{key}: {shown(value)} contains a NUL byte")
    return value


def integer(minimum: int | None = None, maximum: int | None = None) -> Reader:
    """An integer (an int, a whole float or the text of an integer literal) within the bounds."""

    def read(raw: Any, key: str) -> int:
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise ConfigError(f"{key}: expected an integer, got {shown(raw)}")
        try:
            value = int(raw.strip(), 0) if isinstance(raw, str) else int(raw)
        except (TypeError, ValueError, OverflowError):  # OverflowError: .inf
            raise ConfigError(f"{key}: expected an integer, got {shown(raw)}") from None
        if isinstance(raw, float) and raw != value:
            raise ConfigError(f"{key}: expected an integer, got {shown(raw)}")
        if minimum is not None and value < minimum:
            raise ConfigError(f"{key}: must be at least {minimum}, got {shown(value)}")
        if maximum is not None and value > maximum:
            raise ConfigError(f"{key}: must be at most {maximum:,}, got {shown(value)}")
        return value

    return read


def number(check: Callable[[float, str], None] | None = None) -> Reader:
    """A finite number (``.inf`` and ``.nan`` are refused, from a file or a flag), then ``check``."""

    def read(raw: Any, key: str) -> float:
        try:
            if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
                raise TypeError
            value = float(raw)
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"{key}: expected a number, got {shown(raw)}") from None
        if not math.isfinite(value):
            raise ConfigError(f"{key}: expected a finite number, got {shown(raw)}")
        if check is not None:
            check(value, key)
        return value

    return read


def choice(values: Sequence[str], what: str = "") -> Reader:
    """One of ``values`` (``what`` names them in the message: ``format 'x' is not one of: ...``)."""

    def read(raw: Any, key: str) -> str:
        value = text(raw, key)
        if value not in values:
            if what:
                raise ConfigError(f"{what} {value!r} is not one of: {', '.join(values)}")
            raise ConfigError(f"{key}: expected {', '.join(values[:-1])} or {values[-1]}, got {shown(raw)}")
        return value

    return read


def switch(raw: Any, key: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(raw, bool):
        raise ConfigError(f"{key}: expected true or false, got {shown(raw)}")
    return raw


def _seed(raw: Any, key: str) -> int:
    try:
        return parse_seed(raw)
    except SeedError as exc:
        raise ConfigError(f"{key}: {exc}") from None


def _positive_time_scale(value: float, key: str) -> None:
    if value <= 0:
        raise ConfigError("time_scale must be positive")
    if value > MAX_TIME_SCALE:
        raise ConfigError(f"time_scale: at most {MAX_TIME_SCALE:g}, got {value:g}")


def _time_margin(value: float, key: str) -> None:
    if not 0 <= value <= MAX_TIME_MARGIN_MS:
        raise ConfigError(f"time_margin: between 0 and {MAX_TIME_MARGIN_MS:g} ms, got {value:g}")


def _share(value: float, key: str) -> None:
    if not 0 <= value <= 1:
        raise ConfigError(f"max_failures: a share of games between 0 and 1, got {value}")


def _elo(value: float, key: str) -> None:
    if not -MAX_ELO <= value <= MAX_ELO:
        name = key.removeprefix("sprt.")
        raise ConfigError(f"sprt: {name} must be between {-MAX_ELO:g} and {MAX_ELO:g} Elo, got {value:g}")


def _rate(value: float, key: str) -> None:
    if not 0 < value < 0.5:
        raise ConfigError(f"sprt: {key.removeprefix('sprt.')} must be between 0 and 0.5")


# -- the table ---------------------------------------------------------------------------------


def _name_value(item: str) -> tuple[str, str]:
    """``--param NAME=VALUE``."""
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise ConfigError(f"{item!r}: expected NAME=VALUE")
    return key.strip(), value.strip()


def _name_values(item: str) -> tuple[str, list[str]]:
    """``--grid NAME=V1,V2,...``."""
    key, sep, rest = item.partition("=")
    values = [v.strip() for v in rest.split(",") if v.strip()]
    if not sep or not key.strip() or not values:
        raise ConfigError(f"{item!r}: expected NAME=V1,V2,...")
    return key.strip(), values


@dataclass(frozen=True)
class Setting:
    """One setting: ``key`` in a config file (``sprt.elo0`` is ``elo0`` under ``sprt:``), read by
    ``read`` (``None``: read by the config as a whole, e.g. the bots), ``default`` when absent;
    on the command line ``flag`` (``None``: config files only), a switch when ``is_switch``, and
    repeatable, each ``NAME=...`` item parsed by ``item`` into a mapping entry, when ``item``."""

    key: str
    help: str
    read: Reader | None = None
    default: Any = None
    flag: str | None = ""
    """``""``: ``--`` and the key with dashes (``time_scale``: ``--time-scale``)."""
    metavar: str | None = None
    is_switch: bool = False
    item: Callable[[str], tuple[str, Any]] | None = None

    @property
    def option(self) -> str | None:
        """The command line flag, ``None`` for a setting of config files only."""
        if self.flag is None:
            return None
        return self.flag or "--" + self.key.rsplit(".", 1)[-1].replace("_", "-")

    @property
    def dest(self) -> str:
        """The name of the flag's value in the command's parameters."""
        return self.key.replace(".", "_")

    def value(self, data: Mapping[str, Any], default: Any = None) -> Any:
        """The setting's value in ``data`` (the mapping that holds its last key part), read and
        checked; its default (``default`` when given) when absent."""
        raw = data.get(self.key.rsplit(".", 1)[-1])
        if raw is None:
            raw = self.default if default is None else default
            if raw is None:
                return None
        assert self.read is not None
        return self.read(raw, self.key)


SETTINGS: tuple[Setting, ...] = (
    Setting("game", "The game (arena games lists them).", flag=None),
    Setting("bots", "The bots: names, paths or commands, NAME=BOT to name one.", flag=None),
    Setting(
        "format",
        "Pairing: gauntlet (against the baseline) or round-robin.",
        read=choice(("gauntlet", "round-robin"), "format"),
    ),
    Setting("baseline", "Gauntlet: the bot the others are measured against (default: the last).", read=text),
    Setting(
        "games",
        "Games per comparison (each seed once per seat: an odd count is rounded up, and said).",
        read=integer(1, MAX_GAMES),
        default=100,
    ),
    Setting("pairs", "Seeds per comparison, each played once per seat (instead of games).", flag=None),
    Setting("seeds", "Play these maps (each once per seat) instead of seeds from --seed.", metavar="FILE|A..B|A,B,C"),
    Setting("seed", "Master seed: the whole schedule follows from it.", read=_seed, default=0),
    Setting("workers", "Games played at once (at most twice the cores)."),
    Setting(
        "force_workers",
        "Allow --workers above twice the cores (the bots, timed in wall-clock time, will be starved).",
        read=switch,
        default=False,
        is_switch=True,
    ),
    Setting("time_scale", "Multiply every time limit.", read=number(_positive_time_scale), default=1.0),
    Setting(
        "time_margin",
        "Take an answer up to MS ms past its limit (noisy machines); such answers are counted.",
        read=number(_time_margin),
        default=0.0,
        metavar="MS",
    ),
    Setting(
        "memory_limit_mb",
        "Memory limit of each bot, in MB.",
        read=integer(16, MAX_MEMORY_MB),
        default=DEFAULT_MEMORY_LIMIT_MB,
        flag="--memory-limit",
    ),
    Setting("params", "Game parameter (repeatable).", flag="--param", metavar="NAME=VALUE", item=_name_value),
    Setting(
        "league",
        "The league whose rules are played: a level (1: the first Wood league) or an official name (arena games "
        "lists them).",
        read=text,
        metavar="LEVEL|NAME",
    ),
    Setting("sprt", "Stop each comparison when the SPRT decides.", is_switch=True),
    Setting("sprt.elo0", "SPRT H0 Elo.", read=number(_elo), default=0.0),
    Setting("sprt.elo1", "SPRT H1 Elo.", read=number(_elo), default=5.0),
    Setting("sprt.alpha", "SPRT false-positive rate.", read=number(_rate), default=0.05),
    Setting("sprt.beta", "SPRT false-negative rate.", read=number(_rate), default=0.05),
    Setting(
        "sprt.model",
        "SPRT model: pentanomial (pairs of games) or trinomial (games).",
        read=choice(("pentanomial", "trinomial"), "sprt: model"),
        default="pentanomial",
        flag="--sprt-model",
    ),
    Setting(
        "sweep.bot",
        "Sweep: the bot whose {NAME} placeholders take the grid's values.",
        read=text,
        flag="--sweep-bot",
    ),
    Setting("sweep.grid", "Sweep grid (repeatable).", flag="--grid", metavar="NAME=V1,V2,...", item=_name_values),
    Setting("db", "SQLite results file (relative to the working directory).", read=text, default=DEFAULT_DB),
    Setting(
        "max_failures",
        "Stop when a bot fails (crash, timeout, invalid) in more than this share of its first 20 games "
        "(1 never stops).",
        read=number(_share),
        default=DEFAULT_MAX_FAILURES,
    ),
    Setting(
        "replays",
        "Keep replay files of the games chosen by --keep in this folder (game<ID>-seed<SEED>.json).",
        metavar="DIR",
    ),
    Setting(
        "keep",
        "Which games keep a replay: all, failures, losses of the first bot, or the first N games of each comparison.",
        read=text,
        default="failures",
        metavar="all|failures|losses|N",
    ),
    Setting(
        "sandbox",
        "Run each bot in a bubblewrap sandbox: auto (where it works), on (or fail), off.",
        read=choice(("auto", "on", "off")),
        default="auto",
    ),
    Setting(
        "lib",
        "A library folder: put first on every bot's PYTHONPATH, readable in the sandbox (repeatable).",
        metavar="DIR",
        item=lambda item: (item, item),
    ),
    Setting(
        "env",
        "An environment variable for every bot, under its own env: (repeatable); the sandbox clears all others "
        "but PATH, LANG, HOME, TMPDIR.",
        metavar="NAME=VALUE",
        item=_name_value,
    ),
    Setting(
        "executor",
        "Where games are played: local worker processes or a Dask cluster.",
        read=choice(("local", "dask")),
        default="local",
    ),
    Setting(
        "scheduler", "--executor dask: the Dask scheduler's address (tcp://HOST:8786).", read=text, metavar="ADDRESS"
    ),
    Setting(
        "local_cluster",
        "--executor dask: make a Dask cluster of N workers on this machine instead.",
        read=integer(1, MAX_FORCED_WORKERS),
        metavar="N",
    ),
)
"""Every setting, in the order ``arena tournament --help`` lists them."""

WORKER_KEYS = ("workers", "force_workers", "executor", "scheduler", "local_cluster")
"""Where games are played and how many at once (:class:`Workers`)."""

_BY_KEY = {s.key: s for s in SETTINGS}


def setting(key: str) -> Setting:
    """The setting ``key`` (``sprt.elo0`` for ``elo0`` under ``sprt:``)."""
    return _BY_KEY[key]


def flags_to_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    """The settings the flags of ``arena tournament`` give (``values`` by :attr:`Setting.dest`;
    ``None``, ``False`` and empty repeatable options are not given), as a config file would hold
    them: ``--elo0 3`` is ``{"sprt": {"elo0": "3"}}``, ``--sprt`` alone ``{"sprt": True}``,
    ``--grid depth=2,3`` is ``{"sweep": {"grid": {"depth": ["2", "3"]}}}``."""
    out: dict[str, Any] = {}
    for s in SETTINGS:
        given = values.get(s.dest) if s.option is not None else None
        if given is None or given is False or given == ():
            continue
        if s.item is not None:
            given = dict(s.item(item) for item in given)
        section, _, name = s.key.rpartition(".")
        if section:
            part = out.setdefault(section, {})
            if not isinstance(part, dict):  # --sprt given with an --elo0: the mapping says both
                part = out[section] = {}
            part[name] = given
        elif not (s.is_switch and isinstance(out.get(s.key), dict)):
            out[s.key] = given
    sweep = out.get("sweep")
    if isinstance(sweep, dict) and "grid" not in sweep:
        raise ConfigError("--sweep-bot needs --grid NAME=V1,V2,...")
    return out


# -- how games are played ------------------------------------------------------------------------


def read_params(data: Mapping[str, Any], game: str) -> tuple[dict[str, str], int | None]:
    """The game parameters and the league level (``None``: the top league), checked by the game
    itself. The league is a setting of its own (``league``, ``--league``), or a parameter."""
    params = string_map(data.get("params"), "params")
    given = [str(v) for v in (params.pop(referee.LEAGUE, None), setting("league").value(data)) if v is not None]
    rules = referee.get(game)
    try:
        levels = {rules.league_level({referee.LEAGUE: g}) for g in given}
        rules(0, {**params, **({referee.LEAGUE: given[0]} if given else {})} or None)
    except referee.ParameterError as exc:
        raise ConfigError(f"{'league' if given and 'league' in str(exc) else 'params'}: {exc}") from None
    if len(levels) > 1:
        raise ConfigError(f"league: given twice, as {' and '.join(given)}: give it once")
    level = levels.pop() if levels else rules.top_league
    return params, None if level == rules.top_league else level


def string_map(raw: Any, what: str) -> dict[str, str]:
    """A mapping of names to values (``params:``, ``env:``), each a :func:`text`."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{what}: expected a mapping of NAME: value")
    return {text(k, what): text(v, f"{what}.{k}") for k, v in raw.items()}


def _replays(data: Mapping[str, Any], base: PlaySettings) -> tuple[str | None, str]:
    """Which games keep a replay (``keep``), in which folder (``replays``, made absolute)."""
    if data.get("replays") is None:
        if data.get("keep") is not None and base.replays is None:
            raise ConfigError("keep: says which replays to keep; give the folder too (replays: DIR, --replays DIR)")
        return base.replays, setting("keep").value(data, base.keep)
    folder = paths.expanded(text(data["replays"], "replays"))
    if (reason := paths.unusable(folder)) is not None:
        raise ConfigError(f"replays: {folder}: {reason}")
    if paths.exists(folder) and not paths.is_dir(folder):
        raise ConfigError(f"replays: {folder} is a file, not a folder")
    if not paths.exists(folder) and not paths.is_dir(folder.parent):
        raise ConfigError(f"replays: {folder.parent} does not exist (create it, or give another folder)")
    keep = setting("keep").value(data, base.keep)
    if keep not in KEEP_CHOICES and not keep.isdecimal():
        raise ConfigError(f"keep: {keep!r} is not one of {', '.join(KEEP_CHOICES)} or a number")
    return str(folder.resolve()), keep


def _sandbox(data: Mapping[str, Any], default: str) -> str:
    """``auto``, ``on`` or ``off`` (YAML reads a bare on / off as true / false)."""
    raw = data.get("sandbox")
    if isinstance(raw, bool):
        raw = "on" if raw else "off"
    return str(setting("sandbox").value({"sandbox": raw}, default))


def lib_texts(raw: Any) -> list[str]:
    """The ``lib:`` folders as given: one, a list, or the flags' mapping."""
    if raw is None:
        return []
    if isinstance(raw, Mapping):  # from the flags: folder -> folder
        return [text(v, "lib") for v in raw.values()]
    if isinstance(raw, list):
        return [text(v, f"lib[{i}]") for i, v in enumerate(raw, 1)]
    return [text(raw, "lib")]


def _libs_and_env(data: Mapping[str, Any]) -> tuple[tuple[str, ...], dict[str, str]]:
    """``lib:`` (absolute, relative ones from the current directory; each checked) and ``env:``
    (names checked)."""
    env = string_map(data.get("env"), "env")
    try:
        return read_libs(lib_texts(data.get("lib")), what="lib:"), read_env(
            [f"{k}={v}" for k, v in env.items()], "env:"
        )
    except BotSpecError as exc:
        raise ConfigError(str(exc)) from None


def read_play_settings(data: Mapping[str, Any], game: str, *, base: PlaySettings | None = None) -> PlaySettings:
    """How games are played, from a config's or the flags' settings ``data`` (raw text as typed,
    the settings of :class:`PlaySettings`; those absent, ``None`` or empty keep ``base``'s values,
    default the defaults) for ``game`` (a name or an alias; a config file's relative library
    folders made absolute before). Raises :class:`ConfigError` (one line) for a value that cannot
    be used."""
    try:
        rules = referee.get(game)
    except referee.UnknownGame as exc:
        raise ConfigError(str(exc)) from None
    base = base if base is not None else PlaySettings(rules.name)
    data = {k: v for k, v in data.items() if v is not None and v != {} and v != ()}
    params, league = base.params, base.league
    if "params" in data or "league" in data:
        merged = {"params": {**base.params, **dict(data.get("params") or {})}, "league": data.get("league")}
        if merged["league"] is None and base.league is not None:
            merged["league"] = str(base.league)
        params, league = read_params(merged, rules.name)
    replays, keep = _replays(data, base)
    libs, env = _libs_and_env(data) if "lib" in data or "env" in data else (base.libs, base.env)
    return PlaySettings(
        game=rules.name,
        league=league,
        params=params,
        time_scale=setting("time_scale").value(data, base.time_scale),
        time_margin_ms=setting("time_margin").value(data, base.time_margin_ms),
        memory_limit_mb=setting("memory_limit_mb").value(data, base.memory_limit_mb),
        sandbox=_sandbox(data, base.sandbox),
        replays=replays,
        keep=keep,
        libs=libs,
        env=env,
    )


# -- where games are played ------------------------------------------------------------------------


@dataclass(frozen=True)
class Workers:
    """Where games are played and how many at once: ``count`` worker processes here (``local``),
    or a Dask cluster (``dask``: at ``scheduler``, or ``local_cluster`` workers made here)."""

    count: int
    executor: str = "local"
    scheduler: str | None = None
    local_cluster: int | None = None


def read_workers(data: Mapping[str, Any]) -> Workers:
    """``workers`` (at most twice the cores unless ``force_workers``, then at most
    :data:`MAX_FORCED_WORKERS`; default the cores: more only starve the bots, which are timed in
    wall-clock time), and ``executor`` with ``scheduler`` or ``local_cluster`` for ``dask``."""
    forced = setting("force_workers").value({"force_workers": data.get("force_workers") or None})
    cap = MAX_FORCED_WORKERS if forced else 2 * (os.cpu_count() or 1)
    count: int = integer(1)(data.get("workers", min(os.cpu_count() or 1, cap)), "workers")
    if count > cap:
        if forced:
            raise ConfigError(f"workers: at most {MAX_FORCED_WORKERS}, got {count}")
        raise ConfigError(
            f"workers: {count} is more than twice the {os.cpu_count() or 1} cores (at most {cap}): bots are timed "
            f"in wall-clock time and would be starved; use --workers {cap} or fewer, or --force-workers "
            "(force_workers: true) to run that many anyway"
        )
    executor = setting("executor").value({"executor": data.get("executor") or None})
    scheduler = setting("scheduler").value(data)
    if scheduler is not None and (not scheduler.strip() or any(c.isspace() for c in scheduler)):
        raise ConfigError(f"scheduler: expected an address such as tcp://HOST:8786, got {shown(scheduler)}")
    local = setting("local_cluster").value(data)
    if executor == "local":
        for key, value in (("scheduler", scheduler), ("local_cluster", local)):
            if value is not None:
                raise ConfigError(f"{key}: only for the Dask executor (executor: dask, --executor dask)")
    elif (scheduler is None) == (local is None):
        raise ConfigError(
            "executor: dask needs a scheduler address (scheduler: tcp://HOST:8786, --scheduler) "
            "or a cluster made here (local_cluster: N, --local-cluster N), one of the two"
        )
    return Workers(count, str(executor), scheduler, local)
