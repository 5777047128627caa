"""Gem runner: collect the gems of a maze while the monsters roam.

Run as ``python main.py``; one direction (N, E, S, W) or WAIT per turn.
"""

import sys

import config
import pathing as pf
import planner
import scoring
from reader import read_header, read_turn
from scoring import evaluate as score_step


def choose(grid) -> tuple[str, str]:
    route = planner.plan(grid)
    target = route[0] if route else None
    path = pf.astar(grid, grid.me, target) if target is not None else None
    preferred = pf.direction(path[0], path[1]) if path and len(path) > 1 else None
    options = [("WAIT", grid.me)] + list(grid.neighbors(grid.me))
    ranked = sorted(
        ((score_step(grid, pos, target) + (7 if name == preferred else 0), name, pos) for name, pos in options),
        key=lambda t: (-t[0], config.ORDER.find(t[1])),
    )
    best_score, name, pos = ranked[0]
    scoring.remember(pos)
    note = f"plan={route} path={pf.helper(path) if path else '-'} score={best_score:.1f}"
    return name, note


def main() -> None:
    width, height = read_header()
    print(f"map {width}x{height}", file=sys.stderr)
    turn = 0
    while True:
        grid = read_turn(width, height)
        if grid is None:
            break
        turn += 1
        action, note = choose(grid)
        print(action if action == "WAIT" else f"{action} {len(grid.gems)}", flush=True)
        print(f"turn {turn} {grid!r}: {note}", file=sys.stderr)
    print(
        f"done after {turn} turns; stats {sorted(pf.stats.items())}; {len(pf.cache)} distance maps, "
        f"{len(scoring.cache)} step scores",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
