"""Game seeds as users write them: one seed (a Java long), or a list of seeds to replay a fixed set
of maps (a file, a range, a comma-separated list).

The command line and a YAML config read a seed with the same rules (:func:`parse_seed`): Python's
integer literals (``-5``, ``0x1F``, ``1_000``), nothing else. A YAML file would otherwise read
``017`` as octal 15 and ``1:30`` as 90 while the command line refuses both; so the config reader
hands integers over as their text (:class:`IntAsTextLoader`) and they are parsed here.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from .. import paths
from ..errors import ArenaError

__all__ = ["SeedError", "parse_seed", "parse_seed_list", "IntAsTextLoader", "JAVA_LONG_MIN", "JAVA_LONG_MAX"]

JAVA_LONG_MIN = -(2**63)
JAVA_LONG_MAX = 2**63 - 1
_RANGE = re.compile(r"\s*([^.\s]+)\s*\.\.\s*([^.\s]+)\s*")
MAX_SEEDS = 1_000_000
"""A seed list longer than this is surely a mistake (a range typed with one digit too many)."""


class SeedError(ArenaError, ValueError):
    """Text that is not a seed or a seed list (the message says what is expected)."""


def parse_seed(value: object) -> int:
    """A seed: an ``int`` (not a ``bool`` or ``float``) or the text of a Python integer literal,
    within the Java long range."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SeedError(f"{value!r} is not an integer seed (any Java long, e.g. -5 or 0x1F)")
    if isinstance(value, str):
        try:
            value = int(value.strip(), 0)
        except ValueError:
            raise SeedError(f"{value!r} is not an integer (any Java long is accepted, e.g. -5 or 0x1F)") from None
    if not JAVA_LONG_MIN <= value <= JAVA_LONG_MAX:
        raise SeedError(f"{value} is outside the Java long range [-2^63, 2^63-1]")
    return value


MAX_LINE = 1 << 20
"""A seed file's line longer than this (1 MB) is surely not seeds."""


def _read_file(path: Path) -> list[int]:
    """The seeds of the file at ``path``, read a line at a time: a file of more than
    :data:`MAX_SEEDS` seeds is refused at the first seed past it, without reading the rest."""
    seeds: list[int] = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(iter(lambda: f.readline(MAX_LINE + 1), ""), 1):
                if len(line) > MAX_LINE:
                    raise SeedError(f"{path}, line {number}: over {MAX_LINE:,} characters, not a seed file")
                for word in line.split("#", 1)[0].replace(",", " ").split():
                    try:
                        seeds.append(parse_seed(word))
                    except SeedError as exc:
                        raise SeedError(f"{path}, line {number}: {exc}") from None
                    if len(seeds) > MAX_SEEDS:
                        raise SeedError(f"{path}: more than {MAX_SEEDS:,} seeds (at most {MAX_SEEDS:,})")
    except (OSError, UnicodeDecodeError) as exc:
        raise SeedError(f"{path}: cannot read the seed file ({exc})") from None
    return seeds


def parse_seed_list(value: object, base: Path | None = None) -> tuple[int, ...]:
    """A non-empty list of seeds: a list (YAML), or text naming a file (one or more seeds per
    line, ``#`` comments; relative to ``base``, default the current directory), an inclusive
    range ``A..B``, or a comma-separated list ``A,B,C``. A seed given twice is refused: it would
    count the same map twice in the statistics."""
    if isinstance(value, (list, tuple)):
        seeds = [parse_seed(v) for v in value]
    elif isinstance(value, (int, str)) and not isinstance(value, bool):
        text = str(value).strip()
        path = paths.located(text, base)
        if text and paths.is_file(path):
            seeds = _read_file(path)
        elif (match := _RANGE.fullmatch(text)) is not None:
            first, last = parse_seed(match.group(1)), parse_seed(match.group(2))
            if last < first:
                raise SeedError(f"seed range {text!r} is empty (write the smaller bound first)")
            if last - first + 1 > MAX_SEEDS:
                raise SeedError(f"seed range {text!r} has {last - first + 1:,} seeds (at most {MAX_SEEDS:,})")
            seeds = list(range(first, last + 1))
        elif "," in text or _is_int(text):
            seeds = [parse_seed(word) for word in text.split(",") if word.strip()]
        else:
            why = paths.missing(path) or "not a file"
            raise SeedError(f"{text!r} is not a seed file ({why}), a range A..B or a list A,B,C")
    else:
        raise SeedError(f"{value!r} is not a seed list (a list, a file, a range A..B or A,B,C)")
    if not seeds:
        raise SeedError("the seed list is empty")
    if len(seeds) > MAX_SEEDS:
        raise SeedError(f"the seed list has {len(seeds):,} seeds (at most {MAX_SEEDS:,})")
    seen: set[int] = set()
    for s in seeds:
        if s in seen:
            raise SeedError(f"seed {s} is listed twice: each seed is one map, played once per seat")
        seen.add(s)
    return tuple(seeds)


def _is_int(text: str) -> bool:
    try:
        int(text, 0)
    except ValueError:
        return False
    return True


class IntAsTextLoader(yaml.SafeLoader):
    """YAML's safe loader, except that a plain scalar YAML 1.1 reads as an integer is kept as
    text when it is not a Python integer literal (``017``, ``1:30``) and parsed with Python's rules
    otherwise, so a setting means the same in a file and on the command line."""


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int | str:
    text = str(loader.construct_scalar(node))
    try:
        return int(text, 0)
    except ValueError:
        return text


IntAsTextLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
