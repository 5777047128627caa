"""Regenerate every generated block of the documentation, or check that none has drifted.

A generated block sits between two HTML comments, in README.md or any page under docs/::

    <!-- gen:KIND ARGUMENT -->
    ...what the generator writes...
    <!-- /gen -->

Kinds:

``run COMMAND``
    The command is run and the block shows it with its output (stdout and stderr), as a console
    session. ``arena ...`` and ``bundle ...`` run this checkout's commands (``python -m cli``);
    a command line that starts with another program (``python -m pytest mybot``) runs as it is.
    The ``run`` blocks of one file run in order in one fresh temporary folder, so a page can make
    a bot, play it, then bundle it: a page is one session. A command that fails fails the
    generation, unless the command ends with ``# fails`` (then its error is what is shown).
``config-keys``
    The table of the tournament settings, from :data:`arena.settings.SETTINGS`.
``bundle-sizes``
    The size of each shipped bot's bundle, made by the bundler of this checkout.
``modules``
    Every package and module of the project with the first sentence of its docstring.
``schema``
    The SQL of a new results database (made by the arena, migrations applied), table by table.

``python docs/gen/regen.py`` rewrites the blocks in place; ``python docs/gen/regen.py --check``
rewrites nothing and exits with status 1, naming each block whose text differs from what the
generator writes now (tests/docs/test_drift.py runs the check).

What a bot's timing decides (latencies, the share of the limit used, the histogram of answers
by share of their limit) differs from run to run: lines that show it are compared with their
numbers masked (:func:`comparable`); every other line, every figure and every word, must match.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- gen:(?P<kind>[\w-]+)(?: (?P<arg>[^\n]*?))? -->\n(?P<body>.*?)<!-- /gen -->", re.DOTALL)
FAILS = "# fails"
RUN_TIMEOUT_S = 300
SESSION_FOLDER = "~/contest"
"""How a page shows the temporary folder its commands ran in."""

TIMING_LINE = re.compile(r" ms\b|closest|\d+\.\d+ / \d+\.\d+ / \d+\.\d+|[<>]=?\d+% | in \d+\.\d+s\b")
"""A line whose numbers depend on the machine's timing (latencies, closeness to the limit)."""
VARYING = re.compile(r"\d{4}-\d\d-\d\d(?: \d\d:\d\d(?::\d\d)?)?|\b\d+\.\d+ s\b")
"""A date or a duration in seconds, on any line."""
HISTOGRAM = re.compile(r"^\s+\S+(?:\s+[<>]?=?\d+(?:-\d+)?%\s+\d+)+\s*$|\(by share of the limit:[^)]*\)")
"""A row of the histogram of answers by share of their limit, or its one-line form: how many
answers fall in which bin is timing too, and a bin may appear or vanish."""
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
ENTRY_POINTS = {
    "arena": "from cli.arena import main; main(prog_name='arena')",
    "bundle": "from cli.bundle import main; main(prog_name='bundle')",
}


class GenerationError(RuntimeError):
    """A block could not be generated (a command failed, an unknown kind)."""


@dataclass(frozen=True)
class Block:
    """One generated block of a file: its kind, its argument and its text as it stands."""

    path: Path
    kind: str
    arg: str
    body: str

    @property
    def label(self) -> str:
        """How a report names the block: its file and its marker."""
        where = self.path.relative_to(REPO_ROOT) if self.path.is_relative_to(REPO_ROOT) else self.path
        return f"{where}: gen:{self.kind} {self.arg}".rstrip()


def documents(root: Path = REPO_ROOT) -> list[Path]:
    """The files that may hold generated blocks: the README and every page of the site."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The generated blocks of ``path``, in order."""
    text = path.read_text(encoding="utf-8")
    return [Block(path, m["kind"], m["arg"] or "", m["body"]) for m in BLOCK.finditer(text)]


