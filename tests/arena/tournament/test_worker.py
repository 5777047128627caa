"""The local worker's stop signal: Ctrl-C stops the game in progress, also when it lands in a
finalizer, where an exception would be printed as ignored and the game played on."""

from __future__ import annotations

import signal
import sys

import pytest

from arena.runner import worker


@pytest.fixture
def in_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "_in_match", True)
    monkeypatch.setattr(worker, "_stopping", False)


class _Collected:
    """An object whose finalizer receives the stop signal, as a ``Popen`` collected mid-game."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen

    def __del__(self) -> None:
        try:
            worker._on_stop_signal(signal.SIGINT, sys._getframe())
        except KeyboardInterrupt:
            self.seen.append("raised")
        else:
            self.seen.append("deferred")


@pytest.mark.usefixtures("in_match")
def test_a_stop_in_a_finalizer_waits_for_the_next_turn() -> None:
    seen: list[str] = []
    _Collected(seen)  # dropped at once: its __del__ runs here
    assert seen == ["deferred"]
    assert worker._stop_requested()


@pytest.mark.usefixtures("in_match")
def test_a_stop_in_the_game_s_own_code_interrupts_it_once() -> None:
    assert not worker._stop_requested()
    with pytest.raises(KeyboardInterrupt):
        worker._on_stop_signal(signal.SIGINT, sys._getframe())
    assert worker._stop_requested()
    worker._on_stop_signal(signal.SIGINT, sys._getframe())  # a second one: the clean-up goes on
