"""The official traces: where they are, how one is read, and one test parameter per trace.

They are in the repository, gzipped (``tests/fixtures/parity``): ``traces`` (the first set, top
league), ``traces_v2`` (every league level, strong bots, edge cases) and ``traces_v2_params``
(games played with game parameters). ``PARITY_TRACES`` names one more folder in the same layout
(``<game>/*.json`` or ``*.json.gz``), checked too.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

import referee

from .paths import PARITY

GAMES = tuple(referee.names())
"""Every registered game: each must come with official traces."""
SETS = ("traces", "traces_v2", "traces_v2_params")
"""The trace sets of the repository, under :data:`tests.helpers.paths.PARITY`."""


def roots() -> list[Path]:
    """The folders of traces: the repository's sets, and ``PARITY_TRACES`` when it is set."""
    extra = os.environ.get("PARITY_TRACES")
    return [PARITY / name for name in SETS] + ([Path(extra)] if extra else [])


def trace_files(root: Path, game: str) -> list[Path]:
    folder = root / game
    if not folder.is_dir():
        return []
    found = [*folder.glob("*.json"), *folder.glob("*.json.gz")]
    return sorted(f for f in found if not f.name.startswith("MANIFEST."))


def load(path: Path) -> dict[str, Any]:
    """A trace, from its ``.json`` or ``.json.gz`` file."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    trace: dict[str, Any] = json.loads(data)
    return trace


def params_of(trace: dict[str, Any]) -> dict[str, str]:
    """The game parameters a trace was played with (its ``game_parameters_sent`` less the seed,
    which the referee takes apart) and its league level, as the referee takes them."""
    sent = dict(item.split("=", 1) for item in trace.get("game_parameters_sent") or [])
    sent.pop("seed", None)
    if "league_level" in trace:
        sent[referee.LEAGUE] = str(trace["league_level"])
    return sent


def collect() -> list[Any]:
    """One test parameter ``(game, path)`` per trace; ``(game, None)`` for a game without any."""
    params = []
    for game in GAMES:
        files = [(root, f) for root in roots() for f in trace_files(root, game)]
        for root, f in files:
            params.append(pytest.param(game, f, id=f"{root.name}/{game}/{f.name.removesuffix('.gz')}"))
        if not files:
            params.append(pytest.param(game, None, id=f"{game}/no-traces"))
    return params
