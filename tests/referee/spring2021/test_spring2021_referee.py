"""The Spring 2021 frame machine inside the engine: who is executed, with what, and how it ends."""

from __future__ import annotations

import json

import pytest

import referee
from referee import DeactivationCause, EndReason, ParameterError, ProtocolError


def new(seed: int = 7, **params) -> referee.Referee:
    return referee.create("spring2021", seed, {k: str(v) for k, v in params.items()})


def answer_all(ref, line_for) -> referee.FrameReport:
    return ref.apply({p: line_for(p) for p in ref.players_to_act()})


def test_registry_names_and_alias():
    assert referee.get("photosynthesis") is referee.get("spring2021")
    assert referee.get("Spring2021") is referee.get("spring2021")
    with pytest.raises(referee.UnknownGame, match="known games"):
        referee.get("chess")


def test_first_turns_deliver_the_board_as_the_engine_does():
    ref = new()
    (dummy,) = ref.requests()
    assert (dummy.player, dummy.expected_lines, dummy.time_limit_ms) == (0, 0, 1000)
    assert dummy.lines[0] == "37" and len(dummy.lines) == 38
    ref.apply({})
    p0, p1 = ref.requests()
    assert (p0.player, p1.player) == (0, 1)
    assert (p0.time_limit_ms, p1.time_limit_ms) == (1000, 1000)
    assert p0.lines[0] == "0" and p1.lines[:38] == dummy.lines and p1.lines[38] == "0"
    assert p0.lines[-int(p0.lines[p0.lines.index("WAIT") - 1]) :][0] == "WAIT"
    ref.apply({0: "WAIT", 1: "WAIT"})
    assert ref.outcome() is None
    sun_move = ref.requests()
    assert [(r.player, r.expected_lines, r.lines) for r in sun_move] == [(0, 0, ())]
    ref.apply({})
    ref.apply({})  # gathering of day 1
    later = ref.requests()
    assert [r.time_limit_ms for r in later] == [100, 100]


def test_requests_are_stable_until_applied():
    ref = new()
    ref.apply({})
    assert ref.requests() == ref.requests()


def test_seeds_equal_modulo_2_pow_48_give_the_same_game():
    a, b = new(42), new(42 + 2**48)
    for _ in range(3):
        assert a.requests() == b.requests()
        answer_all(a, lambda p: "WAIT")
        answer_all(b, lambda p: "WAIT")


def test_negative_and_extreme_seeds_are_accepted_and_out_of_range_refused():
    for seed in (-(2**63), 2**63 - 1, -5):
        assert new(seed).requests()
    with pytest.raises(ParameterError, match="Java long"):
        new(2**63)


def test_an_illegal_action_is_reported_and_the_player_sleeps_for_the_day():
    ref = new()
    ref.apply({})
    report = ref.apply({0: "GROW 37", 1: "WAIT"})
    assert report.errors == ((0, "Cell 37 not found"),)
    assert "$0: Cell 37 not found" in report.summary
    assert ref.outcome() is None
    assert ref.requests()[0].expected_lines == 0  # both asleep: the sun moves


def test_a_sleeping_player_is_not_sent_input_while_the_other_plays():
    ref = new()
    ref.apply({})
    ref.apply({0: "WAIT", 1: ref.legal_actions(1)[-1]})
    assert ref.players_to_act() == [1]
    lines = ref.input_lines(1)
    assert lines[3].endswith(" 1")  # the opponent is shown as waiting


