"""Known answers for arena.stats: fishtest's published figures and small cases worked by hand.

Hand cases use z = Phi^-1(0.975) = 1.959964, Elo(mu) = -400 log10(1/mu - 1) and
Phi(x) = (1 + erf(x / sqrt 2)) / 2; the arithmetic is written out next to each case.
"""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import pytest

from arena.stats import (
    PAIR_BINS,
    Z95,
    ComparisonStats,
    HeadToHead,
    SprtParams,
    SprtState,
    elo_from_score,
    elo_pentanomial,
    elo_trinomial,
    estimate,
    expected_score,
    llr_logistic,
    llr_logistic_many,
    llr_pentanomial,
    llr_trinomial,
    normal_cdf,
    normal_quantile,
    rank_sweep,
    sprt_test,
    sweep_points,
)

# fishtest's test data (server/fishtest/stats/stat_util.py): one run's game and pair counts.
FT_WINS, FT_LOSSES, FT_DRAWS = 65388, 65804, 56553
FT_PENTA = (10789, 19328, 33806, 19402, 10543)


# --------------------------------------------------------------------------- basic functions


def test_normal_functions():
    assert pytest.approx(1.959963984540054, abs=1e-12) == Z95
    assert normal_quantile(0.975) == pytest.approx(1.959963984540054, abs=1e-12)
    assert normal_cdf(0.0) == 0.5
    assert normal_cdf(1.959963984540054) == pytest.approx(0.975, abs=1e-12)
    assert normal_cdf(-1.0) == pytest.approx(0.15865525393145707, abs=1e-12)
    assert normal_cdf(math.inf) == 1.0 and normal_cdf(-math.inf) == 0.0


def test_expected_score_and_elo_are_inverse():
    # 400 Elo: 1 / (1 + 10^-1) = 10/11; 0.75 -> -400 log10(1/3) = 400 log10 3 = 190.849
    assert expected_score(0.0) == 0.5
    assert expected_score(400.0) == pytest.approx(10 / 11, abs=1e-15)
    assert expected_score(-400.0) == pytest.approx(1 / 11, abs=1e-15)
    assert elo_from_score(10 / 11) == pytest.approx(400.0, abs=1e-9)
    assert elo_from_score(0.75) == pytest.approx(190.84850188786498, abs=1e-9)
    assert elo_from_score(0.5) == 0.0
    for elo in (-700.0, -35.5, -1.0, 0.25, 12.0, 333.0):
        assert elo_from_score(expected_score(elo)) == pytest.approx(elo, abs=1e-9)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert expected_score(math.inf) == 1.0 and expected_score(-math.inf) == 0.0
    assert expected_score(1e6) == 1.0 and expected_score(-1e6) == 0.0
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError):
            elo_from_score(bad)


# --------------------------------------------------------------------------- Elo, interval, LOS


def test_fishtest_trinomial_elo():
    est = elo_trinomial(FT_WINS, FT_DRAWS, FT_LOSSES)
    assert est is not None and est.model == "trinomial"
    assert est.samples == FT_WINS + FT_DRAWS + FT_LOSSES
    assert round(est.elo, 4) == -0.7698
    assert round(est.elo_ci95, 4) == 1.3137
    assert round(est.los, 5) == 0.12538


def test_fishtest_pentanomial_elo():
    est = elo_pentanomial(FT_PENTA)
    assert est is not None and est.model == "pentanomial"
    assert est.samples == sum(FT_PENTA)
    assert round(est.elo, 4) == -0.7736
    assert round(est.elo_ci95, 4) == 1.2776
    assert round(est.los, 5) == 0.11766


