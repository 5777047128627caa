"""Fixtures of the tournament tests: a Dask cluster on the loopback interface, one for the whole
session (a scheduler and two one-thread workers), and one of its own for a test that kills a
worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.dask_cluster import Cluster


def _cluster(folder: Path) -> Iterator[tuple[Cluster, str]]:
    made = Cluster(folder)
    try:
        address = made.start(workers=2)
        assert address.startswith("tcp://127.0.0.1:"), address
        yield made, address
    finally:
        made.stop()


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, str]]:
    """The session's cluster: tests share it, and leave it as they found it."""
    yield from _cluster(tmp_path_factory.mktemp("cluster"))


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[tuple[Cluster, str]]:
    """A cluster for one test, which may kill its workers."""
    folder = tmp_path / "cluster"
    folder.mkdir()
    yield from _cluster(folder)
