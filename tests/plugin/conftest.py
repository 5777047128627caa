"""The "fields" test game (``tests/plugin_game``), installed the way a user's package would be: a
``.dist-info`` folder whose ``entry_points.txt`` names its referee in group ``cgarena.games``,
written to a temporary directory that goes on the path with the game's package."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

PLUGIN_SOURCE = Path(__file__).resolve().parents[1] / "plugin_game"
BOTS = PLUGIN_SOURCE / "cgarena_fields" / "bots"


def write_distribution(folder: Path, entry_points: str, name: str = "cgarena_fields") -> Path:
    """A minimal installed distribution in ``folder`` declaring ``entry_points``."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    return folder


@pytest.fixture(scope="session")
def fields_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_distribution(
        tmp_path_factory.mktemp("site"), "[cgarena.games]\nfields = cgarena_fields.referee:FieldsReferee\n"
    )


@pytest.fixture()
def fields_installed(fields_dist: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The game is installed in this process; yields the environment for subprocesses."""
    monkeypatch.syspath_prepend(str(PLUGIN_SOURCE))
    monkeypatch.syspath_prepend(str(fields_dist))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(fields_dist), str(PLUGIN_SOURCE), env.get("PYTHONPATH", "")])
    yield env


def bot(name: str) -> str:
    return str(BOTS / f"{name}.py")
