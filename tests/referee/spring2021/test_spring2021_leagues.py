"""Spring Challenge 2021 at each league level, from the official sources (Game.java:64-129,
CommandManager.java:33-91, GameSummaryManager.java:100-149, BoardGenerator.java:47, Config.java).

The first inputs are compared with :mod:`.official_setup`, the start of a game written again from
the Java (itself checked against official traces below); the other expectations are worked out by
hand in the tables.
"""

from __future__ import annotations

import random

import pytest

import referee
from referee import DeactivationCause, EndReason, InvalidCommand, ParameterError
from referee.spring2021.actions import Complete, Grow, Seed, Wait
from referee.spring2021.leagues import LEAGUES
from tests.helpers.parity import load
from tests.helpers.paths import PARITY

from .official_setup import LEVELS, first_frames, start

LEVEL_IDS = [pytest.param(level, id=f"level{level}") for level in (1, 2, 3)]
SEEDS = [0, 1, 2, 7, 31, 36, 42, -5, 2**63 - 1, -(2**63), 2**48 + 42, 123456789]


def new(seed: int, level: int, **params: object) -> referee.Referee:
    return referee.create("spring2021", seed, {"league": str(level), **{k: str(v) for k, v in params.items()}})


def answer_all(ref: referee.Referee, line: str | dict[int, str]) -> referee.FrameReport:
    return ref.apply({p: line if isinstance(line, str) else line[p] for p in ref.players_to_act()})


def play_waiting(ref: referee.Referee) -> list[referee.FrameReport]:
    reports = []
    while not ref.is_over:
        reports.append(answer_all(ref, "WAIT"))
    return reports


# -- the first input ------------------------------------------------------------------------------

TRACES = [
    ("traces_v2/spring2021/spring2021_31_L1_seed31_league1.json.gz", 31, 1),
    ("traces_v2/spring2021/spring2021_36_L2_seed36_league2.json.gz", 36, 2),
    ("traces/spring2021/spring2021_00_seed1_clean.json.gz", 1, 3),
    ("traces_v2/spring2021/spring2021_41_L3_seed2420_edgeseed.json.gz", 2420, 3),
]


@pytest.mark.parametrize(("name", "seed", "level"), TRACES)
def test_the_rewritten_start_gives_the_official_first_inputs(name: str, seed: int, level: int) -> None:
    trace = load(PARITY / name)
    assert trace["league_level"] == level
    p0, p1 = first_frames(start(seed, level), level)
    assert trace["turns"][0]["executions"][0]["input"] == p1[:38]  # the map, at the engine's turn 1
    assert [e["input"] for e in trace["turns"][1]["executions"]] == [p0, p1]


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_first_inputs_at_each_level(level: int, seed: int) -> None:
    """Map (no holes below level 3, so the random sequence starts with the starting trees),
    starting trees, sun without shadows below level 3, and the actions offered, shuffled."""
    ref = new(seed, level)
    p0, p1 = first_frames(start(seed, level), level)
    (dummy,) = ref.requests()
    assert list(dummy.lines) == p1[:38]
    ref.apply({})
    assert [list(r.lines) for r in ref.requests()] == [p0, p1]


# Hand-worked first frame per level: trees per player and their size, sun (no shadows in levels 1
# and 2; at level 3 the two small trees of a player are more than 2 cells from every other tree, so
# none is shaded), and the kinds of action offered: level 1: COMPLETE costs 4 <= 18 for each tall
# tree; level 2: GROW 1->2 costs 3 <= 4 for each small tree; level 3: GROW costs 3 > 2, SEED costs 0.
FIRST_FRAME = {
    1: (6, 3, 18, {"COMPLETE": 6}),
    2: (4, 1, 4, {"GROW": 4}),
    3: (2, 1, 2, {"SEED": None}),
}


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_first_frame_by_hand(level: int) -> None:
    trees_each, size, sun, kinds = FIRST_FRAME[level]
    for seed in range(40):
        ref = new(seed, level)
        ref.apply({})
        lines = list(ref.requests()[0].lines)
        assert lines[:4] == ["0", "20", f"{sun} 0", f"{sun} 0 0"]
        n = int(lines[4])
        trees = [line.split() for line in lines[5 : 5 + n]]
        assert n == 2 * trees_each and {t[1] for t in trees} == {str(size)}
        assert sum(t[2] == "1" for t in trees) == trees_each and {t[3] for t in trees} == {"0"}
        actions = lines[6 + n :]
        assert int(lines[5 + n]) == len(actions) and actions[0] == "WAIT"
        counted = {kind: sum(a.startswith(kind + " ") for a in actions) for kind in kinds}
        assert len(actions) == 1 + sum(counted.values())
        for kind, count in kinds.items():
            assert counted[kind] == count if count is not None else counted[kind] > 0


