"""The ladder's ranking model (arena.stats.ladder) against answers found another way: cases worked
by hand, a second fit by a different algorithm (Hunter's minorization-maximization, no prior, and
the covariance from the Laplacian's pseudo-inverse), and synthetic bots of known strength.

Notation: L(d) = 1 / (1 + 10^(-d/400)); k = ln 10 / 400, so 1 / k = 173.717... Elo per natural
unit; a prior_sd of 1e6 Elo makes the prior negligible (it moves these ratings by under 1e-4 Elo),
so the fit is then the maximum-likelihood one.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import numpy as np
import pytest

from arena.stats.ladder import (
    DISPERSION_PRIOR_UNITS,
    ELO_PER_NATURAL_UNIT,
    PRIOR_SD,
    LadderFit,
    MapResult,
    PairCounts,
    fit_ladder,
)
from tests.helpers.ladder_sim import Synthetic, Tally

FLAT = 1e6  # prior_sd: no prior to speak of
PHI = NormalDist().cdf
Z = NormalDist().inv_cdf(0.975)


def single(a: str, b: str, score: float) -> MapResult:
    return MapResult(a, b, (score,))


def elos(fit: LadderFit) -> dict[str, float]:
    return {b.name: b.elo for b in fit.ranking}


# --------------------------------------------------------------------------- worked by hand


def test_three_wins_one_loss_is_400_log10_3() -> None:
    """Two bots, a wins 3 of 4: the ML difference solves L(d) = 3/4, d = 400 log10 3 = 190.848;
    the mean is 0, so a = +95.424, b = -95.424.

    Interval by hand: the information on d (natural units) is n p (1 - p) / phi = 4 (3/16) / phi
    = 0.75 / phi. phi: 4 units (single games), 1 free rating, df = 3; squares = sum (y - p)^2 =
    3 (1/4)^2 + (3/4)^2 = 0.75; expected = 4 p (1 - p) = 0.75; K0/4 = 2.5;
    phi = (0.75 + 2.5) / (0.75 * 3/4 + 2.5) = 3.25 / 3.0625 = 1.0612245. sd(d) = 173.7178
    sqrt(phi / 0.75) = 206.641 Elo; each rating is +-d/2, so se = 103.321 and the interval is
    95.424 +- 1.96 * 103.321 = [-107.08, 297.93]. P(a above b) = Phi(190.848 / 206.641) = 0.8221.
    """
    fit = fit_ladder(
        [single("a", "b", 1), single("b", "a", 0), single("a", "b", 1), single("b", "a", 1)], prior_sd=FLAT
    )
    a, b = fit.rating("a"), fit.rating("b")
    assert a.elo - b.elo == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert a.elo == pytest.approx(-b.elo, abs=1e-9)
    assert fit.dispersion == pytest.approx(3.25 / 3.0625, rel=1e-7)
    sd_d = ELO_PER_NATURAL_UNIT * math.sqrt(fit.dispersion / 0.75)
    assert sd_d == pytest.approx(206.641, abs=1e-3)
    assert a.se == pytest.approx(sd_d / 2, rel=1e-6)
    assert (a.elo_lo, a.elo_hi) == pytest.approx((-107.08, 297.93), abs=0.01)
    assert a.above_next == pytest.approx(PHI(190.8485 / 206.641), abs=1e-5)
    assert a.above_next == pytest.approx(0.8221, abs=1e-4)
    assert (a.games, a.score, b.score) == (4, 0.75, 0.25)
    assert fit.order == ("a", "b") and a.rank == 1 and b.above_next is None


def test_the_same_games_as_pairs_or_counts_give_the_same_fit() -> None:
    """A pair (1, 0.5) of a against b is the pair (0, 0.5) of b against a, and the count of one
    WD pair (bin 3/4) of a, and the same games in any order give the same fit, bit for bit."""
    games = [
        MapResult("a", "b", (1, 0.5)),
        MapResult("b", "c", (0, 0)),
        MapResult("c", "a", (0.5, 1)),
        MapResult("a", "c", (1,)),
        MapResult("b", "a", (1, 1)),
    ]
    mirrored = [MapResult(r.b, r.a, tuple(1 - s for s in r.scores)) for r in games]
    counts = [
        PairCounts("a", "b", penta=(1, 0, 0, 1, 0)),
        PairCounts("b", "c", penta=(1, 0, 0, 0, 0)),
        PairCounts("a", "c", penta=(0, 1, 0, 0, 0), singles=(0, 0, 1)),
    ]
    reference = fit_ladder(games)
    shuffled = games[:]
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        for variant in (shuffled, mirrored[::-1], counts, [games[0], games[4], counts[1], counts[2]]):
            fit = fit_ladder(variant, bots=["c"])
            assert fit == reference
            assert np.array_equal(fit.covariance, reference.covariance)


def test_symmetric_results_give_equal_ratings() -> None:
    """A cycle (a beats b, b beats c, c beats a, as often) and even records: every rating 0, every
    P(above) 1/2, ties ranked by name."""
    cycle = [single("a", "b", 1), single("b", "c", 1), single("c", "a", 1)] * 3
    for results in (cycle, [MapResult("x", "y", (1, 0))] * 4, [MapResult("x", "y", (0.5, 0.5))]):
        fit = fit_ladder(results)
        assert all(abs(b.elo) < 1e-9 for b in fit.ranking)
        assert all(b.above_next == pytest.approx(0.5, abs=1e-9) for b in fit.ranking[:-1])
        assert list(fit.order) == sorted(fit.order)


def test_a_perfect_record_stays_finite() -> None:
    """10 wins out of 10: the ML difference is infinite; the prior keeps it finite, at the point
    where the posterior's gradient is 0: (S - n p) / phi = theta_a / tau^2 with theta_a = d / 2
    (natural units), tau = 400 k. A tighter prior pulls it in."""
    results = [MapResult("a", "b", (1, 1))] * 5
    fit = fit_ladder(results)
    d = fit.rating("a").elo - fit.rating("b").elo
    assert 400 < d < 900
    p = 1 / (1 + 10 ** (-d / 400))
    tau = PRIOR_SD / ELO_PER_NATURAL_UNIT
    assert (10 - 10 * p) / fit.dispersion == pytest.approx(d / 2 / ELO_PER_NATURAL_UNIT / tau**2, rel=1e-8)
    assert math.isfinite(fit.rating("a").se) and fit.rating("a").above_next is not None
    assert fit.rating("a").above_next > 0.95
    tight = fit_ladder(results, prior_sd=100)
    assert 0 < tight.rating("a").elo < fit.rating("a").elo


def test_a_bot_with_no_games() -> None:
    """It sits at the mean, 0, with its prior's spread: C' = J C J gives it variance
    tau^2 (n - 1) / n (its own prior, minus its share of the mean; the others' mean direction
    carries the prior alone: 1^T C_rest 1 = (n - 1) tau^2)."""
    fit = fit_ladder([single("a", "b", 1), single("a", "b", 0), single("b", "c", 1)], bots=["new", "a"])
    new = fit.rating("new")
    assert new.elo == pytest.approx(0, abs=1e-9)
    assert new.se == pytest.approx(PRIOR_SD * math.sqrt(3 / 4), rel=1e-9)
    assert (new.games, new.score) == (0, None)
    assert fit_ladder([], bots=["x", "y"]).rating("x").se == pytest.approx(PRIOR_SD * math.sqrt(1 / 2))
    assert fit_ladder([]).ranking == ()
    alone = fit_ladder([], bots=["x"]).rating("x")
    assert (alone.elo, alone.se, alone.above_next, alone.rank) == (0.0, 0.0, None, 1)


def test_disconnected_groups_are_each_centred_and_a_coin_flip_apart() -> None:
    """{a, b} and {c, d} never met, with the same records: each group is centred on 0 (the prior
    pulls each group's mean to 0), a and c have the same rating and P(a above c) = 1/2; within
    a group the order is the data's."""
    results = [single("a", "b", 1)] * 3 + [single("a", "b", 0), single("c", "d", 1)] * 1 + [single("c", "d", 1)] * 2
    results.append(single("d", "c", 1))
    fit = fit_ladder(results)
    r = elos(fit)
    assert r["a"] + r["b"] == pytest.approx(0, abs=1e-9) and r["c"] + r["d"] == pytest.approx(0, abs=1e-9)
    assert r["a"] == pytest.approx(r["c"], abs=1e-9)
    assert fit.prob_above("a", "c") == pytest.approx(0.5, abs=1e-9)
    assert fit.prob_above("a", "b") > 0.7


# --------------------------------------------------------------------------- a second implementation


def mm_fit(n: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Hunter's MM for Bradley-Terry with half-point scores: pi_i <- S_i / sum_j n_ij / (pi_i + pi_j);
    returns Elo with mean 0."""
    pi = np.ones(len(n))
    for _ in range(20000):
        new = s.sum(axis=1) / (n / (pi[:, None] + pi[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - pi)) < 1e-15:
            break
        pi = new
    theta = np.log(pi)
    return (theta - theta.mean()) * ELO_PER_NATURAL_UNIT


def test_against_a_minorization_maximization_fit() -> None:
    """Three bots, a and b measured mostly against each other: the ratings match the MM fit, the
    covariance matches phi pinv(F) (F the Fisher information, a weighted Laplacian), and
    P(a above b) uses the covariance: a and b are strongly correlated (both tied to c), so their
    difference is known far better than their marginal intervals would say."""
    names = ("a", "b", "c")
    ab = (2, 3, 6, 5, 4)  # 20 pairs: LL, LD, WL+DD, WD, WW of a
    ac_singles, cb_singles = (1, 0, 1), (1, 1, 2)  # (losses, draws, wins) of the first bot
    results = [
        PairCounts("a", "b", penta=ab),
        PairCounts("a", "c", singles=ac_singles),
        PairCounts("c", "b", singles=cb_singles),
    ]
    fit = fit_ladder(results, prior_sd=FLAT)
    n = np.array([[0, 40, 2], [40, 0, 4], [2, 4, 0]], dtype=float)
    s_ab = sum(c * k / 2 for k, c in enumerate(ab))  # a's points against b: 0 + 1.5 + 6 + 7.5 + 8 = 23
    s = np.array([[0, s_ab, 1], [40 - s_ab, 0, 4 - 2.5], [1, 2.5, 0]])
    ref = mm_fit(n, s)
    assert [fit.rating(x).elo for x in names] == pytest.approx(list(ref), abs=1e-4)
    theta = ref / ELO_PER_NATURAL_UNIT
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    # units: (count, games m, mean score y, p) from the first bot's side
    units = [(c, 2, k / 4, p[0, 1]) for k, c in enumerate(ab)]
    units += [(c, 1, k / 2, p[0, 2]) for k, c in enumerate(ac_singles)]
    units += [(c, 1, k / 2, p[2, 1]) for k, c in enumerate(cb_singles)]
    count = sum(u[0] for u in units)
    squares = sum(c * m * (y - q) ** 2 for c, m, y, q in units)
    expected = sum(c * q * (1 - q) for c, _, _, q in units)
    pseudo = DISPERSION_PRIOR_UNITS / 4
    phi = (squares + pseudo) / (expected * (count - 2) / count + pseudo)
    assert fit.units == count == 26
    assert fit.dispersion == pytest.approx(phi, rel=1e-6)
    w = n * p * p.T
    cov = phi * np.linalg.pinv(np.diag(w.sum(axis=1)) - w) * ELO_PER_NATURAL_UNIT**2
    assert fit.covariance == pytest.approx(cov, rel=1e-5, abs=1e-3)
    for x, i in zip(names, range(3)):
        assert fit.rating(x).se == pytest.approx(math.sqrt(cov[i, i]), rel=1e-6)
    joint = PHI((ref[0] - ref[1]) / math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]))
    marginal = PHI((ref[0] - ref[1]) / math.sqrt(cov[0, 0] + cov[1, 1]))
    assert fit.prob_above("a", "b") == pytest.approx(joint, abs=1e-6)
    assert abs(joint - marginal) > 0.05
    upper, lower = fit.ranking[0], fit.ranking[1]
    assert upper.above_next == pytest.approx(fit.prob_above(upper.name, lower.name))


def test_interval_is_the_rating_plus_minus_z_se() -> None:
    fit = fit_ladder([MapResult("a", "b", (1, 0.5)), MapResult("b", "c", (1, 1)), MapResult("a", "c", (0.5, 0))])
    for bot in fit.ranking:
        assert (bot.elo_lo, bot.elo_hi) == pytest.approx((bot.elo - Z * bot.se, bot.elo + Z * bot.se))
    assert sum(elos(fit).values()) == pytest.approx(0, abs=1e-9)


# --------------------------------------------------------------------------- known truth


def test_dispersion_of_the_synthetic_game_worked_by_hand() -> None:
    """Two equal bots of the synthetic model (seat advantage 0.1, draws 0.3 at even strength):
    each game of a pair has expected score 0.6 or 0.4 and draw chance 0.3 * 2 * 0.4 = 0.24; a game
    of mean x with draw chance D has variance x (1 - x) - D / 4 = 0.24 - 0.06 = 0.18, so a pair's
    mean varies by (0.18 + 0.18) / 4 = 0.09 against the binomial 0.25 / 2 = 0.125: phi = 0.72."""
    bots = Synthetic((0.0, 0.0))
    rng = np.random.default_rng(5)
    tally = Tally()
    for _ in range(3000):
        tally.add("b0", "b1", bots.pair("b0", "b1", rng))
    assert tally.fit(bots.names).dispersion == pytest.approx(0.72, abs=0.03)


def test_synthetic_bots_of_known_strength() -> None:
    """Six bots 0..320 Elo, 60 replications of a fixed round-robin of 60 pairs (120 games): every rating within
    its interval about 95% of the time (the z-scores (fit - truth) / se have sd near 1), the
    ranking right in the final long replication."""
    bots = Synthetic((0.0, 40.0, 100.0, 150.0, 250.0, 320.0))
    truth = bots.truth()
    pairs = [(a, b) for i, a in enumerate(bots.names) for b in bots.names[i + 1 :]]
    z, covered = [], 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        tally = Tally()
        for k in range(60):
            a, b = pairs[k % len(pairs)]
            tally.add(a, b, bots.pair(a, b, rng))
        fit = tally.fit(bots.names)
        for name in bots.names:
            bot = fit.rating(name)
            z.append((bot.elo - truth[name]) / bot.se)
            covered += bot.elo_lo <= truth[name] <= bot.elo_hi
    assert 0.90 <= covered / len(z) <= 0.99
    assert 0.85 <= float(np.std(z)) <= 1.15 and abs(float(np.mean(z))) < 0.15
    rng = np.random.default_rng(99)
    tally = Tally()
    for k in range(3000):
        a, b = pairs[k % len(pairs)]
        tally.add(a, b, bots.pair(a, b, rng))
    fit = tally.fit(bots.names)
    assert fit.order == bots.true_order()
    assert all(abs(fit.rating(n).elo - truth[n]) < 3 * fit.rating(n).se for n in bots.names)


# --------------------------------------------------------------------------- inputs and output


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        MapResult("a", "a", (1,))
    with pytest.raises(ValueError):
        MapResult("a", "b", (1, 0, 1))
    with pytest.raises(ValueError):
        MapResult("a", "b", (0.7,))
    with pytest.raises(ValueError):
        MapResult("a", "b", ())
    with pytest.raises(ValueError):
        PairCounts("a", "b", singles=(0, -1, 0))
    with pytest.raises(ValueError):
        PairCounts("a", "b", penta=(0, 1, 0))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fit_ladder([], prior_sd=0)
    with pytest.raises(TypeError):
        fit_ladder([("a", "b", 1)])  # type: ignore[list-item]
    fit = fit_ladder([single("a", "b", 1)])
    with pytest.raises(KeyError):
        fit.rating("z")
    with pytest.raises(KeyError):
        fit.prob_above("a", "z")


def test_fit_with_an_unplayed_bot() -> None:
    fit = fit_ladder([MapResult("a", "b", (1, 1))] * 3, bots=["c"])
    assert fit.units == 3
    assert [b.name for b in fit.ranking] == list(fit.order) == ["a", "c", "b"]
    assert all(math.isfinite(x) for b in fit.ranking for x in (b.elo, b.se, b.elo_lo, b.elo_hi))
    assert fit.rating("c").score is None and fit.ranking[2].above_next is None
    assert fit.games_between("a", "b") == 6 and fit.games_between("a", "c") == 0
