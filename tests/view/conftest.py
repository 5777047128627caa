"""Fixtures of the replay viewer tests: replays played for the occasion, and a headless Chromium.

The browser is Chromium from the system packages (``apt-get install chromium chromium-driver``),
driven by Selenium. A missing browser fails the tests (it does not skip them): ``.ci/run``
installs it. ``CGARENA_CHROMIUM`` and ``CGARENA_CHROMEDRIVER`` name other binaries.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.match.replay import read_replay
from cli.arena import main

CHROMIUM = Path(os.environ.get("CGARENA_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CGARENA_CHROMEDRIVER", "/usr/bin/chromedriver"))
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
FAULTY = Path(__file__).resolve().parents[1] / "arena" / "fault_bots" / "faulty.py"

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


@pytest.fixture(scope="session")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("replays")
    return {key: play(folder, key) for key in MATCHES}


@pytest.fixture(scope="session")
def documents(replays: dict[str, Path]) -> dict[str, dict[str, Any]]:
    return {key: read_replay(path) for key, path in replays.items()}


def browser_problem() -> str | None:
    """Why no browser can be driven, or ``None``."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        return (
            f"no browser for the viewer tests: {', '.join(missing)} not found; install Chromium and its driver "
            "(apt-get install -y chromium chromium-driver)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]' (or pip install selenium)"
    return None


class MissingBrowser:
    """Stands for the driver when there is no browser: the first use fails the test (a failure,
    not a skip and not a set-up error), with the reason."""

    def __init__(self, problem: str) -> None:
        self.problem = problem

    def __getattr__(self, name: str) -> Any:
        pytest.fail(self.problem, pytrace=False)


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    problem = browser_problem()
    if problem:
        yield MissingBrowser(problem)
        return
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
