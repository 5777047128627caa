"""The bots of a tournament as a config names them (:class:`BotEntry`: a BOT, its name,
arguments, environment and data files), and sweeps (:class:`SweepSettings`: one bot's variants,
one per point of a grid of ``{NAME}`` placeholder values), read from a config's ``bots:`` and
``sweep:`` with one-line :class:`arena.settings.ConfigError` s."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import paths
from ..match.launch.botname import default_name, name_of_path
from ..match.launch.botspec import split_name
from ..settings import ConfigError, string_map, text
from .schedule import Format

__all__ = ["BotEntry", "SweepSettings", "read_bots", "read_sweep", "with_variants", "check_data"]

MAX_SWEEP_VARIANTS = 1000
"""The most variants a sweep grid may make."""
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


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


def read_bots(raw: Any, base: Path | None = None) -> list[BotEntry]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError("'bots' must be a list of bots (each a name/path/command, or bot: with args:/env:)")
    entries: list[tuple[str | None, BotEntry]] = []
    for i, item in enumerate(raw, 1):
        if isinstance(item, (str, int, float)):
            label, bot_text = split_name(text(item, f"bots[{i}]"))
            item = {"bot": bot_text, **({"name": label} if label else {})}
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
        bot = text(item["bot"], f"bots[{i}].bot")
        label = text(item["name"], f"bots[{i}].name") if item.get("name") not in (None, "") else None
        entry = BotEntry(
            name=label or _default_name(bot, base),
            bot=bot,
            args=tuple(text(a, f"bots[{i}].args[{j}]") for j, a in enumerate(args, 1)),
            env=string_map(item.get("env"), f"bots[{i}].env"),
            base=None if base is None else str(base),
            data=tuple(text(d, f"bots[{i}].data[{j}]") for j, d in enumerate(data, 1)),
        )
        entries.append((label, entry))
    chosen = [label for label, _ in entries if label is not None]
    dup = next((n for n in chosen if chosen.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"two bots are named {dup!r}: give each a distinct name (NAME=BOT, or 'name:')")
    bad = next((n for n in chosen if any(c in n for c in "\n\r\t") or paths.readable(n) != n), None)
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


def _default_name(bot: str, base: Path | None) -> str:
    """The bot's name by the one naming rule of :mod:`arena.match.launch.botname` (as ``arena play``)."""
    whole = paths.located(bot, base or Path.cwd())
    return paths.readable(name_of_path(str(whole), base) if paths.exists(whole) else default_name(bot, base))


def read_sweep(raw: Any, bots: list[BotEntry]) -> SweepSettings | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"bot", "grid"}:
        raise ConfigError("sweep: expected a mapping with 'bot:' (the bot to vary) and 'grid:'")
    names = [b.name for b in bots]
    bot = text(raw.get("bot") or names[-1], "sweep.bot")
    if bot not in names:
        raise ConfigError(f"sweep: bot {bot!r} is not one of the bots ({', '.join(names)})")
    grid_raw = raw.get("grid")
    if not isinstance(grid_raw, dict) or not grid_raw:
        raise ConfigError("sweep: 'grid' must map each parameter to a list of values, e.g. {depth: [2, 3, 4]}")
    grid = []
    for key, values in grid_raw.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"sweep: grid {key!r} must be a non-empty list of values")
        texts = tuple(text(v, f"sweep: grid {key!r}") for v in values)
        if len(set(texts)) != len(texts):
            raise ConfigError(f"sweep: grid {key!r} repeats a value")
        grid.append((text(key, "sweep: grid"), texts))
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


def with_variants(
    bots: list[BotEntry], sweep: SweepSettings | None, fmt: str, baseline: str | None
) -> tuple[list[BotEntry], str | None]:
    """The bots actually played (a sweep's variants replace its bot) and the checked baseline."""
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
        if fmt != Format.GAUNTLET:
            raise ConfigError("baseline: only a gauntlet has a baseline")
        if baseline not in {b.name for b in bots}:
            raise ConfigError(f"baseline {baseline!r} is not one of the bots ({', '.join(b.name for b in bots)})")
        if sweep is not None and baseline == sweep.bot:
            raise ConfigError("baseline: the swept bot cannot be the baseline")
    elif fmt == Format.GAUNTLET:
        baseline = bots[-1].name  # `arena tournament GAME NEW OLD`: NEW is measured against OLD
    return bots, baseline


def check_data(entry: BotEntry) -> None:
    """Each data path of a bot names an existing file or folder (from the config's folder)."""
    base = Path(entry.base) if entry.base is not None else Path.cwd()
    for given in entry.data:
        reason = paths.missing(paths.located(given, base))
        if reason is not None:
            raise ConfigError(f"bot {entry.name!r}: data {given}: {reason} (from {base})")