@pytest.mark.parametrize(
    "line,cause,reason",
    [
        (
            "grow 5",
            DeactivationCause.INVALID_INPUT,
            "Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got 'grow 5'",
        ),
        (
            "GROW 99999999999",
            DeactivationCause.INVALID_INPUT,
            "Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got "
            "'java.lang.NumberFormatException: For input string: \"99999999999\"'",
        ),
        ("WAIT &lt;3", None, None),
        (None, DeactivationCause.TIMEOUT, "Timeout!"),
    ],
)
def test_disqualification_ends_the_game_in_the_same_frame(line, cause, reason):
    ref = new()
    ref.apply({})
    legal = ref.legal_actions(0)
    seed = next(a for a in legal if a.startswith("SEED"))  # day 0: sun 2, seeds are free
    report = ref.apply({0: seed, 1: line})
    if cause is None:
        assert ref.outcome() is None and report.messages == ((1, "&lt;3"),)
        return
    outcome = ref.outcome()
    assert outcome is not None and outcome.end_reason is EndReason.PLAYER_DEACTIVATED
    (d,) = outcome.deactivations
    assert (d.player, d.turn, d.cause, d.reason) == (1, 2, cause, reason)
    assert outcome.scores[1] == -1
    snap = ref.snapshot()
    cell = int(seed.split()[2])
    assert any(t["cell"] == cell and t["size"] == 0 and t["owner"] == 0 for t in snap["trees"])
    # the lone active player gets sun // 3 and, being "all equal", one point per tree
    assert outcome.scores[0] == 2 // 3 + len([t for t in snap["trees"] if t["owner"] == 0]) == 3
    assert outcome.winner == 0


def test_html_entities_in_an_invalid_line_are_unescaped_in_the_reason():
    ref = new()
    ref.apply({})
    ref.apply({0: "WAIT", 1: "JUMP &lt;here&gt;"})
    assert ref.outcome().deactivations[0].reason.endswith("but got 'JUMP <here>'")


def test_both_disqualified_gives_minus_one_each():
    ref = new()
    ref.apply({})
    ref.apply({0: "", 1: None})
    outcome = ref.outcome()
    assert outcome.scores == (-1, -1) and outcome.winner is None
    assert [d.cause for d in outcome.deactivations] == [DeactivationCause.INVALID_INPUT, DeactivationCause.TIMEOUT]


def test_max_rounds_parameter_ends_the_game_and_starting_sun_has_no_effect():
    ref = new(STARTING_SUN=10, STARTING_NUTRIENTS_LUSH=5, MAX_ROUNDS=3)
    ref.apply({})
    first = ref.requests()[0].lines
    assert first[1] == "20" and first[2] == "2 0"  # nutrients 20, sun 2 (two small trees)
    days = set()
    while not ref.is_over:
        days.add(ref.snapshot()["day"])
        answer_all(ref, lambda p: "WAIT")
    assert ref.outcome().end_reason is EndReason.MAX_ROUNDS
    assert days == {0, 1, 2}


def test_the_engine_quota_aborts_the_301st_answer():
    # Both players WAIT at once every day: 2 answers per day, 150 days = 300 answers.
    ref = new(MAX_ROUNDS=1000)
    answers = 0
    while not ref.is_over:
        answers += len(ref.players_to_act())
        answer_all(ref, lambda p: "WAIT")
    outcome = ref.outcome()
    assert outcome.end_reason is EndReason.REFEREE_FAIL
    assert answers == 300
    assert outcome.message == "Total game duration too long (>30000ms)"
    assert ref.snapshot()["day"] == 150


def test_unknown_parameters_are_refused_and_unreadable_values_left_at_their_default():
    with pytest.raises(ParameterError, match="unknown spring2021 parameter 'MAX_ROUND'"):
        new(MAX_ROUND=3)
    # Config.getFromParams swallows Integer.valueOf's NumberFormatException: the default stays.
    assert new(MAX_ROUNDS="many").state.max_rounds == 24


def test_driving_errors_are_protocol_errors():
    ref = new()
    with pytest.raises(ProtocolError):
        ref.apply({0: "WAIT"})  # nobody answers during the first frame
    ref.apply({})
    with pytest.raises(ProtocolError):
        ref.apply({0: "WAIT"})  # player 1 must answer too
    with pytest.raises(ProtocolError):
        ref.time_limit_ms(5)


def test_snapshot_is_json_serialisable_and_describes_the_board():
    ref = new()
    ref.apply({})
    snap = json.loads(json.dumps(ref.snapshot()))
    assert snap["game"] == "spring2021" and len(snap["richness"]) == 37
    assert len(snap["trees"]) == 4 and {t["owner"] for t in snap["trees"]} == {0, 1}
    assert snap["players"][0]["sun"] == 2
