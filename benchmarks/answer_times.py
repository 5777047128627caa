"""The shipped search bots' answer times at the official limits, as the arena measures them.

    python benchmarks/answer_times.py [--games N] [--quick]

Each search bot (Fall 2020 beam on its clock, BFS on its node budget; Spring 2021 beam and MCTS)
plays ``--games`` games against its game's random bot through the arena, at the official time
limits (time scale 1, no sandbox), one game at a time. Printed per bot: its answers after the
first turn, their median, 99th percentile and maximum time in ms against the 50 ms limit (100 ms
for Spring 2021), and its timeouts. The unit tests play these bots with limits scaled by 5 (a
loaded machine must not fail them); this is where answering within the real limit is measured,
so run it on an idle machine (``uptime``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match import MatchOptions, Verdict, play_match  # noqa: E402
from arena.match.launch.botspec import BotSpec  # noqa: E402

BOTS = {
    "fall2020 beam (clock)": ("fall2020", ["-m", "bots.fall2020.beam", "--quiet"], 50.0),
    "fall2020 bfs (budget 3000)": ("fall2020", ["-m", "bots.fall2020.bfs", "--budget", "3000"], 50.0),
    "spring2021 beam": ("spring2021", ["-m", "bots.spring2021.beam"], 100.0),
    "spring2021 mcts": ("spring2021", ["-m", "bots.spring2021.mcts"], 100.0),
}
RANDOM = {
    "fall2020": ["bots/fall2020/random_bot.py", "--seed", "3"],
    "spring2021": ["bots/spring2021/random_bot.py"],
}


def spec(name: str, args: list[str]) -> BotSpec:
    return BotSpec(name, (sys.executable, "-u", *args), cwd=str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per bot (default 6)")
    parser.add_argument("--quick", action="store_true", help="one game per bot")
    args = parser.parse_args()
    games = 1 if args.quick else args.games
    print(f"{'bot':28} {'answers':>7} {'median':>7} {'p99':>7} {'max':>7} {'limit':>6} {'timeouts':>8}")
    for name, (game, argv, limit) in BOTS.items():
        times: list[float] = []
        timeouts = 0
        for seed in range(1, games + 1):
            result = play_match(game, seed, [spec(name, argv), spec("random", RANDOM[game])], MatchOptions())
            mine = result.players[0]
            times += mine.latencies_ms[1:]  # the first turn has its own, longer limit
            timeouts += mine.verdict is Verdict.TIMEOUT
        q = statistics.quantiles(times, n=100, method="inclusive") if len(times) > 1 else times * 99
        print(
            f"{name:28} {len(times):7d} {statistics.median(times):7.1f} {q[98]:7.1f} {max(times):7.1f} "
            f"{limit:6.0f} {timeouts:8d}"
        )


if __name__ == "__main__":
    main()
