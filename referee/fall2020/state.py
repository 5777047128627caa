"""The mutable state of a Fall Challenge 2020 game: spells, orders, players, decks and bonuses.

Objects compare by identity (``eq=False``), as the Java objects do, so ``list.index`` and
``list.remove`` find exactly the card that was played. The texts of the cards (input lines,
commands) are memoised across games, so building the per-turn input costs a few string joins.

:meth:`FallState.build` sets up any position by hand (for tests); :func:`.deck.new_game` deals the
official starting position from a seed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .fits import MAX_SPACE, NO_CASTS, cast_counts, cast_key

__all__ = [
    "Delta",
    "MAX_SPACE",
    "TOME_SIZE",
    "COUNTER_SIZE",
    "DELIVERY_GOAL",
    "STARTING_SPELLS",
    "FIRST_PLAYER_SPELL_ID",
    "GUARDS",
    "pack",
    "CAST_GUARDS",
    "cast_key",
    "TomeSpell",
    "Order",
    "PlayerSpell",
    "PlayerState",
    "FallState",
]

Delta = tuple[int, int, int, int]
"""Ingredient change per tier (0 = blue ... 3 = yellow)."""

TOME_SIZE = 6
"""Tome spells on display at the start (the tome shrinks once its deck is empty)."""
COUNTER_SIZE = 5
"""Potion orders on display."""
DELIVERY_GOAL = 6
"""The game ends after the turn in which a player brews its sixth potion."""
STARTING_SPELLS: tuple[Delta, ...] = ((2, 0, 0, 0), (-1, 1, 0, 0), (0, -1, 1, 0), (0, 0, -1, 1))
"""Every player's four starting spells (castable, not repeatable)."""
FIRST_PLAYER_SPELL_ID = 78
"""Id of player 0's first starting spell: the ids before it are the 42 tome spells and the 36
orders of :mod:`.deck`; player 1's start at 82."""


GUARDS = 16 << 15 | 16 << 10 | 16 << 5 | 16
"""The four guard bits of a packed inventory."""


def pack(a: int, b: int, c: int, d: int) -> int:
    """Four counts in 0-15 (an inventory, or an order's need) as one number, 5 bits per tier.

    ``pack(*inventory) | GUARDS`` minus an order's :attr:`Order.need_bits` keeps all four guard
    bits iff the inventory covers the need in every tier: no tier borrows from the next."""
    return a << 15 | b << 10 | c << 5 | d


CAST_GUARDS = GUARDS << 5 | 16
"""The five guard bits of a packed inventory as :func:`cast_key` makes it."""


# Memos shared by all games (the same cards come back game after game).
_TOME_TEXTS: dict[tuple[int, Delta], tuple[bool, str, _LineMemo]] = {}
_ORDER_TEXTS: dict[tuple[int, Delta], tuple[str, int, _LineMemo, list[int]]] = {}
_CAST_TABLES: dict[tuple[int, bool], tuple[tuple[str, ...], ...]] = {}
_RECIPES: dict[Delta, tuple[int, tuple[tuple[int, int], ...], int]] = {}
"""Net change, ``(tier, amount)`` costs and the lane of a castable spell, by recipe."""
_SPELL_LINES: dict[tuple[int, Delta, bool], tuple[str, str, str, str]] = {}
_SPELL_TAILS: dict[tuple[Delta, bool], tuple[str, str, str, str]] = {}


def _cast_table(id: int, repeatable: bool) -> tuple[tuple[str, ...], ...]:
    """Entry ``k`` (0 to :data:`MAX_SPACE`): the commands casting spell ``id`` when it can be
    cast at most ``k`` times at once: none, ``CAST id``, then ``CAST id 2`` ... ``CAST id k`` if
    it is repeatable. (Memoised: the same ids come back game after game.)"""
    table = _CAST_TABLES.get((id, repeatable))
    if table is None:
        commands = [f"CAST {id}"] + [f"CAST {id} {k}" for k in range(2, MAX_SPACE + 1)]
        table = _CAST_TABLES[id, repeatable] = ((),) + tuple(
            tuple(commands[:k] if repeatable else commands[:1]) for k in range(1, MAX_SPACE + 1)
        )
    return table


def _delta_text(delta: Delta) -> str:
    return f"{delta[0]} {delta[1]} {delta[2]} {delta[3]}"


