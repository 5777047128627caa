"""The viewer as a newcomer uses it (issue #34, point 16): a URL that opens a given frame and
follows the frame shown, a step by day in Spring, and charts whose x axis counts days (Spring) or
turns (Fall), not frames. Expected frames and days come from the replay's snapshots."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from arena.view import write_view
from tests.helpers.viewer_page import check_fall, check_spring, frame, open_page, press, snapshot


def day(document: dict[str, Any], k: int) -> int:
    """The day shown at viewer frame ``k`` (the last, past the end, is the last day)."""
    s = snapshot(document, k)
    return int(min(s["day"], s["max_rounds"] - 1))


def day_starts(document: dict[str, Any]) -> dict[int, int]:
    """Each day's first viewer frame."""
    starts: dict[int, int] = {}
    for k in range(len(document["frames"]) + 1):
        starts.setdefault(day(document, k), k)
    return starts


def open_at(driver: Any, replay: Path, folder: Path, name: str, fragment: str) -> None:
    page = write_view(replay, folder / f"{name}.html")
    driver.get(page.resolve().as_uri() + fragment)
    deadline = time.monotonic() + 10
    while driver.execute_script("return document.getElementById('app').dataset.ready") != "true":
        assert time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.05)


def shift(driver: Any, key: str) -> None:
    """Shift held down while ``key`` is pressed."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT).perform()


def url_frame(driver: Any) -> str:
    return str(driver.execute_script("return window.location.hash"))


@pytest.mark.parametrize("key", ["spring", "fall"])
def test_a_url_fragment_opens_that_frame_and_follows_the_frame_shown(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, key: str
) -> None:
    from selenium.webdriver.common.keys import Keys

    document = documents[key]
    check = check_spring if key == "spring" else check_fall
    count = len(document["frames"]) + 1
    k = min(56, count - 3)
    open_at(browser, replays[key], tmp_path, key, f"#frame={k}")
    check(browser, document, k)
    assert url_frame(browser) == f"#frame={k}"
    entries = browser.execute_script("return window.history.length")
    press(browser, Keys.ARROW_RIGHT)
    check(browser, document, k + 1)
    assert url_frame(browser) == f"#frame={k + 1}"
    browser.execute_script("cgView.goto(3)")
    assert url_frame(browser) == "#frame=3"
    assert browser.execute_script("return window.history.length") == entries  # no history entry per step
    # a fragment typed in the address bar moves the viewer there
    browser.execute_script("window.location.hash = '#frame=10'")
    deadline = time.monotonic() + 5
    while frame(browser) != 10:
        assert time.monotonic() < deadline, "the viewer did not follow the fragment"
        time.sleep(0.02)
    check(browser, document, 10)
    # past the last frame: the last frame
    open_at(browser, replays[key], tmp_path, key + "-far", "#frame=99999")
    check(browser, document, count - 1)
    assert url_frame(browser) == f"#frame={count - 1}"


def test_spring_steps_by_day(browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    document = documents["spring"]
    starts = day_starts(document)
    last = max(starts)
    assert sorted(starts) == list(range(last + 1)) and last >= 5  # 24 days, fewer if a bot timed out on a busy machine
    open_page(browser, replays["spring"], tmp_path, "spring-days")
    nxt = browser.find_element("css selector", '[data-testid="next-unit"]')
    prev = browser.find_element("css selector", '[data-testid="prev-unit"]')
    assert nxt.is_displayed() and prev.is_displayed()
    assert "day" in nxt.text and "day" in prev.text
    nxt.click()
    check_spring(browser, document, starts[1])
    nxt.click()
    check_spring(browser, document, starts[2])
    shift(browser, Keys.ARROW_RIGHT)
    check_spring(browser, document, starts[3])
    browser.execute_script("cgView.goto(arguments[0])", starts[3] + 1)  # inside day 3
    prev.click()
    check_spring(browser, document, starts[3])  # back to the day's start
    prev.click()
    check_spring(browser, document, starts[2])
    shift(browser, Keys.ARROW_LEFT)
    check_spring(browser, document, starts[1])
    browser.execute_script("cgView.goto(arguments[0])", starts[last])
    nxt.click()  # no day after the last
    assert frame(browser) == starts[last]
    browser.execute_script("cgView.goto(arguments[0])", starts[3])
    press(browser, Keys.ARROW_RIGHT)  # the plain arrow still steps one frame
    check_spring(browser, document, starts[3] + 1)
    assert [day(document, k) for k in (starts[5], starts[5] - 1)] == [5, 4]


def test_fall_has_no_day_step(browser: Any, replays: dict[str, Path], tmp_path: Path) -> None:
    """A Fall turn is one frame: stepping by turn is the plain step."""
    open_page(browser, replays["fall"], tmp_path, "fall-steps")
    for testid in ("next-unit", "prev-unit"):
        assert not browser.find_element("css selector", f'[data-testid="{testid}"]').is_displayed()


def chart_axis(driver: Any) -> list[dict[str, Any]]:
    return list(
        driver.execute_script(
            """
            return [...document.querySelectorAll('[data-testid="chart-svg"]')].map((svg) => ({
              axis: svg.dataset.axis,
              ticks: [...svg.querySelectorAll('[data-testid="chart-tick"]')]
                .map((t) => [+t.dataset.value, +t.getAttribute("x1")]),
              labels: [...svg.querySelectorAll('[data-testid="chart-label"]')].map((t) => t.textContent),
              text: [...svg.querySelectorAll("text")].map((t) => t.textContent).join(" "),
              cursor: +svg.querySelector('[data-testid="chart-cursor"]').getAttribute("x1"),
            }));
            """
        )
    )


def test_spring_charts_count_days(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    document = documents["spring"]
    starts = day_starts(document)
    last, middle = max(starts), max(starts) // 2  # 23, fewer if a bot timed out on a busy machine
    open_page(browser, replays["spring"], tmp_path, "spring-charts")
    browser.execute_script("cgView.goto(arguments[0])", starts[middle])
    charts = chart_axis(browser)
    assert len(charts) == 2  # score and sun
    for chart in charts:
        assert chart["axis"] == "day"
        assert [v for v, _ in chart["ticks"]] == list(range(last + 1))  # a tick per day
        assert chart["labels"][0] == "0" and chart["labels"][-1] == f"day {last}"
        assert "frame" not in chart["text"]
        widths = [b - a for (_, a), (_, b) in zip(chart["ticks"], chart["ticks"][1:])]
        assert max(widths) - min(widths) < 0.2  # every day as wide, whatever its number of frames
        assert chart["cursor"] == pytest.approx(dict(chart["ticks"])[middle], abs=0.1)  # the day starts here


def test_fall_charts_count_turns(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    document = documents["fall"]
    turns = document["frames"][-1]["turn"]
    open_page(browser, replays["fall"], tmp_path, "fall-charts")
    browser.execute_script("cgView.goto(5)")
    for chart in chart_axis(browser):
        assert chart["axis"] == "turn"
        assert [v for v, _ in chart["ticks"]] == list(range(turns + 1))
        assert chart["labels"][-1] == f"turn {turns}"
        assert "frame" not in chart["text"]
        assert chart["cursor"] == pytest.approx(dict(chart["ticks"])[5], abs=0.1)
