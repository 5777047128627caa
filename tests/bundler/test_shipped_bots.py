"""Every shipped bot (``bots/shipped.yaml``) bundles under the limit and passes ``--verify``,
search bots with their deterministic setting (a fixed budget instead of the clock)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bundler.cli import main
from bundler.size import LIMIT, utf16_units

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.mark.parametrize("game,name,entry,args", shipped_bots(),
                         ids=[f"{g}-{n}" for g, n, _, _ in shipped_bots()])
def test_bot_bundles_and_verifies(game, name, entry, args, tmp_path):
    out = tmp_path / "bundle.py"
    command = [str(entry), "-o", str(out), "--verify", game, "--games", "2"]
    if args:
        command += ["--bot-args", " ".join(args)]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output + result.stderr
    assert utf16_units(out.read_text(encoding="utf-8")) < LIMIT
    assert f"verified on {game}: 2 games" in result.stderr