def _recipe(delta: Delta) -> tuple[int, tuple[tuple[int, int], ...], int]:
    """A player spell's net change, ``(tier, amount)`` costs and lane (memoised).

    Each needed amount and the net gain are clamped to 0-16 (16: more than an inventory of 0-15,
    or a free space of at most 10, can hold)."""
    total = sum(delta)
    a, b, c, d = (min(max(-x, 0), 16) for x in delta)
    recipe = _RECIPES[delta] = (
        total,
        tuple((i, -x) for i, x in enumerate(delta) if x < 0),
        pack(a, b, c, d) << 5 | min(max(total, 0), 16),
    )
    return recipe


def _spell_lines(id: int, delta: Delta, repeatable: bool) -> tuple[str, str, str, str]:
    """A player spell's input lines (memoised): own exhausted / castable, opponent's exhausted /
    castable. What follows the id depends only on the recipe (memoised too: the same recipes
    come back with other ids)."""
    tails = _SPELL_TAILS.get((delta, repeatable))
    if tails is None:
        rep = 1 if repeatable else 0
        own = f" CAST {_delta_text(delta)} 0 -1 -1"
        foe = f" OPPONENT_CAST {_delta_text(delta)} 0 -1 -1"
        tails = _SPELL_TAILS[delta, repeatable] = (
            f"{own} 0 {rep}",
            f"{own} 1 {rep}",
            f"{foe} 0 {rep}",
            f"{foe} 1 {rep}",
        )
    head = str(id)
    lines = _SPELL_LINES[id, delta, repeatable] = (head + tails[0], head + tails[1], head + tails[2], head + tails[3])
    return lines


class TomeSpell:
    """A spell of the tome (or still in its deck). Repeatable iff it consumes an ingredient.

    Cards compare by identity. ``delta`` (any sequence of 4 counts, stored as a tuple) must not
    change afterwards: the spell's texts are derived from it once."""

    __slots__ = ("id", "delta", "stock", "repeatable", "learn_command", "_lines")

    def __init__(self, id: int, delta: Sequence[int], stock: int = 0) -> None:
        self.id = id
        self.delta: Delta = (delta[0], delta[1], delta[2], delta[3])
        self.stock = stock
        """Tier-0 ingredients taxed onto this spell, given to whoever learns it."""
        self.repeatable: bool
        self.learn_command: str
        self._lines: _LineMemo
        self.repeatable, self.learn_command, self._lines = _TOME_TEXTS.get((id, self.delta)) or _tome_texts(
            id, self.delta
        )

    def line(self, index: int, stock: int | None = None) -> str:
        """The input line: ``id LEARN d0 d1 d2 d3 0 tomeIndex stock 0 repeatable`` (with the
        spell's current stock, or ``stock`` if given)."""
        if stock is None:
            stock = self.stock
        return self._lines[index, stock]

    def __repr__(self) -> str:
        return f"TomeSpell(id={self.id!r}, delta={self.delta!r}, stock={self.stock!r}, repeatable={self.repeatable!r})"


class Order:
    """A potion order; ``delta`` is what brewing it does to the inventory (all <= 0).

    Cards compare by identity. ``delta`` (any sequence of 4 counts, stored as a tuple) must not
    change afterwards: its texts and ``fits`` (the inventories that can brew it) come from it once."""

    __slots__ = ("id", "delta", "price", "brew_command", "need_bits", "fits", "_lines")

    def __init__(self, id: int, delta: Sequence[int], price: int) -> None:
        self.id = id
        self.delta: Delta = (delta[0], delta[1], delta[2], delta[3])
        self.price = price
        self.brew_command: str
        self.need_bits: int
        """The need as :func:`pack` packs it, each tier clamped to 0-16 (16: more than an
        inventory of 0-15 can hold), for :func:`.legal.legal_actions`."""
        self._lines: _LineMemo
        self.brew_command, self.need_bits, self._lines, self.fits = _ORDER_TEXTS.get((id, self.delta)) or _order_texts(
            id, self.delta
        )

    @property
    def need(self) -> Delta:
        """Ingredients consumed (positive numbers)."""
        a, b, c, d = self.delta
        return (-a, -b, -c, -d)

    def line(self, price: int, bonus_value: int, bonus_count: int) -> str:
        """The input line: ``id BREW d0 d1 d2 d3 price bonusValue bonusCount 0 0``."""
        return self._lines[price, bonus_value, bonus_count]

    def __repr__(self) -> str:
        return f"Order(id={self.id!r}, delta={self.delta!r}, price={self.price!r})"


