"""The "fields" test game (``tests/fixtures/plugin_game``), installed the way a user's package would be: a
``.dist-info`` folder whose ``entry_points.txt`` names its referee in group ``cgarena.games``,
written to a temporary directory that goes on the path with the game's package."""

from __future__ import annotations

from pathlib import Path

from .paths import FIXTURES

PLUGIN_SOURCE = FIXTURES / "plugin_game"
BOTS = PLUGIN_SOURCE / "cgarena_fields" / "bots"


def write_distribution(folder: Path, entry_points: str, name: str = "cgarena_fields") -> Path:
    """A minimal installed distribution in ``folder`` declaring ``entry_points``."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    return folder


def bot(name: str) -> str:
    return str(BOTS / f"{name}.py")