@pytest.mark.parametrize("level", [1, 2])
def test_lower_levels_have_no_holes_whatever_max_empty_cells(level: int) -> None:
    for seed in range(20):
        lines = new(seed, level).requests()[0].lines
        assert all(line.split()[1] != "0" for line in lines[1:])
        for empty in (0, -1, 1000):  # never read: level 3 refuses the last two
            assert new(seed, level, MAX_EMPTY_CELLS=empty).requests()[0].lines == lines
    assert any("0" in (line.split()[1] for line in new(s, 3).requests()[0].lines[1:]) for s in range(20))


# -- the commands each level parses ----------------------------------------------------------------

NFE = 'java.lang.NumberFormatException: For input string: "99999999999"'
PARSE_CASES = [
    # line, then per level: the action, or what the invalid-input message says it got
    ("WAIT", Wait(), Wait(), Wait()),
    ("WAIT go", Wait("go"), Wait("go"), Wait("go")),
    ("COMPLETE 5", Complete(5), Complete(5), Complete(5)),
    ("GROW 5", "GROW 5", Grow(5), Grow(5)),
    ("GROW 5 hi", "GROW 5 hi", Grow(5, "hi"), Grow(5, "hi")),
    ("SEED 1 2", "SEED 1 2", "SEED 1 2", Seed(1, 2)),
    ("COMPLETE 99999999999", NFE, NFE, NFE),
    ("GROW 99999999999", "GROW 99999999999", NFE, NFE),  # level 1 never tries the GROW pattern
    ("SEED 1 99999999999", "SEED 1 99999999999", "SEED 1 99999999999", NFE),
    ("grow 5", "grow 5", "grow 5", "grow 5"),
    ("", "", "", ""),
]


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("case", PARSE_CASES, ids=[repr(c[0]) for c in PARSE_CASES])
def test_commands_each_level_parses(level: int, case: tuple) -> None:
    line, outcome = case[0], case[level]
    parse = LEAGUES[level].parse
    if isinstance(outcome, str):
        with pytest.raises(InvalidCommand) as caught:
            parse(line)
        assert str(caught.value) == f"Invalid Input: Expected {LEVELS[level].expected} but got '{outcome}'"
    else:
        assert parse(line) == outcome


INVALID_AT_LEVEL = [
    (1, "GROW 3", "COMPLETE <idx> | WAIT"),
    (1, "SEED 23 3", "COMPLETE <idx> | WAIT"),
    (2, "SEED 8 6", "GROW <idx> | COMPLETE <idx> | WAIT"),
    (3, "PLANT 8 6", "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT"),
]


@pytest.mark.parametrize(("level", "line", "expected"), INVALID_AT_LEVEL)
def test_an_action_the_level_lacks_disqualifies_with_its_wording(level: int, line: str, expected: str) -> None:
    ref = new(4, level)
    ref.apply({})
    report = answer_all(ref, {0: line, 1: "WAIT"})
    reason = f"Invalid Input: Expected {expected} but got '{line}'"
    assert [(d.player, d.cause, d.reason) for d in report.deactivations] == [
        (0, DeactivationCause.INVALID_INPUT, reason)
    ]
    assert report.summary[:4] == (
        f"¤RED¤$0 provided invalid input. Expected '{expected}'",
        f"Got '{line}'§RED§",
        "$0 was disqualified.",
        "Round 0/23",
    )
    outcome = ref.outcome()
    assert outcome.end_reason is EndReason.PLAYER_DEACTIVATED and outcome.scores[0] == -1
    # The one player left always ties with itself: its sun // 3 plus one point per tree.
    trees_each, _, sun, _ = FIRST_FRAME[level]
    assert outcome.scores[1] == sun // 3 + trees_each
    assert outcome.texts == ("", f"{sun // 3} points and {trees_each} trees")