def test_hand_trinomial_w6_d2_l2():
    # N = 10, mu = (6 + 2/2) / 10 = 0.7
    # var = (6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2) / 10 = (0.54 + 0.08 + 0.98) / 10 = 0.16
    # SE = sqrt(0.16 / 10) = 0.1264911;  z SE = 0.2479180
    # Elo = -400 log10(1/0.7 - 1) = -400 log10(3/7) = 147.1907
    # interval of mu: [0.4520820, 0.9479180] -> Elo [-33.39935, 504.03329]
    # half-width = (504.03329 + 33.39935) / 2 = 268.71632
    # LOS = Phi(0.2 / 0.1264911) = Phi(1.5811388) = 0.9430769
    est = elo_trinomial(6, 2, 2)
    assert est is not None
    assert est.score == pytest.approx(0.7, abs=1e-12)
    assert est.variance == pytest.approx(0.16, abs=1e-12)
    assert est.se == pytest.approx(0.1264911064, abs=1e-9)
    assert est.score_lo == pytest.approx(0.4520819871, abs=1e-9)
    assert est.score_hi == pytest.approx(0.9479180129, abs=1e-9)
    assert est.elo == pytest.approx(147.19071, abs=1e-4)
    assert est.elo_lo == pytest.approx(-33.39935, abs=1e-4)
    assert est.elo_hi == pytest.approx(504.03329, abs=1e-4)
    assert est.elo_ci95 == pytest.approx(268.71632, abs=1e-4)
    assert est.los == pytest.approx(0.9430769, abs=1e-6)


def test_hand_trinomial_w1_d2_l1_is_symmetric():
    # mu = 0.5, var = (0.25 + 0 + 0 + 0.25) / 4 = 0.125, SE = sqrt(0.125 / 4) = 0.1767767
    # mu +- z SE = 0.5 +- 0.3464760 -> Elo(0.8464760) = -400 log10(0.1813637) = 296.57529
    est = elo_trinomial(1, 2, 1)
    assert est is not None
    assert est.elo == 0.0
    assert est.se == pytest.approx(0.1767766953, abs=1e-9)
    assert est.elo_hi == pytest.approx(296.57529, abs=1e-4)
    assert est.elo_lo == pytest.approx(-296.57529, abs=1e-4)
    assert est.elo_ci95 == pytest.approx(296.57529, abs=1e-4)
    assert est.los == 0.5


def test_hand_pentanomial_cases():
    # [0, 1, 2, 1, 0]: pair scores 1/4, 1/2, 1/2, 3/4: mu = 0.5,
    # var = (1/16 + 0 + 0 + 1/16) / 4 = 0.03125, SE = sqrt(0.03125 / 4) = 0.0883883
    # mu + z SE = 0.6732380 -> Elo = -400 log10(0.3267620 / 0.6732380) = 125.57481
    est = elo_pentanomial((0, 1, 2, 1, 0))
    assert est is not None
    assert est.samples == 4
    assert est.elo == 0.0 and est.los == 0.5
    assert est.se == pytest.approx(0.0883883476, abs=1e-9)
    assert est.elo_ci95 == pytest.approx(125.57481, abs=1e-4)

    # [1, 2, 3, 4, 5]: N = 15, mu = (0 + 2/4 + 3/2 + 3 + 5) / 15 = 10/15 = 2/3
    # var = (1 (2/3)^2 + 2 (5/12)^2 + 3 (1/6)^2 + 4 (1/12)^2 + 5 (1/3)^2) / 15
    #     = (0.444444 + 0.347222 + 0.083333 + 0.027778 + 0.555556) / 15 = 0.0972222
    # SE = sqrt(0.0972222 / 15) = 0.0805076; Elo(2/3) = 400 log10 2 = 120.41200
    # interval [0.5088746, 0.8244588] -> Elo [6.16733, 268.71591], half-width 131.27429
    # LOS = Phi((1/6) / 0.0805076) = Phi(2.0701967) = 0.9807830
    est = elo_pentanomial((1, 2, 3, 4, 5))
    assert est is not None
    assert est.score == pytest.approx(2 / 3, abs=1e-12)
    assert est.variance == pytest.approx(0.0972222222, abs=1e-9)
    assert est.elo == pytest.approx(120.41200, abs=1e-4)
    assert est.elo_lo == pytest.approx(6.16733, abs=1e-4)
    assert est.elo_hi == pytest.approx(268.71591, abs=1e-4)
    assert est.elo_ci95 == pytest.approx(131.27429, abs=1e-4)
    assert est.los == pytest.approx(0.9807830, abs=1e-6)


