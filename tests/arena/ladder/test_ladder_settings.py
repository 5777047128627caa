"""A ladder's settings: read as the flags give them, stored and read back, and every difference
a later run asks for named."""

from __future__ import annotations

import pytest

from arena.ladder.settings import LadderSettings, differences, is_ladder, read_settings
from arena.settings import ConfigError


def test_defaults_are_the_top_league_unscaled_with_the_default_limits() -> None:
    s = read_settings("photosynthesis", {})
    assert s == LadderSettings(game="spring2021")
    assert s.game_params() == {}


def test_settings_round_trip_through_their_stored_form() -> None:
    s = read_settings(
        "spring2021",
        {"league": "wood 1", "time_scale": "2", "memory_limit_mb": "512", "sandbox": "off", "seed": "7"},
    )
    assert (s.league, s.time_scale, s.memory_limit_mb, s.sandbox, s.seed) == (2, 2.0, 512, "off", 7)
    stored = s.to_dict()
    assert is_ladder(stored) and not is_ladder({"game": "spring2021", "bots": []})
    assert LadderSettings.from_dict(stored) == s
    assert s.game_params() == {"league": "2"}


def test_the_top_league_named_is_no_league_at_all() -> None:
    assert read_settings("spring2021", {"league": "3"}).league is None
    assert read_settings("fall2020", {"league": "legend"}).league is None


def test_a_run_with_the_ladder_s_settings_changes_nothing() -> None:
    stored = read_settings("spring2021", {"league": "2", "time_scale": "2"})
    assert differences(stored, read_settings("spring2021", {}, stored)) == []
    assert differences(stored, read_settings("spring2021", {"league": "wood 1", "time_scale": "2.0"}, stored)) == []


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"time_scale": "3"}, "time scale 2 (this run: time scale 3)"),
        ({"league": "1"}, "league 2 (Wood 1) (this run: league 1 (Wood 2))"),
        ({"memory_limit_mb": "256"}, "memory limit 768 MB (this run: memory limit 256 MB)"),
        ({"sandbox": "off"}, "sandbox auto (this run: sandbox off)"),
        ({"params": {"MAX_ROUNDS": "6"}}, "parameters none (this run: parameters MAX_ROUNDS=6)"),
    ],
)
def test_each_difference_is_named_with_both_values(given: dict, named: str) -> None:
    stored = read_settings("spring2021", {"league": "2", "time_scale": "2"})
    assert differences(stored, read_settings("spring2021", given, stored)) == [named]


@pytest.mark.parametrize(
    ("game", "given", "message"),
    [
        ("chess", {}, "chess"),
        ("spring2021", {"league": "9"}, "league"),
        ("spring2021", {"time_scale": "0"}, "time_scale must be positive"),
        ("fall2020", {"params": {"X": "1"}}, "unknown parameter 'X'"),
        ("spring2021", {"sandbox": "maybe"}, "sandbox"),
    ],
)
def test_settings_that_cannot_be_used_are_refused(game: str, given: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        read_settings(game, given)
    assert message in str(caught.value)
