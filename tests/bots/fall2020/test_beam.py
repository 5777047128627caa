"""The Fall Challenge 2020 beam bot (``bots/fall2020/beam``).

* Its fast expansion against the model (itself checked against the referee in
  ``test_game_model.py``): along random lines from real positions, every child must be the
  model's next state for that action and the opponent's planned one (REST when it fails), the
  children must be all the legal actions (WAIT only when nothing else is), the incremental
  Zobrist key must equal the key recomputed from scratch, and the incremental line score must
  equal the score recomputed from the evaluation formula.
* Hand-worked evaluations, a two-step line score, transpositions, the opponent's failed plan,
  finding a win.
* The bot as a subprocess: full games against the random bot without timeouts or refused
  actions, the same moves on two runs with ``--budget``.
"""

from __future__ import annotations

import random
import sys

import pytest

import referee
from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import BotSpec
from bots.fall2020.beam.evaluation import Weights, spell_value, terminal_value
from bots.fall2020.beam.search import (
    ACTION,
    CASTABLE,
    DEPTH,
    END,
    GOING,
    INV,
    LEARNED,
    OTHER,
    POTIONS,
    SCORE,
    SHARED,
    VALUE,
    WON,
    Searcher,
    Settings,
    decide,
    line_of,
    node_key,
)
from bots.fall2020.game import model
from bots.fall2020.game.inventory import INVS
from bots.fall2020.game.io import Tracker, parse_turn
from bots.fall2020.greedy.policy import choose as greedy_choose
from bots.lib.beam import select
from bots.lib.timer import NodeBudget
from tests.helpers.fall2020_turns import START, turn_lines
from tests.helpers.paths import REPO_ROOT

W = Weights()

# -- hand-built positions -------------------------------------------------------------------------

# -- the expansion against the model --------------------------------------------------------------


def state_of(searcher: Searcher, node) -> model.State:
    """The model state of a search node."""
    me = searcher.me
    witch = model.Witch(node[INV], node[CASTABLE], node[LEARNED], node[SCORE], node[POTIONS])
    witches = [None, None]
    witches[me] = witch
    witches[1 - me] = node[OTHER]
    orders, bonus, tome, stocks = node[SHARED][:4]
    return model.State(searcher.root.turn + node[DEPTH], tuple(witches), orders, bonus, tome, stocks)


def evaluation(table, w, witch) -> tuple[float, float, float]:
    """(rupees, SPELLS, ING) of a witch, straight from the formula of evaluation.py."""
    inv = INVS[witch.inv]
    ing = 0.8 * (inv[0] + 2 * inv[1] + 3 * inv[2] + 4 * inv[3])
    rep = plain = 0
    for slot in range(len(table.deltas[w])):
        if model.owned(table, w, witch) >> slot & 1:
            if table.repeatable[w][slot]:
                rep += 1
            else:
                plain += 1
    return witch.score, spell_value(rep, plain, W), ing


def check_children(searcher: Searcher, node, children, plan) -> None:
    table = searcher.table
    me, them = searcher.me, 1 - searcher.me
    state = state_of(searcher, node)
    depth = node[DEPTH]
    planned = plan[depth] if depth < len(plan) else model.REST
    their_legal = model.legal_actions(table, state, them)
    their_action = planned if planned in their_legal else model.REST
    legal = [a for a in model.legal_actions(table, state, me) if a != model.WAIT]
    actions = [child[ACTION] for _, _, child in children]
    assert sorted(actions) == sorted(legal or [model.WAIT])
    g = 0.98**depth
    s0, sp0, ing0 = evaluation(table, me, state.witches[me])
    for key, score, child in children:
        pair = [0, 0]
        pair[me], pair[them] = child[ACTION], their_action
        expected = model.step(table, state, pair[0], pair[1])
        got = state_of(searcher, child)
        assert got == expected, model.action_text(table, me, child[ACTION]) if child[ACTION] & 7 != 3 else child[ACTION]
        assert key == node_key(child)
        assert child[DEPTH] == depth + 1
        assert score == child[VALUE]
        if model.is_over(expected):
            mine, theirs = model.final_scores(expected)
            if me == 1:
                mine, theirs = theirs, mine
            want = node[VALUE] + g * (terminal_value(mine, theirs, W) - (s0 + sp0 + ing0))
            assert child[END] != GOING
        else:
            s1, sp1, ing1 = evaluation(table, me, expected.witches[me])
            want = node[VALUE] + g * (s1 - s0 + sp1 - sp0 + 0.1 * (ing1 - ing0)) + 0.9 * (ing1 - ing0)
            assert child[END] == GOING
        assert score == pytest.approx(want, abs=1e-9)


