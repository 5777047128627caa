"""Beam search over our moves, against a predicted opponent line (Agade's Fall 2020 design).

**Beam.** Layer ``d`` holds the best ``width`` states reachable in ``d`` turns. Every state of a
layer is expanded into all its children (every BREW, every CAST with every repeat count, every
LEARN, REST; WAIT only when nothing else is possible); children reached by different move orders
are the same state (*transpositions*: cast A then B, or B then A) and share a Zobrist key
(:mod:`.hashing`; the turn is implicit, a layer being one turn), and only the better-scored copy
is kept (:func:`bots.lib.beam.select`). Children are scored by the line score of
:mod:`.evaluation`, computed incrementally from the parent's. The answer is the
first move of the best state of the deepest *completed* layer, found by walking the parent
links; when a layer's best state is a won game the search stops and plays toward it. A finished
game is carried unchanged from layer to layer, so a short winning line keeps competing with longer
ones.

**Opponent.** The opponent brews orders and learns spells we may want, and her sixth potion ends
the game. So we first run a short beam for *her* (``opp_share`` of the turn, depth at most
``opp_depth``) while we rest, and take her best line as her plan. Our own beam then plays every
turn against that plan, padded with REST; when a planned action is no longer possible (we took
the order or the spell first) she rests instead.

**Speed.** A node is a flat tuple; inventories are numbers and spells lookup tables
(:mod:`bots.fall2020.game.inventory`), so the common child, a CAST, costs two list lookups, one
addition, two XORs and one tuple: its score is the parent's plus ``ING * factor`` of the new
inventory, from a table per depth. The Zobrist key is assembled from per-component keys: what a
CAST does not touch (learnt spells, rupees, potions, the table, the opponent) is hashed once per
parent. The table (orders, bonus, tome, stocks) is *interned*: each version is one tuple with an
id, and what the opponent's move and each BREW or LEARN do to it goes through the exact rules
(:func:`bots.fall2020.game.model.act`, :func:`~bots.fall2020.game.model.settle_table`) once per
search, then comes from a memo. About 2 microseconds per child in CPython 3.11, selection
included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from bots.fall2020.game.inventory import END_BONUS, learn_table
from bots.fall2020.game.model import (
    BREW,
    LEARN,
    MAX_TURNS,
    POTION_GOAL,
    REST,
    WAIT,
    Effect,
    State,
    Table,
    Witch,
    act,
    cast,
    legal_actions,
    position,
    price_at,
    settle_table,
)
from bots.lib.beam import beam_search
from bots.lib.timer import TurnLimit

from .evaluation import (
    Weights,
    ingredient_values,
    spell_values,
    step_factors,
    terminal_value,
)
from .hashing import (
    INV_KEYS,
    LEARNED_KEYS,
    MASK_BYTES,
    ORDER_KEYS,
    POTION_KEYS,
    SCORE_KEYS,
    SLOT_KEYS,
    TOME_KEYS,
    mask_key,
    other_key,
)

__all__ = [
    "Settings",
    "Line",
    "Decision",
    "Searcher",
    "decide",
    "safe_action",
    "VALUE",
    "INV",
    "CASTABLE",
    "LEARNED",
    "SCORE",
    "POTIONS",
    "SHARED",
    "OTHER",
    "DEPTH",
    "PARENT",
    "ACTION",
    "END",
    "GOING",
    "WON",
    "DRAWN",
    "LOST",
]

# A node: (value, inv, castable, learned, score, potions, shared, other, depth, parent, action,
# end). ``shared`` is (orders, bonus, tome, stocks, key, id): the table, interned and shared by
# many nodes; ``other`` is the opponent's model.Witch; ``action`` the move from ``parent``.
# (Final, so that the type checker knows which field ``node[VALUE]`` etc. is.)
VALUE: Final = 0
INV: Final = 1
CASTABLE: Final = 2
LEARNED: Final = 3
SCORE: Final = 4
POTIONS: Final = 5
SHARED: Final = 6
OTHER: Final = 7
DEPTH: Final = 8
PARENT: Final = 9
ACTION: Final = 10
END: Final = 11
GOING, WON, DRAWN, LOST = 0, 1, 2, 3
"""``END``: the game goes on, or it is over and we won / drew / lost."""

Bonus = tuple[int, int, int, int]
TableState = tuple[int, Bonus, int, tuple[int, ...]]
"""``(orders, bonus, tome, stocks)``: a version of the table."""
Shared = tuple[int, Bonus, int, tuple[int, ...], int, int]
"""``(orders, bonus, tome, stocks, key, id)``: an interned version of the table."""
Node = tuple[float, int, int, int, int, int, Shared, Witch, int, "Node | None", int, int]
Brews = list[tuple[list[int], int, Shared, int]]
"""Per order shown: ``(brew table, rupees earned, table after, action)``."""
Learns = list[tuple[list[int], Shared, int, int, int, int]]
"""Per tome spell shown: ``(learn table, table after, learnt bit, slot bit, slot key, action)``."""
TableMoves = tuple[Shared, Brews, Learns]
"""What :meth:`Searcher.table_moves` returns."""
NodeChild = tuple[int, float, Node]
"""``(Zobrist key, score, node)``: a child as ``expand`` yields it."""


@dataclass(frozen=True)
class Settings:
    width: int = 100
    """States kept per layer of our beam."""
    opp_width: int = 40
    """States kept per layer of the opponent's beam."""
    opp_depth: int = 15
    """Turns searched for the opponent."""
    opp_share: float = 0.35
    """Share of the turn given to the opponent's beam (0: assume she rests)."""
    max_depth: int = 60
    """Turns searched for us, at most."""


