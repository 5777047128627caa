"""The openskill leaderboard: order, draws, ranks versus scores, determinism, a worked update."""

from __future__ import annotations

import math

import pytest

from arena.stats.leaderboard import GameResult, LeaderboardEntry, leaderboard


def round_robin(rounds: int) -> list[GameResult]:
    """strong beats everyone; mid beats weak; one game in four between mid and weak is a draw."""
    games = []
    for i in range(rounds):
        games.append(GameResult(("strong", "mid"), (1, 0)) if i % 2 else GameResult(("mid", "strong"), (0, 1)))
        games.append(GameResult(("weak", "strong"), (0, 1)))
        games.append(GameResult(("mid", "weak"), (1, 1) if i % 4 == 3 else (1, 0)))
    return games


def test_stronger_bot_ranks_first():
    board = leaderboard(round_robin(12))
    assert [e.name for e in board] == ["strong", "mid", "weak"]
    assert all(isinstance(e, LeaderboardEntry) for e in board)
    assert [e.games for e in board] == [24, 24, 24]
    assert board[0].mu > board[1].mu > board[2].mu
    for e in board:
        assert e.ordinal == pytest.approx(e.mu - 3 * e.sigma)
        assert 0 < e.sigma < 25 / 3


def test_first_update_by_hand():
    # Plackett-Luce, defaults mu = 25, sigma = 25/3, beta = 25/6, tau = 25/300.
    # sigma^2 + tau^2 = 69.444444 + 0.006944 = 69.451389 for both players;
    # c^2 = 2 * 69.451389 + 2 * beta^2 = 138.902778 + 34.722222 = 173.625, c = 13.176684;
    # equal means: the winner's probability is 1/2, so its mu moves by (sigma^2 / c) (1 - 1/2)
    # = 69.451389 / 13.176684 / 2 = 2.635389, the loser's by the same amount down.
    board = leaderboard([GameResult(("a", "b"), (1, 0))])
    assert [e.name for e in board] == ["a", "b"]
    assert board[0].mu == pytest.approx(27.635389, abs=1e-5)
    assert board[1].mu == pytest.approx(22.364611, abs=1e-5)


def test_draws():
    # A draw between equal ratings moves neither mean; ties in the order are broken by name.
    board = leaderboard([GameResult(("b", "a"), (0, 0))] * 5)
    assert [e.name for e in board] == ["a", "b"]
    assert board[0].mu == pytest.approx(25.0) and board[1].mu == pytest.approx(25.0)
    assert board[0].sigma == pytest.approx(board[1].sigma) and board[0].sigma < 25 / 3
    # A draw against a newcomer costs the established winner and helps the newcomer.
    history = [GameResult(("a", "b"), (1, 0))] * 5
    before = {e.name: e.mu for e in leaderboard(history)}
    after = {e.name: e.mu for e in leaderboard(history + [GameResult(("a", "c"), (2, 2))])}
    assert after["a"] < before["a"]
    assert after["c"] > 25.0


def test_ranks_and_scores_agree():
    by_scores = [GameResult(("x", "y", "z"), (10, -1, 10)), GameResult(("y", "x"), (3, 7))]
    by_ranks = [GameResult(("x", "y", "z"), ranks=(1, 3, 1)), GameResult(("y", "x"), ranks=(2, 1))]
    assert by_scores[0].rank_list() == [1, 3, 1]
    assert leaderboard(by_scores) == leaderboard(by_ranks)


def test_deterministic():
    games = round_robin(6)
    assert leaderboard(games) == leaderboard(list(games))
    assert leaderboard([]) == []


def test_bad_games_are_rejected():
    with pytest.raises(ValueError):
        GameResult(("a",), (1,))
    with pytest.raises(ValueError):
        GameResult(("a", "a"), (1, 0))
    with pytest.raises(ValueError):
        GameResult(("a", "b"), (1, 0, 2))
    with pytest.raises(ValueError):
        GameResult(("a", "b"))
    with pytest.raises(ValueError):
        GameResult(("a", "b"), (1, 0), (1, 2))
    assert not math.isnan(leaderboard([GameResult(("a", "b"), (-1, -1))])[0].mu)
