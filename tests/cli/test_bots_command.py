"""``arena bots`` helps choose an opponent (issue #34, point 8): each shipped bot with what it
does, its measured strength (the Measured table of docs/reference/bots.md, once the README's), its
speed and its options."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from arena.match.launch.botspec import shipped_bots
from cli.arena import main
from tests.helpers.paths import REPO_ROOT

GAMES = ("spring2021", "fall2020")


def readme_measured() -> dict[tuple[str, str, str], str]:
    """The Measured table of docs/reference/bots.md: (game, bot, opponent) -> "W-D-L" of the bot."""
    text = (REPO_ROOT / "docs" / "reference" / "bots.md").read_text()
    rows = re.findall(r"^\| (\w+) \| (\w+) vs (\w+) \| (\d+-\d+-\d+) \| ([\d.]+)% \|", text, re.MULTILINE)
    assert len(rows) >= 6, "the Measured table of docs/reference/bots.md moved"
    return {(game, bot, opponent): wdl for game, bot, opponent, wdl, _ in rows}


def test_bots_prints_each_bot_with_description_strength_speed_and_options():
    result = CliRunner().invoke(main, ["bots", "spring2021"])
    assert result.exit_code == 0, result.output
    text = result.output
    lines = text.splitlines()
    beam = lines.index(next(line for line in lines if line.startswith("  beam ")))
    block = "\n".join(lines[beam : beam + 4])
    assert "beam search" in lines[beam]
    assert "strength: beats greedy 100% (200-0-0)" in block  # the Measured table: spring2021 | beam vs greedy | 200-0-0
    assert "speed: about 80 ms a turn" in block  # the speed table: spring2021 beam (80 ms)
    assert "--width N (120)" in block and "--horizon DAYS (6)" in block  # the options of beam (docs/reference/bots.md)
    assert "fall2020" not in text.split("\n", 1)[1]  # one game asked: one game shown
    assert "Measured table of docs/reference/bots.md" in lines[-1]


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_bot_has_the_four_facts(game):
    for name, entry in shipped_bots(game).items():
        for key in ("about", "strength", "speed"):
            assert isinstance(entry.get(key), str) and entry[key], (game, name, key)
        assert isinstance(entry.get("options"), list), (game, name)


def test_the_strengths_are_the_readmes_figures():
    """Every "beats X P% (W-D-L)" / "loses to X P% (W-D-L)" agrees with the Measured table, read
    from either side of the match, and its percentage with its W-D-L."""
    table = readme_measured()
    checked = 0
    for game in GAMES:
        for name, entry in shipped_bots(game).items():
            for verb, opponent, pct, won, drawn, lost in re.findall(
                r"(beats|loses to) (\w+) ([\d.]+)% \((\d+)-(\d+)-(\d+)\)", entry["strength"]
            ):
                wins, draws, losses = int(won), int(drawn), int(lost)
                if (game, name, opponent) in table:
                    assert table[game, name, opponent] == f"{wins}-{draws}-{losses}", (game, name)
                else:  # measured from the opponent's side
                    assert table[game, opponent, name] == f"{losses}-{draws}-{wins}", (game, name)
                assert float(pct) == pytest.approx(100 * (wins + draws / 2) / (wins + draws + losses), abs=0.05)
                assert (verb == "beats") == (wins > losses)
                checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    ("game", "name", "module"),
    [
        ("spring2021", "beam", "bots.spring2021.beam"),
        ("spring2021", "mcts", "bots.spring2021.mcts"),
        ("fall2020", "beam", "bots.fall2020.beam"),
        ("fall2020", "greedy", "bots.fall2020.greedy"),
        ("fall2020", "bfs", "bots.fall2020.bfs"),
    ],
)
def test_the_options_listed_are_the_bots_own(game, name, module):
    """Each option ``arena bots`` lists is one the bot's own --help knows."""
    helped = subprocess.run(
        [sys.executable, "-m", module, "--help"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert helped.returncode == 0, helped.stderr
    for option in shipped_bots(game)[name]["options"]:
        assert option.split()[0] in helped.stdout, (name, option)
