"""Tournament throughput and the tournament's own overhead per game.

    python benchmarks/tournament.py [--games N] [--runs R] [--game spring2021] [BOT BOT]

With fast bots (default: the shipped greedy and random Spring bots), measures:

1. the games themselves: the same games played one after another with ``play_match`` directly
   (no tournament), in games per second;
2. ``Tournament.run`` with 1 worker and with 2 workers (fresh database each run), in games per
   second, and the scaling ratio 2 workers / 1 worker;
3. the tournament's own overhead per game: (tournament wall with 1 worker - direct wall) / games,
   and the main process's CPU per game (scheduling, SQLite writes, statistics).

Prints medians over ``--runs`` runs, and the cores this machine has.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.match import MatchOptions, play_match  # noqa: E402
from arena.tournament import Tournament, bot_spec  # noqa: E402
from arena.tournament.config import config_from_mapping  # noqa: E402
from arena.tournament.schedule import make_schedule  # noqa: E402
from arena.tournament.store import Store  # noqa: E402


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def direct(config) -> float:
    specs = {b.name: bot_spec(b, config.game) for b in config.bots}
    schedule = make_schedule(config.format, [b.name for b in config.bots], config.seed, config.pairs,
                             config.baseline)
    start = time.perf_counter()
    for g in schedule.games():
        play_match(config.game, g.seed, [specs[g.seats[0]], specs[g.seats[1]]], MatchOptions())
    return time.perf_counter() - start


def tournament(config) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        cfg = config_from_mapping({**config_map, "workers": config.workers, "db": db})
        with Store(db) as store:
            c0, w0 = cpu_self(), time.perf_counter()
            result = Tournament(cfg, store).run()
            wall, cpu = time.perf_counter() - w0, cpu_self() - c0
            assert result.played == cfg.pairs * 2 * (len(cfg.bots) - 1), result.played
    return wall, cpu


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", default=["greedy", "random"])
    parser.add_argument("--game", default="spring2021")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    config_map = {"game": args.game, "bots": args.bots, "games": args.games, "seed": 1}
    n = args.games
    rows: dict[str, list[float]] = {"direct": [], "w1": [], "w2": [], "cpu1": []}
    for _ in range(args.runs):
        cfg1 = config_from_mapping({**config_map, "workers": 1})
        rows["direct"].append(direct(cfg1))
        wall1, cpu1 = tournament(cfg1)
        rows["w1"].append(wall1)
        rows["cpu1"].append(cpu1)
        wall2, _ = tournament(config_from_mapping({**config_map, "workers": 2}))
        rows["w2"].append(wall2)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"{args.game} {' vs '.join(args.bots)}, {n} games, {os.cpu_count()} cores, medians of {args.runs} runs")
    print(f"  play_match one after another: {n / med['direct']:.2f} games/s")
    print(f"  tournament, 1 worker:        {n / med['w1']:.2f} games/s")
    print(f"  tournament, 2 workers:       {n / med['w2']:.2f} games/s  (scaling 2/1 workers: "
          f"{med['w1'] / med['w2']:.2f}x)")
    print(f"  tournament overhead per game: wall {(med['w1'] - med['direct']) / n * 1000:+.1f} ms "
          f"(1 worker vs direct), main-process CPU {med['cpu1'] / n * 1000:.1f} ms")
