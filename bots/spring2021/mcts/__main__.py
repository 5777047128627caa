"""Spring Challenge 2021 MCTS bot: ``python -m bots.spring2021.mcts [--budget N] ...``.

Reads the CodinGame input, runs UCT (:mod:`.search`) until the turn's time (or ``--budget``
playouts) is spent, prints one action per turn and a one-line summary per turn on stderr. In a
league without SEED (the Wood leagues, seen from the actions offered) it searches without seeds.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from bots.lib.timer import limit_from_args
from bots.spring2021.beam.evaluation import Weights
from bots.spring2021.game.board import Board
from bots.spring2021.game.io import Turn, format_action, lacks_seed, play

from .policy import Policy
from .search import search

FIRST_TURN_MS = 1000
TURN_MS = 100


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bots.spring2021.mcts", description="Spring Challenge 2021 Monte Carlo tree search bot."
    )
    parser.add_argument(
        "--budget", type=int, default=None, help="playouts per turn instead of the clock (deterministic play)"
    )
    parser.add_argument("--exploration", type=float, default=0.7, help="UCB1 constant C")
    parser.add_argument("--wait-chance", type=float, default=0.35, help="probability that the playout policy waits")
    parser.add_argument("--scale", type=float, default=20.0, help="points per unit of reward")
    parser.add_argument("--random-days", type=int, default=2, help="days of random moves before the waiting playout")
    parser.add_argument("--seed", type=int, default=0, help="seed of the playouts' random moves")
    parser.add_argument("--margin", type=float, default=25.0, help="ms kept free each turn")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    limit = limit_from_args(args.budget, FIRST_TURN_MS, TURN_MS, args.margin)

    def setup(board: Board) -> Callable[[Turn], str]:
        policy = Policy(
            board,
            Weights(board),
            seed=args.seed,
            wait_chance=args.wait_chance,
            scale=args.scale,
            random_days=args.random_days,
        )

        def decide(turn: Turn) -> str:
            if policy.last_seed_day >= 0 and lacks_seed(turn, board):
                policy.last_seed_day = -1  # never offered: never searched
            result = search(turn.state, policy, limit, args.exploration)
            answer = format_action(result.action, board)
            if not args.quiet:
                print(
                    f"day {turn.state.day} {answer}: {result.playouts} playouts, best visited "
                    f"{result.visits} times, mean reward {result.mean:+.3f}, tree {result.nodes} "
                    f"nodes",
                    file=sys.stderr,
                )
            return answer

        return decide

    play(setup, limit.start, sys.stdin.readline)


if __name__ == "__main__":
    main()
