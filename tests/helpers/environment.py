"""Whether the suite runs under CI, and what a test does when something it needs is missing:
under CI it fails (CI must have everything), elsewhere it skips saying what to install."""

from __future__ import annotations

import os
import shutil

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(message: str) -> None:
    """Fail under CI, skip (with ``message``) elsewhere."""
    if in_ci():
        pytest.fail(message + "; CI must have it", pytrace=False)
    pytest.skip(message)


def require_program(program: str, install: str) -> str:
    """The path of ``program`` (a name looked up on ``PATH``, or an absolute path); when it is
    missing, fail under CI and skip elsewhere with the command that installs it."""
    found = shutil.which(program)
    if found is None:
        missing(f"{program} is not installed: {install}")
    assert found is not None
    return found