class _LineMemo(dict[tuple[int, ...], str]):
    """A card's input lines by the numbers that vary (tome: position and stock; order: price,
    bonus value and bonus count), made on first use: ``prefix`` + the numbers + ``suffix``."""

    __slots__ = ("prefix", "suffix")

    def __init__(self, prefix: str, suffix: str) -> None:
        super().__init__()
        self.prefix = prefix
        self.suffix = suffix

    def __missing__(self, numbers: tuple[int, ...]) -> str:
        text = self[numbers] = f"{self.prefix}{' '.join(map(str, numbers))}{self.suffix}"
        return text


def _tome_texts(id: int, delta: Delta) -> tuple[bool, str, _LineMemo]:
    repeatable = any(d < 0 for d in delta)
    texts = _TOME_TEXTS[id, delta] = (
        repeatable,
        f"LEARN {id}",
        _LineMemo(f"{id} LEARN {_delta_text(delta)} 0 ", f" 0 {1 if repeatable else 0}"),
    )
    return texts


def _order_texts(id: int, delta: Delta) -> tuple[str, int, _LineMemo, list[int]]:
    a, b, c, d = (min(max(-x, 0), 16) for x in delta)
    texts = _ORDER_TEXTS[id, delta] = (
        f"BREW {id}",
        pack(a, b, c, d),
        _LineMemo(f"{id} BREW {_delta_text(delta)} ", " 0 0"),
        cast_counts(tuple(x if x < 0 else 0 for x in delta), False),
    )
    return texts


class PlayerSpell:
    """A spell a player owns (a starting spell or a learnt copy of a tome spell).

    Setting :attr:`castable` also refreshes the owner's cached input lines (see
    :class:`PlayerState`), so a position can be edited freely in tests.
    """

    __slots__ = (
        "id",
        "delta",
        "owner",
        "repeatable",
        "total",
        "costs",
        "lane",
        "cast_command",
        "cast_table",
        "lines",
        "fits",
        "can",
        "_castable",
        "_holder",
        "_slot",
    )

    def __init__(self, id: int, delta: Delta, owner: int, repeatable: bool = False, castable: bool = True) -> None:
        self.id = id
        self.delta = delta = (delta[0], delta[1], delta[2], delta[3])
        self.owner = owner
        self.repeatable = repeatable
        self.total: int
        """Net change of the inventory size per cast."""
        self.costs: tuple[tuple[int, int], ...]
        """``(tier, amount)`` of every consumed ingredient."""
        self.lane: int
        """What casting the spell once takes from :func:`cast_key`: the consumed ingredients as
        :attr:`Order.need_bits` packs them, then the net gain (if positive) from the free space."""
        self.cast_table: tuple[tuple[str, ...], ...]
        """Entry ``k`` (0 to :data:`MAX_SPACE`): the legal cast commands when the spell can be
        cast at most ``k`` times at once."""
        self.lines: tuple[str, str, str, str]
        """Input lines: own spell exhausted / castable, opponent's spell exhausted / castable."""
        self.total, self.costs, self.lane = _RECIPES.get(delta) or _recipe(delta)
        self.cast_table = _CAST_TABLES.get((id, repeatable)) or _cast_table(id, repeatable)
        self.lines = _SPELL_LINES.get((id, delta, repeatable)) or _spell_lines(id, delta, repeatable)
        self.cast_command: str = self.cast_table[1][0]
        self.fits = cast_counts(delta, repeatable)
        """Inventory (:func:`.fits.inventory_index`) -> the most casts at once, if any; ``can``:
        the same while castable, else an empty table."""
        self._castable = castable = bool(castable)
        self.can = self.fits if castable else NO_CASTS
        self._holder: PlayerState | None = None
        self._slot = -1

    @property
    def castable(self) -> bool:
        """``False`` once cast (exhausted) until the owner rests."""
        return self._castable

    @castable.setter
    def castable(self, value: bool) -> None:
        was = self._castable
        value = self._castable = bool(value)
        self.can = self.fits if value else NO_CASTS
        holder = self._holder
        if holder is not None:
            slot = self._slot
            spells = holder.spells
            if slot < len(spells) and spells[slot] is self:
                lines = self.lines
                holder.own_lines[slot] = lines[value]
                holder.foe_lines[slot] = lines[2 + value]
                holder.exhausted += was - value

    def line(self, viewer: int) -> str:
        """The input line as player ``viewer`` sees it (CAST or OPPONENT_CAST)."""
        return self.lines[(0 if viewer == self.owner else 2) + self._castable]

    def cast_commands(self, k_max: int) -> list[str]:
        """``CAST id``, ``CAST id 2``, ..., ``CAST id k_max`` (a new list)."""
        if self.repeatable and 0 <= k_max <= MAX_SPACE:
            return list(self.cast_table[k_max])
        return [f"CAST {self.id} {k}" if k > 1 else self.cast_command for k in range(1, k_max + 1)]

    def __repr__(self) -> str:
        return (
            f"PlayerSpell(id={self.id}, delta={self.delta}, owner={self.owner}, "
            f"repeatable={self.repeatable}, castable={self._castable})"
        )


