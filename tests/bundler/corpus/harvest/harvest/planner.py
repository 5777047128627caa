"""Which cells to link: simulated annealing over small target sets, a fixed number of steps."""

from __future__ import annotations

import math
import operator
import random
from bisect import bisect_left
from itertools import accumulate

from .constants import ANNEAL_STEPS, DEPTH, NO_CELL
from .model import Map

cache: dict[frozenset[int], tuple[float, frozenset[int]]] = {}


def network(world: Map, targets: frozenset[int]) -> frozenset[int]:
    """Cells covered when each target is linked to the nearest base or already linked cell."""
    covered = set(world.my_bases)
    for t in sorted(targets, key=lambda t: min(world.distances(b)[t] for b in world.my_bases)):
        best = min(covered, key=lambda c: (world.distances(t)[c], c))
        covered.update(world.path(best, t))
    return frozenset(covered)


def evaluate(world: Map, targets: frozenset[int], ants: int) -> tuple[float, frozenset[int]]:
    if targets in cache:
        return cache[targets]
    cells = network(world, targets)
    per_cell = ants / max(1, len(cells))
    gain = sum(world.cells[c].worth for c in cells if world.cells[c].resources)
    value = gain * min(1.0, per_cell) - 0.4 * len(cells)
    cache[targets] = (value, cells)
    return value, cells


def pick_weighted(rng: random.Random, items: list[int], weights: list[float]) -> int:
    totals = list(accumulate(weights))
    return items[bisect_left(totals, rng.random() * totals[-1])]


def anneal(world: Map, ants: int, rng: random.Random) -> tuple[frozenset[int], float, frozenset[int]]:
    cache.clear()
    options = [c.index for c in world.cells if c.resources and c.index not in world.my_bases]
    if not options:
        return frozenset(), 0.0, frozenset(world.my_bases)
    weights = [world.cells[i].worth + 1.0 for i in options]
    current = frozenset([pick_weighted(rng, options, weights)])
    value, cells = evaluate(world, current, ants)
    best = (current, value, cells)
    for step in range(ANNEAL_STEPS):
        temperature = 2.0 * (1 - step / ANNEAL_STEPS) + 0.01
        pool = set(current)
        if len(pool) < DEPTH and (not pool or rng.random() < 0.5):
            pool.add(pick_weighted(rng, options, weights))
        elif len(pool) > 1 and rng.random() < 0.5:
            pool.discard(sorted(pool)[rng.randrange(len(pool))])
        else:
            pool.discard(sorted(pool)[rng.randrange(len(pool))])
            pool.add(pick_weighted(rng, options, weights))
        candidate = frozenset(pool)
        cand_value, cand_cells = evaluate(world, candidate, ants)
        if cand_value >= value or rng.random() < math.exp((cand_value - value) / temperature):
            current, value, cells = candidate, cand_value, cand_cells
            if value > best[1]:
                best = (current, value, cells)
    return best


def commands(world: Map, targets: frozenset[int], cells: frozenset[int]) -> list[str]:
    if not targets:
        return ["WAIT"]
    strength = {c: 2 if c in targets else 1 for c in cells}
    ordered = sorted(strength.items(), key=operator.itemgetter(0))
    return [f"BEACON {c} {s}" for c, s in ordered if c != NO_CELL]
