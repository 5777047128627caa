"""The MCTS exercise puzzle: the statement's example, hand-worked cases, a second simple
implementation on large random inputs, the package run as a program and its bundle."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bundler.cli import main as bundle_main

from bots.puzzles.mcts_exercise.solver import parse, solve

ROOT = Path(__file__).resolve().parents[2]


def run(text: str) -> str:
    c, playouts = parse(text.strip().splitlines())
    return solve(c, playouts)


CASES = [
    # The statement's example.
    ("3 0.1\nbaa 30\nab 20\nbbb 4", "a"),
    # One playout adds only its first node: the answer is one letter.
    ("1 1.5\nxyz 5", "x"),
    # C = 0 compares means: b (20) beats a (10).
    ("2 0\nab 10\nba 20", "b"),
    # Equal UCB1 values: the smaller letter.
    ("2 0.5\nc 1\na 1", "a"),
    # a: 1 visit, mean 5; b: 3 visits, mean 6 (a leaf: repeated playouts stop on it); root 4.
    # C = 2: a = 5 + 2*sqrt(ln4) = 7.3548, b = 6 + 2*sqrt(ln4/3) = 7.3596 -> b.
    ("4 2\na 5\nb 6\nb 6\nb 6", "b"),
    # C = 3: a = 5 + 3*1.17741 = 8.5322, b = 6 + 3*0.67977 = 8.0393 -> exploration picks a.
    ("4 3\na 5\nb 6\nb 6\nb 6", "a"),
    # Three abc playouts grow a, ab, abc one node each; b is worse (mean 0 < 1): "abc".
    ("4 0\nabc 1\nabc 1\nabc 1\nb 0", "abc"),
    # Negative and fractional scores: -3.25 > -3.5.
    ("2 0\nx -3.5\ny -3.25", "y"),
    # Trailing spaces and integer-looking C.
    ("2 1 \nba 2  \nab 2 ", "a"),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_hand_worked_cases(text, expected):
    assert run(text) == expected


def simple_solution(c: float, playouts: list[tuple[str, float]]) -> str:
    """A second implementation: statistics in a dict keyed by the prefix string."""
    stats = {"": [0, 0.0]}
    for moves, score in playouts:
        path = [""]
        for k in range(1, len(moves) + 1):
            prefix = moves[:k]
            path.append(prefix)
            if prefix not in stats:
                stats[prefix] = [0, 0.0]
                break
        for prefix in path:
            stats[prefix][0] += 1
            stats[prefix][1] += score
    line = ""
    while True:
        kids = sorted(p for p in stats if len(p) == len(line) + 1 and p.startswith(line))
        if not kids:
            return line
        parent_visits = stats[line][0]
        best, best_value = None, None
        for kid in kids:  # sorted: a strictly better value is needed to replace a smaller letter
            v, t = stats[kid]
            value = t / v + c * math.sqrt(math.log(parent_visits) / v)
            if best is None or value > best_value:
                best, best_value = kid, value
        line = best


@pytest.mark.parametrize("seed", range(12))
def test_large_random_inputs_agree_with_a_simple_implementation(seed):
    rng = random.Random(seed)
    letters = "abcdefghi"[: rng.randrange(2, 10)]
    n = 499 if seed % 3 == 0 else rng.randrange(1, 500)
    c = rng.choice([0.0, 0.1, 0.7, 1.4, 5.0, round(rng.uniform(0, 3), 2)])
    playouts = []
    for _ in range(n):
        # Scores on a coarse grid make exact ties (and the letter rule) frequent.
        word = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 50)))
        playouts.append((word, rng.choice([round(rng.uniform(-100, 100), 1), rng.randrange(-3, 4)])))
    text = f"{n} {c}\n" + "\n".join(f"{w} {s}" for w, s in playouts)
    assert run(text) == simple_solution(c, playouts)


def test_runs_as_a_program_and_as_its_bundle(tmp_path):
    example = "3 0.1\nbaa 30\nab 20\nbbb 4\n"
    out = subprocess.run([sys.executable, "-m", "bots.puzzles.mcts_exercise"], input=example,
                         capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert out.returncode == 0 and out.stdout == "a\n", out.stderr
    bundle = tmp_path / "mcts_exercise.py"
    made = CliRunner().invoke(bundle_main, [str(ROOT / "bots/puzzles/mcts_exercise"), "-o", str(bundle)])
    assert made.exit_code == 0, made.stderr
    for text, expected in CASES:
        got = subprocess.run([sys.executable, "-I", str(bundle)], input=text + "\n",
                             capture_output=True, text=True, cwd=tmp_path, timeout=30)
        assert got.stdout == expected + "\n", (text, got.stderr)