_SCALED: dict[Weights, dict[int, list[float]]] = {}


def _scaled_ingredients(weights: Weights) -> dict[int, list[float]]:
    """Per depth, ``ING`` of every inventory times the step's ingredient factor (filled on
    demand, kept for the whole game: the factors depend on the depth only)."""
    found = _SCALED.get(weights)
    if found is None:
        found = _SCALED[weights] = {}
    return found


# -- results --------------------------------------------------------------------------------------


@dataclass
class Line:
    """The outcome of one beam."""

    actions: list[int] = field(default_factory=list)
    """The best line found (empty when not even one layer was completed)."""
    value: float = 0.0
    end: int = GOING
    depth: int = 0
    """Layers completed."""
    nodes: int = 0
    """Children generated."""
    best: Node | None = None


@dataclass
class Decision:
    action: int
    mine: Line
    theirs: Line


# -- the search -----------------------------------------------------------------------------------


class Searcher:
    """Beam search for witch ``me`` of a root position (one per turn and per witch).

    The table (orders, bonus, tome, stocks) changes only on BREW and LEARN, so its versions are
    *interned*: each distinct one is a single ``shared`` tuple with an id, and what a BREW or a
    LEARN does to it (given the opponent's move of the same turn) is computed once per search and
    looked up afterwards (:meth:`table_moves`).
    """

    def __init__(self, table: Table, root: State, me: int, weights: Weights = Weights()) -> None:
        self.table = table
        self.root = root
        self.me = me
        self.weights = weights
        self.ing = ingredient_values(weights)
        self.spells = spell_values(table, me, weights)
        slots = len(table.casts[me])
        self.slot_info = [
            (1 << s, SLOT_KEYS[s], table.casts[me][s], tuple(cast(s, k) for k in range(1, 12))) for s in range(slots)
        ]
        self._interned: dict[TableState, Shared] = {}
        self._moves: dict[tuple[int, Effect | None], TableMoves] = {}

    def shared(self, orders: int, bonus: Bonus, tome: int, stocks: tuple[int, ...]) -> Shared:
        """The interned ``shared`` node component: ``(orders, bonus, tome, stocks, key, id)``."""
        state = (orders, bonus, tome, stocks)
        found = self._interned.get(state)
        if found is None:
            found = (orders, bonus, tome, stocks, ORDER_KEYS[orders] ^ TOME_KEYS[tome], len(self._interned))
            self._interned[state] = found
        return found

    def table_moves(self, shared: Shared, oeff: Effect | None) -> TableMoves:
        """What the table allows us this turn, the opponent's move having effect ``oeff``:
        ``(table after her move alone, brews, learns)`` with

        * brews: ``(brew table, rupees earned, table after, action)`` per order shown;
        * learns: ``(learn table, table after, learnt bit, slot bit, slot key, action)`` per tome
          spell, in tome order (the tax grows by one each).
        """
        memo_key = (shared[5], oeff)
        found = self._moves.get(memo_key)
        if found is not None:
            return found
        table = self.table
        orders, bonus, tome, stocks = shared[:4]
        if oeff is None:
            after = shared
        else:
            after = self.shared(*settle_table(table, orders, bonus, tome, stocks, (oeff,)))
        brews: Brews = []
        for j, order in enumerate(table.orders):
            if orders >> j & 1:
                pos = position(orders, j)
                brews.append(
                    (
                        table.brews[j],
                        price_at(order.price, pos, bonus),
                        self.shared(*settle_table(table, orders, bonus, tome, stocks, ((BREW, j, pos), oeff))),
                        BREW | j << 3,
                    )
                )
        learns: Learns = []
        pos = 0
        slots = table.slots[self.me]
        for j in range(len(table.tome)):
            if tome >> j & 1:
                learns.append(
                    (
                        learn_table(pos, stocks[j]),
                        self.shared(*settle_table(table, orders, bonus, tome, stocks, ((LEARN, j, pos), oeff))),
                        1 << j,
                        1 << (slots + j),
                        SLOT_KEYS[slots + j],
                        LEARN | j << 3,
                    )
                )
                pos += 1
        found = (after, brews, learns)
        self._moves[memo_key] = found
        return found

    def root_node(self) -> Node:
        root = self.root
        w = root.witches[self.me]
        shared = self.shared(root.orders, root.bonus, root.tome, root.stocks)
        return (
            0.0,
            w.inv,
            w.castable,
            w.learned,
            w.score,
            w.potions,
            shared,
            root.witches[1 - self.me],
            0,
            None,
            -1,
            GOING,
        )

    def expander(self, plan: Sequence[int]) -> Callable[[Node], list[NodeChild]]:
        """The ``expand`` function of :func:`bots.lib.beam.beam_search` for an opponent playing
        ``plan`` (then REST)."""
        table = self.table
        me = self.me
        them = 1 - me
        weights = self.weights
        ing = self.ing
        spv = self.spells
        slot_info = self.slot_info
        table_moves = self.table_moves
        my_root = table.root_mask[me]
        my_slots = table.slots[me]
        their_root = table.root_mask[them]
        their_slots = table.slots[them]
        last = MAX_TURNS - self.root.turn  # a child at depth > last is past turn 100
        plan = list(plan)
        plan_len = len(plan)
        factors = [step_factors(d, weights) for d in range(MAX_TURNS + 2)]
        scaled = _scaled_ingredients(weights)
        inv_keys = INV_KEYS
        learned_keys = LEARNED_KEYS
        score_keys = SCORE_KEYS
        potion_keys = POTION_KEYS
        m0, m1, m2 = MASK_BYTES[0], MASK_BYTES[1], MASK_BYTES[2]
        goal = POTION_GOAL

        def end_value(value: float, g: float, e_parent: float, mine: int, other: Witch, ni: int) -> tuple[float, int]:
            theirs = other.score + END_BONUS[other.inv]
            final = mine + END_BONUS[ni]
            end = WON if final > theirs else LOST if final < theirs else DRAWN
            return value + g * (terminal_value(final, theirs, weights) - e_parent), end

        turn_memo: dict[tuple[Witch, int, int], tuple[Witch, int, Shared, Brews, Learns]] = {}

        def their_turn(other: Witch, oa: int, shared: Shared) -> tuple[Witch, int, Shared, Brews, Learns]:
            """``(her witch after, its key, table after her move, our brews, our learns)``."""
            oeff = None
            if oa != REST:
                state = State(0, (other, other), shared[0], shared[1], shared[2], shared[3])
                new_other, oeff, ok = act(table, state, them, oa)
                if not ok:
                    oa = REST
            if oa == REST:
                own = their_root | other.learned << their_slots
                new_other = other if other.castable == own else other._replace(castable=own)
            shared_c, brews, learns = table_moves(shared, oeff)
            return new_other, other_key(new_other), shared_c, brews, learns

        def expand(node: Node) -> list[NodeChild]:
            (value, inv, castable, learned, score, potions, shared, other, depth, _, _, end) = node
            if end:
                return [(id(node), value, node)]
            # The opponent's move this turn (her plan, REST when it runs out or fails), and what
            # the table then lets us do: memoised, most nodes of a layer agree on both.
            oa = plan[depth] if depth < plan_len else REST
            memo_key = (other, oa, shared[5])
            turn = turn_memo.get(memo_key)
            if turn is None:
                turn = turn_memo[memo_key] = their_turn(other, oa, shared)
            new_other, ho, shared_c, brews, learns = turn
            hfix = learned_keys[learned] ^ score_keys[score & 511] ^ potion_keys[potions] ^ shared_c[4] ^ ho
            ck = m0[castable & 255] ^ m1[castable >> 8 & 255] ^ m2[castable >> 16 & 255]
            if castable >> 24:
                ck = mask_key(castable)
            g, wing = factors[depth]
            ingw = scaled.get(depth)
            if ingw is None:
                ingw = scaled[depth] = [wing * x for x in ing]  # ING * ingredient factor
            depth1 = depth + 1
            over = depth1 > last or new_other.potions >= goal
            base = value - ingw[inv]
            e_parent = score + spv[learned] + ing[inv]
            children: list[NodeChild] = []
            append = children.append
            # CAST, every repeat count.
            for bit, slot_key, ctbl, codes in slot_info:
                if castable & bit:
                    reach = ctbl[inv]
                    if reach:
                        nc = castable ^ bit
                        kc = hfix ^ ck ^ slot_key
                        if over:
                            for k, ni in enumerate(reach):
                                v, e = end_value(value, g, e_parent, score, new_other, ni)
                                append(
                                    (
                                        kc ^ inv_keys[ni],
                                        v,
                                        (
                                            v,
                                            ni,
                                            nc,
                                            learned,
                                            score,
                                            potions,
                                            shared_c,
                                            new_other,
                                            depth1,
                                            node,
                                            codes[k],
                                            e,
                                        ),
                                    )
                                )
                        else:
                            for k, ni in enumerate(reach):
                                v = base + ingw[ni]
                                append(
                                    (
                                        kc ^ inv_keys[ni],
                                        v,
                                        (
                                            v,
                                            ni,
                                            nc,
                                            learned,
                                            score,
                                            potions,
                                            shared_c,
                                            new_other,
                                            depth1,
                                            node,
                                            codes[k],
                                            GOING,
                                        ),
                                    )
                                )
            # REST.
            own = my_root | learned << my_slots
            if castable != own:
                key = hfix ^ mask_key(own) ^ inv_keys[inv]
                if over:
                    v, e = end_value(value, g, e_parent, score, new_other, inv)
                else:
                    v, e = value, GOING
                append((key, v, (v, inv, own, learned, score, potions, shared_c, new_other, depth1, node, REST, e)))
            # BREW.
            if brews:
                hb = learned_keys[learned] ^ ho ^ ck
                pt = potions + 1
                for tbl, earned, sb, code in brews:
                    ni = tbl[inv]
                    if ni >= 0:
                        sc = score + earned
                        if over or pt >= goal:
                            v, e = end_value(value, g, e_parent, sc, new_other, ni)
                        else:
                            v = base + g * earned + ingw[ni]
                            e = GOING
                        key = hb ^ score_keys[sc & 511] ^ potion_keys[pt] ^ sb[4] ^ inv_keys[ni]
                        append((key, v, (v, ni, castable, learned, sc, pt, sb, new_other, depth1, node, code, e)))
            # LEARN (the tax grows along the tome: stop at the first one we cannot pay).
            if learns:
                hl = score_keys[score & 511] ^ potion_keys[potions] ^ ho ^ ck
                s0 = spv[learned]
                for tbl, sl, lbit, sbit, slot_key, code in learns:
                    ni = tbl[inv]
                    if ni < 0:
                        break
                    l2 = learned | lbit
                    if over:
                        v, e = end_value(value, g, e_parent, score, new_other, ni)
                    else:
                        v = base + g * (spv[l2] - s0) + ingw[ni]
                        e = GOING
                    key = hl ^ learned_keys[l2] ^ sl[4] ^ slot_key ^ inv_keys[ni]
                    append((key, v, (v, ni, castable | sbit, l2, score, potions, sl, new_other, depth1, node, code, e)))
            # WAIT, only when nothing else is possible.
            if not children:
                if over:
                    v, e = end_value(value, g, e_parent, score, new_other, inv)
                else:
                    v, e = value, GOING
                append(
                    (
                        hfix ^ ck ^ inv_keys[inv],
                        v,
                        (v, inv, castable, learned, score, potions, shared_c, new_other, depth1, node, WAIT, e),
                    )
                )
            return children

        return expand

    def run(
        self, limit: TurnLimit, plan: Sequence[int] = (), width: int = 100, max_depth: int = 60, spent: int = 0
    ) -> Line:
        """Beam search until ``limit`` says stop (``spent`` nodes already used this turn),
        ``max_depth`` layers, a won game at the top of a layer, or only finished games left."""
        max_depth = min(max_depth, MAX_TURNS + 1 - self.root.turn)
        expand = self.expander(plan)
        layer: list[tuple[float, Node]] = [(0.0, self.root_node())]
        nodes = 0
        depth = 0
        while depth < max_depth:
            result = beam_search(layer, expand, width, limit, max_depth=1, spent=spent + nodes)
            nodes += result.nodes
            if result.depth < 1:
                break  # out of time (the unfinished layer is dropped) or no children
            layer = result.layers[1]
            depth += 1
            best = layer[0][1]
            if best[END] == WON or all(n[END] for _, n in layer):
                break
        line = Line(depth=depth, nodes=nodes)
        if depth:
            best = layer[0][1]
            line.best = best
            line.value = best[VALUE]
            line.end = best[END]
            line.actions = line_of(best)
        return line


