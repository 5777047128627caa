"""A tournament's bots are ranked as a ladder's are (#43 point 4): by a Bradley-Terry fit of all
their counted games at once, whatever order the games were played or stored in, and openskill
only where a game has more than two seats (its games rated in the order of the schedule).

The games are records stored through the results database, their outcomes chosen here; the
expected figures come from :mod:`tests.helpers.bradley_terry` (a second fit, in plain Python,
from plain rows of games), from the maximum-likelihood difference worked by hand, and from the
openskill package itself."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from arena.standings.tournament import load_standings
from arena.stats.leaderboard import GameResult, leaderboard
from arena.store.records import BotRow, GameRecord, PlayerRecord
from arena.store.results import Store
from cli.arena import main
from tests.helpers import bradley_terry

PAIRS = 50


def winner(pair: int, leg: int) -> str:
    """v2 against greedy, 45-0-55: greedy wins both games of the first 27 pairs and the first
    game of pair 27, v2 the second one and every game after: the order that openskill, which
    rates the games one after the other, takes for a rise of v2."""
    if pair < 27 or (pair == 27 and leg == 0):
        return "greedy"
    return "v2"


def game(pair: int, leg: int, seats: tuple[str, ...], ranks: tuple[int, ...]) -> GameRecord:
    players = tuple(
        PlayerRecord(seat, bot, 10 - 5 * rank, rank, "ok") for seat, (bot, rank) in enumerate(zip(seats, ranks))
    )
    winner = ranks.index(0) if ranks.count(0) == 1 else None
    return GameRecord(0, pair, leg, 1000 + pair, players, winner, "turns", 10, 0.1, "v")


def head_to_head(db: Path, settings: dict[str, object], order: list[tuple[int, int]] | None = None) -> Path:
    """A tournament of v2 against greedy with the games of :func:`winner`, stored in ``order``
    (default: the schedule's)."""
    bots = [BotRow(name, ("x",), {}, "h", ()) for name in ("v2", "greedy")]
    with Store(db) as store:
        tid = store.create_tournament("k", settings, 2 * PAIRS, "v", bots, [(0, ("v2", "greedy"))])
        for pair, leg in order or [(p, leg) for p in range(PAIRS) for leg in (0, 1)]:
            seats = ("v2", "greedy") if leg == 0 else ("greedy", "v2")
            store.record_game(tid, game(pair, leg, seats, tuple(0 if s == winner(pair, leg) else 1 for s in seats)))
    return db


def expected(pairs: int) -> list[bradley_terry.Rated]:
    """The second fit over the first ``pairs`` pairs, each a map result from v2's side."""
    results = [("v2", "greedy", tuple(1.0 if winner(p, leg) == "v2" else 0.0 for leg in (0, 1))) for p in range(pairs)]
    return bradley_terry.fit(results)


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_a_bot_that_lost_45_55_is_ranked_below_the_winner(tmp_path: Path) -> None:
    db = head_to_head(tmp_path / "t.sqlite", {"game": "spring2021", "format": "gauntlet"})
    # the case a user saw: openskill, one game after the other, puts the loser first
    seats = {0: ("v2", "greedy"), 1: ("greedy", "v2")}
    rated = [
        GameResult(seats[leg], scores=[1 if bot == winner(p, leg) else 0 for bot in seats[leg]])
        for p in range(PAIRS)
        for leg in (0, 1)
    ]
    assert [e.name for e in leaderboard(rated)] == ["v2", "greedy"]

    ranking = load_standings(db).ranking
    assert ranking.order == ("greedy", "v2")
    assert ranking.model == "bradley-terry (maximum likelihood, Elo scale)" and ranking.games == 2 * PAIRS
    # by hand: the maximum-likelihood difference solves L(d) = 55/100, d = 400 log10(55/45) = 34.86
    # Elo; the prior (sd 400) pulls it in, a little
    greedy, v2 = ranking.bots
    assert 0.95 * 400 * math.log10(55 / 45) < greedy.rating - v2.rating < 400 * math.log10(55 / 45)
    assert greedy.rating == pytest.approx(-v2.rating, abs=1e-9)
    assert (greedy.games, greedy.score, v2.games, v2.score) == (100, 0.55, 100, 0.45)
    for got, want in zip(ranking.bots, expected(PAIRS), strict=True):
        assert (got.rank, got.name) == (want.rank, want.bot)
        assert (got.rating, got.low, got.high) == pytest.approx((want.rating, want.low, want.high), abs=1e-6)
        assert got.above_next == pytest.approx(want.above_next, abs=1e-9)

    lines = invoke("results", "--db", str(db)).splitlines()
    at = lines.index("ranking (Bradley-Terry, Elo scale):")
    assert lines[at + 1 : at + 4] == bradley_terry.ranking_lines(expected(PAIRS))
    assert lines[at + 2].split()[:2] == ["1", "greedy"]
    doc = json.loads(invoke("results", "--db", str(db), "--format", "json"))["leaderboard"]
    assert doc["model"] == ranking.model and doc["games"] == 100
    assert [(r["rank"], r["bot"], r["state"], r["games"], r["score"]) for r in doc["ranking"]] == [
        (1, "greedy", "active", 100, 0.55),
        (2, "v2", "active", 100, 0.45),
    ]
    assert [r["rating"] for r in doc["ranking"]] == pytest.approx([w.rating for w in expected(PAIRS)], abs=1e-6)
    assert doc["cross"] == [
        {"bot": "greedy", "against": "v2", "score": 0.55, "games": 100},
        {"bot": "v2", "against": "greedy", "score": 0.45, "games": 100},
    ]


def test_the_order_the_games_were_stored_in_does_not_matter(tmp_path: Path) -> None:
    """The same games stored last first (other ids, another order of finishing) rank the same,
    bit for bit."""
    settings = {"game": "spring2021", "format": "gauntlet"}
    forward = head_to_head(tmp_path / "a.sqlite", settings)
    backward = [(p, leg) for p in reversed(range(PAIRS)) for leg in (1, 0)]
    reverse = head_to_head(tmp_path / "b.sqlite", settings, backward)
    assert load_standings(forward).ranking == load_standings(reverse).ranking


def test_games_after_an_sprt_decision_are_not_ranked(tmp_path: Path) -> None:
    """An SPRT that accepts H0 (v2 is not 400 Elo stronger) on greedy's first won pairs: the
    games after its decision are stored but neither counted nor ranked."""
    sprt = {"elo0": 0, "elo1": 400, "alpha": 0.3, "beta": 0.3}
    db = head_to_head(tmp_path / "t.sqlite", {"game": "spring2021", "format": "gauntlet", "sprt": sprt})
    data = load_standings(db)
    (comparison,) = data.pairs
    decided = comparison.decided_at_pair
    assert comparison.decision == "H0" and decided is not None and 0 < decided < 27
    assert data.ranking.games == data.counted == 2 * decided < data.tournament.games_stored
    for got, want in zip(data.ranking.bots, expected(decided), strict=True):
        assert (got.name, got.games) == (want.bot, want.games)
        assert (got.rating, got.low, got.high) == pytest.approx((want.rating, want.low, want.high), abs=1e-6)
    lines = invoke("results", "--db", str(db)).splitlines()
    at = lines.index("ranking (Bradley-Terry, Elo scale, counted games only):")
    assert lines[at + 1 : at + 4] == bradley_terry.ranking_lines(expected(decided))


def test_n_player_games_are_ranked_with_openskill_in_schedule_order(tmp_path: Path) -> None:
    """A three-seat table, its games stored in another order than the schedule's: openskill
    (Plackett-Luce, the package's defaults) over the games in schedule order (pair, then leg)."""
    bots = ("a", "b", "c")
    outcomes = {  # (pair, leg): the seats and each seat's rank
        (0, 0): (("a", "b", "c"), (0, 1, 2)),
        (0, 1): (("b", "c", "a"), (2, 0, 1)),
        (0, 2): (("c", "a", "b"), (1, 0, 1)),
        (1, 0): (("a", "b", "c"), (2, 1, 0)),
        (1, 1): (("b", "c", "a"), (0, 2, 1)),
        (1, 2): (("c", "a", "b"), (0, 1, 2)),
    }
    db = tmp_path / "n.sqlite"
    rows = [BotRow(name, ("x",), {}, "h", ()) for name in bots]
    with Store(db) as store:
        tid = store.create_tournament("k", {"game": "fields", "format": "round-robin"}, 6, "v", rows, [(0, bots)])
        for (pair, leg), (seats, ranks) in sorted(outcomes.items(), reverse=True):  # last game first
            store.record_game(tid, game(pair, leg, seats, ranks))
    ranking = load_standings(db).ranking
    assert ranking.model == "openskill (Plackett-Luce, games in schedule order)" and ranking.games == 6

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bots}
    for key in sorted(outcomes):
        seats, ranks = outcomes[key]
        new = model.rate([[ratings[s]] for s in seats], ranks=list(ranks))
        for seat, team in zip(seats, new):
            ratings[seat] = team[0]
    want = sorted(bots, key=lambda n: (-ratings[n].mu, n))
    assert ranking.order == tuple(want)
    for b in ranking.bots:
        mu, sigma = ratings[b.name].mu, ratings[b.name].sigma
        assert (b.rating, b.low, b.high) == pytest.approx((mu, mu - 1.959964 * sigma, mu + 1.959964 * sigma), abs=1e-5)
    lines = invoke("results", "--db", str(db)).splitlines()
    at = lines.index("ranking (openskill, Plackett-Luce):")
    assert lines[at + 1].split() == ["rank", "bot", "rating", "95%", "interval", "games", "score", "P(above", "next)"]
    assert [line.split()[:3] for line in lines[at + 2 : at + 5]] == [
        [str(i + 1), name, f"{ratings[name].mu:.2f}"] for i, name in enumerate(want)
    ]
