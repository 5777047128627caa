"""What moved out of the code and the README into the site (issue #37): the statistics formulas
and the config example left their long module docstrings for the reference pages, which a
one-line docstring names; the README's manual became pages."""

from __future__ import annotations

import ast

import pytest

from tests.helpers.paths import REPO_ROOT


def docstring(relative: str) -> str:
    doc = ast.get_docstring(ast.parse((REPO_ROOT / relative).read_text()))
    assert doc is not None, relative
    return doc


@pytest.mark.parametrize(
    ("module", "page"),
    [("arena/stats/__init__.py", "docs/statistics.md"), ("arena/tournament/config.py", "docs/reference/config.md")],
)
def test_the_module_docstring_is_one_line_naming_its_page(module: str, page: str):
    doc = docstring(module)
    assert "\n" not in doc and page in doc, doc
    assert (REPO_ROOT / page).is_file()


def test_the_statistics_page_holds_the_formulas():
    """The formulas fishtest uses (its Elo, interval, LOS and generalized SPRT), as the module's
    docstring gave them before they moved."""
    text = (REPO_ROOT / "docs" / "statistics.md").read_text()
    for formula in (
        "Elo = -400 log10(1/mu - 1)",
        "SE  = sqrt(var / N)",
        "LOS = Phi((mu - 1/2) / SE)",
        "p_i = phat_i / (1 + lam (a_i - s))",
        "LLR = sum n_i log(p1_i / p0_i)",
        "LLR <= ln(beta / (1 - alpha))",
        "LLR >= ln((1 - beta) / alpha)",
        "LL, LD (or DL), WL+DD (and LW), WD (or DW), WW",
    ):
        assert formula in text, formula


def test_the_config_page_holds_an_example_with_the_bots_keys():
    text = (REPO_ROOT / "docs" / "reference" / "config.md").read_text()
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    for key in ("game:", "bots:", "name:", "bot:", "args:", "data:", "sprt:", "sweep:"):
        assert key in example, key


def test_the_readme_shows_examples_with_their_output_and_keeps_the_pages_it_once_held():
    from tests.docs import load_regen

    readme = (REPO_ROOT / "README.md").read_text()
    assert len([b for b in load_regen().blocks(REPO_ROOT / "README.md") if b.kind == "run"]) >= 4
    # the long sections of the old README, each now a page of its own
    for page in ("how-to/play.md", "how-to/stronger.md", "how-to/sandbox.md", "how-to/dask.md", "reference/bots.md"):
        assert f"docs/{page}" in readme, page
        assert (REPO_ROOT / "docs" / page).is_file(), page
