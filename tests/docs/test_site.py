"""The documentation site (issue #37): ``mkdocs build --strict`` passes (no broken link, no missing
page), the generated command reference lists every command and option of ``arena`` and ``bundle``,
and the README is short and links into the site."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from cli.arena import main as arena_main
from cli.bundle import main as bundle_main
from tests.helpers.environment import missing
from tests.helpers.paths import REPO_ROOT

README = REPO_ROOT / "README.md"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with ``--strict`` into a temporary folder (this checkout's commands)."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocs_click") is None:
        missing("mkdocs is not installed: python -m pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def commands(command: click.Command, path: str) -> Iterator[tuple[str, click.Command]]:
    """``(path, command)`` for ``command`` and every subcommand below it."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from commands(sub, f"{path} {name}")


def test_the_strict_build_passes_and_makes_every_page_of_the_nav(site: Path):
    for page in ("getting-started/walkthrough", "how-to/stronger", "reference/cli", "statistics"):
        assert (site / page / "index.html").is_file(), page


def test_the_command_reference_lists_every_command_and_option(site: Path):
    text = html.unescape(re.sub(r"<[^>]+>", " ", (site / "reference" / "cli" / "index.html").read_text()))
    headings = set(re.findall(r'<h\d id="([\w-]+)"', (site / "reference" / "cli" / "index.html").read_text()))
    checked = 0
    for root, prog in ((arena_main, "arena"), (bundle_main, "bundle")):
        for path, command in commands(root, prog):
            assert path.replace(" ", "-") in headings, path
            for param in command.params:
                if isinstance(param, click.Option):
                    for flag in [*param.opts, *param.secondary_opts]:
                        assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text), (path, flag)
                        checked += 1
    assert checked > 100  # arena tournament alone has about 40


def test_the_readme_is_short_and_links_into_the_site():
    text = README.read_text()
    assert len(text.splitlines()) <= 150
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert len(links) >= 8
    for link in links:
        assert (REPO_ROOT / link).is_file(), link


def test_ci_installs_the_docs_extra_and_builds_the_site_strictly_outside_the_repository():
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet -e '.[test,docs]'" in ci
    (build,) = [line for line in ci.splitlines() if "mkdocs build" in line]
    assert "--strict" in build and '--site-dir "$scratch/site"' in build


def test_the_docs_extra_names_the_site_tools():
    import tomllib

    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=!~\[ ]", d, maxsplit=1)[0] for d in extras["docs"]}
    assert names == {"mkdocs", "mkdocs-material", "mkdocs-click", "mkdocstrings"}
    assert any(d.startswith("mkdocstrings[python]") for d in extras["docs"])
