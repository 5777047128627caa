"""How the beam scores a state and a line of moves (after Agade's Fall Challenge 2020 bot).

**State evaluation** ``E(s)`` of a witch, when the game is not over::

    E = rupees + ING(inventory) + SPELLS(spells owned)
    ING    = 0.8 * (1 * tier0 + 2 * tier1 + 3 * tier2 + 4 * tier3)
    SPELLS = 0.8 * (1.25 * repeatable + 1 * plain)   for the first 11 spells (repeatable first)
           + 0.2 * (1.25 * repeatable + 1 * plain)   for the spells past 11

Ingredients are worth a little less than the rupees they turn into (so brewing pays), higher
tiers more (they cost more casts); a spell is worth about one ingredient, a repeatable one a bit
more, and past 11 spells new ones hardly count (the witch cannot use them all).

When the game is over the state is worth ``T = +-20000 + final score`` (win / loss; ``final
score`` alone for a draw), the final score counting one rupee per tier 1-3 ingredient.

**Line score.** A line ``s0 -> s1 -> ... -> sd`` is scored by the sum of the evaluation changes
of its steps, step ``k`` (from 0) discounted by ``0.98 ** k``, so that the same gain sooner is
better; but most of the ingredient value (0.9 of it) is counted *outside* the discount::

    V = sum_k 0.98**k * (dRupees_k + dSPELLS_k + 0.1 * dING_k)  +  0.9 * (ING(sd) - ING(s0))

Casting can wait: the opponent cannot interfere with our casts, but may take the orders and
spells we want, so brewing and learning early should win ties, not casting early. A step that
ends the game adds ``0.98**k * (T - E(s_k))`` instead, jumping the line's score by the game's
result. Because ``V`` is a sum of per-step terms, the beam computes it incrementally: a child's
score is its parent's plus the change of one step.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.fall2020.game.inventory import weighted_table
from bots.fall2020.game.model import Table

__all__ = ["Weights", "ingredient_values", "spell_value", "spell_values", "terminal_value", "step_factors"]


@dataclass(frozen=True)
class Weights:
    """The evaluation's parameters (defaults: Agade's)."""

    ingredient: float = 0.8
    """Multiplies the tier-weighted ingredient count."""
    tiers: tuple[float, float, float, float] = (1.0, 2.0, 3.0, 4.0)
    repeatable: float = 1.25
    plain: float = 1.0
    spell_cap: int = 11
    """Spells counted at the full weight; the rest at ``late_spell``."""
    early_spell: float = 0.8
    late_spell: float = 0.2
    win: float = 20000.0
    discount: float = 0.98
    outside: float = 0.9
    """Share of the ingredient value counted outside the discount."""


def ingredient_values(weights: Weights) -> list[float]:
    """``ING`` of every inventory number."""
    w = weights.ingredient
    return [w * x for x in weighted_table(weights.tiers)]


def spell_value(repeatable: int, plain: int, weights: Weights) -> float:
    """``SPELLS`` of a witch owning that many repeatable and plain spells."""
    cap = weights.spell_cap
    r1 = min(repeatable, cap)
    p1 = min(plain, cap - r1)
    early = weights.repeatable * r1 + weights.plain * p1
    late = weights.repeatable * (repeatable - r1) + weights.plain * (plain - p1)
    return weights.early_spell * early + weights.late_spell * late


def spell_values(table: Table, w: int, weights: Weights) -> list[float]:
    """``SPELLS`` of witch ``w`` for every bitmask of learnt root tome spells."""
    root = table.spells[w]
    r0 = sum(1 for s in root if s.repeatable)
    p0 = len(root) - r0
    out = []
    for mask in range(1 << len(table.tome)):
        r, p = r0, p0
        for j, spell in enumerate(table.tome):
            if mask >> j & 1:
                if spell.repeatable:
                    r += 1
                else:
                    p += 1
        out.append(spell_value(r, p, weights))
    return out


def terminal_value(mine: int, theirs: int, weights: Weights) -> float:
    """``T`` of a finished game with these final scores (ours first)."""
    if mine > theirs:
        return weights.win + mine
    if mine < theirs:
        return -weights.win + mine
    return float(mine)


def step_factors(depth: int, weights: Weights) -> tuple[float, float]:
    """``(discount, ingredient factor)`` of the step played from a node at ``depth``: rupee and
    spell changes count ``discount``, ingredient changes ``ingredient factor``."""
    g = weights.discount**depth
    return g, weights.outside + (1.0 - weights.outside) * g
