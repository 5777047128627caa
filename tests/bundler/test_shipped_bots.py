"""Every shipped bot (``bots/shipped.yaml``) bundles under the limit and passes ``--verify``,
search bots with their deterministic setting (a fixed budget instead of the clock)."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bundler.build import BuildOptions, build
from bundler.graph import build_graph
from bundler.size import LIMIT, utf16_units
from cli.bundle import main
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT
SHIPPED = ROOT / "bots" / "shipped.yaml"


def shipped_bots() -> list[tuple[str, str, Path, list[str]]]:
    """(game, name, entry, deterministic args) for each shipped bot that is Python source."""
    found = []
    for game, bots in yaml.safe_load(SHIPPED.read_text()).items():
        for name, entry in bots.items():
            if "module" in entry:
                path = ROOT.joinpath(*entry["module"].split("."))
            elif "path" in entry:
                path = ROOT / entry["path"]
            else:
                continue
            found.append((game, name, path, [str(a) for a in entry.get("deterministic", [])]))
    return found


def test_every_game_ships_the_bots_the_toolkit_documents():
    names = {(game, name) for game, name, _, _ in shipped_bots()}
    assert {("spring2021", n) for n in ("wait", "random", "greedy", "beam", "mcts")} <= names
    assert {("fall2020", n) for n in ("random", "greedy", "beam", "bfs")} <= names
    for _, _, path, _ in shipped_bots():
        assert path.exists(), path


@pytest.mark.parametrize("game,name,entry,args", shipped_bots(), ids=[f"{g}-{n}" for g, n, _, _ in shipped_bots()])
def test_bot_bundles_and_verifies(game, name, entry, args, tmp_path):
    out = tmp_path / "bundle.py"
    command = [str(entry), "-o", str(out), "--verify", game, "--games", "2"]
    if args:
        command += ["--bot-args", " ".join(args)]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output + result.stderr
    assert utf16_units(out.read_text(encoding="utf-8")) < LIMIT
    assert f"verified on {game}: 2 games" in result.stderr


def _top_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds in its own top-level code (a second, simple reading: definitions,
    assignment targets and import bindings, inside top-level blocks too)."""
    names: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return names


@pytest.mark.parametrize("game,name,entry,args", shipped_bots(), ids=[f"{g}-{n}" for g, n, _, _ in shipped_bots()])
def test_flat_bundle_stays_readable(game, name, entry, args):
    """Acceptance 3: the default bundle of a shipped bot is flat, renames a name only where
    another module of the bot binds the same name (or the name is a builtin), and adds less
    than 2% to the sources (the three header lines aside)."""
    bundle = build(BuildOptions(entry))
    assert bundle.mode == "flat", bundle.fallback_reasons
    graph = build_graph(entry, [])
    bound = {m.name: _top_level_names(m.tree) for m in graph.modules.values()}
    for module, renames in bundle.renamed.items():
        for old in renames:
            others = [n for n, names in bound.items() if n != module and old in names]
            assert others or old in dir(builtins), f"{module}.{old} renamed without a clash"
    source = sum(len(m.source) for m in graph.modules.values())
    header = [line for line in bundle.text.splitlines(keepends=True)[:3] if line.startswith("# ")]
    body = len(bundle.text) - sum(len(line) for line in header)
    assert body < 1.02 * source, f"{body} characters for {source} of source"
