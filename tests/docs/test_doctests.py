"""The examples in docstrings run as doctests (issue #37), where they are cheap and deterministic:
the modules listed here. (``arena.api``'s example plays a game with a bot of yours: not run.)"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("referee", "arena.stats.elo")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"{name} has no docstring example left"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


def test_a_wrong_example_fails(tmp_path):
    """The check is not vacuous: an example whose shown output is wrong is counted as failed."""
    source = '''def half(x):\n    """>>> half(4)\n    3.0\n    """\n    return x / 2\n'''
    namespace: dict[str, object] = {}
    exec(compile(source, str(tmp_path / "m.py"), "exec"), namespace)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(verbose=False)
    for test in finder.find(namespace["half"], "half", globs={"half": namespace["half"]}):
        runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
