"""The Fall Challenge 2020 bot model (``bots/fall2020/game``) against the referee.

Games are driven in process through ``referee.create("fall2020", seed)``, with random legal play
(more or less eager to brew) and with the greedy bot's policy. At every position the
bot's own reader parses the exact input lines; then:

* the model's legal actions, as commands, must be exactly the referee's ``legal_actions``;
* the parsed position must match the referee's state (inventories, scores, potions, spells, turn);
* for each legal action of the player (with the opponent's actual action), the model's next state
  must match what the referee's rules make of a copy of the position: both witches, the root
  orders still shown with the price each would now earn, the root tome spells still shown with
  their stock, the turn, whether the game is over and, if so, the final scores.

The referee is an independent implementation (an exact port of the official Java referee), so a
mistake in the model cannot hide in its own expectations.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

import referee
from bots.fall2020.game import model
from bots.fall2020.game.inventory import INVS
from bots.fall2020.game.io import Tracker, parse_turn
from bots.fall2020.greedy.policy import choose as greedy_choose
from referee.fall2020 import resolution
from referee.fall2020.actions import parse
from referee.fall2020.referee import MAX_TURNS
from referee.fall2020.state import FallState, Order, PlayerSpell, PlayerState, TomeSpell


def random_policy(rng: random.Random, brew_bias: float):
    def choose(ref, p, position):
        actions = ref.legal_actions(p)
        brews = [a for a in actions if a.startswith("BREW")]
        if brews and rng.random() < brew_bias:
            return rng.choice(brews)
        return rng.choice(actions)

    return choose


def greedy_policy():
    def choose(ref, p, position):
        return model.action_text(position.table, 0, greedy_choose(position.table, position.state))

    return choose


# -- views: the same facts from the referee and from the model ----------------------------------


def ref_view(fall, p: int, root_orders, root_tome, over: bool, turn: int, final=None):
    """What the model must know about ``fall`` (a referee FallState) from player ``p``'s seat."""
    witches = []
    for w in (p, 1 - p):
        pl = fall.players[w]
        spells = sorted((s.delta, s.repeatable, s.castable) for s in pl.spells)
        witches.append((tuple(pl.inventory), pl.score, pl.deliveries, spells))
    orders = [(o.id, resolution.price_of(fall, i)[0]) for i, o in enumerate(fall.deliveries) if o.id in root_orders]
    tome = [(s.id, s.stock) for s in fall.tome if s.id in root_tome]
    view = {"witches": witches, "orders": orders, "tome": tome, "over": over}
    if not over:
        view["turn"] = turn
    else:
        view["final"] = (final[p], final[1 - p])
    return view


def model_view(table: model.Table, state: model.State):
    witches = []
    for w in (0, 1):
        witch = state.witches[w]
        spells = []
        for slot, delta in enumerate(table.deltas[w]):
            if model.owned(table, w, witch) >> slot & 1:
                spells.append((delta, table.repeatable[w][slot], bool(witch.castable >> slot & 1)))
        witches.append((INVS[witch.inv], witch.score, witch.potions, sorted(spells)))
    orders = [
        (o.id, model.price_at(o.price, model.position(state.orders, j), state.bonus))
        for j, o in enumerate(table.orders)
        if state.orders >> j & 1
    ]
    tome = [(s.id, state.stocks[j]) for j, s in enumerate(table.tome) if state.tome >> j & 1]
    over = model.is_over(state)
    view = {"witches": witches, "orders": orders, "tome": tome, "over": over}
    if not over:
        view["turn"] = state.turn
    else:
        view["final"] = model.final_scores(state)
    return view


def clone(fall: FallState) -> FallState:
    """A copy of a referee position, deep enough for one turn of the rules (much faster than
    ``copy.deepcopy``)."""
    players = [
        PlayerState(
            list(pl.inventory),
            [PlayerSpell(s.id, s.delta, s.owner, s.repeatable, s.castable) for s in pl.spells],
            pl.score,
            pl.deliveries,
        )
        for pl in fall.players
    ]
    return FallState(
        tome=[TomeSpell(s.id, s.delta, s.stock) for s in fall.tome],
        deliveries=[Order(o.id, o.delta, o.price) for o in fall.deliveries],
        players=players,
        tome_deck=deque(TomeSpell(s.id, s.delta, s.stock) for s in fall.tome_deck),
        order_deck=deque(fall.order_deck),
        bonus=list(fall.bonus),
        bonus_value=list(fall.bonus_value),
        tome_stock_gain=list(fall.tome_stock_gain),
        next_id=fall.next_id,
        player_spells={s.id: s for pl in players for s in pl.spells},
    )


def referee_next(fall, turn: int, actions: list[str]):
    """A copy of ``fall`` after both actions, whether the game is over, and if so the final
    scores (the referee's end-of-game bonus applied to another copy)."""
    after = clone(fall)
    resolution.resolve_turn(after, [parse(a) for a in actions])
    over = resolution.is_game_over(after, [True, True]) or turn + 1 > MAX_TURNS
    final = None
    if over:
        ended = clone(after)
        resolution.add_inventory_bonus(ended, [True, True])
        final = [pl.score for pl in ended.players]
    return after, over, final


