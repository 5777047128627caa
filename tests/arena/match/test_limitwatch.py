"""The process's one limits thread (arena.match.limits.limitwatch): it looks at every watched bot
regularly, stops at a breach or when told, and never looks at a bot once unwatch returned."""

from __future__ import annotations

import threading
import time

from arena.match.limits import WATCH_INTERVAL_S, limitwatch


class Counter:
    def __init__(self, stop_after: int | None = None, slow_s: float = 0.0) -> None:
        self.looks = 0
        self.stop_after = stop_after
        self.slow_s = slow_s
        self.inside = threading.Event()

    def look(self) -> bool:
        self.inside.set()
        time.sleep(self.slow_s)
        self.looks += 1
        self.inside.clear()
        return self.stop_after is not None and self.looks >= self.stop_after


def wait_until(condition, timeout_s: float = 10.0) -> bool:
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


def test_every_watched_bot_is_looked_at_again_and_again_until_unwatched() -> None:
    bots = [Counter(), Counter()]
    for bot in bots:
        limitwatch.watch(bot, bot.look)
    try:
        assert wait_until(lambda: all(bot.looks >= 3 for bot in bots))
    finally:
        for bot in bots:
            limitwatch.unwatch(bot)
    seen = [bot.looks for bot in bots]
    time.sleep(WATCH_INTERVAL_S * 5)
    assert [bot.looks for bot in bots] == seen


def test_a_look_that_found_a_breach_is_the_last() -> None:
    bot = Counter(stop_after=2)
    limitwatch.watch(bot, bot.look)
    assert wait_until(lambda: bot.looks >= 2)
    time.sleep(WATCH_INTERVAL_S * 5)
    assert bot.looks == 2
    limitwatch.unwatch(bot)  # already done: nothing to wait for


def test_unwatch_returns_after_the_look_in_progress() -> None:
    """A bot being killed must not be looked at meanwhile: unwatch waits for a look in progress."""
    bot = Counter(slow_s=0.2)
    limitwatch.watch(bot, bot.look)
    assert bot.inside.wait(10)
    limitwatch.unwatch(bot)
    assert not bot.inside.is_set()
    done = bot.looks
    time.sleep(WATCH_INTERVAL_S * 5)
    assert bot.looks == done


def test_a_bot_is_first_looked_at_a_whole_interval_after_it_started() -> None:
    """As a thread of its own would: before, a sandbox may still be in the making (its future
    init still sees the host's /tmp, which the watchdog would count as the bot's memory)."""
    seen: list[float] = []
    bot = object()
    others = Counter()
    limitwatch.watch(others, others.look)  # the watcher is mid-cycle when the bot comes
    try:
        assert wait_until(lambda: others.looks >= 1)
        time.sleep(WATCH_INTERVAL_S / 2)
        started = time.monotonic()
        limitwatch.watch(bot, lambda: bool(seen.append(time.monotonic())))
        assert wait_until(lambda: len(seen) >= 1)
        assert seen[0] - started >= WATCH_INTERVAL_S
    finally:
        limitwatch.unwatch(bot)
        limitwatch.unwatch(others)
