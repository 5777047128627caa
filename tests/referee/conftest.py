"""Fixtures of the referee tests: the "fields" plugin game, installed for the test that asks for it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.plugins import PLUGIN_SOURCE, write_distribution


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
