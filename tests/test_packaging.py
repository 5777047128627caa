"""What a plain (non-editable) install gets, and the optional plot dependency.

``.ci/run`` also installs the wheel into a fresh environment and plays the default matches from a
folder away from the checkout; here the wheel's contents are checked file by file."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli.arena import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    out = tmp_path_factory.mktemp("dist")
    source = tmp_path_factory.mktemp("source") / "cgarena"  # setuptools builds in the source tree
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", "dist", ".*_cache", "tests"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)],
        check=True,
        timeout=600,
        cwd=source,
        capture_output=True,
    )
    (wheel,) = out.glob("cgarena-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_the_wheel_ships_the_shipped_bots(wheel_names: set[str]) -> None:
    """#13 point 14: every bot named in bots/shipped.yaml, and the file itself, are in the wheel,
    so ``arena play`` with no arguments works after ``pip install .``."""
    assert "bots/shipped.yaml" in wheel_names
    shipped = yaml.safe_load((REPO / "bots" / "shipped.yaml").read_text())
    for game, bots in shipped.items():
        for name, entry in bots.items():
            if "module" in entry:
                folder = Path(*entry["module"].split("."))
                needed = [folder / "__main__.py"] + sorted(p.relative_to(REPO) for p in (REPO / folder).glob("*.py"))
            else:
                needed = [Path(entry["path"])]
            missing = [str(p) for p in needed if p.as_posix() not in wheel_names]
            assert not missing, f"{game} {name}: {missing} not in the wheel"
    for lib in (REPO / "bots" / "lib").glob("*.py"):
        assert lib.relative_to(REPO).as_posix() in wheel_names


def test_the_wheel_ships_the_javascript_prelude(wheel_names: set[str]) -> None:
    """#34 point 18: a plain install runs CodinGame JavaScript bots: the prelude is package data."""
    assert "arena/match/launch/cg_prelude.js" in wheel_names


def test_the_wheel_ships_the_dashboard_pages(wheel_names: set[str]) -> None:
    """#35: ``arena serve`` works after ``pip install '.[serve]'``: its templates and its script
    and style sheet are package data."""
    folder = REPO / "cli" / "dashboard"
    files = [*(folder / "templates").iterdir(), *(folder / "static").iterdir()]
    assert len(files) >= 8  # six templates and error.html, the script, the style sheet
    missing = [str(p) for p in files if p.relative_to(REPO).as_posix() not in wheel_names]
    assert not missing, f"{missing} not in the wheel"


def test_the_wheel_ships_the_starter_bots(wheel_names: set[str]) -> None:
    """#34 point 17: ``arena new`` works after ``pip install .``: every template is in the wheel."""
    templates = [p for p in (REPO / "arena" / "starter").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(templates) >= 13  # the module, 2 shared templates, 5 files per game
    missing = [str(p) for p in templates if p.relative_to(REPO).as_posix() not in wheel_names]
    assert not missing, f"{missing} not in the wheel"


def test_the_sweep_plot_is_optional(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#13 point 18: without matplotlib, --plot fails with one line saying what to install, before
    reading anything, and a sweep still runs (the plot is skipped with a note)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    result = CliRunner().invoke(
        main, ["results", "--db", str(tmp_path / "none.sqlite"), "--plot", str(tmp_path / "p.png")]
    )
    assert result.exit_code == 1
    assert "pip install 'cgarena[plot]'" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            "greedy",
            "wait --x {x}",
            "--grid",
            "x=1,2",
            "--sweep-bot",
            "wait",
            "--games",
            "2",
            "--param",
            "MAX_ROUNDS=2",
            "--workers",
            "1",
            "--no-progress",
            "--db",
            str(tmp_path / "s.sqlite"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "the sweep plot will not be drawn" in result.output
    assert "sweep plot not drawn: matplotlib is not installed" in result.output
    assert not list(tmp_path.glob("*.png"))