def command_argv(command: str) -> list[str]:
    """The argv that runs ``command`` as the docs show it: ``arena`` and ``bundle`` are this
    checkout's commands, anything else runs as it is (``python`` is this interpreter)."""
    words = shlex.split(command)
    if words[0] in ENTRY_POINTS:
        return [sys.executable, "-c", ENTRY_POINTS[words[0]], *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    return words


def run_command(command: str, folder: Path) -> str:
    """The console text of ``command`` run in ``folder``: the prompt line and its output."""
    expect_failure = command.endswith(FAILS)
    shown = command[: -len(FAILS)].rstrip() if expect_failure else command
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("CGARENA_PYTHON_FAST_START", None)
    done = subprocess.run(
        command_argv(shown),
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    if (done.returncode != 0) != expect_failure:
        raise GenerationError(f"{shown!r} exited with status {done.returncode}:\n{done.stdout}")
    output = done.stdout
    for where in {str(folder.resolve()), str(folder)}:
        output = output.replace(where, SESSION_FOLDER)
    return f"$ {shown}\n{output}"


def config_keys() -> str:
    """The tournament settings as a Markdown table: key, flag, default, meaning."""
    from arena.settings import SETTINGS

    rows = ["| key | flag | default | meaning |", "|---|---|---|---|"]
    for s in SETTINGS:
        flag = f"`{s.option}`" if s.option else "(config only)"
        default = "" if s.default is None else f"`{s.default}`"
        meaning = s.help.replace("|", "\\|")
        rows.append(f"| `{s.key}` | {flag} | {default} | {meaning} |")
    return "\n".join(rows) + "\n"


SHIPPED_BUNDLES = (
    ("spring2021", "beam"),
    ("spring2021", "mcts"),
    ("spring2021", "greedy"),
    ("fall2020", "beam"),
    ("fall2020", "greedy"),
    ("fall2020", "bfs"),
    ("puzzles", "mcts_exercise"),
)


def bundle_sizes() -> str:
    """The size of each shipped bot's bundle, as the bundler counts it (UTF-16 units), without the
    header's ``# source commit`` line, which depends on the checkout (its commit, uncommitted
    changes) rather than on the bot."""
    from bundler.build import BuildOptions, build
    from bundler.size import utf16_units

    rows = ["| bot | bundle (characters, of CodinGame's 100,000) | mode |", "|---|---|---|"]
    for game, name in SHIPPED_BUNDLES:
        entry = REPO_ROOT / "bots" / game / name
        for candidate in (entry.with_name(f"{name}_bot.py"), entry.with_name(f"{name}.py")):
            if not entry.exists():
                entry = candidate
        bundle = build(BuildOptions(entry))
        size = utf16_units(re.sub(r"^# source commit .*\n", "", bundle.text, flags=re.MULTILINE))
        rows.append(f"| {game} `{name}` | {size:,} | {bundle.mode} |")
    return "\n".join(rows) + "\n"


def schema() -> str:
    """The tables and indexes of a results database the arena makes now, as SQL."""
    import sqlite3

    from arena.store.database import Database
    from arena.store.schema import SCHEMA_VERSION

    with tempfile.TemporaryDirectory(prefix="cgarena-docs-") as folder:
        Database(Path(folder) / "arena.sqlite").close()
        with sqlite3.connect(Path(folder) / "arena.sqlite") as conn:
            rows = conn.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
                " ORDER BY type DESC, name"
            ).fetchall()
        conn.close()
    statements = "\n\n".join(f"{sql};" for (sql,) in rows)
    return f"Schema version {SCHEMA_VERSION}:\n\n```sql\n{statements}\n```\n"


PACKAGES = ("referee", "arena", "cli", "bundler", "bots")


def first_sentence(path: Path) -> str:
    """The first sentence of the docstring of the module at ``path`` (empty when it has none)."""
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", " ".join(doc.split()))  # :class:`~a.B` -> `a.B`
    end = re.search(r"[.:](?:\s|$)", text)
    return (text[: end.start()] if end else text).replace("|", "\\|")


def modules() -> str:
    """A table of every package and module of the project, one heading per top-level package."""
    parts = []
    for package in PACKAGES:
        rows = [f"### `{package}/`", "", "| module | what it holds |", "|---|---|"]
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            if any(part.startswith((".", "_")) and part != "__init__.py" for part in path.relative_to(REPO_ROOT).parts):
                continue
            shown = path.parent if path.name == "__init__.py" else path
            name = shown.relative_to(REPO_ROOT).as_posix() + ("/" if path.name == "__init__.py" else "")
            rows.append(f"| `{name}` | {first_sentence(path)} |")
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


FIXED: dict[str, Callable[[], str]] = {
    "config-keys": config_keys,
    "bundle-sizes": bundle_sizes,
    "schema": schema,
    "modules": modules,
}


def generate(path: Path, folder: Path | None = None) -> Iterator[tuple[Block, str]]:
    """Each block of ``path`` with the text the generator writes for it now; its commands run in
    ``folder`` (default: a temporary folder, removed after)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="cgarena-docs-") as scratch:
            yield from generate(path, Path(scratch))
        return
    for block in blocks(path):
        if block.kind == "run":
            yield block, "```console\n" + run_command(block.arg, folder) + "```\n"
        elif block.kind in FIXED:
            yield block, FIXED[block.kind]()
        else:
            raise GenerationError(f"{block.label}: unknown kind {block.kind!r}")


def comparable(text: str) -> str:
    """``text`` with its dates and durations, and the numbers of its timing lines, masked (and
    their spacing, which follows the numbers' widths); histogram rows left out."""
    lines = [VARYING.sub("T", HISTOGRAM.sub("", line)) for line in text.splitlines()]
    return "\n".join(
        " ".join(NUMBER.sub("N", line).split()) if TIMING_LINE.search(line) else line for line in lines if line
    )


def differences(path: Path, folder: Path | None = None) -> list[str]:
    """A report of each block of ``path`` whose text differs from what is generated now."""
    return [
        f"{block.label} differs; now:\n{fresh}"
        for block, fresh in generate(path, folder)
        if comparable(block.body) != comparable(fresh)
    ]


def drifted(paths: list[Path], attempts: int = 2) -> list[str]:
    """A report of each block whose committed text differs from what is generated now. A file
    whose blocks differ is generated again, up to ``attempts`` times in all, and reported only
    when every attempt differs: a bot that times out once on a busy machine changes a game's
    result, a real drift changes it every time."""
    report = []
    for path in paths:
        for _ in range(attempts):
            found = differences(path)
            if not found:
                break
        report += found
    return report


def rewrite(path: Path) -> bool:
    """Write ``path`` with every block regenerated; whether it changed."""
    text = path.read_text(encoding="utf-8")
    fresh = iter([body for _, body in generate(path)])
    new = BLOCK.sub(lambda m: m[0][: m.start("body") - m.start()] + next(fresh) + "<!-- /gen -->", text)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a block drifted")
    parser.add_argument("files", nargs="*", type=Path, help="the files (default: README.md and docs/)")
    options = parser.parse_args(argv)
    paths = [p.resolve() for p in options.files] or documents()
    if options.check:
        report = drifted(paths)
        print("\n".join(report) or "docs: every generated block is up to date")
        return 1 if report else 0
    for path in paths:
        if rewrite(path):
            print(f"regenerated {path.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO_ROOT))
    sys.exit(main())