def game_positions(seed: int, every: int = 3):
    """Positions of a greedy-against-random game (with its actions), for both seats."""
    rng = random.Random(seed)
    ref = referee.create("fall2020", seed)
    trackers = [Tracker(), Tracker()]
    while not ref.is_over:
        pos = [trackers[p].position(ref.input_lines(p)) for p in (0, 1)]
        acts = [model.action_text(pos[0].table, 0, greedy_choose(*pos[0])), rng.choice(ref.legal_actions(1))]
        if ref.turn % every == 1:
            yield pos
        ref.apply({0: acts[0], 1: acts[1]})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_expansion_matches_the_model(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for pos in game_positions(seed):
        for me in (0, 1):
            table, state = pos[0]
            searcher = Searcher(table, state, me, W)
            # The opponent's plan: random legal actions of hers along a REST line of ours, some
            # of which will fail along our random line (and must become REST).
            plan = []
            s = state
            for _ in range(6):
                acts = model.legal_actions(table, s, 1 - me)
                a = rng.choice(acts)
                plan.append(a)
                pair = [model.REST, model.REST]
                pair[1 - me] = a
                s = model.step(table, s, *pair)
                if model.is_over(s):
                    break
            expand = searcher.expander(plan)
            node = searcher.root_node()
            for _ in range(8):
                children = expand(node)
                check_children(searcher, node, children, plan)
                checked += len(children)
                live = [c for _, _, c in children if c[END] == GOING]
                if not live:
                    break
                node = rng.choice(live)
    assert checked > 500


# -- hand-worked numbers ---------------------------------------------------------------------------


def test_spell_value_by_hand() -> None:
    # 2 repeatable + 4 plain (all under the cap of 11): 0.8 * (1.25 * 2 + 4) = 5.2
    assert spell_value(2, 4, W) == pytest.approx(5.2)
    # 9 repeatable + 4 plain: the 9 repeatable and 2 plain at 0.8, the 2 other plain at 0.2:
    # 0.8 * (11.25 + 2) + 0.2 * 2 = 10.6 + 0.4 = 11.0
    assert spell_value(9, 4, W) == pytest.approx(11.0)
    assert terminal_value(50, 40, W) == 20050
    assert terminal_value(40, 50, W) == -19960
    assert terminal_value(45, 45, W) == 45


def test_two_step_line_score_by_hand() -> None:
    # We hold 3 blue. Step 1 (undiscounted): CAST blue->green, inventory (2, 1, 0, 0):
    #   dING = 0.8 * (-1 + 2) = 0.8, counted (0.9 + 0.1 * 1) * 0.8 = 0.8.
    # Step 2 (discount 0.98): BREW the order (2, 1, 0, 0) worth 10, inventory empty:
    #   0.98 * 10 + (0.9 + 0.1 * 0.98) * 0.8 * -(2 + 2) = 9.8 - 3.1936 = 6.6064.
    # Line score: 0.8 + 6.6064 = 7.4064.
    table, state = parse_turn(turn_lines([(42, (2, 1, 0, 0), 10)]), turn=10)
    searcher = Searcher(table, state, 0, W)
    expand = searcher.expander([])
    root = searcher.root_node()
    step1 = next(c for _, _, c in expand(root) if c[ACTION] == model.cast(1))
    assert step1[VALUE] == pytest.approx(0.8)
    step2 = next(c for _, _, c in expand(step1) if c[ACTION] == model.brew(0))
    assert step2[VALUE] == pytest.approx(7.4064)
    assert line_of(step2) == [model.cast(1), model.brew(0)]


def test_evaluation_of_a_hand_built_state() -> None:
    # Inventory (2, 1, 1, 1): ING = 0.8 * (2 + 2 + 3 + 4) = 8.8; the 4 plain starting spells
    # and 2 repeatable learnt ones: SPELLS = 0.8 * (4 + 2.5) = 5.2; 10 rupees. E = 24.0.
    mine = [(78 + i, d) for i, d in enumerate(START)] + [(90, (-3, 0, 0, 1), True), (91, (0, -2, 2, 0), True)]
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 5), 20)], mine=mine, me=(2, 1, 1, 1, 10)), turn=5)
    s, sp, ing = evaluation(table, 0, state.witches[0])
    assert (s, sp, ing) == (10, pytest.approx(5.2), pytest.approx(8.8))
    searcher = Searcher(table, state, 0, W)
    assert searcher.spells[0] + searcher.ing[state.witches[0].inv] + 10 == pytest.approx(24.0)