def wilson_roots(mu: float, n: int) -> tuple[float, float]:
    """A second, simple Wilson interval: the roots p of (mu - p)^2 = z^2 p (1 - p) / n, i.e.
    (1 + z^2/n) p^2 - (2 mu + z^2/n) p + mu^2 = 0, by the quadratic formula."""
    a, b, c = 1 + Z95**2 / n, -(2 * mu + Z95**2 / n), mu * mu
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_pair_model_removes_the_seat_advantage():
    # Ten pairs, each won once by each side (WL): ten wins, ten losses. Per game the variance is
    # 1/4; per pair the score is always 1/2, so the pair model sees no variance at all: its
    # interval is Wilson's, 1/2 -+ z / (2 sqrt(10 + z^2)) = 1/2 -+ 0.263407, Elo -+203.50.
    tri = elo_trinomial(10, 0, 10)
    pen = elo_pentanomial((0, 0, 10, 0, 0))
    assert tri is not None and pen is not None
    assert tri.se == pytest.approx(math.sqrt(0.25 / 20))
    assert pen.se == 0.0 and pen.los == 0.5 and pen.wilson
    assert pen.score_hi - 0.5 == pytest.approx(Z95 / (2 * math.sqrt(10 + Z95**2)))
    assert pen.elo_ci95 == pytest.approx(203.50, abs=0.01)


def test_degenerate_estimates():
    # No games: no estimate.
    assert elo_trinomial(0, 0, 0) is None
    assert elo_pentanomial((0, 0, 0, 0, 0)) is None
    # All wins (issue #34 point 12: 5-0-0): mu = 1, SE = 0 -> Elo +inf; Wilson's lower end
    # n / (n + z^2) = 5 / 8.841459 = 0.565518, Elo -400 log10(1/0.565518 - 1) = +45.79; the
    # exact LOS 1 - 2^-6 = 0.984375.
    est = elo_trinomial(5, 0, 0)
    assert est is not None
    assert est.elo == math.inf and est.elo_hi == math.inf and est.elo_ci95 == math.inf
    assert est.score_lo == pytest.approx(0.565518, abs=1e-6) and est.score_hi == 1.0
    assert est.elo_lo == pytest.approx(45.79, abs=0.01)
    assert est.los == 0.984375
    # 10-0-0: lower end 10 / 13.841459 = 0.722467, Elo +166.2; LOS 1 - 1/2048.
    est = elo_trinomial(10, 0, 0)
    assert est is not None
    assert est.elo_lo == pytest.approx(166.2, abs=0.05) and est.los == 1 - 1 / 2048
    # All losses, 3 pairs: upper end z^2 / (3 + z^2) = 0.561497, Elo +42.95; LOS 2^-4.
    est = elo_pentanomial((3, 0, 0, 0, 0))
    assert est is not None
    assert est.elo == -math.inf and est.elo_lo == -math.inf and est.elo_ci95 == math.inf
    assert est.score_hi == pytest.approx(0.561497, abs=1e-6) and est.elo_hi == pytest.approx(42.95, abs=0.01)
    assert est.los == 0.0625
    # All draws: mu = 1/2 exactly, SE = 0: Elo 0, Wilson's 1/2 -+ z / (2 sqrt(7 + z^2)), LOS 1/2.
    est = elo_trinomial(0, 7, 0)
    assert est is not None
    assert est.elo == 0.0 and est.los == 0.5
    assert est.score_lo == pytest.approx(0.5 - Z95 / (2 * math.sqrt(7 + Z95**2)))
    # W = 1, L = 1: mu = 1/2, SE = sqrt(0.25 / 2) = 0.354, z SE = 0.693 > 1/2: the normal interval
    # leaves [0, 1], so it is Wilson's: 1/2 -+ z / (2 sqrt(2 + z^2)) = 1/2 -+ 0.405469, Elo -+392.52.
    est = elo_trinomial(1, 0, 1)
    assert est is not None
    assert est.elo == 0.0 and est.los == 0.5
    assert (est.score_lo, est.score_hi) == pytest.approx((0.094531, 0.905469), abs=1e-6)
    assert est.elo_ci95 == pytest.approx(392.52, abs=0.01)
    # W = 3, L = 1 (hand): mu = 0.75, var = (3 * 0.0625 + 0.5625) / 4 = 0.1875,
    # SE = sqrt(0.1875 / 4) = 0.2165064, LOS = Phi(0.25 / 0.2165064) = Phi(2 / sqrt 3) = 0.8758935;
    # mu + z SE = 1.17 > 1: Wilson's interval, both ends finite.
    est = elo_trinomial(3, 0, 1)
    assert est is not None
    assert est.elo == pytest.approx(190.84850, abs=1e-4)
    assert est.los == pytest.approx(0.8758935, abs=1e-6)
    assert (est.score_lo, est.score_hi) == pytest.approx(wilson_roots(0.75, 4))
    assert math.isfinite(est.elo_hi) and math.isfinite(est.elo_ci95)
    assert est.elo_lo == pytest.approx(elo_from_score(wilson_roots(0.75, 4)[0]))


