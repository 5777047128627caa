"""How close answers came to their limits: bins, close calls and the closest call, by hand."""

from __future__ import annotations

from arena.match.protocol.latency import LimitUse, applied_limit


def test_answers_fall_in_the_bins_by_their_share_of_the_limit() -> None:
    # a bin holds the shares above its lower edge and up to its upper one
    fractions = [0.2, 0.5, 0.51, 0.85, 0.9, 0.95, 0.951, 1.0, 1.2]
    use = LimitUse.of(fractions)
    assert use.histogram == (2, 1, 2, 1, 2, 1)
    assert use.closest == 1.2
    assert use.above_close_call == 3 and use.past_limit == 1  # 0.951, 1.0 and 1.2
    assert use.share_above == 3 / 9
    assert use.describe() == "33.3% above 95% of the limit, closest call 120%, 1 past it (within the margin)"
    assert use.bars() == "<=50% 2 | 50-80% 1 | 80-90% 2 | 90-95% 1 | 95-100% 2 | >100% 1"


def test_a_search_bot_at_85_percent_makes_no_close_call() -> None:
    use = LimitUse.of([0.85] * 647)
    assert use.above_close_call == 0 and use.closest == 0.85
    assert use.describe() == "0.0% above 95% of the limit, closest call 85%"


def test_uses_merge_and_round_trip() -> None:
    a, b = LimitUse.of([0.1, 0.99]), LimitUse.of([0.3, 0.97, 0.6])
    merged = LimitUse.merge([a, b, LimitUse()])
    assert merged == LimitUse((2, 1, 0, 0, 2, 0), 0.99)
    assert LimitUse.loads(LimitUse.dumps(merged)) == merged and LimitUse.dumps(None) is None
    assert LimitUse().describe() == "no answers" and LimitUse().share_above is None


def test_the_limit_applied_is_the_games_times_the_scale() -> None:
    assert applied_limit(50, 2.0) == 100 and isinstance(applied_limit(50, 2.0), int)
    assert applied_limit(100, 0.3) == 30 and isinstance(applied_limit(100, 0.3), int)  # not 30.000000000000004
    assert applied_limit(33, 1.5) == 49.5
