"""Replays stay what cgarena 0.1.0 wrote, byte for byte apart from timings and commands.

``tests/fixtures/replay_v1/`` holds two replays written by cgarena 0.1.0 (commit e7e08d0) with
``arena play ... --seed 42 --replay``, from the folder itself:

* ``spring2021.json``: ``bots/spring_random.py --seed 1`` against ``--seed 2`` (a full game);
* ``fall2020.json``: ``bots/fall_random.py --seed 1`` against ``bots/fall_quitter.py``, which
  exits after five turns (a disqualification).

Measured times and the command lines (they hold the interpreter's path) were set to ``null``
and the documents written with sorted keys; everything else (inputs, outputs, statuses,
snapshots, summaries, results) must come out identical from any later release, which may only
add keys (listed in ``ADDED``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.arena import main
from tests.helpers.paths import FIXTURES

FIXTURE = FIXTURES / "replay_v1"
VOLATILE = {"time_ms", "wall_s", "latency_ms", "command"}
ADDED = {"refused", "sandbox", "limit_use", "overloaded", "time_scale", "time_margin_ms"}
"""Keys later releases added (each player's refused actions, whether the bots were sandboxed, how
close its answers came to their limits, whether its timeout came in an overloaded window; the
match's time scale and margin): not in 0.1.0's files, left out."""
RENAMED = {"spring_random.py": "spring_random", "fall_random.py": "fall_random", "fall_quitter.py": "fall_quitter"}
"""Bot names 0.1.0 gave (the file's name) and the names the naming rule gives them since #34
(:mod:`arena.match.launch.botname`: the file's name without its extension)."""
MATCHES = {
    "spring2021": ["bots/spring_random.py --seed 1", "bots/spring_random.py --seed 2"],
    "fall2020": ["bots/fall_random.py --seed 1", "bots/fall_quitter.py"],
}


def normalised(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: None if k in VOLATILE else normalised(v) for k, v in value.items() if k not in ADDED}
    if isinstance(value, list):
        return [normalised(v) for v in value]
    return value


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_replay_is_unchanged(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURE / "bots", tmp_path / "bots")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", game, *MATCHES[game], "--seed", "42", "--replay", "replay.json"])
    assert result.exit_code == 0, result.output
    got = normalised(json.loads((tmp_path / "replay.json").read_text(encoding="utf-8")))
    text = json.dumps(got, ensure_ascii=False, indent=0, sort_keys=True) + "\n"
    expected = (FIXTURE / f"{game}.json").read_text(encoding="utf-8")
    for old, new in RENAMED.items():
        expected = expected.replace(f'"name": "{old}"', f'"name": "{new}"')
    assert text == expected
