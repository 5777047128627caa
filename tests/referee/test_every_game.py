"""Every registered game passes the generic protocol checks (:mod:`tests.helpers.game_checks`)."""

from __future__ import annotations

import pytest

import referee
from tests.helpers.game_checks import check_game


@pytest.mark.parametrize("name", referee.names())
def test_every_registered_game_follows_the_protocol(name: str) -> None:
    check_game(name)
