"""Spring Challenge 2021 search bots: states searched per turn at the official time limit.

    python benchmarks/spring2021_bots.py [--games N] [--bots beam,mcts] [--turn-ms 100]

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

import referee  # noqa: E402
from bots.lib.timer import NodeBudget, TurnTimer  # noqa: E402
from bots.spring2021.beam.evaluation import Weights  # noqa: E402
from bots.spring2021.beam.search import Settings, search  # noqa: E402
from bots.spring2021.game import io  # noqa: E402

MARGIN_MS = 20.0
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


def measure_beam(samples, turn_ms: float) -> dict[str, list[tuple[int, float]]]:
    """(states, states per 100 ms of search) per position, by phase."""
    by_phase: dict[str, list[tuple[int, float]]] = {name: [] for name, _, _ in PHASES}
    weights_of: dict[int, Weights] = {}
    for board, state in samples:
        weights = weights_of.setdefault(id(board), Weights(board))
        timer = TurnTimer(turn_ms, turn_ms, MARGIN_MS)
        gc.collect()
        timer.start()
        result = search(state, board, weights, timer, Settings())
        elapsed = max(timer.elapsed_ms(), 1e-3)
        for name, lo, hi in PHASES:
            if lo <= state.day <= hi:
                by_phase[name].append((result.nodes, result.nodes * 100 / elapsed))
    return by_phase


def p10(values: list[int]) -> float:
    return statistics.quantiles(values, n=10)[0] if len(values) >= 2 else float(values[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games to take positions from")
    parser.add_argument("--turn-ms", type=float, default=100.0, help="time limit per turn")
    args = parser.parse_args()
    samples = positions(args.games)
    search_ms = args.turn_ms - MARGIN_MS
    print(f"{len(samples)} positions from {args.games} games; search clock {search_ms:.0f} ms "
          f"({args.turn_ms:.0f} ms turn minus the bot's {MARGIN_MS:.0f} ms margin)")
    by_phase = measure_beam(samples, args.turn_ms)
    print("states generated per turn, and per 100 ms of search (a search that finishes its "
          "horizon early stops before the clock)")
    print(f"{'beam':6} {'phase':11} {'turns':>5} {'median':>8} {'p10':>8} {'/100ms med':>11} "
          f"{'/100ms p10':>11}")
    rows = list(by_phase.items()) + [("all", [v for vs in by_phase.values() for v in vs])]
    for name, values in rows:
        if not values:
            continue
        counts = [n for n, _ in values]
        rates = [r for _, r in values]
        print(f"{'':6} {name:11} {len(values):5} {statistics.median(counts):8.0f} {p10(counts):8.0f} "
              f"{statistics.median(rates):11.0f} {p10(rates):11.0f}")


if __name__ == "__main__":
    main()
