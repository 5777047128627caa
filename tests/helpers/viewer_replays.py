"""Replays played for the occasion, which the viewer's tests (its page, its command) watch."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.arena import main

from .paths import FAULTY

# The replays the tests watch: (game, bots, seed). Deterministic bots and fixed seeds.
MATCHES: dict[str, tuple[str, list[str], str]] = {
    "spring": ("spring2021", ["random", "greedy"], "3"),
    "fall": ("fall2020", ["random", "greedy"], "3"),
    "crash": ("spring2021", [f"{shlex.join([sys.executable, str(FAULTY)])} crash 3", "wait"], "5"),
    "timeout": ("spring2021", ["wait", f"{shlex.join([sys.executable, str(FAULTY)])} hang 4"], "5"),
    "invalid": ("spring2021", ["wait", f"{shlex.join([sys.executable, str(FAULTY)])} garbage 2"], "5"),
}


def play(folder: Path, key: str) -> Path:
    """Play one of :data:`MATCHES` with ``arena play --replay`` into ``folder``."""
    game, bots, seed = MATCHES[key]
    path = folder / f"{key}.json"
    result = CliRunner().invoke(main, ["play", game, *bots, "--seed", seed, "--replay", str(path)])
    assert path.exists(), result.output
    return path
