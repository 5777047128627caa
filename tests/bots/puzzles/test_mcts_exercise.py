"""The MCTS exercise puzzle: the statement's example, hand-worked cases, a second deliberately
simple implementation on large random inputs, the package run as a program and its bundle made
by the ``bundle`` command. Subprocesses run with ``-B`` and write only under ``tmp_path``."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bots.puzzles.mcts_exercise.solver import build_tree, parse, solve_text
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT
ENV = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

EXAMPLE = "3 0.1\nbaa 30\nab 20\nbbb 4\n"

# Notation: X(v, t) is node X with v visits and score total t; ln2 = 0.693147, ln3 = 1.098612,
# ln4 = 1.386294, ln5 = 1.609438, ln6 = 1.791759.
CASES = [
    # The statement's example: a(1, 20), b(2, 34), root 3. a = 20 + 0.1*sqrt(ln3) = 20.1048,
    # b = 17 + 0.1*sqrt(ln3/2) = 17.0741 -> a; a has no child.
    (EXAMPLE, "a"),
    # A single playout adds only its first node: x.
    ("1 1.5\nxyz 5\n", "x"),
    # C = 0 compares means: a(1, 10) and b(1, 20) -> b.
    ("2 0\nab 10\nba 20\n", "b"),
    # Equal values: c(1, 1) and a(1, 1), same exploration: the smaller letter a.
    ("2 0.5\nc 1\na 1\n", "a"),
    # Equal at depth 2: z(3, 6) is alone; its children zb(1, 2) and za(1, 2) tie -> za.
    ("3 1.3\nzb 2\nzb 2\nza 2\n", "za"),
    # Equal statistics reached differently: ba adds b; bb adds bb; ab adds a; aa adds aa.
    # a(2, 4) and b(2, 4) tie -> a; a's only child aa -> "aa".
    ("4 0\nba 1\nbb 3\nab 2\naa 2\n", "aa"),
    # A line wholly in the tree adds nothing: a(1, 5); b(1, 6), then b again twice: b(3, 18),
    # root 4. C = 2: a = 5 + 2*sqrt(ln4) = 5 + 2*1.177410 = 7.3548,
    # b = 6 + 2*sqrt(ln4/3) = 6 + 2*0.679773 = 7.3595 -> b (a close call).
    ("4 2\na 5\nb 6\nb 6\nb 6\n", "b"),
    # Same tree, C = 3: a = 5 + 3.5322 = 8.5322, b = 6 + 2.0393 = 8.0393 -> exploration picks a.
    ("4 3\na 5\nb 6\nb 6\nb 6\n", "a"),
    # Deep line: ab adds a; ac adds ac; ab adds ab; abd adds abd; abe adds abe; b adds b.
    # a(5, 15) mean 3, b(1, 2); ab(3, 11) mean 3.667, ac(1, 1); abd(1, 2), abe(1, 4).
    # C = 0: a, then ab, then abe (4 > 2), which has no child -> "abe".
    ("6 0\nab 3\nac 1\nab 5\nabd 2\nabe 4\nb 2\n", "abe"),
    # C = 1: root a = 3 + sqrt(ln6/5) = 3.5986, b = 2 + sqrt(ln6) = 3.3386 -> a;
    # at a (5 visits): ab = 3.6667 + sqrt(ln5/3) = 4.3991, ac = 1 + sqrt(ln5) = 2.2686 -> ab;
    # at ab: abd and abe have one visit each, same bonus: 4 > 2 -> abe.
    ("6 1\nab 3\nac 1\nab 5\nabd 2\nabe 4\nb 2\n", "abe"),
    # C = 2: a = 3 + 2*0.598625 = 4.1973, b = 2 + 2*1.338566 = 4.6771 -> b, a leaf.
    ("6 2\nab 3\nac 1\nab 5\nabd 2\nabe 4\nb 2\n", "b"),
    # Exploration below the root: x(5), xa(1, 4), xb(3, 15) (xa 1 added x only; xb 5 x3 adds xb
    # then walks to it twice). C = 0: 4 < 5 -> xb. C = 2 (at x, 5 visits):
    # xa = 4 + 2*sqrt(ln5) = 4 + 2*1.268636 = 6.5373, xb = 5 + 2*sqrt(ln5/3) = 6.4649 -> xa.
    ("5 0\nxa 1\nxb 5\nxb 5\nxb 5\nxa 4\n", "xb"),
    ("5 2\nxa 1\nxb 5\nxb 5\nxb 5\nxa 4\n", "xa"),
    # Negative and fractional scores, C = 0: x(1, -3.5), y(1, -3.25) -> y.
    ("2 0\nx -3.5\ny -3.25\n", "y"),
    # q adds q(1, -1.5); p adds p(1, -2.25); q again: q(2, -2.0); root 3.
    # C = 4: p = -2.25 + 4*1.048147 = 1.9426, q = -1 + 4*0.741152 = 1.9646 -> q.
    # C = 4.5: p = -2.25 + 4.7167 = 2.4667, q = -1 + 3.3352 = 2.3352 -> p.
    ("3 4\nq -1.5\np -2.25\nq -0.5\n", "q"),
    ("3 4.5\nq -1.5\np -2.25\nq -0.5\n", "p"),
    # Trailing spaces, CRLF, a blank line, an integer C: b(1, 2), a(1, 2) tie -> a.
    ("2 1 \r\nba 2  \r\n\r\nab 2 \r\n", "a"),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_hand_worked_cases(text, expected):
    assert solve_text(text) == expected


def test_parse_reads_reals_and_ignores_spaces():
    c, playouts = parse(["2 0.25  ", "  abc -3.5 ", "", "d 30", "ignored 1"])
    assert c == 0.25 and playouts == [("abc", -3.5), ("d", 30.0)]


def test_the_example_tree():
    root = build_tree([("baa", 30.0), ("ab", 20.0), ("bbb", 4.0)])
    stats = {"".join(m): (n.visits, n.total) for m, n in walk(root)}
    assert stats == {"": (3, 54.0), "b": (2, 34.0), "a": (1, 20.0), "bb": (1, 4.0)}


def walk(root):
    todo = [((), root)]
    while todo:
        line, node = todo.pop()
        yield line, node
        todo.extend((line + (k.move,), k) for k in node.children)


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


def random_input(seed: int) -> tuple[str, float, list[tuple[str, float]]]:
    rng = random.Random(seed)
    letters = "abcdefghi"[: rng.randrange(2, 10)]
    n = 499 if seed % 2 == 0 else rng.randrange(1, 500)
    c = rng.choice([0.0, 0.1, 0.7, 1.4, 5.0, round(rng.uniform(0, 3), 2)])
    playouts = []
    for _ in range(n):
        # Words over few letters share prefixes (a deep tree); scores on a coarse grid make exact
        # ties, and so the letter rule, frequent.
        word = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 50)))
        score = rng.choice([round(rng.uniform(-100, 100), 1), rng.randrange(-3, 4)])
        playouts.append((word, score))
    text = f"{n} {c}\n" + "".join(f"{w} {s}\n" for w, s in playouts)
    return text, c, playouts


def test_large_random_inputs_agree_with_a_simple_implementation():
    lengths = []
    for seed in range(40):
        text, c, playouts = random_input(seed)
        expected = simple_solution(c, playouts)
        assert solve_text(text) == expected, seed
        lengths.append(len(expected))
    assert max(lengths) >= 4  # some answers go deep into the tree


def run_program(text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-B", "-m", "bots.puzzles.mcts_exercise"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=60,
    )


@pytest.mark.parametrize("index", [0, 2, 8, 15, 16])
def test_runs_as_a_program(index):
    text, expected = CASES[index]
    out = run_program(text)
    assert out.returncode == 0 and out.stdout == expected + "\n", out.stderr


def test_runs_as_a_program_on_a_large_input():
    text, c, playouts = random_input(0)
    out = run_program(text)
    assert out.returncode == 0 and out.stdout == simple_solution(c, playouts) + "\n", out.stderr


def bundle_command() -> list[str]:
    script = Path(sys.executable).with_name("bundle")
    if script.exists():
        return [sys.executable, "-B", str(script)]
    code = "import sys; from cli.bundle import main; sys.exit(main())"
    return [sys.executable, "-B", "-c", code]


def test_the_bundle_prints_the_same(tmp_path):
    bundle = tmp_path / "mcts_exercise.py"
    made = subprocess.run(
        [*bundle_command(), "bots/puzzles/mcts_exercise", "-o", str(bundle)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=120,
    )
    assert made.returncode == 0 and bundle.exists(), made.stderr
    source = bundle.read_text()
    assert "import bots" not in source and "from bots" not in source
    random_text, c, playouts = random_input(2)
    for text, expected in [*CASES, (random_text, simple_solution(c, playouts))]:
        got = subprocess.run(
            [sys.executable, "-I", "-B", str(bundle)],
            input=text,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert got.returncode == 0 and got.stdout == expected + "\n", (text, got.stderr)
