"""Spring 2021 input lines made from the referee's shortcuts (cell texts made once per geometry,
tree cells listed once for both players) against the official format written out here."""

from __future__ import annotations

import random

import referee
from referee.spring2021.board import Board, geometry
from referee.spring2021.referee import Spring2021Referee


def written_out_board_lines(board: Board) -> list[str]:
    """Game.getGlobalInfoFor: the cell count, then ``index richness n0 .. n5`` per cell."""
    out = [str(board.size)]
    for cell in range(board.size):
        out.append(" ".join(str(v) for v in (cell, board.richness[cell], *board.neighbors[cell])))
    return out


def test_board_lines_with_and_without_holes_and_odd_richness() -> None:
    plain = Board.standard(3)
    lines = plain.global_info_lines()
    assert lines[:2] == ["37", "0 3 1 2 3 4 5 6"]  # the centre: lush, six neighbours
    assert lines == written_out_board_lines(plain)
    holed = Board.standard(3, holes=(5, 23, 32))
    assert holed.global_info_lines() == written_out_board_lines(holed)
    assert holed.global_info_lines()[6].startswith("5 0 ")
    for rings in (2, 4, 6):
        board = Board.standard(rings)
        assert board.global_info_lines() == written_out_board_lines(board)
    # A richness no game makes (a board built by hand) takes the written-out path, not a table.
    odd = Board(2, [7, *geometry(2).ring_richness[1:]])
    assert odd.global_info_lines()[1].startswith("0 7 ")
    assert odd.global_info_lines() == written_out_board_lines(odd)
    negative = Board(2, [-1, *geometry(2).ring_richness[1:]])
    assert negative.global_info_lines()[1].startswith("0 -1 ")


def written_out_trees(ref, player: int) -> list[str]:
    state = ref.state
    return [
        f"{c} {state.size[c]} {1 if state.owner[c] == player else 0} {1 if state.dormant[c] else 0}"
        for c in range(state.board.size)
        if state.size[c] != -1
    ]


def test_tree_lines_are_the_same_whichever_player_reads_first() -> None:
    for seed in (3, 11):
        first_zero = referee.create("spring2021", seed)
        first_one = referee.create("spring2021", seed)
        rng = random.Random(seed)
        frames = 0
        while not first_zero.is_over:
            requests = first_zero.requests()
            acting = [r.player for r in requests if r.expected_lines]
            if len(acting) == 2:
                frames += 1
                expected = {p: written_out_trees(first_zero, p) for p in (0, 1)}
                one = first_one.input_lines(1)  # player 1's lines made first here
                zero = first_zero.input_lines(0)  # player 0's first there
                assert first_one.input_lines(0) == zero and first_zero.input_lines(1) == one
                for p, lines in ((0, zero), (1, one)):
                    start = 38 if lines[0] == "37" else 0  # the board's lines come first once (days < 37)
                    count = int(lines[start + 4])
                    assert count == len(expected[p])
                    assert lines[start + 5 : start + 5 + count] == expected[p]
            outputs = {p: rng.choice(first_zero.legal_actions(p)) for p in acting}
            first_zero.apply(outputs)
            first_one.apply(outputs)
        assert first_one.outcome() == first_zero.outcome()
        assert frames > 20


def test_day_nutrients_and_counts_made_once_a_frame_are_each_players_own() -> None:
    # The day, nutrients and tree count lines are made once per frame for both players (by the
    # first to read), the sun, score and action lines per player: all against the state.
    ref = referee.create("spring2021", 23)
    assert isinstance(ref, Spring2021Referee)
    rng = random.Random(4)
    frames = 0
    while not ref.is_over:
        requests = ref.requests()
        acting = [r.player for r in requests if r.expected_lines]
        if len(acting) == 2:
            frames += 1
            state = ref.state
            trees = sum(1 for s in state.size if s >= 0)
            for p in (1, 0):  # player 1 reads first
                lines = ref.input_lines(p)
                assert isinstance(next(r for r in requests if r.player == p).lines, tuple)
                start = 38 if lines[0] == "37" else 0
                other = 1 - p
                waiting = 1 if state.waiting[other] else 0
                assert lines[start : start + 5] == [
                    str(state.day),
                    str(state.nutrients),
                    f"{state.sun[p]} {state.score[p]}",
                    f"{state.sun[other]} {state.score[other]} {waiting}",
                    str(trees),
                ]
                offered = lines[start + 5 + trees :]
                assert offered[0] == str(len(offered) - 1) and offered[1] == "WAIT"
                assert sorted(offered[1:]) == sorted(ref.legal_actions(p))
        ref.apply({p: rng.choice(ref.legal_actions(p)) for p in acting})
    assert frames > 20


def test_a_player_alone_in_a_frame_sees_its_sleeping_opponent() -> None:
    # Frames where one player acts and the other sleeps: the opponent's line ends with 1.
    seen = 0
    for seed in range(4):
        ref = referee.create("spring2021", seed)
        rng = random.Random(seed)
        while not ref.is_over:
            acting = [r.player for r in ref.requests() if r.expected_lines]
            if len(acting) == 1:
                p, state = acting[0], ref.state
                other = 1 - p
                lines = ref.input_lines(p)
                start = 38 if lines[0] == "37" else 0
                assert lines[start + 2 : start + 4] == [
                    f"{state.sun[p]} {state.score[p]}",
                    f"{state.sun[other]} {state.score[other]} 1",
                ]
                seen += 1
            ref.apply({q: rng.choice(ref.legal_actions(q)) for q in acting})
    assert seen > 20
