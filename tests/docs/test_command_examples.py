"""Every ``arena`` and ``bundle`` command shown in a shell block of the README or the site (issue
#37: command examples are checked) is one the commands accept: its subcommands exist and its
options exist, with values of the right type. The examples name files of yours (``my_bot.py``), so
they are parsed, not run; the examples shown with their output are run (test_drift.py)."""

from __future__ import annotations

import re
import shlex
import warnings
from pathlib import Path

import click
import pytest

from cli.arena import main as arena_main
from cli.bundle import main as bundle_main
from tests.helpers.paths import REPO_ROOT

ROOTS: dict[str, click.Command] = {"arena": arena_main, "bundle": bundle_main}
SHELL_BLOCK = re.compile(r"```(?:sh|bash|shell)\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """(file, command line) of every arena or bundle command in a shell block."""
    found = []
    for path in [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]:
        for block in SHELL_BLOCK.findall(path.read_text(encoding="utf-8")):
            for line in block.splitlines():
                words = shlex.split(line, comments=True)
                if words and words[0] in ROOTS:
                    found.append((path.relative_to(REPO_ROOT).as_posix(), line))
    return found


def parse(words: list[str]) -> click.Context:
    """Parse ``words`` as the command line would, down to the last subcommand (nothing runs)."""
    command = ROOTS[words[0]]
    context = command.make_context(words[0], words[1:])
    while isinstance(command, click.Group):
        with warnings.catch_warnings():  # click 8.2+: protected_args is deprecated (args holds all in 9.0)
            warnings.simplefilter("ignore", DeprecationWarning)
            rest = [*context.protected_args, *context.args]
        if not rest:
            break
        name, sub, args = command.resolve_command(context, rest)
        assert sub is not None and name is not None
        command, context = sub, sub.make_context(name, args, parent=context)
    return context


EXAMPLES = examples()


def test_the_docs_show_many_examples_of_both_commands():
    assert len(EXAMPLES) >= 30
    assert {line.split()[0] for _, line in EXAMPLES} == {"arena", "bundle"}


@pytest.mark.parametrize(("where", "line"), EXAMPLES, ids=[f"{w}:{i}" for i, (w, _) in enumerate(EXAMPLES)])
def test_each_example_is_a_valid_command_line(where: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # the files the examples name are not there: only the syntax is checked
    try:
        parse(shlex.split(line, comments=True))
    except click.UsageError as exc:
        pytest.fail(f"{where}: {line.strip()}\n  {exc.format_message()}")


@pytest.mark.parametrize(
    "line",
    ["arena play greedy random --seedz 1", "bundle bot.py --verify spring2021 --games many", "arena matchez list"],
)
def test_a_mistyped_example_is_caught(line: str):
    with pytest.raises(click.UsageError):
        parse(shlex.split(line))
