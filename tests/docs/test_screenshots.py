"""The replay viewer's screenshots in the docs (issue #37: every screenshot shown comes from a
script): docs/gen/viewer_screenshots.py makes them again, and they match the committed ones but
for what timing decides (the response times printed for the frame: a few hundred pixels)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.docs import changed, load_module
from tests.helpers.environment import missing
from tests.helpers.paths import REPO_ROOT
from tests.helpers.sandboxing import require_sandbox

shots = load_module("viewer_screenshots")
MAX_CHANGED = 0.01
"""The share of pixels that may differ (timing text); a changed board or layout is far above."""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    absent = [str(p) for p in (shots.CHROMIUM, shots.CHROMEDRIVER) if not p.exists()]
    if absent:
        missing(f"no browser for the screenshots: {', '.join(absent)}: apt-get install -y chromium chromium-driver")
    if importlib.util.find_spec("selenium") is None:
        missing("selenium is not installed: python -m pip install -e '.[test]'")
    require_sandbox()
    out = tmp_path_factory.mktemp("shots")
    shots.make(out)
    return out


@pytest.mark.parametrize("name", [s.name for s in shots.SHOTS])
def test_each_committed_screenshot_is_what_the_script_makes_now(fresh: Path, name: str):
    share = changed(REPO_ROOT / "docs" / name, fresh / name)
    assert share <= MAX_CHANGED, (
        f"docs/{name}: {share:.1%} of its pixels changed; run python docs/gen/viewer_screenshots.py"
    )


def test_a_different_picture_is_told_apart(fresh: Path):
    """The comparison is not blind: the Spring picture is not the Fall one."""
    assert changed(fresh / "viewer-spring2021.png", REPO_ROOT / "docs" / "viewer-fall2020.png") > 10 * MAX_CHANGED


def test_every_picture_the_docs_show_has_its_script():
    shown = {p.name for p in (REPO_ROOT / "docs").glob("*.png")}
    assert shown == {s.name for s in shots.SHOTS}
