"""The game summary lines match the official referee's, turn by turn, on the recorded traces.

The generic parity test (tests/referee/test_parity.py) checks inputs, outputs and results; the
summaries are informative only, but keeping them identical makes replays read like the official
ones.
"""

from __future__ import annotations

import json

import pytest

import referee
from tests.conftest import PARITY, require_path


def _traces() -> list:
    folder = PARITY / "traces" / "fall2020"
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    files = [f for f in files if f.name != "MANIFEST.json"]
    return files or [None]


@pytest.mark.parametrize("path", _traces(), ids=lambda p: p.name if p else "no-traces")
def test_summary_lines_match_the_official_ones(path) -> None:
    path = require_path(path or PARITY / "traces" / "fall2020", "Fall 2020 parity traces")
    trace = json.loads(path.read_text())
    ref = referee.create("fall2020", int(trace["seed"]))
    for turn in trace["turns"]:
        ref.requests()
        outputs = {
            e["player"]: None if e.get("output") is None or e.get("timed_out") else e["output"][0]
            for e in turn["executions"]
            if e["expected_output_lines"] > 0
        }
        report = ref.apply(outputs)
        assert list(report.summary) == turn["summary"], f"turn {turn['turn']}"
