"""The SPRT's error rates, by simulation.

Many sequential tests run side by side (vectorised with numpy, fixed seed). Each draws outcomes
from a known model whose expected score is that of Elo = elo0 or Elo = elo1, checks the SPRT after
every pair (or game), and stops at the first decision. When Elo = elo0 the fraction accepting H1
must be about alpha; when Elo = elo1 the fraction accepting H0 must be about beta.

The game model: a draw rate ``r`` and a seat (map) advantage ``delta``: in a pair, the first game
has expected score ``s + delta`` and the second ``s - delta``, each game (W, D, L) with
probabilities ``(e - r/2, r, 1 - e - r/2)`` for its expected score ``e``; a pair's outcome
distribution is the convolution of the two games'. Its mean pair score is ``s``.

A long run of this simulation (20 000 tests per case) gave error rates 0.049 / 0.050 (pentanomial,
alpha = beta = 0.05), 0.047 / 0.048 (trinomial) and 0.101 / 0.019 (alpha = 0.1, beta = 0.02): the
tolerance below is four binomial standard deviations of the observed fraction.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from arena.stats import SprtParams, expected_score, llr_logistic_many

RUNS = 800
DRAW_RATE = 0.3
SEAT_ADVANTAGE = 0.1


def game_probs(e: float, draw_rate: float = DRAW_RATE) -> np.ndarray:
    """(L, D, W) probabilities of one game with expected score ``e``."""
    p = np.array([1.0 - e - draw_rate / 2, draw_rate, e - draw_rate / 2])
    assert np.all(p > 0)
    return p


def pair_probs(elo: float) -> np.ndarray:
    """Pentanomial probabilities (LL, LD, WL+DD, WD, WW) of a pair at ``elo``."""
    s = expected_score(elo)
    return np.convolve(game_probs(s + SEAT_ADVANTAGE), game_probs(s - SEAT_ADVANTAGE))


def run_sprts(
    probs: np.ndarray,
    params: SprtParams,
    runs: int,
    rng: np.random.Generator,
    chunk: int = 200,
    max_samples: int = 50_000,
) -> tuple[np.ndarray, np.ndarray]:
    """Run ``runs`` sequential tests on samples drawn from ``probs`` (ascending score order).

    Returns the decision of each (+1 H1, -1 H0, 0 undecided after ``max_samples``) and the number
    of samples it took. The LLR is evaluated after every sample, ``chunk`` samples at a time.
    """
    k = len(probs)
    counts = np.zeros((runs, k))
    decision = np.zeros(runs, dtype=int)
    length = np.zeros(runs, dtype=int)
    active = np.arange(runs)
    seen = 0
    while active.size and seen < max_samples:
        outcomes = rng.choice(k, size=(active.size, chunk), p=probs)
        onehot = (outcomes[:, :, None] == np.arange(k)).astype(float)
        prefix = counts[active][:, None, :] + np.cumsum(onehot, axis=1)
        llr = llr_logistic_many(prefix.reshape(-1, k), params.elo0, params.elo1)
        llr = llr.reshape(active.size, chunk)
        h1 = llr >= params.upper_bound
        h0 = llr <= params.lower_bound
        stop = h1 | h0
        stopped = stop.any(axis=1)
        first = np.argmax(stop, axis=1)
        done = active[stopped]
        decision[done] = np.where(h1[stopped, first[stopped]], 1, -1)
        length[done] = seen + first[stopped] + 1
        counts[active] = prefix[:, -1, :]
        active = active[~stopped]
        seen += chunk
    length[active] = seen
    return decision, length


def tolerance(p: float, runs: int) -> float:
    return 4.0 * math.sqrt(p * (1.0 - p) / runs)


def test_model_has_the_intended_mean():
    for elo in (-30.0, 0.0, 40.0):
        p = pair_probs(elo)
        assert p.sum() == pytest.approx(1.0)
        assert float(p @ (np.arange(5) / 4)) == pytest.approx(expected_score(elo))


@pytest.mark.parametrize(
    "model,alpha,beta",
    [
        ("pentanomial", 0.05, 0.05),
        ("trinomial", 0.05, 0.05),
        ("pentanomial", 0.10, 0.02),
    ],
)
def test_sprt_error_rates(model: str, alpha: float, beta: float):
    start = time.perf_counter()
    params = SprtParams(elo0=0.0, elo1=40.0, alpha=alpha, beta=beta, model=model)
    rng = np.random.default_rng(20240605)

    def probs(elo: float) -> np.ndarray:
        return pair_probs(elo) if model == "pentanomial" else game_probs(expected_score(elo))

    decision0, length0 = run_sprts(probs(params.elo0), params, RUNS, rng)
    decision1, length1 = run_sprts(probs(params.elo1), params, RUNS, rng)
    assert np.all(decision0 != 0) and np.all(decision1 != 0), "every test must reach a decision"
    false_h1 = float(np.mean(decision0 == 1))
    false_h0 = float(np.mean(decision1 == -1))
    assert abs(false_h1 - alpha) <= tolerance(alpha, RUNS), (false_h1, alpha)
    assert abs(false_h0 - beta) <= tolerance(beta, RUNS), (false_h0, beta)
    # The sequential test stops early: far fewer samples on average than its longest run.
    assert length0.mean() < 0.5 * length0.max() and length1.mean() < 0.5 * length1.max()
    assert time.perf_counter() - start < 15.0


def test_sprt_rarely_wrong_far_from_the_bounds():
    # True Elo well beyond elo1 (or below elo0): the wrong decision is far rarer than beta (alpha).
    params = SprtParams(elo0=0.0, elo1=40.0, model="pentanomial")
    rng = np.random.default_rng(7)
    decision_hi, _ = run_sprts(pair_probs(100.0), params, 400, rng)
    decision_lo, _ = run_sprts(pair_probs(-60.0), params, 400, rng)
    assert np.mean(decision_hi == 1) >= 0.99
    assert np.mean(decision_lo == -1) >= 0.99