# -- the check ------------------------------------------------------------------------------------


def check_position(
    ref, p: int, lines: list[str], position, chosen: list[str], max_actions: int, rng: random.Random
) -> int:
    table, state = position
    fall = ref.state
    # The parse itself.
    assert model_view(table, state) == ref_view(
        fall, p, {o.id for o in fall.deliveries}, {s.id for s in fall.tome}, False, ref.turn
    )
    # Legal actions, as the referee's exact strings.
    legal = model.legal_actions(table, state, 0)
    texts = [model.action_text(table, 0, a) for a in legal]
    assert len(texts) == len(set(texts))
    assert set(texts) == set(ref.legal_actions(p))
    for text in texts:
        assert model.action_text(table, 0, model.parse_action(table, 0, text)) == text
    # Next states.
    opp_text = chosen[1 - p]
    opp_action = model.parse_action(table, 1, opp_text)
    assert opp_action is not None
    sample = legal if len(legal) <= max_actions else rng.sample(legal, max_actions)
    root_orders = {o.id for o in table.orders}
    root_tome = {s.id for s in table.tome}
    for action in sample:
        texts_pair = [None, None]
        texts_pair[p] = model.action_text(table, 0, action)
        texts_pair[1 - p] = opp_text
        after, over, final = referee_next(fall, ref.turn, texts_pair)
        predicted = model.step(table, state, action, opp_action)
        assert model_view(table, predicted) == ref_view(after, p, root_orders, root_tome, over, ref.turn + 1, final), (
            texts_pair,
            lines,
        )
    return len(sample)


def play_and_check(seed: int, policies, max_actions: int, every: int = 1) -> tuple[int, int]:
    rng = random.Random(seed)
    ref = referee.create("fall2020", seed)
    trackers = [Tracker(), Tracker()]
    positions = checks = 0
    while not ref.is_over:
        lines = [ref.input_lines(p) for p in (0, 1)]
        pos = [trackers[p].position(lines[p]) for p in (0, 1)]
        chosen = [policies[p](ref, p, pos[p]) for p in (0, 1)]
        if ref.turn % every == 0:
            for p in (0, 1):
                checks += check_position(ref, p, lines[p], pos[p], chosen, max_actions, rng)
                positions += 1
        ref.apply({0: chosen[0], 1: chosen[1]})
    return positions, checks


@pytest.mark.parametrize("seed", range(1, 13))
def test_random_games(seed: int) -> None:
    rng = random.Random(seed * 7919)
    bias = [0.0, 0.6, 0.9, 1.0][seed % 4]
    policies = [random_policy(rng, bias), random_policy(rng, 0.9)]
    positions, checks = play_and_check(seed, policies, max_actions=8)
    assert positions >= 20 and checks >= positions


@pytest.mark.parametrize("seed", range(20, 24))
def test_greedy_games(seed: int) -> None:
    """Greedy play reaches the late game: sixth potions, slid bonuses, full inventories."""
    rng = random.Random(seed)
    policies = [greedy_policy(), random_policy(rng, 0.5)] if seed % 2 else [greedy_policy(), greedy_policy()]
    positions, checks = play_and_check(seed, policies, max_actions=8)
    assert positions >= 20 and checks >= positions


def test_parse_hand_built_bonus_slide() -> None:
    """After the +3 counter is used up the +1 slides to position 0 (values shown as the referee
    sends them: price includes the bonus, then value and count)."""
    lines = [
        "9",
        "50 BREW -2 -2 0 0 9 1 3 0 0",  # price 8 + bonus 1 (3 left) at position 0
        "51 BREW 0 -4 0 0 8 0 0 0 0",
        "52 BREW 0 0 -2 -2 14 0 0 0 0",
        "53 BREW 0 -2 0 -2 12 0 0 0 0",
        "54 BREW -1 -1 -1 -1 12 0 0 0 0",
        "78 CAST 2 0 0 0 0 -1 -1 1 0",
        "79 CAST -1 1 0 0 0 -1 -1 0 0",
        "82 OPPONENT_CAST 2 0 0 0 0 -1 -1 1 0",
        "5 LEARN 2 3 -2 0 0 0 2 0 1",
        "3 4 0 0 12",
        "1 1 1 1 0",
    ]
    table, state = parse_turn(lines, turn=40, potions=(2, 0))
    assert state.bonus == (3, 0, 1, 0)
    assert [o.price for o in table.orders] == [8, 8, 14, 12, 12]
    assert table.next_id == 83
    assert INVS[state.witches[0].inv] == (3, 4, 0, 0)
    assert state.witches[0].castable == 0b01
    # Brew order 0 (bonus 1) and let the opponent brew order 4 at position 4.
    after = model.step(table, state, model.brew(0), model.brew(4))
    assert after.witches[0].score == 12 + 9
    assert after.witches[1].score == 12
    assert after.bonus == (2, 0, 1, 0)
    assert after.orders == 0b01110
