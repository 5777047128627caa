"""A config file read safely: YAML with integers read as the command line reads them
(:class:`arena.match.seeds.IntAsTextLoader`), alias bombs and recursive aliases refused, and every
problem (no file, not UTF-8, not YAML, not a mapping) one line naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .. import paths
from ..errors import ArenaError
from ..match.seeds import IntAsTextLoader
from ..settings import ConfigError

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_ALIAS_VALUES",
    "YamlLimitError",
    "check_aliases",
    "ConfigLoader",
    "read_config_file",
]

MAX_CONFIG_BYTES = 16 << 20
"""A config file larger than this (16 MiB) is surely not one."""
MAX_ALIAS_VALUES = 10_000
"""YAML aliases (``*name``) may repeat at most this many values in all: enough to reuse settings,
far too few for an alias bomb (a few lines that expand to billions of values)."""


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
    """The settings in the config file ``path`` (an empty file has none). Raises
    :class:`ConfigError` naming the file."""
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