def test_an_interval_inside_0_and_1_is_the_normal_one():
    # W = 6, D = 2, L = 2 (hand): mu = 0.7, var = (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10 = 0.16,
    # SE = sqrt(0.016) = 0.126491, mu -+ z SE = [0.452081, 0.947919]: inside (0, 1), kept.
    est = elo_trinomial(6, 2, 2)
    assert est is not None and not est.wilson
    assert (est.score_lo, est.score_hi) == pytest.approx((0.452081, 0.947919), abs=1e-6)


def test_bad_counts_are_rejected():
    with pytest.raises(ValueError):
        elo_pentanomial((1, 2, 3))
    with pytest.raises(ValueError):
        elo_trinomial(-1, 0, 3)
    with pytest.raises(ValueError):
        estimate([5])


# --------------------------------------------------------------------------- LLR


def test_fishtest_llr():
    assert round(llr_trinomial(FT_WINS, FT_DRAWS, FT_LOSSES, -3.0, 1.0), 4) == 2.0490
    assert round(llr_pentanomial(FT_PENTA, -3.0, 1.0), 4) == 2.1311
    # The same through the generic function (ascending order: L, D, W).
    assert llr_logistic((FT_LOSSES, FT_DRAWS, FT_WINS), -3.0, 1.0) == pytest.approx(2.0490, abs=1e-4)


def test_llr_two_outcomes_is_walds_bernoulli_ratio():
    # With only losses and wins the constrained MLE is Bernoulli(s) itself, so
    # LLR = W ln(s1 / s0) + L ln((1 - s1) / (1 - s0)). W = 7, L = 3, elo0 = 0, elo1 = 100:
    # s0 = 1/2, s1 = 1 / (1 + 10^-0.25) = 0.6400650; LLR = 7 ln 1.2801300 + 3 ln 0.7198700 = 0.7426775
    assert llr_logistic((3, 7), 0.0, 100.0) == pytest.approx(0.7426775299, abs=1e-9)


def _profile_loglik_trinomial(wins: int, draws: int, losses: int, s: float) -> float:
    """max over the draw rate r of W ln(s - r/2) + D ln r + L ln(1 - s - r/2): the outcome
    distributions with mean score s are (L, D, W) = (1 - s - r/2, r, s - r/2). The function is
    concave in r, so a ternary search finds the maximum (independent of arena.stats' method)."""
    lo, hi = 0.0, 2.0 * min(s, 1.0 - s)

    def f(r: float) -> float:
        return wins * math.log(s - r / 2) + draws * math.log(r) + losses * math.log(1 - s - r / 2)

    for _ in range(300):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if f(a) < f(b):
            lo = a
        else:
            hi = b
    return f((lo + hi) / 2)


