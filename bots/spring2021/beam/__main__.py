"""Spring Challenge 2021 beam search bot: ``python -m bots.spring2021.beam [--budget N] ...``.

Reads the CodinGame input, searches with :mod:`.search` until the turn's time (or ``--budget``
states) is spent, prints one action per turn and a one-line summary per turn on stderr. In a
league without SEED (the Wood leagues, seen from the actions offered) it searches without seeds.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable

from bots.lib.timer import limit_from_args
from bots.spring2021.game.board import Board
from bots.spring2021.game.io import Turn, format_action, lacks_seed, play

from .evaluation import Weights
from .search import Settings, search

FIRST_TURN_MS = 1000
TURN_MS = 100


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bots.spring2021.beam", description="Spring Challenge 2021 beam search bot."
    )
    parser.add_argument(
        "--budget", type=int, default=None, help="states per turn instead of the clock (deterministic play)"
    )
    parser.add_argument("--width", type=int, default=Settings.width, help="beam width per layer")
    parser.add_argument("--horizon", type=int, default=Settings.horizon, help="days searched ahead")
    parser.add_argument("--margin", type=float, default=20.0, help="ms kept free each turn")
    parser.add_argument("--seed-value", type=float, default=1.0, help="value of a seed, points")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    limit = limit_from_args(args.budget, FIRST_TURN_MS, TURN_MS, args.margin)
    settings = Settings(width=args.width, horizon=args.horizon)

    def setup(board: Board) -> Callable[[Turn], str]:
        weights = Weights(board, seed_value=args.seed_value)
        league = settings

        def decide(turn: Turn) -> str:
            nonlocal league
            if league.last_seed_day >= 0 and lacks_seed(turn, board):
                league = dataclasses.replace(settings, last_seed_day=-1)  # never offered: never searched
            result = search(turn.state, board, weights, limit, league)
            answer = format_action(result.action, board)
            if not args.quiet:
                print(
                    f"day {turn.state.day} {answer}: value {result.value:.1f}, {result.nodes} "
                    f"states, {result.days} days, {result.layers} layers",
                    file=sys.stderr,
                )
            return answer

        return decide

    play(setup, limit.start, sys.stdin.readline)


if __name__ == "__main__":
    main()
