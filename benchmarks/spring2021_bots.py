"""Spring Challenge 2021 search bots: states searched per turn at the official time limit.

    python benchmarks/spring2021_bots.py [--games N] [--bots beam,mcts] [--turn-ms 100] [--quick]

Positions come from in-process games (the referee, both seats played by the beam bot's own
search with a small fixed budget, so the positions look like real ones). On each position the
bot's search runs exactly as in a game: a clock of ``--turn-ms`` (100 ms, the contest's limit)
minus the bot's safety margin. The benchmark prints the states generated per turn (beam: action
and WAIT children; MCTS: playouts) by game phase (days 0-7, 8-15, 16-23): median and 10th
percentile, also scaled to a full 100 ms turn. One core, one search at a time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import referee
from bots.lib.timer import NodeBudget, TurnTimer
from bots.spring2021.beam.evaluation import Weights
from bots.spring2021.beam.search import Settings, search
from bots.spring2021.game import io
from bots.spring2021.mcts.policy import Policy
from bots.spring2021.mcts.search import search as mcts_search


def bot_margin(bot: str) -> float:
    """The safety margin the bot's command line uses by default (ms)."""
    if bot == "beam":
        from bots.spring2021.beam.__main__ import parse_args
    else:
        from bots.spring2021.mcts.__main__ import parse_args
    return parse_args([]).margin


PHASES = (("days 0-7", 0, 7), ("days 8-15", 8, 15), ("days 16-23", 16, 23))


def positions(games: int) -> list[tuple[io.Board, io.State]]:
    """(board, state) at every decision of player 0 in ``games`` self-play games."""
    out = []
    for seed in range(1, games + 1):
        ref = referee.create("spring2021", seed)
        buffers: dict[int, list[str]] = {0: [], 1: []}
        boards: dict[int, object] = {}
        weights: dict[int, Weights] = {}
        while not ref.is_over:
            outputs = {}
            for r in ref.requests():
                buffers[r.player] += list(r.lines)
                if not r.expected_lines:
                    continue
                lines, buffers[r.player] = buffers[r.player], []
                if r.player not in boards:
                    it = iter(lines)
                    boards[r.player] = io.read_board(it.__next__)
                    weights[r.player] = Weights(boards[r.player])
                    lines = list(it)
                board = boards[r.player]
                state = io.parse_turn(lines, board).state
                if r.player == 0:
                    out.append((board, state))
                result = search(state, board, weights[r.player], NodeBudget(800), Settings())
                outputs[r.player] = io.format_action(result.action, board)
            ref.apply(outputs)
    return out


def measure(samples, turn_ms: float, bot: str) -> dict[str, list[tuple[int, float]]]:
    """(states or playouts, the same per 100 ms of search) per position, by phase."""
    by_phase: dict[str, list[tuple[int, float]]] = {name: [] for name, _, _ in PHASES}
    weights_of: dict[int, Weights] = {}
    policies: dict[int, Policy] = {}
    margin = bot_margin(bot)
    for board, state in samples:
        weights = weights_of.setdefault(id(board), Weights(board))
        timer = TurnTimer(turn_ms, turn_ms, margin)
        timer.turn = 1  # not the first turn
        gc.collect()
        timer.start()
        if bot == "beam":
            count = search(state, board, weights, timer, Settings()).nodes
        else:
            policy = policies.setdefault(id(board), Policy(board, weights))
            count = mcts_search(state, policy, timer).playouts
        elapsed = max(timer.elapsed_ms(), 1e-3)
        for name, lo, hi in PHASES:
            if lo <= state.day <= hi:
                by_phase[name].append((count, count * 100 / elapsed))
    return by_phase


def p10(values: list[int]) -> float:
    return statistics.quantiles(values, n=10)[0] if len(values) >= 2 else float(values[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games to take positions from")
    parser.add_argument("--turn-ms", type=float, default=100.0, help="time limit per turn")
    parser.add_argument("--bots", default="beam,mcts", help="which searches to measure")
    parser.add_argument("--quick", action="store_true", help="positions from 1 game")
    args = parser.parse_args()
    if args.quick:
        args.games = 1
    samples = positions(args.games)
    clocks = ", ".join(f"{bot} {args.turn_ms - bot_margin(bot):.0f} ms" for bot in args.bots.split(","))
    print(
        f"{len(samples)} positions from {args.games} games; search clock {clocks} "
        f"(the {args.turn_ms:.0f} ms turn minus each bot's safety margin)"
    )
    print(
        "per turn, and per 100 ms of search (a beam search that finishes its horizon stops "
        "before the clock); beam: states generated, mcts: playouts"
    )
    print(f"{'bot':6} {'phase':11} {'turns':>5} {'median':>8} {'p10':>8} {'/100ms med':>11} {'/100ms p10':>11}")
    for bot in args.bots.split(","):
        by_phase = measure(samples, args.turn_ms, bot)
        rows = list(by_phase.items()) + [("all", [v for vs in by_phase.values() for v in vs])]
        for i, (name, values) in enumerate(rows):
            if not values:
                continue
            counts = [n for n, _ in values]
            rates = [r for _, r in values]
            print(
                f"{bot if i == 0 else '':6} {name:11} {len(values):5} {statistics.median(counts):8.0f} "
                f"{p10(counts):8.0f} {statistics.median(rates):11.0f} {p10(rates):11.0f}"
            )


if __name__ == "__main__":
    main()
