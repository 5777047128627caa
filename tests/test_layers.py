"""The layers of the project, as the code's own imports show them (read with ``ast``, imports
inside functions and ``importlib.import_module("...")`` calls included):

- ``referee`` (the games) imports none of ``arena``, ``bundler``, ``bots``, ``cli``;
- ``bots`` import none of the project's packages (a bot bundles into one file on its own);
- ``arena`` imports neither ``bundler`` nor the command layer ``cli``; inside it, ``stats`` is
  pure maths (nothing else of the arena), and its layers (:data:`ABOVE`) never import upward:
  one match, the results database, what its games say (standings) and bot versions, the batch
  runner, then tournaments and ladders;
- ``bundler`` reaches the arena only through its small public pieces (``arena.api``, and how a
  Python bot path becomes a module) and never imports ``cli``;
- the command layer is the top-level package ``cli``: every click command is defined there and
  nothing imports it; a command module never imports another command module (only the group,
  ``cli/arena.py``, gathers them);
- the project never looks up an entry point of its own to reach another of its packages (it
  wires them in the command layer instead): no entry point group that ``pyproject.toml`` declares
  for the project's own code is read by the project's code;
- in ``tests/``, what test modules share is in ``tests/helpers`` (or a ``conftest.py``'s
  fixtures): no module imports a test module or a ``conftest``.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.paths import REPO_ROOT

PACKAGES = ("referee", "arena", "bundler", "bots", "cli")
BUNDLER_MAY_USE = {"arena", "arena.api", "arena.match.launch.pymodule"}
"""What of the arena the bundler may import (``arena`` itself re-exports ``arena.api``)."""
ABOVE = {
    "arena.match": (
        "arena.store",
        "arena.standings",
        "arena.versions",
        "arena.runner",
        "arena.tournament",
        "arena.ladder",
    ),
    "arena.store": ("arena.standings", "arena.versions", "arena.runner", "arena.tournament", "arena.ladder"),
    "arena.standings": ("arena.versions", "arena.runner", "arena.tournament", "arena.ladder"),
    "arena.versions": ("arena.runner", "arena.tournament", "arena.ladder"),
    "arena.runner": ("arena.tournament", "arena.ladder"),
}
"""The arena's layers, each with the packages above it that it never imports: one match
(``match``) below the results database (``store``) below what the stored games say (``standings``:
rankings, standings, health) and the frozen bot versions (``versions``), below the one batch
runner (``runner``) below what schedules games (``tournament``, ``ladder``)."""
COMMAND_GROUPS = {"cli.arena"}
"""The modules that gather the command modules into a command group."""


@dataclass(frozen=True)
class Import:
    module: str
    """The importing module (``arena.match.loop``)."""
    target: str
    """What it imports, absolute (``arena.match.process.botprocess``, ``referee``)."""
    line: int

    def __str__(self) -> str:
        return f"{self.module} (line {self.line}) imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(root: Path) -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else ():
            yield module_name(path, root), path


def is_module(root: Path, name: str) -> bool:
    where = root.joinpath(*name.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def imports_of(module: str, path: Path, root: Path) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:  # ``from . import play``: the module ``cli.play``; else a name of ``base``
                name = f"{base}.{alias.name}" if base else alias.name
                yield Import(module, name if is_module(root, name) else base, node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield Import(module, node.args[0].value, node.lineno)


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def all_imports(root: Path) -> list[Import]:
    found = (imp for module, path in sources(root) for imp in imports_of(module, path, root))
    return list(dict.fromkeys(found))  # ``from .x import a, b``: one import of ``x``


def broken_rules(root: Path) -> list[str]:
    """Every import that breaks a layer rule, in words."""
    out = []
    for imp in all_imports(root):
        m, t = imp.module, imp.target
        if within(m, "referee") and any(within(t, p) for p in ("arena", "bundler", "bots", "cli")):
            out.append(f"{imp}: the games never import the arena, the bundler, the bots or the command layer")
        if within(m, "bots") and any(within(t, p) for p in ("referee", "arena", "bundler", "cli")):
            out.append(f"{imp}: a bot imports none of the project's packages")
        if within(m, "arena") and (within(t, "bundler") or within(t, "cli")):
            out.append(f"{imp}: the arena imports neither the bundler nor the command layer")
        if within(m, "arena.stats") and within(t, "arena") and not within(t, "arena.stats"):
            out.append(f"{imp}: the statistics are pure maths")
        above = next((p for p in ABOVE.get(_part(m), ()) if within(t, p)), None)
        if above is not None:
            out.append(f"{imp}: {_part(m)} is below {above}")
        if within(m, "bundler") and within(t, "cli"):
            out.append(f"{imp}: the bundler does not import the command layer")
        if within(m, "bundler") and within(t, "arena") and t not in BUNDLER_MAY_USE:
            out.append(f"{imp}: the bundler uses the arena only through {sorted(BUNDLER_MAY_USE)}")
        if within(t, "cli") and not within(m, "cli"):
            out.append(f"{imp}: nothing imports the command layer")
    return out


def _part(module: str) -> str:
    """The layer of ``module`` named in :data:`ABOVE` (``arena.match`` for ``arena.match.loop``)."""
    return next((p for p in ABOVE if within(module, p)), "")


def command_modules(root: Path) -> dict[str, list[str]]:
    """Modules that define click commands or groups, with the commands' names."""
    out: dict[str, list[str]] = {}
    for module, path in sources(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(_is_command(d) for d in node.decorator_list):
                out.setdefault(module, []).append(node.name)
    return out


def _is_command(decorator: ast.expr) -> bool:
    call = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(call, ast.Attribute) and call.attr in ("command", "group")


def broken_command_rules(root: Path) -> list[str]:
    commands = command_modules(root)
    out = [
        f"{module} defines the commands {names}: every command lives in the command layer, cli/"
        for module, names in commands.items()
        if not within(module, "cli")
    ]
    for imp in all_imports(root):
        target = next((c for c in commands if within(imp.target, c)), None)
        if target is None or target == imp.module or imp.module in COMMAND_GROUPS or target in COMMAND_GROUPS:
            continue
        out.append(
            f"{imp}: a command module imports nothing from another one (shared code goes in a module of its own)"
        )
    return out


def own_entry_point_lookups(root: Path) -> list[str]:
    """Entry point groups that ``pyproject.toml`` declares for the project's own modules and that
    the project's code reads."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    own = {
        group
        for group, points in project.get("entry-points", {}).items()
        if any(any(within(target.split(":")[0], p) for p in PACKAGES) for target in points.values())
    }
    out = []
    for module, path in sources(root):
        text = path.read_text(encoding="utf-8")
        for group in own:
            if f'"{group}"' in text or f"'{group}'" in text:
                out.append(f"{module} reads the entry point group {group!r}, which names the project's own code")
    return out


def imports_of_test_modules(root: Path) -> list[str]:
    """Imports of a test module or a conftest, anywhere under ``tests/`` (fixture trees aside)."""
    out = []
    for path in sorted((root / "tests").rglob("*.py")):
        if "fixtures" in path.relative_to(root).parts or "corpus" in path.relative_to(root).parts:
            continue
        module = module_name(path, root)
        for imp in dict.fromkeys(imports_of(module, path, root)):
            last = imp.target.rsplit(".", 1)[-1]
            if within(imp.target, "tests") and (last.startswith("test_") or last == "conftest"):
                out.append(f"{imp}: shared test code goes in tests/helpers, never in a test module or conftest")
    return out


CHECKS = (broken_rules, broken_command_rules, own_entry_point_lookups, imports_of_test_modules)


@pytest.mark.parametrize("check", CHECKS)
def test_the_layers_hold(check) -> None:  # type: ignore[no-untyped-def]
    found = check(REPO_ROOT)
    assert not found, "\n".join(found)


def test_the_rules_see_what_they_guard(tmp_path: Path) -> None:
    """A tree that breaks each rule once: every break is reported (the checks can fail)."""
    files = {
        "referee/__init__.py": "from arena import api\n",
        "bots/x.py": "def f():\n    import referee\n",
        "arena/__init__.py": "",
        "arena/api.py": "",
        "arena/match/loop.py": "",
        "arena/store/results.py": "",
        "arena/tournament/runner.py": "",
        "arena/stats/__init__.py": "from ..match import loop\n",
        "arena/match/__init__.py": "import importlib\nimportlib.import_module('arena.store.results')\n",
        "arena/tournament/__init__.py": "from importlib import metadata\nmetadata.entry_points(group='cgarena.own')\n",
        "arena/cmd.py": "import click\n@click.command()\ndef go():\n    pass\n",
        "bundler/__init__.py": "from arena.tournament import runner\nfrom cli import arena\n",
        "cli/__init__.py": "",
        "cli/arena.py": "from . import play, view\n",
        "cli/play.py": "import click\nfrom .view import helper\n@click.command()\ndef play():\n    pass\n",
        "cli/view.py": "import click\ndef helper():\n    pass\n@click.command()\ndef view():\n    pass\n",
        "pyproject.toml": '[project]\nname = "x"\n[project.entry-points."cgarena.own"]\nx = "bundler.ship:f"\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "tests" / "a").mkdir(parents=True)
    for name in ("tests/__init__.py", "tests/conftest.py", "tests/a/__init__.py", "tests/a/test_x.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "tests" / "a" / "test_y.py").write_text("from tests.a.test_x import f\nfrom tests.conftest import g\n")
    found = "\n".join(line for check in CHECKS for line in check(tmp_path))
    for expected in (
        "referee (line 1) imports arena.api:",
        "bots.x (line 2) imports referee",
        "arena.stats (line 1) imports arena.match.loop",
        "arena.match (line 2) imports arena.store.results: arena.match is below arena.store",
        "bundler (line 1) imports arena.tournament.runner:",
        "bundler (line 2) imports cli.arena",
        "arena.cmd defines the commands ['go']",
        "cli.play (line 2) imports cli.view",
        "arena.tournament reads the entry point group 'cgarena.own'",
        "tests.a.test_y (line 1) imports tests.a.test_x",
        "tests.a.test_y (line 2) imports tests.conftest",
    ):
        assert expected in found, expected
    assert "cli.arena (line 1)" not in found  # the group gathers its commands
