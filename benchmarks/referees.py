"""In-process referee speed: random legal games per second and microseconds per frame.

    python benchmarks/referees.py [GAME ...] [--games N] [--runs R]

Each run plays N random legal games (both seats choose uniformly among the legal actions) on one
core and reports games per second and microseconds per engine turn. Several runs are made and the
median is printed, since shared machines are noisy. The time includes the referee's whole work
(input lines, shuffles, parsing the answers, resolving) and the random choice of the actions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import referee


def run(game: str, games: int, seed0: int) -> tuple[float, float, int, float]:
    """Play ``games`` games; return (seconds, engine turns, executions that read an answer,
    seconds spent by the random players listing their legal moves and choosing)."""
    frames = 0
    answers = 0
    policy = 0.0
    clock = time.perf_counter
    start = clock()
    for i in range(games):
        ref = referee.create(game, seed0 + i)
        rng = random.Random(seed0 + i)
        while not ref.is_over:
            outputs = {}
            for r in ref.requests():
                if r.expected_lines:
                    t = clock()
                    outputs[r.player] = rng.choice(ref.legal_actions(r.player))
                    policy += clock() - t
            answers += len(outputs)
            ref.apply(outputs)
            frames += 1
    return clock() - start, frames, answers, policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported (default 5)")
    args = parser.parse_args(argv)
    names = args.games_to_run or referee.names()
    for name in names:
        rates, per_frame, referee_only = [], [], []
        frames = answers = 0
        for r in range(args.runs):
            seconds, frames, answers, policy = run(name, args.games, 1000 * r)
            rates.append(args.games / seconds)
            referee_only.append(args.games / (seconds - policy))
            per_frame.append(seconds / frames * 1e6)
        print(
            f"{name:12} {statistics.median(rates):8.1f} games/s  "
            f"({statistics.median(referee_only):.1f} without the players' move choice)  "
            f"{statistics.median(per_frame):7.1f} us/turn  "
            f"(median of {args.runs} runs of {args.games} games; "
            f"{frames / args.games:.0f} turns and {answers / args.games:.0f} answers per game; "
            f"runs: {', '.join(f'{x:.0f}' for x in rates)} games/s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
