"""Shared fixtures: where the official parity material lives.

Tests read ``../shared`` from the repository root. When it is missing they fail under CI (the
``CI`` environment variable is set) and skip with a clear reason elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
PARITY = SHARED / "parity"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_path(path: Path, what: str) -> Path:
    """Return ``path`` if it exists; otherwise fail under CI, skip (with the reason) elsewhere."""
    if path.exists():
        return path
    message = f"{what} not found at {path} (expected ../shared beside the repository)"
    if in_ci():
        pytest.fail(message + "; CI must have it", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def parity_dir() -> Path:
    return require_path(PARITY, "parity material")
