"""Fall Challenge 2020 beam bot: states generated per turn at the official time limits.

    python benchmarks/fall2020_bots.py [--games N] [--every K] [--margin MS] [--width W] [--quick]

Positions come from in-process games (the referee; both seats played by the beam bot's own
search with a small fixed budget, so the positions look like real ones). Every ``K``-th turn of
player 0 is searched exactly as in a game, with the contest clock: 50 ms minus the bot's safety
margin (default 15 ms), and separately the first turn at 1000 ms. Printed: children generated per
turn (ours plus the opponent's beam), median and 10th percentile per game phase (turns 2-15,
16-35, 36+), the same per 50 ms of search (a search that reaches the end of the game, or its
depth limit on turn 1, stops before the clock), and the completed depth of our beam. One core,
one search at a time, the collector off as in the bot.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import referee
from bots.fall2020.beam.search import Settings, decide
from bots.fall2020.game.io import Position, Tracker
from bots.fall2020.game.model import action_text
from bots.lib.timer import NodeBudget, TurnTimer

PHASES = (("turns 2-15", 2, 15), ("turns 16-35", 16, 35), ("turns 36+", 36, 200))


def positions(games: int, every: int, budget: int) -> list[Position]:
    """Player 0's positions (every ``every``-th turn, and turn 1) in ``games`` self-play games."""
    out = []
    for seed in range(1, games + 1):
        ref = referee.create("fall2020", seed)
        trackers = [Tracker(), Tracker()]
        while not ref.is_over:
            outputs = {}
            for p in (0, 1):
                pos = trackers[p].position(ref.input_lines(p))
                if p == 0 and (pos.state.turn == 1 or pos.state.turn % every == 0):
                    out.append(pos)
                decision = decide(pos.table, pos.state, NodeBudget(budget), Settings())
                outputs[p] = action_text(pos.table, 0, decision.action)
            ref.apply(outputs)
    return out


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--every", type=int, default=3, help="search every K-th turn")
    ap.add_argument("--margin", type=float, default=15.0)
    ap.add_argument("--width", type=int, default=Settings.width)
    ap.add_argument("--opp-share", type=float, default=Settings.opp_share)
    ap.add_argument("--budget", type=int, default=1500, help="budget of the self-play moves")
    ap.add_argument("--quick", action="store_true", help="2 games")
    args = ap.parse_args()
    if args.quick:
        args.games = 2
    settings = Settings(width=args.width, opp_share=args.opp_share)
    print(f"collecting positions from {args.games} self-play games...", flush=True)
    pos_list = positions(args.games, args.every, args.budget)
    gc.collect()
    gc.disable()
    first: list[tuple[int, int, float]] = []
    by_phase: dict[str, list[tuple[int, int, float]]] = {name: [] for name, _, _ in PHASES}
    for pos in pos_list:
        timer = TurnTimer(1000, 50, args.margin)
        if pos.state.turn != 1:
            timer.turn = 1  # a later turn: the 50 ms limit
        timer.start()
        d = decide(pos.table, pos.state, timer, settings)
        nodes = d.mine.nodes + d.theirs.nodes
        rate = nodes * 50 / max(timer.elapsed_ms(), 1e-3)
        record = (nodes, d.mine.depth, rate)
        if pos.state.turn == 1:
            first.append(record)
            continue
        for name, lo, hi in PHASES:
            if lo <= pos.state.turn <= hi:
                by_phase[name].append(record)
    gc.enable()
    print(f"states generated per turn (ours + the opponent's beam), width {args.width}, margin {args.margin} ms")
    rows = [("turn 1 (1000 ms)", first)] + [(f"{n} (50 ms)", by_phase[n]) for n, _, _ in PHASES]
    for name, records in rows:
        if not records:
            continue
        nodes = [r[0] for r in records]
        depth = [r[1] for r in records]
        rates = [r[2] for r in records]
        print(
            f"  {name:20s} n={len(records):3d}  median {statistics.median(nodes):8.0f}"
            f"  p10 {pct(nodes, 0.1):8.0f}  per 50 ms: median {statistics.median(rates):8.0f}"
            f"  p10 {pct(rates, 0.1):8.0f}  depth median {statistics.median(depth):4.0f}"
        )


if __name__ == "__main__":
    main()
