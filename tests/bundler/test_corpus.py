"""Acceptance 2 of #15: a corpus of realistic multi-module bots bundles identically in both modes.

Each bot under ``corpus/`` was written for this test the way competitors write them: a game loop
reading stdin until it ends, separate modules for the model, a search, an evaluation and the
protocol, one action per turn on stdout and debug lines on stderr. Its recorded input
(``input.txt``, written by the bot's ``gen_input.py``) is replayed to the bot run from source and to
its bundle (``python -I`` from an empty directory) in each mode; return code, stdout and stderr
must be identical. Without ``--mode`` the bundler must choose flat mode: this is ordinary code.
"""

from __future__ import annotations

import difflib
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bundler.build import BuildOptions, Bundle, build
from bundler.errors import FlattenRefused
from tests.helpers.bundling import Run, run_bundle, run_python

CORPUS = Path(__file__).resolve().parent / "corpus"


@dataclass(frozen=True)
class Bot:
    name: str
    """Directory under ``corpus/``."""
    entry: str
    """ENTRY given to the bundler, relative to the bot directory."""
    run: tuple[str, ...]
    """How the original runs from the bot directory: ``python -B`` + these."""
    turns: int
    """Turns in ``input.txt``: the bot prints one line per turn, so it must read all of them."""
    clashes: tuple[str, ...]
    """Top-level names defined by several modules, which flat mode must rename."""
    features: str


BOTS = [
    Bot(
        "gem_runner",
        "main.py",
        ("main.py",),
        30,
        ("cache", "helper", "DEPTH"),
        "maze puzzle, script + sibling modules; BFS (deque), A* (heapq, itertools.count), exhaustive "
        "planning (itertools.permutations) with a closure; config.NAME constants; lru_cache, Counter; "
        "'import pathing as pf', 'from scoring import evaluate as score_step'; module-level cache dicts "
        "and helper() in three modules, read from main as pf.cache; __future__ annotations in every "
        "module but main.py",
    ),
    Bot(
        "connect4",
        "c4bot",
        ("-m", "c4bot"),
        16,
        ("cache", "DEPTH"),
        "numpy board and vectorised window evaluation; package run with -m ('from . import book, protocol, "
        "search', 'from .evaluation import evaluate as static_eval'); the first input line read at import "
        "time of protocol.py; negamax alpha-beta, transposition table, iterative deepening under a node "
        "budget; class attribute 'DEPTH = DEPTH' of a renamed constant; string annotations",
    ),
    Bot(
        "hexwars",
        "main.py",
        ("main.py",),
        20,
        ("material",),
        "class hierarchy across modules: abstract Unit (ABC, abstractmethod, ClassVar attributes, "
        "__init_subclass__ registry, @property, @classmethod, @staticmethod, __slots__) in units/base.py, "
        "subclasses in three modules with super() calls, units/__init__.py re-exporting with __all__; "
        "an Action hierarchy; TYPE_CHECKING imports; evaluation terms registered by a decorator under "
        "fn.__name__, one of them clashing with another module's function; greedy search, heapq.nsmallest",
    ),
    Bot(
        "brewer",
        "brewer",
        ("-m", "brewer"),
        22,
        ("Node", "evaluate", "DEPTH"),
        "dataclasses (frozen, order=True, field(default_factory=...), field(compare=False, init=False), "
        "__post_init__, replace) and enums (Enum with auto(), IntEnum) as dict keys and in match "
        "statements (value and class patterns); package run with -m with a subpackage ai/ re-exporting "
        "names; beam search; two Node classes (dataclass, repr printed, and NamedTuple), two evaluate",
    ),
    Bot(
        "uttt_mcts",
        "main.py",
        ("main.py",),
        20,
        ("Node", "helper", "cache", "nodes", "input"),
        "ultimate tic-tac-toe; MCTS with a seeded random.Random and a fixed iteration budget, truncated "
        "playouts, alpha-beta tactical check; Node class vs namedtuple Node; 'global nodes' counters "
        "in two modules; a local alias 'cache = heuristics.cache'; 'input = sys.stdin.readline' in one "
        "module, the builtin input() in main; module minimax with a function minimax and a self-test "
        "'if __name__ == \"__main__\"' block; 'import mcts as tree'; no __future__ import anywhere",
    ),
    Bot(
        "tron",
        "main.py",
        ("main.py",),
        32,
        ("DEPTH",),
        "light cycles for three players, trails tracked across turns; multi-source BFS territory "
        "(Counter), flood fills; alternating minimax with alpha-beta under a node budget; config.WIDTH "
        "constants, DEPTH = config.DEPTH clashing with another DEPTH; a global set through 'global' and "
        "read as protocol.PLAYERS; 'import voronoi as vor'; iter(sys.stdin) with a generator parser; a "
        "closure as sort key; itertools.count",
    ),
    Bot(
        "harvest",
        "harvest",
        ("-m", "harvest"),
        18,
        ("cache",),
        "ants on a graph; package run with -m; 'from .constants import *' with a literal __all__; "
        "dataclass(slots=True), enum.Flag, defaultdict via default_factory, functools.cache (clashing "
        "with another module's cache dict); simulated annealing with a seeded random.Random and a "
        "fixed number of steps; bisect, itertools.accumulate, operator.itemgetter",
    ),
]
MODES = ["flat", "modules", None]


