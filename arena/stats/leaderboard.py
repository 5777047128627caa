"""An openskill leaderboard over finished games (any number of players per game, draws allowed).

Each game updates the players' ratings once, in the order given, with openskill's Plackett-Luce
model (Weng-Lin Bayesian ratings, openskill's default parameters: mu 25, sigma 25/3). Players
with equal scores (or equal ranks) tie: a 2-player game with equal scores is a draw. The
``ordinal`` used for sorting is openskill's conservative estimate ``mu - 3 sigma``. The same games
in the same order always give the same leaderboard (the rating updates are deterministic).

Example::

    board = leaderboard([GameResult(("a", "b"), (1, 0)), GameResult(("b", "a"), (5, 5))])
    for entry in board:
        print(entry.name, entry.ordinal)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["GameResult", "LeaderboardEntry", "leaderboard"]


@dataclass(frozen=True)
class GameResult:
    """One finished game: its players and either their scores (higher is better) or their ranks
    (1 is first; lower is better). Equal values are ties."""

    players: Sequence[str]
    scores: Sequence[float] | None = None
    ranks: Sequence[float] | None = None

    def __post_init__(self) -> None:
        if (self.scores is None) == (self.ranks is None):
            raise ValueError("a game result needs exactly one of scores and ranks")
        values = self.scores if self.scores is not None else self.ranks
        assert values is not None
        if len(self.players) < 2:
            raise ValueError(f"a game needs at least two players, got {list(self.players)!r}")
        if len(values) != len(self.players):
            raise ValueError(f"{len(self.players)} players but {len(values)} scores/ranks")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player appears twice in one game: {list(self.players)!r}")

    def rank_list(self) -> list[int]:
        """Competition ranks, 1 for the best; tied players share a rank."""
        if self.scores is not None:
            keyed = [-float(s) for s in self.scores]
        else:
            assert self.ranks is not None
            keyed = [float(r) for r in self.ranks]
        return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


@dataclass(frozen=True)
class LeaderboardEntry:
    """A player's rating after all games."""

    name: str
    mu: float
    """Estimated skill."""
    sigma: float
    """Uncertainty of ``mu``."""
    ordinal: float
    """mu - 3 sigma: a conservative skill estimate, the sort key."""
    games: int


def leaderboard(games: Iterable[GameResult]) -> list[LeaderboardEntry]:
    """Rate the players of ``games`` (applied in order) and list them best first: by ordinal, then
    mu (both descending), then name."""
    model: Any = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    for game in games:
        teams = []
        for name in game.players:
            if name not in ratings:
                ratings[name] = model.rating(name=name)
                played[name] = 0
            teams.append([ratings[name]])
        new = model.rate(teams, ranks=game.rank_list())
        for name, team in zip(game.players, new):
            ratings[name] = team[0]
            played[name] += 1
    entries = [
        LeaderboardEntry(
            name=name,
            mu=float(r.mu),
            sigma=float(r.sigma),
            ordinal=float(r.ordinal()),
            games=played[name],
        )
        for name, r in ratings.items()
    ]
    entries.sort(key=lambda e: (-e.ordinal, -e.mu, e.name))
    return entries
