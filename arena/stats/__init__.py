"""Statistics for bot-versus-bot comparisons: score, Elo with a 95% interval, LOS, and SPRT.

Pure maths (``math`` and ``numpy``, no I/O). Everything is seen from the first bot's side ("A").

Outcomes and counts
    A game scores 0 (loss), 1/2 (draw) or 1 (win) for A. A *pair* is one seed played twice with
    the seats swapped; its score is the mean of its two games, one of 0, 1/4, 1/2, 3/4, 1, so
    pairs fall into five bins (the *pentanomial* counts), lowest score first::

        LL, LD (or DL), WL+DD (and LW), WD (or DW), WW

    Trinomial counts are ``(losses, draws, wins)``, again lowest score first. Functions that take
    generic ``counts`` use this ascending order: ``counts[i]`` counts outcomes of score
    ``i / (len(counts) - 1)``.

Score, Elo, interval, LOS (the formulas fishtest uses)
    With outcome scores ``a_i`` and counts ``n_i`` (``N = sum n_i`` samples: games for the
    trinomial model, pairs for the pentanomial one)::

        mu  = sum n_i a_i / N                      (score rate)
        var = sum n_i (a_i - mu)^2 / N             (per-sample variance)
        SE  = sqrt(var / N)                        (standard error of mu)
        Elo = -400 log10(1/mu - 1)                 (logistic Elo; inverse of s = 1/(1 + 10^(-Elo/400)))
        interval: [Elo(mu - z SE), Elo(mu + z SE)] with z = Phi^-1(0.975) = 1.95996...
        elo_ci95  = (Elo(mu + z SE) - Elo(mu - z SE)) / 2     (half-width, as fishtest's "+-")
        LOS = Phi((mu - 1/2) / SE)                 (likelihood of superiority)

    The pentanomial model treats a pair as one sample, which removes the seed's (map's) advantage
    from the variance; it is the default whenever there are complete pairs.

Edge cases (documented return values, never an exception; docs/statistics.md shows them)
    * no samples: the estimate is ``None`` (and every derived field of :class:`ComparisonStats`);
    * ``mu = 1`` (all wins) / ``mu = 0``: ``elo`` is ``+inf`` / ``-inf``;
    * when the normal interval reaches 0 or 1 (its Elo would be unbounded) or has no width
      (``SE = 0``: all draws, every pair in one bin), the interval is Wilson's score interval
      instead (:func:`arena.stats.elo.wilson_interval`, ``wilson`` set on the estimate), which
      always has a width and whose ends are 0 or 1 only when ``mu`` is: so the Elo interval is
      finite unless the Elo itself is infinite, and then its other end is finite (10 won games:
      ``score_lo = 10 / (10 + z^2) = 0.7225``, ``elo_lo = +166.2``);
    * ``SE = 0``: the LOS is exact, not the normal approximation's 0, 1/2 or 1:
      ``1 - 2^-(N + 1)`` when every sample scored above 1/2 (uniform prior on the chance of a
      sample above 1/2), ``2^-(N + 1)`` below, 1/2 at 1/2 (:func:`arena.stats.elo.exact_los`).
    :meth:`ComparisonStats.to_dict` turns the non-finite floats into ``None`` for strict JSON.

SPRT (generalized SPRT with the logistic Elo model, as in fishtest)
    H0: Elo = elo0 against H1: Elo = elo1, i.e. expected score ``s0 = L(elo0)`` against
    ``s1 = L(elo1)`` with ``L(e) = 1 / (1 + 10^(-e/400))``. The nuisance parameters (the whole
    outcome distribution) are replaced by their maximum-likelihood estimates under each
    hypothesis: the distribution ``p`` maximising ``sum n_i log p_i`` subject to
    ``sum p_i a_i = s`` is ``p_i = phat_i / (1 + lam (a_i - s))`` where ``phat_i = n_i / N`` and
    ``lam`` is the root of ``sum phat_i (a_i - s) / (1 + lam (a_i - s)) = 0`` in the interval
    where every denominator is positive (Lagrange multipliers; the left side is decreasing in
    ``lam``). Then::

        LLR = sum n_i log(p1_i / p0_i) = sum n_i [log(1 + lam0 (a_i - s0)) - log(1 + lam1 (a_i - s1))]

    Wald's bounds: H0 is accepted when ``LLR <= ln(beta / (1 - alpha))``, H1 when
    ``LLR >= ln((1 - beta) / alpha)``; otherwise the test continues. As fishtest does, empty bins
    are given a count of 1e-3 before the LLR is computed (so that all-wins or no-draws data give a
    finite LLR); with no samples at all the LLR is 0.
"""

from __future__ import annotations

from .elo import (
    Z95,
    EloEstimate,
    elo_from_score,
    elo_pentanomial,
    elo_trinomial,
    estimate,
    expected_score,
    normal_cdf,
    normal_quantile,
    wilson_interval,
)
from .headtohead import PAIR_BINS, ComparisonStats, HeadToHead
from .sprt import (
    SprtModel,
    SprtParams,
    SprtResult,
    SprtState,
    llr_logistic,
    llr_logistic_many,
    llr_pentanomial,
    llr_trinomial,
    sprt_state,
    sprt_test,
)
from .sweep import SweepPoint, rank_sweep, sweep_points

__all__ = [
    "SprtModel",
    "Z95",
    "PAIR_BINS",
    "normal_cdf",
    "normal_quantile",
    "expected_score",
    "elo_from_score",
    "EloEstimate",
    "estimate",
    "elo_trinomial",
    "elo_pentanomial",
    "wilson_interval",
    "llr_logistic",
    "llr_logistic_many",
    "llr_trinomial",
    "llr_pentanomial",
    "SprtState",
    "SprtParams",
    "SprtResult",
    "sprt_state",
    "sprt_test",
    "ComparisonStats",
    "HeadToHead",
    "SweepPoint",
    "sweep_points",
    "rank_sweep",
]