def _stdin(bot: Bot) -> str:
    return (CORPUS / bot.name / "input.txt").read_text(encoding="utf-8")


@cache
def _original(bot: Bot) -> Run:
    """The bot run from its sources (once per bot for the whole file)."""
    return run_python(list(bot.run), cwd=CORPUS / bot.name, stdin=_stdin(bot))


def _build(bot: Bot, mode: str | None) -> Bundle:
    try:
        return build(BuildOptions(CORPUS / bot.name / bot.entry, (), mode))
    except FlattenRefused as exc:
        refusal = str(exc)
    pytest.fail(f"{bot.name}: flat mode refused on ordinary code: {refusal}", pytrace=False)


def _diff(name: str, expected: str, got: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), got.splitlines(), f"{name} (source)", f"{name} (bundle)", lineterm="", n=1
    )
    return "\n".join(list(lines)[:40])


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m or "default")
@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_bot_bundles_and_behaves_like_its_source(bot: Bot, mode: str | None, tmp_path: Path) -> None:
    original = _original(bot)
    assert original.returncode == 0 and "Traceback" not in original.stderr, original.stderr[-3000:]
    actions = original.stdout.splitlines()
    assert len(actions) == bot.turns, f"{bot.name}: {len(actions)} actions for {bot.turns} recorded turns"
    assert len(original.stderr.splitlines()) >= bot.turns

    bundle = _build(bot, mode)
    result = run_bundle(bundle.text, tmp_path, stdin=_stdin(bot))
    context = f"{bot.name}, {bundle.mode} mode (asked: {mode}), fallback reasons {bundle.fallback_reasons}"
    assert result.returncode == original.returncode, f"{context}:\n{result.stderr[-3000:]}"
    assert result.stdout == original.stdout, f"{context}, stdout:\n{_diff('stdout', original.stdout, result.stdout)}"
    assert result.stderr == original.stderr, f"{context}, stderr:\n{_diff('stderr', original.stderr, result.stderr)}"

    # Same behaviour first (a bundle must never differ), then the mode: flat unless asked otherwise.
    if mode is None:
        assert bundle.mode == "flat", f"{bot.name}: fell back to {bundle.mode} mode: {bundle.fallback_reasons}"
    else:
        assert bundle.mode == mode
    if bundle.mode == "flat":
        renamed = {old for names in bundle.renamed.values() for old in names}
        assert set(bot.clashes) <= renamed, f"{bot.name}: expected renames of {bot.clashes}, got {bundle.renamed}"


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_recorded_input_is_what_its_generator_writes(bot: Bot, tmp_path: Path) -> None:
    copy = tmp_path / bot.name
    shutil.copytree(CORPUS / bot.name, copy, ignore=shutil.ignore_patterns("__pycache__", "input.txt"))
    done = run_python(["gen_input.py"], cwd=copy)
    assert done.returncode == 0, done.stderr
    assert (copy / "input.txt").read_text(encoding="utf-8") == _stdin(bot)


def test_the_corpus_is_complete() -> None:
    """Every bot directory is listed, and the corpus has what acceptance 2 asks for."""
    assert sorted(b.name for b in BOTS) == sorted(
        p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "__pycache__"
    )
    assert len(BOTS) >= 6
    sources = {
        b.name: "\n".join(
            p.read_text(encoding="utf-8") for p in sorted((CORPUS / b.name).rglob("*.py")) if p.name != "gen_input.py"
        )
        for b in BOTS
    }
    assert any("import numpy as np" in s for s in sources.values())
    assert any("(ABC)" in s and "super()." in s for s in sources.values())
    assert any("@dataclass(frozen=True, order=True)" in s and "auto()" in s for s in sources.values())
    assert sum(b.run[0] == "-m" for b in BOTS) >= 2
    for name, text in sources.items():
        assert 150 <= len(text.splitlines()) <= 600, name
