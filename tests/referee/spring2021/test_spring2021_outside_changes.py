"""The referee's shortcuts (the census kept from frame to frame, checked where it is used; the
game's end as a plain attribute) against the state changed from outside between calls, and
against the rules applied plainly to a copy of the state."""

from __future__ import annotations

import random

import referee
from referee.spring2021 import rules
from referee.spring2021.actions import Complete, Grow, Wait
from referee.spring2021.referee import Spring2021Referee
from referee.spring2021.state import NO_TREE


def _to_actions_frame(ref: Spring2021Referee, rng: random.Random, frames: int) -> None:
    """Play random legal actions until ``frames`` ACTIONS frames have been played, then stop at
    the next turn where both players act (requests made, not answered)."""
    played = 0
    while True:
        requests = ref.requests()
        acting = [r.player for r in requests if r.expected_lines]
        if len(acting) == 2 and played >= frames:
            return
        played += len(acting) == 2
        ref.apply({p: rng.choice(ref.legal_actions(p)) for p in acting})


def _offered_by_the_rules(ref: Spring2021Referee, player: int) -> list[str]:
    completes, grows, seeds = rules.possible_actions(ref.state.copy(), player, None)  # a census made anew
    return sorted(["WAIT", *completes, *grows, *seeds])


def _move_a_tree(ref: Spring2021Referee, rng: random.Random) -> None:
    """Take one tree away and plant another for the other player on a free cell, from outside."""
    state = ref.state
    trees = [c for c, s in enumerate(state.size) if s > 0]
    free = [c for c, s in enumerate(state.size) if s == NO_TREE and state.board.richness[c] > 0]
    gone, new = rng.choice(trees), rng.choice(free)
    owner = state.owner[gone]
    state.size[gone], state.owner[gone], state.dormant[gone] = NO_TREE, -1, False
    state.size[new], state.owner[new], state.dormant[new] = 3, 1 - owner, False


def test_trees_changed_between_frames_are_counted_anew() -> None:
    for seed in range(6):
        ref = referee.create("spring2021", seed)
        rng = random.Random(seed)
        _to_actions_frame(ref, rng, 3 + seed)
        ref.apply({p: "WAIT" if p else rng.choice(ref.legal_actions(p)) for p in (0, 1)})
        _move_a_tree(ref, rng)  # after a frame, before the next requests are made
        while not [r for r in ref.requests() if r.expected_lines]:
            ref.apply({})
        for r in ref.requests():
            if r.expected_lines:
                assert sorted(ref.legal_actions(r.player)) == _offered_by_the_rules(ref, r.player)
        assert ref._census == rules.census(ref.state)


def test_trees_changed_between_the_requests_and_the_answers_are_counted_anew() -> None:
    for seed in range(6):
        ref = referee.create("spring2021", 100 + seed)
        rng = random.Random(seed)
        _to_actions_frame(ref, rng, 2 + seed)
        # Player 1 is given trees from outside, then answers for one: a COMPLETE (the tree must
        # be in the census to be taken out of it) or a GROW (priced by its counts, which the
        # trees given change).
        state = ref.state
        free = [c for c, s in enumerate(state.size) if s == NO_TREE and state.board.richness[c] > 0]
        tall, small, medium = free[:3]
        state.size[tall], state.owner[tall], state.dormant[tall] = 3, 1, False
        state.size[small], state.owner[small], state.dormant[small] = 1, 1, False
        state.size[medium], state.owner[medium], state.dormant[medium] = 2, 1, False
        state.sun[1] = 40
        expected = state.copy()
        action = Complete(tall) if seed % 2 else Grow(small)
        answers = {0: "WAIT", 1: str(action)}
        expected_result = rules.resolve_actions(expected, [Wait(), action], None)
        report = ref.apply(answers)
        assert not expected_result.errors and not report.errors
        assert (ref.state.size, ref.state.owner, ref.state.sun, ref.state.score, ref.state.nutrients) == (
            expected.size,
            expected.owner,
            expected.sun,
            expected.score,
            expected.nutrients,
        )
        assert ref._census == rules.census(ref.state)


def test_is_over_is_the_outcome_being_known_at_every_turn() -> None:
    for name, seed in (("spring2021", 4), ("fall2020", 4), ("spring2021", -7)):
        ref = referee.create(name, seed)
        rng = random.Random(seed)
        turns = 0
        while ref.outcome() is None:
            assert ref.is_over is False
            acting = [r.player for r in ref.requests() if r.expected_lines]
            ref.apply({p: rng.choice(ref.legal_actions(p)) for p in acting})
            turns += 1
        assert ref.is_over is True and turns > 20
