"""The dashboard's screenshots in the docs (issues #35 and #37: every screenshot shown comes from a
script): docs/gen/dashboard_screenshots.py makes them again, and they match the committed ones but
for what timing decides (latencies, times of day: a few hundred pixels)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.docs import changed, load_module
from tests.helpers.browser import browser_problem
from tests.helpers.environment import missing
from tests.helpers.paths import REPO_ROOT

shots = load_module("dashboard_screenshots")
FOLDER = REPO_ROOT / "docs" / "dashboard"
MAX_CHANGED = 0.01
"""The share of pixels that may differ (timing text); another page, a changed table or chart is far
above (two runs here differed by 0.00-0.18%)."""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    problem = browser_problem()
    if problem:
        missing(problem)
    if importlib.util.find_spec("flask") is None:
        missing("Flask is not installed: python -m pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("dashboard-shots")
    shots.make(out)
    return out


@pytest.mark.parametrize("name", shots.SHOTS)
def test_each_committed_screenshot_is_what_the_script_makes_now(fresh: Path, name: str) -> None:
    share = changed(FOLDER / name, fresh / name)
    assert share <= MAX_CHANGED, (
        f"docs/dashboard/{name}: {share:.1%} of its pixels changed; run python docs/gen/dashboard_screenshots.py"
    )


def test_a_different_picture_is_told_apart(fresh: Path) -> None:
    """The comparison is not blind: the page of one tournament is not that of another (same size:
    the top rows of both)."""
    from matplotlib.image import imread, imsave

    a, b = imread(fresh / "tournament.png"), imread(fresh / "sweep.png")
    rows = min(a.shape[0], b.shape[0])
    imsave(fresh / "a.png", a[:rows])
    imsave(fresh / "b.png", b[:rows])
    assert changed(fresh / "a.png", fresh / "b.png") > 10 * MAX_CHANGED


def test_every_picture_the_dashboard_page_shows_has_its_script() -> None:
    shown = {p.name for p in FOLDER.glob("*.png")}
    assert shown == set(shots.SHOTS)
    page = (REPO_ROOT / "docs" / "dashboard.md").read_text()
    assert {name for name in shots.SHOTS if f"(dashboard/{name})" in page} == shown  # each one shown
