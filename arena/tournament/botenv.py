"""A tournament's ``lib:`` and ``env:`` (``--lib DIR``, ``--env NAME=VALUE``): library folders and
environment variables given to every bot, as ``arena play`` gives them.

They become part of each bot's own environment (:attr:`BotEntry.env`): ``env:`` under the bot's
own ``env:`` (a bot's value wins), the ``lib:`` folders (absolute) first on its ``PYTHONPATH``.
So they are part of what the tournament is (a run with another ``--lib`` is another tournament),
the sandbox shows the folders to the bots (:func:`arena.match.sandbox.confine`), and the command
that plays a game again gives them with ``--env``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import paths
from ..settings import lib_texts
from .entries import BotEntry

__all__ = ["with_shared", "file_libs"]


def file_libs(data: MutableMapping[str, Any], base: Path) -> None:
    """The ``lib:`` folders of a config file, relative to its folder, made absolute in ``data``."""
    texts = lib_texts(data.get("lib")) if not isinstance(data.get("lib"), Mapping) else []
    if texts:
        data["lib"] = [t if paths.expanded(t).is_absolute() else str(base / paths.expanded(t)) for t in texts]


def with_shared(bots: Sequence[BotEntry], libs: Sequence[str], env: Mapping[str, str]) -> list[BotEntry]:
    """Each bot with ``env`` under its own variables and ``libs`` first on its ``PYTHONPATH``."""
    if not libs and not env:
        return list(bots)
    out = []
    for bot in bots:
        merged = {**env, **bot.env}
        if libs:
            rest = merged.get("PYTHONPATH")
            merged["PYTHONPATH"] = os.pathsep.join([*libs, *([rest] if rest else [])])
        out.append(replace(bot, env=merged))
    return out