def test_transposition_keeps_the_better_line() -> None:
    # Cast +2 blue and blue->green in both orders: the same state after two turns. The ingredient
    # factor is 1.0 on the first step and 0.998 on the second, so the line that gains more
    # ingredient value first scores higher: +2 blue (1.6) then blue->green (0.8) =
    # 1.6 + 0.998 * 0.8 = 2.3984, against 0.8 + 0.998 * 1.6 = 2.3968.
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 5), 20)]), turn=10)
    searcher = Searcher(table, state, 0, W)
    expand = searcher.expander([])
    root = searcher.root_node()
    first = {c[ACTION]: c for _, _, c in expand(root)}
    a = next(ch for ch in expand(first[model.cast(0)]) if ch[2][ACTION] == model.cast(1))
    b = next(ch for ch in expand(first[model.cast(1)]) if ch[2][ACTION] == model.cast(0))
    assert a[0] == b[0]  # same Zobrist key
    assert a[1] == pytest.approx(2.3984) and b[1] == pytest.approx(2.3968)
    kept = select([b, a], 10)
    assert len(kept) == 1 and kept[0][1] is a[2]


def test_the_opponents_failed_plan_becomes_rest() -> None:
    # She plans to brew order 42 on turn 2; we brew it on turn 1, so on turn 2 she rests instead
    # (her exhausted spell 83 becomes castable again).
    table, state = parse_turn(
        turn_lines(
            [(42, (2, 0, 0, 0), 10), (43, (0, 0, 0, 5), 20)],
            me=(3, 0, 0, 0, 0),
            opp=(0, 0, 0, 0, 0),
            opp_exhausted=(83,),
        ),
        turn=10,
    )
    searcher = Searcher(table, state, 0, W)
    plan = [model.cast(0), model.brew(0)]  # +2 blue, then brew 42 with it
    expand = searcher.expander(plan)
    brewed = next(c for _, _, c in expand(searcher.root_node()) if c[ACTION] == model.brew(0))
    assert INVS[brewed[OTHER].inv] == (2, 0, 0, 0)
    assert brewed[OTHER].castable == 0b1100  # 82 exhausted by her cast, 83 still exhausted
    rest = next(c for _, _, c in expand(brewed) if c[ACTION] == model.cast(0))
    assert rest[OTHER].castable == 0b1111 and rest[OTHER].score == 0
    assert INVS[rest[OTHER].inv] == (2, 0, 0, 0)
    # Had we not brewed it, she would have.
    waited = next(c for _, _, c in expand(searcher.root_node()) if c[ACTION] == model.cast(0))
    theirs = next(c for _, _, c in expand(waited) if c[ACTION] == model.cast(1))
    assert theirs[OTHER].score == 10 and INVS[theirs[OTHER].inv] == (0, 0, 0, 0)


