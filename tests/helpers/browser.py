"""The headless Chromium of the browser tests (the replay viewer, the dashboard), from the
system packages (``apt-get install chromium chromium-driver``), driven by Selenium. Without it
the tests that need it skip, saying what to install, and fail under CI (``.ci/run`` installs
it). ``CGARENA_CHROMIUM`` and ``CGARENA_CHROMEDRIVER`` name other binaries."""

from __future__ import annotations

import os
from pathlib import Path

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
