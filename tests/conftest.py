"""Shared fixtures: the replays the viewer tests watch, the headless browser of the viewer's and the
dashboard's tests, a Dask cluster for the session, and the check that no test writes into the
repository."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.match.replay import read_replay
from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, CHROMIUM_FLAGS, browser_problem
from tests.helpers.dask_cluster import Cluster, running
from tests.helpers.environment import missing
from tests.helpers.paths import REPO_ROOT
from tests.helpers.viewer_replays import MATCHES, play

# -- replays for the viewer's tests (its page, arena view) ------------------------------------------


@pytest.fixture(scope="session")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("replays")
    return {key: play(folder, key) for key in MATCHES}


@pytest.fixture(scope="session")
def documents(replays: dict[str, Path]) -> dict[str, dict[str, Any]]:
    return {key: read_replay(path) for key, path in replays.items()}


# -- a headless Chromium driven by Selenium, for the viewer's and the dashboard's pages ----------------


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    problem = browser_problem()
    if problem:
        missing(problem)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


# -- a Dask cluster on the loopback interface, for the tournaments and ladders that play on one -------


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, str]]:
    """The session's cluster (a scheduler and two one-thread workers): tests share it, and leave
    it as they found it."""
    yield from running(tmp_path_factory.mktemp("cluster"))


# -- tests write only to temporary directories ------------------------------------------------------

_NOT_WATCHED = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv", "venv"}


def _tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` (caches and build output aside): its size and modification time."""
    state = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _NOT_WATCHED and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            try:
                st = path.stat()
            except OSError:
                continue
            state[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return state


@pytest.fixture(scope="session", autouse=True)
def repository_is_left_untouched():
    """The suite fails if any test created, changed or deleted a file of the repository (a
    results database in the working directory, a rewritten fixture...): tests write only to
    temporary directories."""
    before = _tree_state(REPO_ROOT)
    yield
    after = _tree_state(REPO_ROOT)
    created = sorted(set(after) - set(before))
    deleted = sorted(set(before) - set(after))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    if created or deleted or changed:
        pytest.fail(
            f"tests wrote into the repository: created {created}, changed {changed}, deleted {deleted}", pytrace=False
        )