def test_a_winning_brew_is_played() -> None:
    # Our sixth potion wins the game now (47 + 10 > 50): the search stops at depth 1.
    table, state = parse_turn(
        turn_lines([(42, (0, 0, 0, 5), 20), (43, (2, 0, 0, 0), 10)], me=(3, 0, 0, 0, 47), opp=(0, 0, 0, 0, 50)),
        turn=30,
        potions=(5, 3),
    )
    d = decide(table, state, NodeBudget(5000), Settings())
    assert d.action == model.brew(1)
    assert d.mine.end == WON and d.mine.depth == 1


class Expired:
    """A turn limit already used up (a turn whose time ran out while reading the input)."""

    def start(self) -> None:
        pass

    def done(self, nodes: int = 0) -> bool:
        return True

    def fraction(self, share: float) -> Expired:
        return self


def test_no_layer_completed_plays_a_safe_move() -> None:
    table, state = parse_turn(turn_lines([(42, (2, 0, 0, 0), 10)]), turn=3)
    d = decide(table, state, Expired(), Settings())
    assert d.mine.depth == 0 and d.action == model.brew(0)
    table, state = parse_turn(turn_lines([(42, (0, 0, 0, 2), 10)], exhausted=(78,)), turn=3)
    assert decide(table, state, Expired(), Settings()).action == model.REST


# -- the bots as subprocesses ---------------------------------------------------------------------


def bot(module: str, *args: str) -> BotSpec:
    return BotSpec(module.rsplit(".", 1)[1], (sys.executable, "-u", "-m", module, *args), cwd=str(REPO_ROOT))


RANDOM = BotSpec("random", (sys.executable, "-u", "bots/fall2020/random_bot.py", "--seed", "5"), cwd=str(REPO_ROOT))


def answers(result, player: int) -> list[tuple[str, ...] | None]:
    return [e.output for f in result.frames for e in f.executions if e.player == player and e.expected_lines]


LOOSE = 5.0
"""The matches' limits are scaled by this: the tests check what the bots play, not their speed on
a machine other tests keep busy (benchmarks/answer_times.py measures that)."""


def check_clean_win(result, player: int) -> None:
    assert result.outcome is not None
    p = result.players[player]
    assert p.verdict == Verdict.OK, p.message
    assert not any(q == player for f in result.frames for q, _ in f.report.errors)
    assert result.outcome.winner == player


def test_beam_plays_deterministic_full_games() -> None:
    spec = bot("bots.fall2020.beam", "--budget", "1500", "--quiet")
    first = play_match("fall2020", 11, [spec, RANDOM], MatchOptions(record=True, time_scale=LOOSE))
    check_clean_win(first, 0)
    second = play_match("fall2020", 11, [spec, RANDOM], MatchOptions(record=True, time_scale=LOOSE))
    assert answers(first, 0) == answers(second, 0)
    swapped = play_match("fall2020", 12, [RANDOM, spec], MatchOptions(record=True, time_scale=LOOSE))
    check_clean_win(swapped, 1)


def test_beam_on_the_clock_does_not_time_out() -> None:
    """The bot stops on its own clock (it does not know the arena's limits, scaled here by 5 so that a
    loaded machine cannot fail the test): every answer comes well within the limit. How long its
    answers take at the real limits is measured by benchmarks/answer_times.py."""
    result = play_match(
        "fall2020", 13, [bot("bots.fall2020.beam", "--quiet"), RANDOM], MatchOptions(record=True, time_scale=LOOSE)
    )
    check_clean_win(result, 0)


def test_greedy_plays_deterministic_full_games() -> None:
    spec = bot("bots.fall2020.greedy", "--budget", "500")  # accepted, ignored
    first = play_match("fall2020", 21, [RANDOM, spec], MatchOptions(record=True, time_scale=LOOSE))
    check_clean_win(first, 1)
    second = play_match("fall2020", 21, [RANDOM, spec], MatchOptions(record=True, time_scale=LOOSE))
    assert answers(first, 1) == answers(second, 1)
