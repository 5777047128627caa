"""The replay viewer tests' headless Chromium, from the system packages (``apt-get install
chromium chromium-driver``), driven by Selenium. Without it the tests that need it skip, saying
what to install, and fail under CI (``.ci/run`` installs it). ``CGARENA_CHROMIUM`` and
``CGARENA_CHROMEDRIVER`` name other binaries."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.environment import missing

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