@dataclass(slots=True, eq=False)
class PlayerState:
    """One witch: inventory (4 tiers), spells in learning order, rupees, potions brewed.

    ``own_lines`` / ``foe_lines`` cache the spells' input lines as their owner / the opponent
    sees them; :meth:`spell_lines` rebuilds them if ``spells`` was edited directly.
    """

    inventory: list[int]
    spells: list[PlayerSpell]
    score: int = 0
    deliveries: int = 0
    own_lines: list[str] = field(default_factory=list, repr=False)
    foe_lines: list[str] = field(default_factory=list, repr=False)
    exhausted: int = field(default=0, repr=False)
    """How many of the spells are exhausted (kept in step with the lines)."""

    def __post_init__(self) -> None:
        self._attach_all()

    def _attach_all(self) -> None:
        self.own_lines = []
        self.foe_lines = []
        self.exhausted = 0
        for spell in self.spells:
            self._attach(spell)

    def _attach(self, spell: PlayerSpell) -> None:
        spell._holder = self
        spell._slot = len(self.own_lines)
        self.own_lines.append(spell.lines[spell._castable])
        self.foe_lines.append(spell.lines[2 + spell._castable])
        self.exhausted += not spell._castable

    def add_spell(self, spell: PlayerSpell) -> None:
        """Append ``spell`` (spells are listed in learning order)."""
        self.spells.append(spell)
        self._attach(spell)

    def rest(self) -> None:
        """Make every spell castable (REST): :attr:`PlayerSpell.castable`'s setter written out."""
        own, foe = self.own_lines, self.foe_lines
        for slot, spell in enumerate(self.spells):
            if not spell._castable:
                if spell._holder is self and spell._slot == slot:
                    spell._castable = True
                    spell.can = spell.fits
                    lines = spell.lines
                    own[slot] = lines[1]
                    foe[slot] = lines[3]
                    self.exhausted -= 1
                else:
                    spell.castable = True

    def refresh_lines(self) -> None:
        """Rebuild the cached lines and count (after editing ``spells`` not by :meth:`add_spell`)."""
        self._attach_all()

    def spell_lines(self) -> tuple[list[str], list[str]]:
        """The spells' input lines ``(as their owner sees them, as the opponent sees them)``."""
        if len(self.spells) != len(self.own_lines):
            self._attach_all()
        return self.own_lines, self.foe_lines

    def line(self) -> str:
        """``inv0 inv1 inv2 inv3 score``."""
        inv = self.inventory
        return f"{inv[0]} {inv[1]} {inv[2]} {inv[3]} {self.score}"


