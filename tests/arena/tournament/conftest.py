"""Fixtures of the tournament tests: a Dask cluster of its own for a test that kills a worker
(the session's cluster, which tests share, is in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.dask_cluster import Cluster, running


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[tuple[Cluster, str]]:
    """A cluster for one test, which may kill its workers."""
    folder = tmp_path / "cluster"
    folder.mkdir()
    yield from running(folder)