@pytest.mark.parametrize(
    "wins,draws,losses,elo0,elo1",
    [
        (30, 50, 20, 0.0, 20.0),
        (5, 1, 9, -50.0, 10.0),
        (120, 300, 90, 0.0, 5.0),
        (2, 2, 2, -10.0, 60.0),
    ],
)
def test_llr_trinomial_matches_profile_likelihood(wins, draws, losses, elo0, elo1):
    s0, s1 = expected_score(elo0), expected_score(elo1)
    expected = _profile_loglik_trinomial(wins, draws, losses, s1) - _profile_loglik_trinomial(wins, draws, losses, s0)
    assert llr_trinomial(wins, draws, losses, elo0, elo1) == pytest.approx(expected, abs=1e-8)


def test_llr_symmetries():
    counts = (3, 11, 17, 9, 6)
    llr = llr_pentanomial(counts, -2.0, 8.0)
    # Swapping the hypotheses negates the LLR.
    assert llr_pentanomial(counts, 8.0, -2.0) == pytest.approx(-llr, abs=1e-10)
    # Seen from the other bot: mirrored counts and negated Elo bounds give the same LLR.
    assert llr_pentanomial(counts[::-1], 2.0, -8.0) == pytest.approx(llr, abs=1e-10)
    # More wins can only push towards H1.
    assert llr_pentanomial((3, 11, 17, 9, 7), -2.0, 8.0) > llr


def test_llr_degenerate_counts():
    # No samples: 0 (the test continues).
    assert llr_logistic((0, 0, 0), 0.0, 5.0) == 0.0
    assert llr_pentanomial((0, 0, 0, 0, 0), 0.0, 5.0) == 0.0
    # Empty bins count 1e-3 (as fishtest regularizes), so all wins or no draws stay finite.
    all_wins = llr_pentanomial((0, 0, 0, 0, 50), 0.0, 5.0)
    assert math.isfinite(all_wins) and all_wins > 0
    all_losses = llr_trinomial(0, 0, 50, 0.0, 5.0)
    assert math.isfinite(all_losses) and all_losses < 0
    assert llr_trinomial(9, 0, 4, 0.0, 30.0) == pytest.approx(llr_logistic((4, 1e-3, 9), 0.0, 30.0), abs=1e-12)
    # The vectorised form agrees row by row.
    rows = [(0, 0, 0), (4, 0, 9), (65804, 56553, 65388), (1, 1, 1)]
    many = llr_logistic_many(rows, -3.0, 1.0)
    assert list(many) == pytest.approx([llr_logistic(r, -3.0, 1.0) for r in rows], abs=1e-12)
    with pytest.raises(ValueError):
        llr_pentanomial((1, 2, 3), 0.0, 5.0)
    with pytest.raises(ValueError):
        llr_logistic((1, -2, 3), 0.0, 5.0)


# --------------------------------------------------------------------------- SPRT


def test_sprt_bounds_and_validation():
    p = SprtParams(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05)
    # ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = ln 19 = 2.944439
    assert p.lower_bound == pytest.approx(-2.9444389792, abs=1e-9)
    assert p.upper_bound == pytest.approx(2.9444389792, abs=1e-9)
    q = SprtParams(elo0=0.0, elo1=5.0, alpha=0.1, beta=0.02)
    assert q.lower_bound == pytest.approx(math.log(0.02 / 0.9))
    assert q.upper_bound == pytest.approx(math.log(0.98 / 0.1))
    for kwargs in (
        {"elo0": 5.0, "elo1": 0.0},
        {"elo0": 1.0, "elo1": 1.0},
        {"alpha": 0.0},
        {"beta": 1.0},
        {"alpha": 0.6, "beta": 0.5},
        {"model": "binomial"},
        {"elo1": math.inf},
    ):
        with pytest.raises(ValueError):
            SprtParams(**kwargs)