@dataclass(slots=True, eq=False)
class FallState:
    """Everything on the table. Lists are in display order (position 0 first)."""

    tome: list[TomeSpell]
    deliveries: list[Order]
    players: list[PlayerState]
    tome_deck: deque[TomeSpell] = field(default_factory=deque)
    order_deck: deque[Order] = field(default_factory=deque)
    bonus: list[int] = field(default_factory=lambda: [4, 4])
    """Urgency bonuses left for list positions 0 and 1."""
    bonus_value: list[int] = field(default_factory=lambda: [3, 1])
    """Rupees each bonus is worth at positions 0 and 1 (becomes ``[1, 0]`` after the slide)."""
    tome_stock_gain: list[int] = field(default_factory=lambda: [0] * TOME_SIZE)
    """Tax paid this turn, per tome position (credited after the turn's removals)."""
    next_id: int = 0
    """Id of the next learnt spell (the official static instance counter)."""
    player_spells: dict[int, PlayerSpell] = field(default_factory=dict)
    """Every player's spells by id (kept in step by :meth:`add_spell`)."""

    def add_spell(self, owner: int, delta: Delta, repeatable: bool, castable: bool = True) -> PlayerSpell:
        """Give ``owner`` a new spell with the next id."""
        spell = PlayerSpell(self.next_id, delta, owner, repeatable, castable)
        self.next_id += 1
        self.players[owner].add_spell(spell)
        self.player_spells[spell.id] = spell
        return spell

    @classmethod
    def build(
        cls,
        *,
        tome: Iterable[TomeSpell | tuple[int, Delta] | tuple[int, Delta, int]] = (),
        deliveries: Iterable[Order | tuple[int, Delta, int]] = (),
        inventories: Sequence[Sequence[int]] = ((3, 0, 0, 0), (3, 0, 0, 0)),
        spells: Sequence[
            Iterable[PlayerSpell | tuple[int, Delta] | tuple[int, Delta, bool] | tuple[int, Delta, bool, bool]]
        ]
        | None = None,
        tome_deck: Iterable[TomeSpell | tuple[int, Delta] | tuple[int, Delta, int]] = (),
        order_deck: Iterable[Order | tuple[int, Delta, int]] = (),
        bonus: Sequence[int] = (4, 4),
        bonus_value: Sequence[int] = (3, 1),
        scores: Sequence[int] = (0, 0),
        deliveries_count: Sequence[int] = (0, 0),
        next_id: int | None = None,
    ) -> FallState:
        """A position set up by hand (for tests and analysis).

        * tome spells: ``TomeSpell`` or ``(id, delta[, stock])``;
        * orders: ``Order`` or ``(id, need, price)`` with ``need`` the (positive) ingredients;
        * player spells, per player: ``PlayerSpell`` or ``(id, delta[, castable[, repeatable]])``
          (repeatable by default iff the delta has a negative part, as a learnt spell; default
          list: the four starting spells, ids 78-81 and 82-85, castable, not repeatable);
        * ``next_id``: id of the next learnt spell (default: one more than the largest id).
        """

        def tome_spell(spec: TomeSpell | tuple[int, Delta] | tuple[int, Delta, int]) -> TomeSpell:
            if isinstance(spec, TomeSpell):
                return spec
            return TomeSpell(spec[0], spec[1], spec[2] if len(spec) > 2 else 0)

        def order(spec: Order | tuple[int, Delta, int]) -> Order:
            if isinstance(spec, Order):
                return spec
            need = spec[1]
            return Order(spec[0], (-need[0], -need[1], -need[2], -need[3]), spec[2])

        if spells is None:
            n = len(STARTING_SPELLS)
            spells = [
                [(FIRST_PLAYER_SPELL_ID + p * n + i, d, True, False) for i, d in enumerate(STARTING_SPELLS)]
                for p in range(2)
            ]
        players = []
        by_id: dict[int, PlayerSpell] = {}
        for p in range(2):
            own: list[PlayerSpell] = []
            for spec in spells[p]:
                if isinstance(spec, PlayerSpell):
                    spell = spec
                else:
                    delta = spec[1]
                    castable = spec[2] if len(spec) > 2 else True
                    repeatable = spec[3] if len(spec) > 3 else any(x < 0 for x in delta)
                    spell = PlayerSpell(spec[0], delta, p, repeatable, castable)
                own.append(spell)
                by_id[spell.id] = spell
            players.append(PlayerState(list(inventories[p]), own, scores[p], deliveries_count[p]))
        state = cls(
            tome=[tome_spell(s) for s in tome],
            deliveries=[order(o) for o in deliveries],
            players=players,
            tome_deck=deque(tome_spell(s) for s in tome_deck),
            order_deck=deque(order(o) for o in order_deck),
            bonus=list(bonus),
            bonus_value=list(bonus_value),
            player_spells=by_id,
        )
        if len(state.tome) > TOME_SIZE:
            raise ValueError(f"at most {TOME_SIZE} tome spells on display")
        ids = [s.id for s in state.tome] + [o.id for o in state.deliveries] + list(by_id)
        ids += [s.id for s in state.tome_deck] + [o.id for o in state.order_deck]
        state.next_id = next_id if next_id is not None else max(ids, default=-1) + 1
        return state
