"""The official traces: where they are and one test parameter per trace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import referee

from .paths import PARITY

GAMES = tuple(referee.names())
"""Every registered game: each must come with official traces."""


def traces_root() -> Path:
    env = os.environ.get("PARITY_TRACES")
    return Path(env) if env else PARITY / "traces"


def collect() -> list:
    root = traces_root()
    params = []
    for game in GAMES:
        files = sorted((root / game).glob("*.json")) if (root / game).is_dir() else []
        files = [f for f in files if f.name != "MANIFEST.json"]
        for f in files:
            params.append(pytest.param(game, f, id=f"{game}/{f.name}"))
        if not files:
            params.append(pytest.param(game, None, id=f"{game}/no-traces"))
    return params