def test_sprt_states():
    p = SprtParams(elo0=-3.0, elo1=1.0, model="pentanomial")
    res = sprt_test(FT_PENTA, p)
    assert round(res.llr, 4) == 2.1311
    assert res.state is SprtState.CONTINUE and not res.state.decided
    assert res.samples == sum(FT_PENTA)
    assert res.lower_bound == p.lower_bound and res.upper_bound == p.upper_bound
    tri = sprt_test((FT_LOSSES, FT_DRAWS, FT_WINS), SprtParams(elo0=-3.0, elo1=1.0, model="trinomial"))
    assert round(tri.llr, 4) == 2.0490 and tri.state is SprtState.CONTINUE
    # A clearly stronger bot: H1; a clearly weaker one: H0.
    p5 = SprtParams(elo0=0.0, elo1=5.0)
    strong = sprt_test((100, 200, 400, 600, 700), p5)
    assert strong.llr >= p5.upper_bound and strong.state is SprtState.H1
    assert strong.state.describe() == "H1 accepted"
    weak = sprt_test((700, 600, 400, 200, 100), p5)
    assert weak.llr <= p5.lower_bound and weak.state is SprtState.H0
    assert weak.state.describe() == "H0 accepted"
    assert sprt_test((0, 0, 0, 0, 0), p5).state is SprtState.CONTINUE
    with pytest.raises(ValueError):
        sprt_test((1, 2, 3), p5)  # pentanomial model needs five counts
    assert json.loads(json.dumps(strong.to_dict()))["state"] == "H1"


# --------------------------------------------------------------------------- comparisons


def test_pair_bins():
    assert PAIR_BINS == ("LL", "LD", "WL+DD", "WD", "WW")
    c = HeadToHead("a", "b")
    c.add_pair(0, 0)  # LL
    c.add_pair(0, 0.5)  # LD
    c.add_pair(0.5, 0)  # DL
    c.add_pair(1, 0)  # WL
    c.add_pair(0, 1)  # LW
    c.add_pair(0.5, 0.5)  # DD
    c.add_pair(1, 0.5)  # WD
    c.add_pair(1, 1)  # WW
    assert c.penta == (1, 2, 3, 1, 1)
    assert (c.wins, c.draws, c.losses) == (5, 5, 6)
    assert c.games == 16 and c.pairs == 8 and c.singles == 0
    for bad in (2, -1, 0.25, "x", None):
        with pytest.raises(ValueError):
            c.add_single(bad)  # type: ignore[arg-type]


def test_comparison_stats_pentanomial_when_paired():
    c = HeadToHead("new", "old")
    # penta (1, 2, 3, 4, 5) as in the hand case above, plus one unpaired win.
    for first, second, n in ((0, 0, 1), (0, 0.5, 2), (1, 0, 3), (1, 0.5, 4), (1, 1, 5)):
        for _ in range(n):
            c.add_pair(first, second)
    c.add_single(1)
    st = c.stats()
    assert isinstance(st, ComparisonStats)
    assert st.bots == ("new", "old")
    assert st.penta == (1, 2, 3, 4, 5) and st.pairs == 15 and st.singles == 1
    # games: 30 paired + 1; wins: 3 + 4 + 2*5 + 1 = 18; draws: 2 + 4 = 6; losses: 2 + 2 + 3 = 7
    assert (st.games, st.wins, st.draws, st.losses) == (31, 18, 6, 7)
    assert st.score == pytest.approx(21 / 31)
    assert st.draw_ratio == pytest.approx(6 / 31)
    assert st.model == "pentanomial"
    assert st.elo == pytest.approx(120.41200, abs=1e-4)  # the hand pentanomial case
    assert st.elo_ci95 == pytest.approx(131.27429, abs=1e-4)
    assert st.los == pytest.approx(0.9807830, abs=1e-6)
    assert st.estimate is st.pentanomial
    assert st.trinomial == elo_trinomial(18, 6, 7)
    assert st.sprt is None
    with_sprt = c.stats(SprtParams(elo0=0.0, elo1=5.0))
    assert with_sprt.sprt is not None
    assert with_sprt.sprt.llr == pytest.approx(llr_pentanomial((1, 2, 3, 4, 5), 0.0, 5.0))
    tri_sprt = c.stats(SprtParams(elo0=0.0, elo1=5.0, model="trinomial")).sprt
    assert tri_sprt is not None and tri_sprt.samples == 31
    assert tri_sprt.llr == pytest.approx(llr_trinomial(18, 6, 7, 0.0, 5.0))
    d = with_sprt.to_dict()
    for key in ("bots", "games", "wins", "draws", "losses", "elo", "elo_ci95", "los", "sprt"):
        assert key in d
    assert d["sprt"]["state"] in ("continue", "H0", "H1")
    json.dumps(d, allow_nan=False)


