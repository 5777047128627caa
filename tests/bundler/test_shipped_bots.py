"""Acceptance 2: every bot under ``bots/`` bundles under the limit and passes ``--verify``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import referee
from bundler.cli import main
from bundler.size import LIMIT, utf16_units

BOTS = Path(__file__).resolve().parents[2] / "bots"


def shipped_bots() -> list[tuple[str, Path]]:
    """(game, entry) for each bot: a module with a ``__main__`` block directly in a game's folder,
    or a package folder with ``__main__.py``."""
    found: list[tuple[str, Path]] = []
    for game_dir in sorted(p for p in BOTS.iterdir() if p.is_dir()):
        if game_dir.name not in referee.names():
            continue
        for path in sorted(game_dir.iterdir()):
            if path.is_dir() and (path / "__main__.py").is_file():
                found.append((game_dir.name, path))
            elif path.suffix == ".py" and not path.name.startswith("_") and \
                    "__main__" in path.read_text(encoding="utf-8"):
                found.append((game_dir.name, path))
    return found


def test_the_shipped_bots_are_found():
    names = {p.relative_to(BOTS).as_posix() for _, p in shipped_bots()}
    assert {"spring2021/random_bot.py", "spring2021/greedy_bot.py", "fall2020/random_bot.py"} <= names


@pytest.mark.parametrize("game,entry", shipped_bots(), ids=lambda x: x if isinstance(x, str) else x.name)
def test_bot_bundles_and_verifies(game, entry, tmp_path):
    out = tmp_path / "bundle.py"
    result = CliRunner().invoke(main, [str(entry), "-o", str(out), "--verify", game, "--games", "2"])
    assert result.exit_code == 0, result.output + result.stderr
    assert utf16_units(out.read_text(encoding="utf-8")) < LIMIT
    assert f"verified on {game}: 2 games" in result.stderr
