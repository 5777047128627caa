"""Fall Challenge 2020 beam search bot: ``python -m bots.fall2020.beam`` from the repository root.

Reads the exact CodinGame input, answers one command per turn, logs a one-line summary per turn
on stderr (unless ``--quiet``). Options:

* ``--budget N``: children generated per turn instead of the clock (deterministic play: tests,
  ``bundle --verify --bot-args '--budget N'``). Without it, the contest clock: 1000 ms on the
  first turn, 50 ms after, minus ``--margin`` ms.
* ``--width``, ``--opp-width``, ``--opp-depth``, ``--opp-share``, ``--max-depth``: the search
  (:class:`.search.Settings`); ``--opp-share 0`` assumes the opponent rests.
"""

from __future__ import annotations

import argparse
import gc
import sys

from bots.fall2020.game.io import Tracker, format_action, read_lines
from bots.fall2020.game.model import action_text
from bots.lib.timer import limit_from_args

from .search import Settings, decide

FIRST_TURN_MS = 1000
TURN_MS = 50


def parse_args(argv: list[str]) -> argparse.Namespace:
    d = Settings()
    p = argparse.ArgumentParser(prog="python -m bots.fall2020.beam", description="Fall Challenge 2020 beam search bot.")
    p.add_argument(
        "--budget", type=int, default=None, help="children generated per turn instead of the clock (deterministic)"
    )
    p.add_argument("--width", type=int, default=d.width, help="our beam width")
    p.add_argument("--opp-width", type=int, default=d.opp_width, help="the opponent's beam width")
    p.add_argument("--opp-depth", type=int, default=d.opp_depth, help="the opponent's depth")
    p.add_argument(
        "--opp-share", type=float, default=d.opp_share, help="share of the turn for the opponent's beam (0: she rests)"
    )
    p.add_argument("--max-depth", type=int, default=d.max_depth, help="our depth, at most")
    p.add_argument("--margin", type=float, default=15.0, help="ms kept free each turn")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")
    return p.parse_args(argv)


def main() -> None:
    args = parse_args(sys.argv[1:])
    settings = Settings(args.width, args.opp_width, args.opp_depth, args.opp_share, args.max_depth)
    limit = limit_from_args(args.budget, FIRST_TURN_MS, TURN_MS, args.margin)
    gc.disable()  # nodes are tuples without cycles: reference counting frees them, no pauses
    tracker = Tracker()
    while True:
        try:
            first = input()
        except EOFError:
            return
        limit.start()
        lines = iter([first])
        position = tracker.position(read_lines(lambda: next(lines, None) or input()))  # noqa: B023
        decision = decide(position.table, position.state, limit, settings)
        print(format_action(position, decision.action), flush=True)
        if not args.quiet:
            mine, theirs = decision.mine, decision.theirs
            print(
                f"turn {tracker.turn}: {action_text(position.table, 0, decision.action)}"
                f" value {mine.value:.1f} depth {mine.depth} nodes {mine.nodes}"
                f" | opp depth {theirs.depth} nodes {theirs.nodes}",
                file=sys.stderr,
                flush=True,
            )


if __name__ == "__main__":
    main()
