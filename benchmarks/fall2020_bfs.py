"""Fall Challenge 2020 BFS planner: the post-mortem's offline experiment, and nodes per turn.

    python benchmarks/fall2020_bfs.py [--draws N] [--depth D] [--plain-depth P] [--tome K]
                                      [--tome-plain-depth Q] [--games G] [--quick]

Part 1 reproduces NinjaDoggy's offline experiment (legend, Fall Challenge 2020 post-mortem):
start with 3 tier-0 ingredients and the four official starting spells (+2 blue; blue -> green;
green -> orange; orange -> yellow; none repeatable), draw 11 orders from the official order deck,
of which only the first 5 not yet brewed may be brewed at any time (the window slides as orders
are brewed), and search to depth 100 (a whole game), stopping a line at 6 brews (the game ends).
That gives the shortest distance to every set of 6 brewed orders with every ending inventory.
For each draw it prints the time, the children generated and kept, the depth where the search ran
dry, the number of (6 brewed orders, inventory) pairs reached and the shortest distance to 6 brews;
then the medians over the draws.

The same draws are searched by a plain BFS (exact duplicates only) to ``--plain-depth``
(default 100: with only the four starting spells the exhausted-spell part of the state has 16
values, so even the plain search finishes, in seconds), next to the pruned search to that same
depth, so the node counts compare like with like.

The prunings matter most once spells are learnt (every subset of them can be exhausted): the same
experiment is repeated with ``--tome`` (default 4) random tome spells learnt on top of the
starting ones, the pruned search to depth 100 and the plain one only to ``--tome-plain-depth``
(default 16; deeper, it takes minutes and gigabytes).

Part 2 plays ``--games`` games of the BFS bot against the random bot in this process, with the
real 50 ms clock (``TurnTimer``), and prints the children the planner generated per turn.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import referee
from bots.fall2020 import random_bot
from bots.fall2020.bfs.bot import BfsBot, make_limit
from bots.fall2020.bfs.planner import Problem, popcount, search
from referee.fall2020.deck import ORDER_RECIPES, STARTING_INVENTORY, STARTING_SPELLS, TOME_RECIPES

ORDERS = 11
WINDOW = 5
BREWS = 6


def draw(seed: int) -> list[tuple[int, int, int, int]]:
    """11 order deltas drawn from the official deck (the order of the draw is the deck order)."""
    rng = random.Random(seed)
    return [tuple(-x for x in need) for need, _ in rng.sample(ORDER_RECIPES, ORDERS)]


def tome_spells(seed: int, count: int) -> list[tuple[tuple[int, ...], bool]]:
    """``count`` distinct tome spells drawn from the catalogue (repeatable iff they consume)."""
    rng = random.Random(seed * 7919 + 1)
    return [(d, min(d) < 0) for d in rng.sample(TOME_RECIPES, count)]


def problem_for(orders, extra=()) -> Problem:
    spells = [(d, False) for d in STARTING_SPELLS] + list(extra)
    return Problem(spells, orders, window=WINDOW, max_brews=BREWS)


def run(problem: Problem, depth: int, pruning: bool) -> dict[str, float]:
    start = problem.pack(STARTING_INVENTORY)
    gc.collect()
    t = time.perf_counter()
    result = search(problem, start, None, depth, pruning)
    seconds = time.perf_counter() - t
    mask = problem.pair_mask
    shift = 10
    six: dict[int, int] = {}
    states = result.states
    for d in range(result.depth + 1):
        for node in result.layer(d):
            pair = states[node] & mask
            if popcount(pair >> shift) == BREWS:
                six.setdefault(pair, d)
    del result.states[:], result.parents[:], result.moves[:]
    return {
        "ms": seconds * 1000,
        "generated": result.generated,
        "kept": result.admitted,
        "depth": result.depth,
        "six": len(six),
        "shortest": min(six.values()) if six else -1,
        "sets": len({p >> shift for p in six}),
    }


def experiment(draws: int, depth: int, plain_depth: int, seed: int, tome: int) -> None:
    what = "the 4 starting spells" if not tome else f"the 4 starting spells + {tome} tome spells"
    print(f"3 blue, {what}, {ORDERS} orders (window {WINDOW}), depth {depth}, stop at {BREWS} brews")
    print(
        f"{'draw':>4} {'ms':>8} {'generated':>10} {'kept':>9} {'deepest':>7} "
        f"{'6-pairs':>8} {'6-sets':>6} {'min turns':>9}"
    )
    rows = []
    for i in range(draws):
        problem = problem_for(draw(seed + i), tome_spells(seed + i, tome))
        r = run(problem, depth, True)
        rows.append(r)
        print(
            f"{i:>4} {r['ms']:>8.0f} {r['generated']:>10} {r['kept']:>9} {r['depth']:>7} "
            f"{r['six']:>8} {r['sets']:>6} {r['shortest']:>9}"
        )
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(
        f"{'med':>4} {med['ms']:>8.0f} {med['generated']:>10.0f} {med['kept']:>9.0f} "
        f"{med['depth']:>7.0f} {med['six']:>8.0f} {med['sets']:>6.0f} {med['shortest']:>9.0f}"
    )
    print()
    print(f"Pruned against plain BFS (exact duplicates only), depth {plain_depth}:")
    print(
        f"{'draw':>4} {'pruned ms':>9} {'generated':>10} {'kept':>9} | {'plain ms':>9} "
        f"{'generated':>10} {'kept':>9} | {'ratio':>5}"
    )
    ratios, pms, qms, pgen, qgen = [], [], [], [], []
    for i in range(draws):
        problem = problem_for(draw(seed + i), tome_spells(seed + i, tome))
        p = rows[i] if plain_depth == depth else run(problem, plain_depth, True)
        q = run(problem, plain_depth, False)
        ratio = q["generated"] / max(1, p["generated"])
        ratios.append(ratio)
        pms.append(p["ms"])
        qms.append(q["ms"])
        pgen.append(p["generated"])
        qgen.append(q["generated"])
        print(
            f"{i:>4} {p['ms']:>9.0f} {p['generated']:>10} {p['kept']:>9} | {q['ms']:>9.0f} "
            f"{q['generated']:>10} {q['kept']:>9} | {ratio:>5.1f}"
        )
    print(
        f"{'med':>4} {statistics.median(pms):>9.0f} {statistics.median(pgen):>10.0f} "
        f"{'':>9} | {statistics.median(qms):>9.0f} {statistics.median(qgen):>10.0f} "
        f"{'':>9} | {statistics.median(ratios):>5.1f}"
    )
    print()


def nodes_per_turn(games: int, seed: int) -> None:
    print(
        f"Part 2: the bot's planner against the random bot, real clock (50 ms turns, 20 ms "
        f"margin), {games} games in this process"
    )
    generated: list[int] = []
    turn_ms: list[float] = []
    for g in range(games):
        ref = referee.create("fall2020", seed + g)
        bot = BfsBot(make_limit(None))
        rng = random.Random(seed + g)
        while not ref.is_over:
            outputs = {}
            for r in ref.requests():
                if not r.expected_lines:
                    continue
                lines = list(r.lines)
                if r.player == 0:
                    bot.limit.start()
                    t = time.perf_counter()
                    outputs[0] = bot.turn(lines)
                    ms = (time.perf_counter() - t) * 1000
                    bot.release()
                    if bot.last_nodes and bot.turn_number > 1:
                        generated.append(bot.last_nodes)
                        turn_ms.append(ms)
                else:
                    inv = [int(x) for x in lines[-2].split()[:4]]
                    outputs[1] = random_bot.choose([x.split() for x in lines[1:-2]], inv, rng)
            ref.apply(outputs)
    if not generated:
        print("no searched turn")
        return
    q = statistics.quantiles(generated, n=10)
    print(
        f"searched turns: {len(generated)}; children generated per turn: median "
        f"{statistics.median(generated):.0f}, 10% {q[0]:.0f}, 90% {q[-1]:.0f}, "
        f"min {min(generated)}, max {max(generated)}"
    )
    print(f"turn time: median {statistics.median(turn_ms):.1f} ms, max {max(turn_ms):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--plain-depth", type=int, default=100)
    parser.add_argument("--tome", type=int, default=4)
    parser.add_argument("--tome-plain-depth", type=int, default=16)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2020)
    parser.add_argument("--quick", action="store_true", help="1 draw (the first), 1 game")
    args = parser.parse_args(argv)
    if args.quick:
        args.draws, args.games = 1, 1
    gc.disable()
    print("Part 1: the post-mortem's offline experiment")
    experiment(args.draws, args.depth, args.plain_depth, args.seed, 0)
    if args.tome:
        experiment(args.draws, args.depth, args.tome_plain_depth, args.seed, args.tome)
    if args.games:
        nodes_per_turn(args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
