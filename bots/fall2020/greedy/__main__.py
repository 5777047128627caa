"""Fall Challenge 2020 greedy bot: ``python -m bots.fall2020.greedy`` from the repository root.

Reads the exact CodinGame input, answers one command per turn (the policy of :mod:`.policy`),
logs nothing unless ``--verbose``. ``--budget`` is accepted and ignored (the bot does not search;
the toolkit passes it to every Fall bot for deterministic runs).
"""

from __future__ import annotations

import argparse
import sys

from bots.fall2020.game.io import Tracker, format_action, read_lines
from bots.fall2020.greedy.policy import Settings, choose


def parse_args(argv: list[str]) -> argparse.Namespace:
    d = Settings()
    p = argparse.ArgumentParser(prog="python -m bots.fall2020.greedy", description="Fall Challenge 2020 greedy bot.")
    p.add_argument("--budget", type=int, default=None, help="ignored (no search)")
    p.add_argument("--learn-turns", type=int, default=d.learn_turns)
    p.add_argument("--max-spells", type=int, default=d.max_spells)
    p.add_argument("--max-tax", type=int, default=d.max_tax)
    p.add_argument("--min-gain", type=int, default=d.min_gain)
    p.add_argument("--horizon", type=int, default=d.horizon, help="casts searched toward an order")
    p.add_argument("--verbose", action="store_true", help="one line per turn on stderr")
    return p.parse_args(argv)


def main() -> None:
    args = parse_args(sys.argv[1:])
    settings = Settings(args.learn_turns, args.max_spells, args.max_tax, args.min_gain, args.horizon)
    tracker = Tracker()
    while True:
        try:
            lines = read_lines(input)
        except EOFError:
            return
        position = tracker.position(lines)
        answer = format_action(position, choose(position.table, position.state, settings))
        print(answer, flush=True)
        if args.verbose:
            print(f"turn {tracker.turn}: {answer}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
