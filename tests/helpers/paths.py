"""Where things are: the repository, the recorded fixtures, the shared parity material, the
fault-injecting bots."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
"""Recorded material: results and replays of cgarena 0.1.0, the plugin game."""
PARITY = FIXTURES / "parity"
"""The official traces (gzipped), the bots that played the first set, java.util.Random's vectors."""
FAULT_BOTS = Path(__file__).resolve().parent / "fault_bots"
FAULTY = FAULT_BOTS / "faulty.py"
"""A bot that crashes, hangs, prints garbage... on the turn it is told (see its docstring)."""
SHIPPED_BOTS = REPO_ROOT / "bots"
