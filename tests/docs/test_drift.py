"""Nothing in the docs can drift (issue #37): every generated block of README.md and docs/ (command
outputs, the config keys, the bundle sizes) is what docs/gen/regen.py writes now. The walkthrough
page has its own test (test_walkthrough.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs import load_regen
from tests.helpers.paths import REPO_ROOT
from tests.helpers.sandboxing import require_sandbox

regen = load_regen()
WALKTHROUGH = REPO_ROOT / "docs" / "getting-started" / "walkthrough.md"
DOCUMENTS = [p for p in regen.documents() if p != WALKTHROUGH and regen.blocks(p)]


def test_the_readme_and_the_reference_have_generated_blocks():
    names = {p.relative_to(REPO_ROOT).as_posix() for p in DOCUMENTS}
    assert {
        "README.md",
        "docs/reference/config.md",
        "docs/reference/bots.md",
        "docs/reference/results-schema.md",
        "docs/reference/replay-format.md",
        "docs/reference/modules.md",
    } <= names


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(REPO_ROOT).as_posix())
def test_generated_blocks_match_what_the_generator_writes_now(path: Path):
    if any(b.kind == "run" for b in regen.blocks(path)):
        require_sandbox()  # the outputs shown were made with the sandbox ("sandboxed", "--sandbox on")
    report = regen.drifted([path])
    assert not report, "\n".join(report) + "\nregenerate with: python docs/gen/regen.py"


def page(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(f"# A page\n\n<!-- gen:run arena games -->\n{body}<!-- /gen -->\n")
    return path


def test_the_check_fails_when_a_shown_output_differs(tmp_path: Path):
    """A block whose output was edited by hand (or whose command now prints something else) is
    reported; the games' list is what `arena games` prints (its first game is Spring 2021)."""
    path = page(tmp_path, "```console\n$ arena games\nspring2021: a game that does not exist\n```\n")
    (report,) = regen.drifted([path])
    assert "gen:run arena games differs" in report and "spring2021" in report


def test_rewriting_makes_the_check_pass_and_keeps_the_rest_of_the_page(tmp_path: Path):
    path = page(tmp_path, "```console\nstale\n```\n")
    assert regen.rewrite(path)
    text = path.read_text()
    assert text.startswith("# A page\n\n<!-- gen:run arena games -->\n```console\n$ arena games\n")
    assert "stale" not in text and text.endswith("```\n<!-- /gen -->\n")
    assert regen.drifted([path]) == []


def test_the_module_map_names_every_module():
    """Each .py file of the five packages has its row (a module added later shows up, or the check
    fails); the first sentence of referee/javarandom.py's docstring is its description."""
    text = (REPO_ROOT / "docs" / "reference" / "modules.md").read_text()
    for package in ("referee", "arena", "cli", "bundler", "bots"):
        for path in (REPO_ROOT / package).rglob("*.py"):
            if path.name == "__init__.py" or path.name.startswith("_"):
                continue
            assert f"| `{path.relative_to(REPO_ROOT).as_posix()}` |" in text, path
    assert "| `referee/javarandom.py` | Bit-exact ``java.util.Random`` and ``java.util.Collections.shuffle`` |" in text


def test_timing_figures_are_compared_masked_and_everything_else_exactly():
    timing = "  player 0 mybot: ok; median 0.1 ms, max 33.5 ms, closest call 3% of the limit"
    assert regen.comparable(timing) == regen.comparable(timing.replace("33.5", "12.0").replace("3%", "9%"))
    result = "result: player 1 (greedy) wins, scores [2, 3], max_rounds after 12 turns"
    assert regen.comparable(result) != regen.comparable(result.replace("[2, 3]", "[3, 2]"))
    stored = "  max_rounds after 12 turns, 0.1 s, finished 2026-11-26 12:38; rules spring2021 rules 1"
    assert regen.comparable(stored) == regen.comparable(stored.replace("0.1 s", "2.3 s").replace("12:38", "09:01"))
    assert regen.comparable(stored) != regen.comparable(stored.replace("12 turns", "13 turns"))


def test_a_command_that_fails_stops_the_generation(tmp_path: Path):
    path = tmp_path / "page.md"
    path.write_text("<!-- gen:run arena play nosuchgame greedy random -->\n<!-- /gen -->\n")
    with pytest.raises(regen.GenerationError, match="nosuchgame"):
        regen.drifted([path])


def test_columns_that_follow_timing_and_the_histogram_rows_are_compared_loosely():
    row = "greedy      4         0        0        0        0           0        0.0%       6%  0.7 / 43.9 / 64.7"
    wider = "greedy      4         0        0        0        0           0        0.0%      11%  0.8 / 73.7 / 93.2"
    assert regen.comparable(row) == regen.comparable(wider)
    histogram = "answers by share of their time limit:\n  greedy  <=50% 158\n"
    assert regen.comparable(histogram) == regen.comparable(histogram + "  random  <=50% 150  50-80% 8\n")


def test_a_block_that_differs_once_is_generated_again_and_one_that_always_differs_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    path = page(tmp_path, "```console\nshown\n```\n")
    answers = iter([["differs once"], []])
    monkeypatch.setattr(regen, "differences", lambda _path: next(answers))
    assert regen.drifted([path]) == []
    monkeypatch.setattr(regen, "differences", lambda _path: ["always"])
    assert regen.drifted([path]) == ["always"]