def line_of(node: Node) -> list[int]:
    """The actions from the root to ``node`` (following the parent links)."""
    actions: list[int] = []
    while node[PARENT] is not None:
        actions.append(node[ACTION])
        node = node[PARENT]
    actions.reverse()
    return actions


def node_key(node: Node) -> int:
    """The full Zobrist key of a node (the search builds it piece by piece; tests compare)."""
    return (
        INV_KEYS[node[INV]]
        ^ mask_key(node[CASTABLE])
        ^ LEARNED_KEYS[node[LEARNED]]
        ^ SCORE_KEYS[node[SCORE] & 511]
        ^ POTION_KEYS[node[POTIONS] & 15]
        ^ node[SHARED][4]
        ^ other_key(node[OTHER])
    )


def safe_action(table: Table, state: State) -> int:
    """A sensible legal move without search: the best-paying brew, else REST when a spell is
    exhausted, else the first castable spell, else WAIT."""
    legal = legal_actions(table, state, 0)
    brews = [a for a in legal if a & 7 == BREW]
    if brews:
        return max(brews, key=lambda a: (table.prices[a >> 3 & 63], -a))
    if REST in legal:
        return REST
    for a in legal:
        if a & 7 != LEARN and a not in (WAIT, REST):
            return a
    return WAIT


def decide(
    table: Table, state: State, limit: TurnLimit, settings: Settings = Settings(), weights: Weights = Weights()
) -> Decision:
    """Our move: the opponent's beam (while we rest), then ours against her line."""
    theirs = Line()
    if settings.opp_share > 0:
        sub = limit.fraction(settings.opp_share)  # type: ignore[attr-defined]
        theirs = Searcher(table, state, 1, weights).run(sub, (), settings.opp_width, settings.opp_depth)
    mine = Searcher(table, state, 0, weights).run(
        limit, theirs.actions, settings.width, settings.max_depth, spent=theirs.nodes
    )
    action = mine.actions[0] if mine.actions else safe_action(table, state)
    return Decision(action, mine, theirs)
