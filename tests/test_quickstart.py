"""The README's quick start (issue #34, point 15): its two commands, and one line on installing
only what playing needs, whose list of packages is the project's own dependencies."""

from __future__ import annotations

import re
import tomllib

from tests.helpers.paths import REPO_ROOT


def quick_start() -> str:
    text = (REPO_ROOT / "README.md").read_text()
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def test_the_quick_start_keeps_its_two_commands():
    (block,) = re.findall(r"```sh\n(.*?)```", quick_start(), re.DOTALL)
    assert block.splitlines() == ["python -m pip install -e '.[test]' && arena play", "python -m pytest -n auto"]


def test_it_says_how_to_install_only_what_playing_needs():
    """The line names ``pip install .`` (no extras) and exactly the dependencies it pulls, as
    pyproject.toml lists them (a plain install in a fresh venv, 2026-11-26: those 5 and cgarena)."""
    section = quick_start()
    line = " ".join(section.split())  # the sentence, whatever its wrapping
    assert "`python -m pip install . && arena play`" in line
    named = re.search(r"its (\d+) dependencies \(([^)]*)\): (\d+) packages", line)
    assert named is not None, section
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    wanted = {re.split(r"[<>=!~\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    listed = {n.strip().lower() for n in named.group(2).split(",")}
    assert listed == wanted
    assert int(named.group(1)) == len(wanted) and int(named.group(3)) == len(wanted) + 1  # and cgarena
