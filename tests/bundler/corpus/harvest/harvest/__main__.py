"""Entry point: ``python -m harvest``."""

from __future__ import annotations

import random
import sys

from . import planner
from .constants import SEED
from .model import Side
from .reading import read_map, read_turns


def main() -> None:
    rng = random.Random(SEED)
    world = read_map(input)
    print(
        f"{world.size} cells, bases {world.my_bases} vs {world.opp_bases}, "
        f"kinds { {k: len(v) for k, v in sorted(world.by_kind.items())} }",
        file=sys.stderr,
    )
    for number, turn in enumerate(read_turns(world, input), start=1):
        targets, value, cells = planner.anneal(world, turn.total_ants, rng)
        print(";".join(planner.commands(world, targets, cells)))
        sides: list[Side] = sorted({c.side for c in world.cells}, key=lambda s: s.value)
        print(
            f"turn {number}: score {turn.my_score}-{turn.opp_score} ants={turn.total_ants} "
            f"targets={sorted(targets)} value={value:.2f} network={len(cells)} "
            f"contested={turn.contested} sides={[s.name for s in sides]}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