def test_a_line_known_from_a_higher_level_still_disqualifies_and_messages_repeat() -> None:
    # The referee looks lines that parsed before (to an action without a message) up directly,
    # in a table per level's parser: SEED parsed in a full game must not pass at level 2, and a
    # message is reported each time it is sent.
    full = new(4, 3)
    full.apply({})
    answer_all(full, {0: "SEED 8 6", 1: "SEED 8 6"})  # parses (and is refused by the rules)
    assert full.active == [True, True]
    wood = new(4, 2)
    wood.apply({})
    report = answer_all(wood, {0: "WAIT", 1: "SEED 8 6"})
    assert [(d.player, d.cause) for d in report.deactivations] == [(1, DeactivationCause.INVALID_INPUT)]
    talker = new(4, 3)
    said = []
    while talker.turn < 12:  # days of a gathering, an actions and a sun move frame
        acting = talker.players_to_act()
        report = talker.apply({p: "WAIT hi" if p == 0 else "WAIT" for p in acting})
        said.append(report.messages)
    assert said == [(), ((0, "hi"),), ()] * 3 + [(), ((0, "hi"),)]


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_only_the_level_s_actions_are_offered_and_all_are_legal(level: int) -> None:
    allowed = {1: {"WAIT", "COMPLETE"}, 2: {"WAIT", "GROW", "COMPLETE"}, 3: {"WAIT", "GROW", "COMPLETE", "SEED"}}
    seen: set[str] = set()
    for seed in range(15):
        ref = new(seed, level)
        rng = random.Random(seed)
        while not ref.is_over:
            outputs = {}
            for p in ref.players_to_act():
                actions = ref.legal_actions(p)
                seen |= {a.split()[0] for a in actions}
                outputs[p] = rng.choice(actions[1:] or actions) if rng.random() < 0.9 else "WAIT"
            report = ref.apply(outputs)
            assert not report.errors and not report.deactivations
        assert ref.outcome().end_reason is EndReason.MAX_ROUNDS
    assert seen == allowed[level]


# A position set by hand (the levels below 3 never reach it): player 0 has a tall tree on cell 1 and
# a small one on cell 2, and 10 sun. COMPLETE 1 costs 4, GROW 2 costs 3; SEED is free.
HAND_SET = {
    1: ["WAIT", "COMPLETE 1"],
    2: ["WAIT", "COMPLETE 1", "GROW 2"],
    3: ["WAIT", "COMPLETE 1", "GROW 2"],  # then the seeds, from cell 1 first
}


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_the_level_s_actions_on_a_position_set_by_hand(level: int) -> None:
    ref = new(6, level)
    state = ref.state
    for cell in range(len(state.size)):
        state.size[cell], state.owner[cell], state.dormant[cell] = -1, -1, False
    state.size[1], state.owner[1] = 3, 0
    state.size[2], state.owner[2] = 1, 0
    state.sun[0] = 10
    offered = ref.legal_actions(0)  # nobody plays the first frame: the list unshuffled
    head, seeds = offered[: len(HAND_SET[level])], offered[len(HAND_SET[level]) :]
    assert head == HAND_SET[level]
    assert bool(seeds) == (level == 3) and all(a.startswith("SEED ") for a in seeds)
    assert not seeds or (seeds[0].startswith("SEED 1 ") and seeds[-1].startswith("SEED 2 "))


# -- days, shadows, summaries ----------------------------------------------------------------------

# Both players wait every day. Level 1: one day, 6 tall trees each give 18 sun: 6 points, tied, +6
# trees. Level 2: 6 days of 4 sun: 24 sun = 8 points, tied, +4 trees. Level 3: 24 days of 2 sun (no
# shading between starting trees): 16 points, tied, +2 trees. Three engine turns a day.
WAITING_GAMES = {1: (1, (12, 12), "6 points and 6 trees"), 2: (6, (12, 12), "8 points and 4 trees")}
WAITING_GAMES[3] = (24, (18, 18), "16 points and 2 trees")


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_waiting_games_last_the_level_s_days(level: int) -> None:
    days, scores, text = WAITING_GAMES[level]
    for seed in (3, -8):
        ref = new(seed, level, MAX_ROUNDS=5 if level < 3 else 24)  # the parameter does not count below 3
        play_waiting(ref)
        outcome = ref.outcome()
        assert (outcome.turns, outcome.scores, outcome.texts) == (3 * days, scores, (text, text))
        assert outcome.end_reason is EndReason.MAX_ROUNDS


def test_level_1_summaries_count_days_with_the_parameter() -> None:
    """GameSummaryManager uses Config.MAX_ROUNDS, the level its own number of days (one)."""
    for max_rounds, last, after in ((None, 23, True), (1, 0, False), (5, 4, True)):
        ref = new(9, 1) if max_rounds is None else new(9, 1, MAX_ROUNDS=max_rounds)
        reports = [ref.apply({})] + play_waiting(ref)
        assert [r.summary[0] for r in reports[:-1]] == [f"Round 0/{last}"] * (len(reports) - 1)
        moves = ["Round 0 ends", "The sun is now pointing towards direction 1", "Round 1 starts"]
        assert reports[-1].summary == tuple(moves if after else moves[:1])
        assert ref.outcome().turns == 3


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_shadows_only_at_level_3(level: int) -> None:
    """A tall tree on the centre shades cells 2, 9 and 22 when the sun points to direction 1
    (day 1): player 1's small tree on cell 2 gets no sun then, unless the level has no shadows."""
    ref = new(11, level)
    state = ref.state
    for cell in range(len(state.size)):
        state.size[cell], state.owner[cell], state.dormant[cell] = -1, -1, False
    state.size[0], state.owner[0] = 3, 0
    state.size[2], state.owner[2] = 1, 1
    reports = [ref.apply({})]  # day 0: the sun points to direction 0, cells 1, 7 and 19 are shaded
    assert reports[0].summary[1:] == ("$0 has collected 3 sun points", "$1 has collected 1 sun points")
    while not ref.is_over and len(reports) < 4:  # actions, sun move, then the gathering of day 1
        reports.append(answer_all(ref, "WAIT"))
    if level == 1:
        assert ref.is_over and len(reports) == 3
        return
    assert reports[-1].summary == ("Round 1/23", "$0 has collected 3 sun points") + (
        () if level == 3 else ("$1 has collected 1 sun points",)
    )
    assert any(ref.state.shadows) == (level == 3)


