"""Matchmaking for N-player games (plugin games with more than two seats): which bots sit at the
next table. Two-player ladders use :func:`arena.stats.matchmaking.next_pair`; this follows the
same rule with tables:

1. **Placement.** A bot with fewer than ``min_games`` games plays first (of several, the one with
   the fewest; ties drawn), at a table whose other seats are spread over the ranking: the table's
   ``k``-th other seat (``k`` from 0) goes to the bot nearest position ``v(g + k + 1) (m - 1)``
   of the ranking of the ``m`` other active bots, ``v`` the van der Corput sequence (1/2, 1/4,
   3/4, ...) and ``g`` the new bot's games so far, so successive tables reach the middle, then the
   top and bottom quarters, and so on.
2. **Ordering.** Otherwise the table is the two active bots adjacent in the ranking whose order is
   least certain, with the seats left filled by the active bots ranked nearest to them (one place
   above the upper one, one place below the lower one, two places above, and so on).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..standings.ranking import Ranking
from ..stats.matchmaking import van_der_corput

__all__ = ["next_table"]


def next_table(
    ranking: Ranking, active: Sequence[str], seats: int, rng: random.Random, min_games: int
) -> tuple[tuple[str, ...], str]:
    """The bots of the next table and why they were chosen (``ValueError`` with fewer active
    bots than ``seats``)."""
    if len(active) < seats:
        raise ValueError(f"{seats} seats need {seats} active bots, got {len(active)}")
    wanted = set(active)
    order = [name for name in ranking.order if name in wanted]
    games = {b.name: b.games for b in ranking.bots}
    new = [name for name in order if games.get(name, 0) < min_games]
    if new:
        fewest = min(games.get(n, 0) for n in new)
        bot = rng.choice(sorted(n for n in new if games.get(n, 0) == fewest))
        others = [n for n in order if n != bot]
        table = [bot]
        played = games.get(bot, 0)
        for k in range(seats - 1):
            left = [n for n in others if n not in table]
            target = van_der_corput(played + k + 1) * (len(others) - 1)
            closest = min(abs(others.index(n) - target) for n in left)
            table.append(rng.choice([n for n in left if abs(others.index(n) - target) == closest]))
        return tuple(table), (
            f"new bot {bot} ({played} of {min_games} games): placement table with "
            f"{', '.join(table[1:])}, spread over the ranking"
        )
    worst = ranking.least_certain(order)
    assert worst is not None
    upper, lower, p = worst
    i, j = order.index(upper), order.index(lower)
    nearest = [order[k] for step in range(1, len(order)) for k in (i - step, j + step) if 0 <= k < len(order)]
    chosen = (upper, lower, *nearest[: seats - 2])
    return chosen, (
        f"{upper} above {lower} with P = {p:.2f}, the least certain order of two neighbours; "
        f"table filled with their nearest neighbours {', '.join(chosen[2:]) or '(none)'}"
    )