def test_comparison_stats_trinomial_without_pairs_and_empty():
    c = HeadToHead("a", "b")
    st = c.stats(SprtParams())
    assert st.games == 0 and st.model is None
    assert st.score is None and st.draw_ratio is None and st.elo is None and st.elo_ci95 is None
    assert st.los is None and st.trinomial is None and st.pentanomial is None
    assert st.sprt is not None and st.sprt.llr == 0.0 and st.sprt.state is SprtState.CONTINUE
    json.dumps(st.to_dict(), allow_nan=False)
    for s in (1, 1, 1, 1, 1, 1, 0.5, 0.5, 0, 0):
        c.add_single(s)
    st = c.stats()
    assert st.model == "trinomial" and st.pairs == 0 and st.singles == 10
    assert st.elo == pytest.approx(147.19071, abs=1e-4)  # the hand W=6 D=2 L=2 case
    assert st.elo_ci95 == pytest.approx(268.71632, abs=1e-4)
    # All wins: infinite Elo, which the JSON form turns into null.
    w = HeadToHead("a", "b")
    w.add_pair(1, 1)
    st = w.stats()
    assert st.elo == math.inf
    d = st.to_dict()
    assert d["elo"] is None and d["elo_ci95"] is None
    json.dumps(d, allow_nan=False)


def test_sweep_points_and_ranking():
    def comp(pairs: list[tuple[float, float]]) -> ComparisonStats:
        c = HeadToHead("variant", "base")
        for first, second in pairs:
            c.add_pair(first, second)
        return c.stats(SprtParams())

    strong = comp([(1, 1)] * 6 + [(1, 0)] * 2 + [(0.5, 0)] * 2)
    even = comp([(1, 0)] * 8 + [(0.5, 0.5)] * 2)
    weak = comp([(0, 0)] * 5 + [(1, 0)] * 5)
    empty = HeadToHead("variant", "base").stats()
    points = sweep_points([("x=1", 1, even), ("x=2", 2, strong), ("x=3", 3, empty), ("x=4", 4, weak)])
    assert [p.value for p in points] == [1, 2, 3, 4]
    p = points[1]
    # strong: pair scores 1 (x6), 1/2 (x2), 1/4 (x2): mu = (6 + 1 + 0.5) / 10 = 0.75
    assert p.score == pytest.approx(0.75)
    est = elo_pentanomial(strong.penta)
    assert est is not None
    assert p.score_lo == pytest.approx(0.75 - Z95 * est.se)
    assert p.score_hi == pytest.approx(min(1.0, 0.75 + Z95 * est.se))
    assert p.sprt_state in ("continue", "H0", "H1")
    assert points[2].score is None and points[2].sprt_state is None
    ranked = rank_sweep(points)
    assert [r.label for r in ranked] == ["x=2", "x=1", "x=4", "x=3"]


def test_independent_normal_reference():
    # Guard against a wrong constant: compare with the standard library's normal distribution.
    nd = NormalDist()
    for x in (-3.0, -0.3, 0.7, 2.5):
        assert normal_cdf(x) == pytest.approx(nd.cdf(x), abs=1e-14)
