"""The Fall Challenge 2020 referee ("witches' brew"), at every league level.

Every engine turn both active players get the table and answer with one line; the actions are
resolved in player order (:func:`.resolution.resolve_turn`). The game ends after the turn in which a
player brews its sixth potion (its second in league level 1, its third in level 2), when a player
is disqualified, or after 100 turns; each active player then scores one rupee per tier 1-3
ingredient (except in level 1).

The ``league`` parameter picks the level (:mod:`.leagues`): 1 (Wood 2), 2 (Wood 1), 3 (Bronze) or
4 (Silver to Legend, the default); levels 3 and 4 play the same rules. The official referee reads
no other game parameter than the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import LEAGUE, DeactivationCause, EndReason, ParameterError
from ..engine import EngineReferee
from . import deck, inputs, legal, resolution
from .actions import Action, parser
from .leagues import LEAGUE_NAMES, LEAGUE_RULES, LEAGUES, League
from .state import FallState

__all__ = ["Fall2020Referee", "MAX_TURNS"]

MAX_TURNS = 100

_KNOWN_ACTIONS: dict[int, dict[str, Action]] = {}
"""By league level: answer lines that parsed to an action without a message (see
``EngineReferee._parse_known``; actions are immutable and the same lines come back game after
game)."""


class Fall2020Referee(EngineReferee):
    """Fall Challenge 2020. ``state`` is the live :class:`FallState`, ``rules`` the
    :class:`~.leagues.League` played."""

    name = "fall2020"
    aliases = ("witches-brew",)
    title = "Fall Challenge 2020 - Witches' Brew"
    turn_time_ms = 50
    max_turns = MAX_TURNS
    timeout_summary = "has not provided 1 lines in time."

    top_league = 4
    league_names = LEAGUE_NAMES
    league_rules = LEAGUE_RULES

    def __init__(self, seed: int, params: Mapping[str, str] | None = None) -> None:
        others = sorted(k for k in params or {} if k != LEAGUE)
        if others:
            names = ", ".join(repr(k) for k in others)
            raise ParameterError(
                f"unknown parameter {names} for fall2020; known parameters: league "
                "(the seed is the only other setting and is given separately)"
            )
        self.league = self.league_level(params)
        self.rules: League = LEAGUES[self.league]
        super().__init__(seed)
        self.state: FallState = deck.new_game(self._seed, self.rules)
        self._start = self._start_facts()
        self._parse_answer = parser(self.rules)
        self._known = _KNOWN_ACTIONS.setdefault(self.league, {})
        self._goal = self.rules.delivery_goal

    @classmethod
    def from_state(cls, state: FallState, seed: int = 0, league: int | None = None) -> Fall2020Referee:
        """A referee that starts (at turn 1) from a position built by hand (played at the top
        league level unless ``league`` says otherwise)."""
        ref = cls(seed, None if league is None else {LEAGUE: str(league)})
        ref.state = state
        ref._start = ref._start_facts()
        ref._sync_scores()
        return ref

    # -- queries ---------------------------------------------------------------------------------

    def metadata(self) -> dict[str, int | str]:
        """The first orders on the table: ``first_orders`` (their ids, in the input's order,
        comma-separated), ``orders_value`` (the sum of their prices, before bonuses). Those of the
        start, whenever it is asked (the orders change as potions are brewed)."""
        return dict(self._start)

    def _start_facts(self) -> dict[str, int | str]:
        orders = self.state.deliveries
        return {
            "first_orders": ",".join(str(order.id) for order in orders),
            "orders_value": sum(order.price for order in orders),
        }

    def legal_actions(self, player: int) -> list[str]:
        """Every command the referee would accept from ``player`` this turn (empty when the game
        is over or the player was disqualified)."""
        if self._outcome is not None or not self.active[player]:
            return []
        return legal.legal_actions(self.state, player)

    # -- engine hooks ----------------------------------------------------------------------------

    def _begin_turn(self) -> list[int]:
        active = self.active
        if not (active[0] or active[1]):
            return []
        # The lines are made only if read: the view captures the table as it is now.
        view = inputs.InputView(self.state)
        pending = self._pending  # self._send, written out
        if active[0] and active[1]:
            pending[0].append(view.first)
            pending[1].append(view.second)
            return [0, 1]
        if active[0]:
            pending[0].append(view.first)
            return [0]
        pending[1].append(view.second)
        return [1]

    def _resolve(self, outputs: dict[int, tuple[str, ...] | None]) -> None:
        state = self.state
        actions = self._parse_known(outputs, self._parse_answer, False, self._known)
        log = resolution.resolve_turn(state, actions)
        self._summary += log.summary
        if log.errors:
            for player, message in log.errors:
                self._error(player, message)
        first, second = state.players
        scores = self.scores
        scores[0] = first.score
        scores[1] = second.score
        # resolution.is_game_over, written out (once a turn).
        goal = self._goal
        if first.deliveries >= goal or second.deliveries >= goal or sum(self.active) <= 1:
            if sum(self.active) <= 1:
                self._end_game(EndReason.PLAYER_DEACTIVATED)
            else:
                self._end_game(EndReason.DELIVERY_GOAL)

    def _on_end(self) -> None:
        if self.rules.inventory_bonus:
            resolution.add_inventory_bonus(self.state, self.active)
        self._sync_scores()

    @classmethod
    def progress(cls, snapshot: Mapping[str, Any]) -> str | None:
        """One line every ten turns: scores, potions brewed."""
        if snapshot["turn"] % 10 != 1 or snapshot["turn"] == 1:
            return None
        players = snapshot["players"]
        return (
            f"scores {players[0]['score']}-{players[1]['score']}"
            f"  potions {players[0]['deliveries']}-{players[1]['deliveries']}"
        )

    def _snapshot(self) -> dict[str, Any]:
        state = self.state
        deliveries = []
        for index, order in enumerate(state.deliveries):
            price, bonus_value, bonus_count = resolution.price_of(state, index)
            deliveries.append(
                {
                    "id": order.id,
                    "need": list(order.need),
                    "base_price": order.price,
                    "price": price,
                    "bonus": bonus_value,
                    "bonus_count": bonus_count,
                }
            )
        tome = [
            {
                "id": spell.id,
                "delta": list(spell.delta),
                "repeatable": spell.repeatable,
                "tax": index,
                "stock": spell.stock,
            }
            for index, spell in enumerate(state.tome)
        ]
        players = [
            {
                "inventory": list(p.inventory),
                "score": p.score,
                "deliveries": p.deliveries,
                "spells": [
                    {
                        "id": s.id,
                        "delta": list(s.delta),
                        "repeatable": s.repeatable,
                        "castable": s.castable,
                    }
                    for s in p.spells
                ],
            }
            for p in state.players
        ]
        return {
            "deliveries": deliveries,
            "tome": tome,
            "players": players,
            "bonus": list(state.bonus),
            "bonus_value": list(state.bonus_value),
            "tome_deck_left": len(state.tome_deck),
            "order_deck_left": len(state.order_deck),
        }

    # -- internals -------------------------------------------------------------------------------

    def _deactivate(self, player: int, cause: DeactivationCause, reason: str) -> None:
        super()._deactivate(player, cause, reason)
        self.state.players[player].score = -1

    def _sync_scores(self) -> None:
        first, second = self.state.players
        scores = self.scores
        scores[0] = first.score
        scores[1] = second.score
