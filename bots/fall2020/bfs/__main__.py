"""Fall Challenge 2020 bot: breadth-first search with perfect pruning (run ``python -m
bots.fall2020.bfs`` from the repository root, or the bundled single file).

Reads the official input, prints one command per turn, logs only to stderr. Options:

* ``--budget N``: search ``N`` generated children per turn instead of watching the clock (the
  same moves on every machine; tests and ``bundle --verify --bot-args '--budget N'`` use it).
  Without it, the contest clock: 1000 ms on the first turn, 50 ms after, ``--margin`` ms (default
  20) kept in reserve for reading, answering and the machine's hiccups.
* ``--learn-turns``, ``--max-learnt``, ``--max-tax``, ``--brew-now``, ``--max-depth``,
  ``--keep``: the play policy (``bot.py``); ``--verbose``: one line of search figures per turn on
  stderr.
"""

from __future__ import annotations

import argparse
import gc
import sys

from ..game.io import read_lines
from .bot import BfsBot, Settings, make_limit


def parse_args(argv: list[str]) -> tuple[int | None, float, Settings]:
    d = Settings()
    p = argparse.ArgumentParser(prog="bfs", description="Fall Challenge 2020 BFS bot")
    p.add_argument("--budget", type=int, default=None, help="children generated per turn")
    p.add_argument("--learn-turns", type=int, default=d.learn_turns)
    p.add_argument("--max-learnt", type=int, default=d.max_learnt)
    p.add_argument("--max-tax", type=int, default=d.max_tax)
    p.add_argument("--brew-now", type=int, default=d.brew_now)
    p.add_argument("--max-depth", type=int, default=d.max_depth)
    p.add_argument("--keep", type=float, default=d.keep)
    p.add_argument("--margin", type=float, default=20.0, help="ms kept free each turn")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv)
    settings = Settings(a.learn_turns, a.max_learnt, a.max_tax, a.brew_now, a.max_depth, a.keep, a.verbose)
    return a.budget, a.margin, settings


def main() -> None:
    budget, margin, settings = parse_args(sys.argv[1:])
    gc.disable()  # the search makes many small tuples and no cycles: no collector pauses
    bot = BfsBot(make_limit(budget, margin), settings)
    while True:
        try:
            lines = read_lines(input)
        except EOFError:
            return
        # The whole turn arrives in one write: reading it costs well under a millisecond, so the
        # clock can start once it is read.
        bot.limit.start()
        print(bot.turn(lines), flush=True)
        bot.release()


if __name__ == "__main__":
    main()
