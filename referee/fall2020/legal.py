"""The legal actions of Fall Challenge 2020: every command the official referee would accept from
a player in a position (:func:`legal_actions`), found without trying them.

In a game (at most ``MAX_SPACE`` ingredients, none negative) each card looks the inventory up in
its table (:mod:`.fits`): whether an order can be brewed, how many times a spell can be cast. A
position built by hand with more (every tier 0-15) packs the inventory with guard bits
(:func:`.state.pack`, :func:`.state.cast_key`) so that one subtraction tells the same; an
inventory that a Java ``int`` overflow left out of that range takes the plain checks.
"""

from __future__ import annotations

from .actions import REST, WAIT
from .fits import BASES
from .state import CAST_GUARDS, GUARDS, MAX_SPACE, FallState, PlayerSpell, PlayerState

__all__ = ["legal_actions"]


def _k_max(spell: PlayerSpell, inv: list[int]) -> int:
    """How many times ``spell`` can be cast at once with ``inv`` (ingredients and space)."""
    total = spell.total
    k_max = (MAX_SPACE - (inv[0] + inv[1] + inv[2] + inv[3])) // total if total > 0 else MAX_SPACE
    for tier, amount in spell.costs:
        k = inv[tier] // amount
        if k < k_max:
            k_max = k
    return max(k_max, 0)


def legal_actions(state: FallState, player: int) -> list[str]:
    """Every command the official referee would accept from ``player`` now: ``BREW id``,
    ``CAST id`` and ``CAST id k`` (k >= 2, repeatable spells), ``LEARN id``, ``REST`` when a spell
    is exhausted, and ``WAIT``. (Repeat counts that only pass the checks by Java int overflow are
    not listed.)"""
    p = state.players[player]
    a, b, c, d = p.inventory
    if a + b + c + d > MAX_SPACE or a < 0 or b < 0 or c < 0 or d < 0:
        return _outside_game(state, p)
    # In a game: each card looks the inventory (its :func:`.fits.inventory_index`, written out) up
    # in its table of how many times it can be paid for (:mod:`.fits`).
    key = BASES[a][b][c] + d
    out = []
    for o in state.deliveries:
        if o.fits[key]:
            out.append(o.brew_command)
    spells = p.spells
    if len(spells) != len(p.own_lines):
        p.refresh_lines()
    for s in spells:
        k = s.can[key]
        if k:
            out += s.cast_table[k]
    # Learning the spell at position i costs i tier-0 ingredients.
    for spell in state.tome[: a + 1]:
        out.append(spell.learn_command)
    if p.exhausted:
        out.append(REST)
    out.append(WAIT)
    return out


def _outside_game(state: FallState, p: PlayerState) -> list[str]:
    """:func:`legal_actions` for an inventory of more than ``MAX_SPACE`` ingredients, or with a
    negative count (positions built by hand, or a Java int overflow)."""
    inv = p.inventory
    a, b, c, d = inv
    exhausted = False
    if 0 <= a < 16 and 0 <= b < 16 and 0 <= c < 16 and 0 <= d < 16:
        # The usual case. The inventory packs into 20 bits with a guard bit per tier (see
        # ``state.pack``): it covers a need iff subtracting the packed need keeps the guards.
        guards = GUARDS
        have = a << 15 | b << 10 | c << 5 | d | guards
        out = []
        for o in state.deliveries:
            if (have - o.need_bits) & guards == guards:
                out.append(o.brew_command)
        # The same with the free space added (``state.cast_key``, written out): a spell can be
        # cast once iff subtracting its lane keeps the five guards.
        room = MAX_SPACE - (a + b + c + d)
        key = have << 5 | (room if room > 0 else 0) | 16
        cast_guards = CAST_GUARDS
        for s in p.spells:
            if not s._castable:
                exhausted = True
            elif (key - s.lane) & cast_guards == cast_guards:
                if not s.repeatable:
                    out.append(s.cast_command)
                    continue
                # The most repeats the free space and every consumed tier allow (at least 1).
                total = s.total
                k = room // total if total > 0 else MAX_SPACE
                for tier, amount in s.costs:
                    q = inv[tier] // amount
                    if q < k:
                        k = q
                out += s.cast_table[k]
    else:  # only after a cast that overflowed a Java int
        out = [
            o.brew_command
            for o in state.deliveries
            if a + o.delta[0] >= 0 and b + o.delta[1] >= 0 and c + o.delta[2] >= 0 and d + o.delta[3] >= 0
        ]
        for s in p.spells:
            if s._castable:
                k = _k_max(s, inv)
                if k:
                    out += s.cast_commands(k if s.repeatable else 1)
            else:
                exhausted = True
    if a >= 0:
        # Learning the spell at position i costs i tier-0 ingredients.
        for spell in state.tome[: a + 1]:
            out.append(spell.learn_command)
    if exhausted:
        out.append(REST)
    out.append(WAIT)
    return out