# -- parameters ------------------------------------------------------------------------------------

# Config.getFromParams: Integer.valueOf(value), the default (24) when it throws.
MAX_ROUNDS_VALUES = [
    ("5", 5),
    ("+5", 5),
    ("005", 5),
    ("\u0665", 5),  # ARABIC-INDIC DIGIT FIVE: Character.digit reads any decimal digit
    ("-0", 0),
    ("-7", -7),
    ("2147483647", 2147483647),
    ("2147483648", 24),
    (" 5", 24),
    ("5 ", 24),
    ("5.0", 24),
    ("1_0", 24),
    ("", 24),
    ("+", 24),
    ("many", 24),
    ("\U0001d7d3", 24),  # MATHEMATICAL BOLD DIGIT FIVE: two UTF-16 units, neither a digit
]


@pytest.mark.parametrize(("raw", "value"), MAX_ROUNDS_VALUES, ids=[repr(v[0]) for v in MAX_ROUNDS_VALUES])
def test_parameter_values_are_read_as_integer_value_of(raw: str, value: int) -> None:
    ref = new(1, 3, MAX_ROUNDS=raw)
    assert ref.params["MAX_ROUNDS"] == value == ref.state.max_rounds


@pytest.mark.parametrize("max_rounds", [0, -3, -(2**31)])
def test_no_days_at_all_ends_the_game_after_the_first_gathering(max_rounds: int) -> None:
    ref = new(1, 3, MAX_ROUNDS=max_rounds)
    report = ref.apply({})
    assert report.summary[0] == f"Round 0/{max_rounds - 1 if max_rounds > -(2**31) else 2**31 - 1}"
    outcome = ref.outcome()
    assert outcome.turns == 1 and outcome.end_reason is EndReason.MAX_ROUNDS
    assert outcome.scores == (2, 2) and outcome.texts == ("0 points and 2 trees",) * 2


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_starting_sun_and_nutrients_have_no_effect(level: int) -> None:
    plain = new(5, level)
    changed = new(5, level, STARTING_SUN=50, STARTING_NUTRIENTS_LUSH=3)
    plain.apply({})
    changed.apply({})
    assert plain.requests() == changed.requests()


def test_ring_counts_and_holes_each_level_can_start_with() -> None:
    for level in (1, 3):
        assert new(0, level, MAP_RING_COUNT=2).state.board.size == 19
    assert len([c for c in new(0, 1, MAP_RING_COUNT=2).state.size if c == 3]) == 12  # of 18 cells
    with pytest.raises(ParameterError, match="league 2 has no room for its starting trees on a map of MAP_RING_COUNT"):
        new(0, 2, MAP_RING_COUNT=2)
    for level in (1, 2, 3):
        for rings in (1, 0, -4, 7):
            with pytest.raises(ParameterError, match="MAP_RING_COUNT must be between 2 and 6"):
                new(0, level, MAP_RING_COUNT=rings)
    for empty, message in ((-1, "at least 0"), (38, "at most 37")):
        with pytest.raises(ParameterError, match=message):
            new(0, 3, MAX_EMPTY_CELLS=empty)
        new(0, 1, MAX_EMPTY_CELLS=empty)


# -- league names ----------------------------------------------------------------------------------

NAMES = [("wood 2", 1), ("Wood 1", 2), ("wood  1", 2), ("bronze", 3), ("Silver", 3), ("gold", 3), ("LEGEND", 3)]


@pytest.mark.parametrize(("name", "level"), NAMES)
def test_league_names_play_their_level(name: str, level: int) -> None:
    ref = referee.create("spring2021", 1, {"league": name})
    assert ref.league == level  # type: ignore[attr-defined]


def test_unknown_leagues_are_refused_and_the_default_is_the_top_level() -> None:
    assert referee.create("spring2021", 1).league == 3  # type: ignore[attr-defined]
    for bad in ("4", "0", "wood 3", "diamond"):
        with pytest.raises(ParameterError, match="wood 2 \\(1\\), wood 1 \\(2\\), bronze \\(3\\)"):
            referee.create("spring2021", 1, {"league": bad})
