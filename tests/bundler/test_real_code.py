"""The bundler on real code: this repository's referee package (about twenty modules, with
relative imports, dataclasses, enums, name clashes between the two games and a function-level
import that breaks a cycle), bundled and played against the package itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from bundler.build import BuildOptions, build
from bundler.flat import flatten
from tests.helpers.bundling import run_bundle, run_python
from tests.helpers.paths import REPO_ROOT

REPO = REPO_ROOT

PLAY = """import referee
import referee.fall2020.referee
import referee.spring2021.referee

for game in referee.names():
    ref = referee.create(game, seed=11)
    turn = 0
    while not ref.is_over:
        outputs = {}
        for request in ref.requests():
            if request.expected_lines:
                # a deterministic, mostly legal policy: the first listed action, else WAIT
                actions = [l for l in request.lines if l.split()[0] in ("GROW", "SEED", "COMPLETE")]
                outputs[request.player] = actions[turn % len(actions)] if actions else "WAIT"
        report = ref.apply(outputs)
        turn += 1
    print(game, turn, ref.outcome())
"""


@pytest.fixture()
def script(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "play.py"
    path.parent.mkdir()
    path.write_text(PLAY)
    return path


def test_modules_mode_on_the_referee_package(script, tmp_path):
    bundle = build(BuildOptions(script, (REPO,)))
    assert bundle.mode == "modules"  # referee.get() uses importlib.import_module
    assert any("importlib.import_module" in r for r in bundle.fallback_reasons)
    original = run_python(["play.py"], cwd=script.parent, libs=(REPO,))
    assert original.returncode == 0 and "spring2021" in original.stdout, original.stderr
    assert run_bundle(bundle.text, tmp_path) == original


def test_flat_mode_on_the_referee_package(script, tmp_path, monkeypatch):
    # The script imports both game modules itself, so referee.get()'s import_module only finds
    # modules already loaded: declare that one dynamic import safe for this test.
    monkeypatch.setattr(flatten, "_DYNAMIC_ATTRS", {})
    bundle = build(BuildOptions(script, (REPO,), mode="flat"))
    assert bundle.mode == "flat"
    assert len(bundle.size.modules) > 15
    renamed = {old for names in bundle.renamed.values() for old in names}
    assert "parse" in renamed  # both games' actions modules define parse()
    original = run_python(["play.py"], cwd=script.parent, libs=(REPO,))
    assert run_bundle(bundle.text, tmp_path) == original
