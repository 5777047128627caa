"""Synthetic ladders with a known truth, for the ladder's tests and ``benchmarks/ladder_model.py``.

Bots of fixed true ratings play pairs of games (one map, both seats). In a pair of ``a`` against
``b`` with ``e = L(r_a - r_b)`` (``L(d) = 1 / (1 + 10^(-d/400))``), ``a``'s first game has
expected score ``e + delta 4 e (1 - e)`` (the first seat's advantage, ``delta`` at even strength)
and its second ``e - delta 4 e (1 - e)``, so the pair's mean score is exactly ``e``: the true
rating differences are the ones the model estimates. A game of expected score ``x`` is drawn
with probability ``draw 2 min(x, 1 - x)`` (``draw`` at ``x = 1/2``), won with ``x - draws / 2``,
lost with ``1 - x - draws / 2``. Defaults: ``delta = 0.1``, ``draw = 0.3``.

A run plays pairs until a budget of games, choosing each pair with the ladder's matchmaking
(``next_pair`` on the fit of all games so far) or uniformly at random among all pairs of bots,
and records what the tests and the benchmark measure (see :class:`Run`).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import numpy as np

from arena.stats import expected_score
from arena.stats.ladder import LadderFit, PairCounts, fit_ladder
from arena.stats.matchmaking import MIN_GAMES, confident, next_pair

TRUE_ELO: tuple[float, ...] = (0.0, 40.0, 100.0, 150.0, 250.0, 320.0)
"""The six bots of the acceptance figures: uneven gaps (40 to 100 Elo), like versions of a bot."""
SCHEMES = ("ladder", "uniform")


@dataclass(frozen=True)
class Synthetic:
    """Bots ``b0, b1, ...`` with the true ratings ``elo`` (Elo, any offset)."""

    elo: tuple[float, ...]
    delta: float = 0.1
    draw: float = 0.3

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"b{i}" for i in range(len(self.elo)))

    def truth(self) -> dict[str, float]:
        """The true ratings anchored as the fit anchors them (mean 0)."""
        mean = sum(self.elo) / len(self.elo)
        return {name: r - mean for name, r in zip(self.names, self.elo)}

    def true_order(self) -> tuple[str, ...]:
        return tuple(sorted(self.names, key=lambda n: -self.elo[self.names.index(n)]))

    def game(self, x: float, rng: np.random.Generator) -> int:
        """Half-points (0, 1, 2) of one game of expected score ``x``."""
        draws = self.draw * 2.0 * min(x, 1.0 - x)
        u = rng.random()
        return 2 if u < x - draws / 2.0 else (1 if u < x + draws / 2.0 else 0)

    def pair(self, a: str, b: str, rng: np.random.Generator) -> int:
        """``a``'s half-points over one pair against ``b``: 0 to 4, the pentanomial bin."""
        e = expected_score(self.elo[self.names.index(a)] - self.elo[self.names.index(b)])
        seat = self.delta * 4.0 * e * (1.0 - e)
        return self.game(e + seat, rng) + self.game(e - seat, rng)


@dataclass
class Tally:
    """Pentanomial counts per pair of bots (from the first name's side, names sorted)."""

    counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def add(self, a: str, b: str, halves: int) -> None:
        if a > b:
            a, b, halves = b, a, 4 - halves
        self.counts.setdefault((a, b), [0] * 5)[halves] += 1

    def fit(self, bots: tuple[str, ...]) -> LadderFit:
        results = [PairCounts(a, b, (c[0], c[1], c[2], c[3], c[4])) for (a, b), c in sorted(self.counts.items())]
        return fit_ladder(results, bots)


@dataclass
class Run:
    """One run's record (games count both games of each pair)."""

    scheme: str
    games: int = 0
    confident_at: int | None = None
    """Games when ``confident`` first held (``None``: never within the budget)."""
    confident_right: bool | None = None
    """Whether the fitted order was the true order then."""
    covered: list[bool] = field(default_factory=list)
    """Per bot (``b0, b1, ...``): whether its 95% interval contained its true (anchored) rating at
    ``confident_at``, or at the budget if ``confident`` never held."""
    settled_at: int | None = None
    """Games after which the fitted order was the true order at every check up to the budget
    (``None``: wrong at the budget)."""
    final: LadderFit | None = None


def simulate(
    bots: Synthetic,
    scheme: str,
    budget: int,
    seed: int,
    *,
    threshold: float = 0.95,
    min_games: int = MIN_GAMES,
    check_every: int = 1,
    stop: bool = False,
) -> Run:
    """Play pairs chosen by ``scheme`` (``"ladder"``: :func:`next_pair`; ``"uniform"``: every
    pair of bots alike) until ``budget`` games, checking the fit every ``check_every`` pairs (the
    ladder's matchmaking refits after every pair regardless); with ``stop``, until ``confident``
    first holds (then ``settled_at`` is not measured: ``None``)."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme is one of {SCHEMES}, not {scheme!r}")
    games_rng = np.random.default_rng(seed)
    pick_rng = random.Random(seed)
    names, truth, order = bots.names, bots.truth(), bots.true_order()
    all_pairs = list(itertools.combinations(names, 2))
    tally, run = Tally(), Run(scheme)
    wrong_at = 0
    fit = tally.fit(names)
    for step in itertools.count():
        checked = step % check_every == 0 or run.games + 2 > budget
        if step and (scheme == "ladder" or checked):
            fit = tally.fit(names)
        if checked:
            if fit.order != order:
                wrong_at = run.games
            if run.confident_at is None and confident(fit, threshold):
                run.confident_at, run.confident_right = run.games, fit.order == order
                run.covered = [_covers(fit, name, truth[name]) for name in names]
                if stop:
                    run.final = fit
                    return run
        if run.games + 2 > budget:
            break
        if scheme == "ladder":
            pairing = next_pair(fit, names, pick_rng, min_games=min_games)
            a, b = pairing.a, pairing.b
        else:
            a, b = all_pairs[int(games_rng.integers(len(all_pairs)))]
        tally.add(a, b, bots.pair(a, b, games_rng))
        run.games += 2
    run.final = fit
    if run.confident_at is None:
        run.covered = [_covers(fit, name, truth[name]) for name in names]
    run.settled_at = None if fit.order != order else wrong_at
    return run


def _covers(fit: LadderFit, name: str, true_elo: float) -> bool:
    bot = fit.rating(name)
    return bot.elo_lo <= true_elo <= bot.elo_hi
