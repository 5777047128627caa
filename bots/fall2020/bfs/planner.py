"""Shortest plans to brew potions in Fall Challenge 2020: breadth-first search with three perfect
prunings (after NinjaDoggy's post-mortem, legend, 2020).

Ignore the opponent and the tome: what is left is a one-player puzzle in which every action (CAST
a spell, possibly repeated; REST; BREW an order) takes one turn. The shortest way to brew an
order is then a shortest path in an unweighted graph, which breadth-first search finds exactly.
A node of the graph is

* the inventory, as its number among the 1001 legal inventories (10 bits; the numbering and the
  per-spell lookup tables are the shared ones of ``bots/fall2020/game/inventory.py``);
* the set of orders already brewed (one bit per order);
* the set of *exhausted* spells (one bit per spell: cast since the last REST).

all packed in one ``int``: ``inventory | brewed << 10 | exhausted << (10 + orders)``. The first two
parts form the node's *pair* (``node & pair_mask``): the part that matters for scoring; the
exhausted set only constrains what comes next.

The graph is huge (every subset of spells can be exhausted), but most of it is dominated. Say
state A *covers* state B when they have the same pair and A's exhausted set is a subset of B's:
A can do everything B can (cast what B casts, brew what B brews, reach B's REST result by its own
REST or already be there), so from A every pair B reaches is reachable in as many moves or fewer.
Three rules, applied to each child before it is queued, drop only covered states, so the
shortest distance to every *pair* stays exact:

1. **Duplicates**: a state already kept is dropped (plain BFS does this much).
2. **Fresh pair**: once a state with *no* exhausted spell (all castable, e.g. just after REST)
   has been kept for a pair, every later state with that pair is dropped: the fresh one covers it
   and was reached no later (BFS order).
3. **Shorter pair**: once a pair has been reached at distance ``d``, a state with that pair, an
   exhausted spell and distance ``d' > d`` is dropped: resting from the first one gives a fresh
   state with the pair at ``d + 1 <= d'`` that covers it. (The fresh state made by that REST is
   exactly what rule 3 must let through, so it only applies to states with an exhausted spell; the
   fresh state then triggers rule 2.)

With them a pair is expanded at most at its first depth (with the exhausted sets met at that
depth) and once more, fresh, one step later; the search goes several times deeper than plain BFS
in the same time. ``tests/bots/fall2020/test_bfs.py`` checks the distances against a plain BFS.

:class:`Problem` holds the precomputed tables of one search (spells, orders, the *window* of
orders that may be brewed, when the search stops brewing); :func:`search` runs it with the
generic ``bots.lib.bfs``; :func:`best_plan` picks the plan the bot follows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...lib.bfs import BfsResult, Dedupe, Pruner, bfs
from ...lib.timer import TurnLimit
from ..game.inventory import COUNT, INVS, brew_table, cast_table, index_of

__all__ = [
    "Move",
    "REST_MOVE",
    "Problem",
    "PerfectPruning",
    "search",
    "Plan",
    "best_plan",
    "pair_distances",
    "richest",
    "popcount",
]

INV_BITS = 10
"""Bits of the inventory number (1001 < 1024)."""
INV_MASK = (1 << INV_BITS) - 1
MAX_REPEATS = 10
"""No spell can be cast more than 10 times at once (a repeatable spell consumes something)."""


class Move(NamedTuple):
    """One action of a plan: ``kind`` is ``"CAST"`` (``index`` = spell, ``times`` = repeats),
    ``"BREW"`` (``index`` = order) or ``"REST"``; indices are positions in the :class:`Problem`'s
    lists, not game ids."""

    kind: str
    # The field shadows ``tuple.index``, which mypy reports as an incompatible override; the name
    # is the planner's public API (``move.index``), so the override is deliberate.
    index: int = -1  # type: ignore[assignment]
    times: int = 1


REST_MOVE = Move("REST")


def popcount(x: int) -> int:
    """Number of set bits."""
    return bin(x).count("1")


class Problem:
    """The fixed data of a search, as tables.

    * ``spells``: ``(delta, repeatable)`` per spell (delta per tier, negative = consumed);
    * ``orders``: each order's delta (all <= 0, what brewing does to the inventory);
    * ``window``: only the first ``window`` orders *not yet brewed* may be brewed (``None``: all;
      the post-mortem's experiment uses 5 of 11, as the game shows 5 orders at a time);
    * ``max_brews``: a state with that many orders brewed is not expanded (the game ends when a
      witch brews her sixth potion).
    """

    def __init__(
        self,
        spells: Sequence[tuple[Sequence[int], bool]],
        orders: Sequence[Sequence[int]],
        window: int | None = None,
        max_brews: int | None = None,
    ) -> None:
        self.spells = [((d[0], d[1], d[2], d[3]), bool(r)) for d, r in spells]
        self.orders = [tuple(d) for d in orders]
        n = len(self.orders)
        self.order_bits = n
        self.ex_shift = INV_BITS + n
        """Where the exhausted-spell bits start."""
        self.pair_mask = (1 << self.ex_shift) - 1
        """``state & pair_mask``: inventory and brewed orders."""
        self.brewed_mask = (1 << n) - 1
        self.window = n if window is None else window
        self.max_brews = n if max_brews is None else max_brews
        self.spell_tables = [cast_table(d, r) for d, r in self.spells]
        """Per spell, per inventory: the inventories after 1, 2, ... casts (shared tables)."""
        self.cast_moves = [
            [Move("CAST", i, k + 1) for k in range(MAX_REPEATS if r else 1)] for i, (_, r) in enumerate(self.spells)
        ]
        self.order_tables = [brew_table((-d[0], -d[1], -d[2], -d[3])) for d in self.orders]
        self.brew_moves = [Move("BREW", o) for o in range(n)]
        self._visible: dict[int, tuple[tuple[Move, list[int], int], ...]] = {}

    def pack(self, inv: Sequence[int], brewed: int = 0, exhausted: int = 0) -> int:
        """The state of inventory ``inv`` (4 counts), brewed-order bits and exhausted-spell bits."""
        return index_of(tuple(inv)) | brewed << INV_BITS | exhausted << self.ex_shift

    def unpack(self, state: int) -> tuple[tuple[int, int, int, int], int, int]:
        """``(inventory, brewed bits, exhausted bits)`` of a packed state."""
        return (
            INVS[state & INV_MASK],
            (state >> INV_BITS) & self.brewed_mask,
            state >> self.ex_shift,
        )

    def visible(self, brewed: int) -> tuple[tuple[Move, list[int], int], ...]:
        """The brewable orders once ``brewed`` are done: ``(move, table, new brewed bits shifted
        into place)`` for the first ``window`` orders not brewed (memoised per set)."""
        found = self._visible.get(brewed)
        if found is None:
            out: list[tuple[Move, list[int], int]] = []
            if popcount(brewed) < self.max_brews:
                for o in range(self.order_bits):
                    if len(out) == self.window:
                        break
                    if not brewed >> o & 1:
                        out.append((self.brew_moves[o], self.order_tables[o], (brewed | 1 << o) << INV_BITS))
            found = self._visible[brewed] = tuple(out)
        return found

    def expander(self) -> Callable[[int], list[tuple[Move, int]]]:
        """The ``expand`` function for :func:`bots.lib.bfs.bfs`: every legal BREW (visible, not
        brewed, affordable), every CAST of a castable spell with every legal repeat count, and
        REST when a spell is exhausted. (A state with ``max_brews`` orders brewed has none.)"""
        ex_shift = self.ex_shift
        brewed_mask = self.brewed_mask
        pair_mask = self.pair_mask
        visible = self.visible
        max_brews = self.max_brews
        spells = [
            (1 << i, tables, moves, 1 << (i + ex_shift))
            for i, (tables, moves) in enumerate(zip(self.spell_tables, self.cast_moves))
        ]
        done = {b for b in range(brewed_mask + 1) if popcount(b) >= max_brews}

        def expand(state: int) -> list[tuple[Move, int]]:
            inv = state & INV_MASK
            brewed = (state >> INV_BITS) & brewed_mask
            if brewed in done:
                return []
            ex = state >> ex_shift
            rest = state & ~INV_MASK
            children: list[tuple[Move, int]] = []
            add = children.append
            for move, table, brewed_bits in visible(brewed):
                j = table[inv]
                if j >= 0:
                    add((move, j | brewed_bits | (state & ~pair_mask)))
            for bit, tables, moves, ex_bit in spells:
                if ex & bit:
                    continue
                base = rest | ex_bit
                for k, j in enumerate(tables[inv]):  # after 1, 2, ... casts, while legal
                    add((moves[k], j | base))
            if ex:
                add((REST_MOVE, state & pair_mask))
            return children

        return expand


class PerfectPruning:
    """The three rules of this module's docstring, for states packed by a :class:`Problem`."""

    __slots__ = ("pair_mask", "ex_shift", "seen", "first", "fresh")

    def __init__(self, problem: Problem) -> None:
        self.pair_mask = problem.pair_mask
        self.ex_shift = problem.ex_shift
        self.seen: set[int] = set()
        """Rule 1: every state kept that has an exhausted spell."""
        self.first: dict[int, int] = {}
        """Rule 3: the distance at which each pair was first reached."""
        self.fresh: set[int] = set()
        """Rule 2: the pairs kept with every spell castable."""

    def admit(self, state: int, depth: int) -> bool:
        pair = state & self.pair_mask
        if pair in self.fresh:
            return False  # rule 2 (and rule 1 for fresh states)
        first = self.first.setdefault(pair, depth)
        if state == pair:  # nothing exhausted
            self.fresh.add(pair)
            return True
        if depth > first:
            return False  # rule 3
        if state in self.seen:
            return False  # rule 1
        self.seen.add(state)
        return True


def search(
    problem: Problem,
    start: int,
    limit: TurnLimit | None = None,
    max_depth: int = 1 << 30,
    pruning: bool = True,
) -> BfsResult[int, Move]:
    """Breadth-first search from the packed ``start`` with the three rules (``pruning=False``:
    duplicates only, for comparison)."""
    prune: Pruner[int] = PerfectPruning(problem) if pruning else Dedupe()
    return bfs(start, problem.expander(), prune, limit, max_depth)


def pair_distances(problem: Problem, result: BfsResult[int, Move]) -> dict[int, int]:
    """The shortest distance found to every pair ``(inventory, brewed)`` (as ``state & pair_mask``)."""
    mask = problem.pair_mask
    out: dict[int, int] = {}
    states = result.states
    for d in range(result.depth + 1):
        for node in result.layer(d):
            out.setdefault(states[node] & mask, d)
    return out


@dataclass(frozen=True)
class Plan:
    """The plan a bot follows: the kept state it aims at and why."""

    node: int
    """Number of the target state in the search result."""
    depth: int
    """Moves to get there."""
    brewed: int
    """Orders brewed on the way (bits)."""
    gain: float
    """Rupees earned on the way."""
    rate: float
    """Score per turn (the gain, plus the inventory left when asked, over ``depth``)."""


def best_plan(
    problem: Problem,
    result: BfsResult[int, Move],
    prices: Sequence[float],
    final: Callable[[int, int, float], float] | None = None,
    keep: float = 0.0,
) -> Plan | None:
    """The kept state with the most rupees per turn of plan (``None`` if no kept state brews).

    A state's gain is the sum of ``prices`` of the orders brewed on the way; for a state that
    reached ``problem.max_brews`` brews (the game ends there) it is ``final(brewed, inventory
    number, gain)`` when given (e.g. 0 to refuse a game-ending brew that loses). Its score is the
    gain plus ``keep`` times the worth of the inventory left (tiers weighted 1-4: ingredients kept
    for the next brews), and its rate the score over its depth. Only states that brew count. Ties
    go to the shallower plan, then to the richer ending inventory, then to the first kept. Only
    states whose gain can match the best rate so far are looked at closely, so the scan costs
    little more than reading the states.
    """
    n = problem.order_bits
    mask = problem.brewed_mask
    gains = [0.0] * (mask + 1)
    ending = [False] * (mask + 1)
    for b in range(1, mask + 1):
        gains[b] = sum(prices[o] for o in range(n) if b >> o & 1)
        ending[b] = final is not None and popcount(b) >= problem.max_brews
    top = keep * _MOST  # the most an inventory can add
    states = result.states
    best_rate, best_depth, best_worth, best_node, best_gain = 0.0, 0, -1, -1, 0.0
    for d in range(1, result.depth + 1):
        need = best_rate * d
        for node in result.layer(d):
            s = states[node]
            brewed = (s >> INV_BITS) & mask
            gain = gains[brewed]
            if gain <= 0 or gain + top < need:
                continue
            if ending[brewed]:
                gain = final(brewed, s & INV_MASK, gain)  # type: ignore[misc]
                if gain <= 0:
                    continue
            worth = _WORTH[s & INV_MASK]
            score = gain + keep * worth
            if score < need:
                continue
            rate = score / d
            if rate > best_rate or (rate == best_rate and (d < best_depth or (d == best_depth and worth > best_worth))):
                best_rate, best_depth, best_worth, best_node, best_gain = rate, d, worth, node, gain
                need = score
    if best_node < 0:
        return None
    brewed = (states[best_node] >> INV_BITS) & mask
    return Plan(best_node, best_depth, brewed, best_gain, best_rate)


_WORTH = [a + 2 * b + 3 * c + 4 * d for a, b, c, d in INVS]
"""Worth of each inventory, tiers weighted 1-4 (tie-breaks and the fallback)."""
_MOST = max(_WORTH)


def richest(result: BfsResult[int, Move]) -> int:
    """The kept state with the most valuable inventory (tiers weighted 1-4), the deepest on a tie
    (the fallback when no plan brews): its number, or 0 (the start) when nothing was kept."""
    values = _WORTH
    states = result.states
    best, best_node = -1, 0
    for node in range(len(states) - 1, 0, -1):
        v = values[states[node] & INV_MASK]
        if v > best:
            best, best_node = v, node
    return best_node


assert COUNT < 1 << INV_BITS
