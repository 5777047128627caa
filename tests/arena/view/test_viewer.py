"""The replay viewer in a real headless browser (#14, acceptance 1 to 3): what is drawn at a frame is
the replay's snapshot at that frame, keyboard and slider navigation, verdicts at the frame where the
referee put the player out, and a full Spring game that stays small and steps fast."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.match.replay import read_replay
from arena.view import write_view
from cli.arena import main
from tests.helpers.escapes import EVIL, SHOWN, escaping_bot
from tests.helpers.viewer_page import check_fall, check_spring, frame, open_page, press, snapshot

# -- what is drawn is the snapshot ----------------------------------------------------------------


def test_spring_frames_match_their_snapshots(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    document = documents["spring"]
    open_page(browser, replays["spring"], tmp_path, "spring")
    count = browser.execute_script("return cgView.frameCount()")
    assert count == len(document["frames"]) + 1
    check_spring(browser, document, 0)
    for k in (1, 2, 5, count // 3, count // 2, count - 2, count - 1):
        browser.execute_script("cgView.goto(arguments[0])", k)
        check_spring(browser, document, k)
    # some frame has seeds, dormant trees, trees of every size and shadows: the checks above saw them
    everything = [t for f in document["frames"] for t in f["snapshot"]["trees"]]
    assert {t["size"] for t in everything} == {0, 1, 2, 3} and any(t["dormant"] for t in everything)


def test_fall_frames_match_their_snapshots(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    document = documents["fall"]
    open_page(browser, replays["fall"], tmp_path, "fall")
    count = browser.execute_script("return cgView.frameCount()")
    assert count == len(document["frames"]) + 1
    for k in (0, 1, 3, count // 2, count - 1):
        browser.execute_script("cgView.goto(arguments[0])", k)
        check_fall(browser, document, k)
    # the checks covered exhausted spells and brewed potions
    last = snapshot(document, count - 1)
    assert any(p["deliveries"] for p in last["players"])
    assert any(not s["castable"] for f in document["frames"] for p in f["snapshot"]["players"] for s in p["spells"])


@pytest.mark.parametrize("key", ["spring", "fall"])
def test_keyboard_navigation(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, key: str
) -> None:
    from selenium.webdriver.common.keys import Keys

    document = documents[key]
    check = check_spring if key == "spring" else check_fall
    open_page(browser, replays[key], tmp_path, key)
    count = browser.execute_script("return cgView.frameCount()")
    press(browser, Keys.ARROW_RIGHT)
    check(browser, document, 1)
    press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    check(browser, document, 4)
    press(browser, Keys.ARROW_LEFT)
    check(browser, document, 3)
    press(browser, Keys.END)
    check(browser, document, count - 1)
    press(browser, Keys.ARROW_RIGHT)  # nothing after the last frame
    assert frame(browser) == count - 1
    press(browser, Keys.HOME)
    check(browser, document, 0)
    press(browser, Keys.ARROW_LEFT)
    assert frame(browser) == 0

    # space plays (at the fastest speed) and pauses
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("css selector", '[data-testid="speed"]')).select_by_value("8")
    browser.execute_script("document.activeElement.blur()")  # keys to the page again, not to the select
    press(browser, Keys.SPACE)
    assert browser.execute_script("return cgView.playing()") is True
    deadline = time.monotonic() + 10
    while frame(browser) < 3:
        assert time.monotonic() < deadline, "playing did not advance"
        time.sleep(0.02)
    press(browser, Keys.SPACE)
    assert browser.execute_script("return cgView.playing()") is False
    stopped = frame(browser)
    time.sleep(0.3)
    assert frame(browser) == stopped
    check(browser, document, stopped)


@pytest.mark.parametrize("key", ["spring", "fall"])
def test_slider_navigation(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, key: str
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    document = documents[key]
    check = check_spring if key == "spring" else check_fall
    open_page(browser, replays[key], tmp_path, key)
    count = browser.execute_script("return cgView.frameCount()")
    slider = browser.find_element("css selector", '[data-testid="slider"]')
    assert slider.get_attribute("max") == str(count - 1)
    width = slider.size["width"]
    ActionChains(browser).move_to_element_with_offset(slider, width // 4, 0).click().perform()  # 3/4 of the way
    k = frame(browser)
    assert abs(k - 0.75 * (count - 1)) <= max(3, count // 20), (k, count)
    assert slider.get_attribute("value") == str(k)
    check(browser, document, k)
    ActionChains(browser).move_to_element_with_offset(slider, -width // 4, 0).click().perform()  # 1/4
    k = frame(browser)
    assert abs(k - 0.25 * (count - 1)) <= max(3, count // 20), (k, count)
    check(browser, document, k)
    # the focused slider's own keys: one step per arrow (not two), Home and End
    press(browser, Keys.ARROW_RIGHT)
    check(browser, document, k + 1)
    press(browser, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    check(browser, document, k - 1)
    press(browser, Keys.END)
    check(browser, document, count - 1)
    press(browser, Keys.HOME)
    check(browser, document, 0)
    # the buttons, and goto keeps the slider in step
    browser.find_element("css selector", '[data-testid="forward"]').click()
    check(browser, document, 1)
    browser.find_element("css selector", '[data-testid="last"]').click()
    check(browser, document, count - 1)
    browser.find_element("css selector", '[data-testid="back"]').click()
    check(browser, document, count - 2)
    browser.execute_script("cgView.goto(5)")
    assert slider.get_attribute("value") == "5"


@pytest.mark.parametrize("key", ["spring", "fall"])
def test_mid_game_screenshot(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, key: str
) -> None:
    """A screenshot of a mid-game frame, kept as a test artifact in the test's temporary folder."""
    open_page(browser, replays[key], tmp_path, key)
    count = browser.execute_script("return cgView.frameCount()")
    browser.execute_script("cgView.goto(arguments[0])", count // 2)
    shot = tmp_path / f"viewer-{documents[key]['game']}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


# -- inputs, outputs, verdicts --------------------------------------------------------------------


def test_each_bots_input_output_time_and_stderr_of_the_frame(
    browser: Any, documents: dict[str, Any], tmp_path: Path
) -> None:
    document = dict(documents["fall"])
    frames = [dict(f) for f in document["frames"]]
    document["frames"] = frames
    k = 4
    executions = [dict(e) for e in frames[k - 1]["executions"]]
    frames[k - 1]["executions"] = executions
    # a stderr that would end the embedding script if it were not escaped
    executions[1]["stderr"] = "thinking </script><script>window.hacked = 1</script> <!-- done\n"
    open_page(browser, document, tmp_path, "fall-stderr")
    browser.execute_script("cgView.goto(arguments[0])", k)
    shown = browser.execute_script(
        """
        return [...document.querySelectorAll('[data-testid="bot-io"]')].map((e) => ({
          player: +e.dataset.player,
          input: e.querySelector('[data-testid="input"]').textContent,
          output: e.querySelector('[data-testid="output"]').textContent,
          stderr: e.querySelector('[data-testid="stderr"]').textContent,
          time: e.querySelector('[data-testid="timebar"]').dataset.timeMs,
          limit: e.querySelector('[data-testid="timebar"]').dataset.limitMs,
          status: e.querySelector('[data-testid="exec-status"]').textContent,
        }));
        """
    )
    assert browser.execute_script("return window.hacked") is None
    for e in executions:
        got = shown[e["player"]]
        assert got["input"] == "\n".join(e["input"])
        assert got["output"] == e["output"]
        assert got["stderr"] == e["stderr"]
        assert float(got["time"]) == e["time_ms"] and got["limit"] == str(e["time_limit_ms"])
        assert f"of {e['time_limit_ms']} ms" in got["status"]
    actions = browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=\"action\"]')].map((e) => e.textContent)"
    )
    assert len(actions) == 2 and all(e["output"] in a for e, a in zip(executions, actions, strict=True))


def deactivation_frame(document: dict[str, Any]) -> tuple[int, int]:
    """(viewer frame, player) of the one deactivation of the replay."""
    found = [(i + 1, d["player"]) for i, f in enumerate(document["frames"]) for d in f["deactivations"]]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(("key", "kind"), [("crash", "crash"), ("timeout", "timeout"), ("invalid", "invalid")])
def test_verdict_at_the_frame_it_happened(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, key: str, kind: str
) -> None:
    document = documents[key]
    k, player = deactivation_frame(document)
    assert document["result"]["players"][player]["status"] == kind
    assert snapshot(document, k - 1)["active"][player] and not snapshot(document, k)["active"][player]
    open_page(browser, replays[key], tmp_path, key)

    def banner() -> list[list[Any]]:
        return browser.execute_script(
            """
            const b = document.querySelector('[data-testid="verdict-banner"]');
            return b.hidden ? [] : [...b.querySelectorAll('[data-testid="verdict"]')].map(
              (e) => [+e.dataset.player, e.dataset.kind, +e.dataset.frame, e.textContent]);
            """
        )

    def status() -> str:
        return str(
            browser.execute_script(
                "return document.querySelector('[data-testid=\"player-score\"][data-player=\"' + arguments[0] + '\"]')"
                ".dataset.status",
                player,
            )
        )

    browser.execute_script("cgView.goto(arguments[0])", k - 1)
    assert banner() == [] and status() == "active"
    browser.execute_script("cgView.goto(arguments[0])", k)
    (shown,) = banner()
    assert shown[:3] == [player, kind, k] and kind.upper() in shown[3]
    assert status() == kind
    if k + 1 < browser.execute_script("return cgView.frameCount()"):
        browser.execute_script("cgView.goto(arguments[0])", k + 1)
        assert banner() == [] and status() == kind
    marks = browser.execute_script(
        """
        return [...document.querySelectorAll('[data-testid="timeline-verdict"]')].map(
          (e) => [+e.dataset.frame, +e.dataset.player, e.dataset.kind]);
        """
    )
    assert marks == [[k, player, kind]]
    # clicking the timeline mark goes to the frame
    browser.execute_script("cgView.goto(0)")
    browser.find_element("css selector", '[data-testid="timeline-verdict"]').click()
    assert frame(browser) == k
    final = browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=\"final-verdict\"]')].map((e) => [+e.dataset.player,"
        " e.dataset.kind])"
    )
    assert final == [[player, kind]]


# -- a whole Spring game --------------------------------------------------------------------------


def test_a_full_spring_game_renders_small_and_steps_fast(
    browser: Any, replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    document = documents["spring"]
    last = document["frames"][-1]["snapshot"]
    assert last["day"] == last["max_rounds"] == 24 and document["result"]["end_reason"] == "max_rounds"
    page = open_page(browser, replays["spring"], tmp_path, "full")
    size = page.stat().st_size
    assert size < 2_000_000, f"{size} bytes"
    count = browser.execute_script("return cgView.frameCount()")
    assert count > 3 * 24
    started = time.perf_counter()
    result = browser.execute_script(
        """
        const t0 = performance.now();
        let worst = 0;
        for (let k = 0; k < cgView.frameCount(); k++) {
          const t = performance.now();
          cgView.goto(k);
          worst = Math.max(worst, performance.now() - t);
        }
        for (let k = cgView.frameCount() - 1; k >= 0; k--) cgView.step(-1);
        return [performance.now() - t0, worst, document.getElementById('app').dataset.renderError || null];
        """
    )
    elapsed = time.perf_counter() - started
    total_ms, worst_ms, error = result
    assert error is None
    assert elapsed < 0.2 * 2 * count, f"{elapsed:.2f} s for {2 * count} steps"
    assert total_ms < 200 * 2 * count, f"{total_ms:.0f} ms in the page for {2 * count} steps"
    assert worst_ms < 1000, f"one frame took {worst_ms:.0f} ms"
    check_spring(browser, document, 0)
    # each frame drawn by the browser itself (a new layout and paint), on the last frame
    browser.execute_script("cgView.goto(arguments[0])", count - 1)
    check_spring(browser, document, count - 1)


def test_the_page_is_self_contained(replays: dict[str, Path], tmp_path: Path) -> None:
    """No resource from the network: no external script, style, font or image, and a policy that
    forbids them."""
    for key in ("spring", "fall"):
        page = write_view(replays[key], tmp_path / f"{key}.html").read_text(encoding="utf-8")
        assert "default-src 'none'" in page
        head = page.split('<script type="application/json"', 1)[0]
        scripts = page.split("</script>", 1)[1]
        for text in (head, scripts):
            for needle in ("<script src", "<link", "@import", "url(", "http://", "https://"):
                assert needle not in text, needle


def test_a_game_without_a_renderer_gets_the_generic_view(
    browser: Any, documents: dict[str, Any], tmp_path: Path
) -> None:
    """Scores, chart, inputs and outputs, and the snapshot as text."""
    document = dict(documents["fall"], game="somegame")
    open_page(browser, document, tmp_path, "generic")
    browser.execute_script("cgView.goto(3)")
    shown = browser.execute_script("return document.querySelector('[data-testid=\"snapshot\"]').textContent")
    assert json.loads(shown) == snapshot(document, 3)
    scores = browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=\"score\"]')].map((e) => +e.dataset.score)"
    )
    assert scores == snapshot(document, 3)["scores"]


# -- what the bots wrote --------------------------------------------------------------------------


def test_a_bots_escape_sequences_and_markup_are_shown_as_escaped_text(browser: Any, tmp_path: Path) -> None:
    """Issue #31, point 8: what real bots wrote (answers, a message, stderr, the verdict that
    quotes them) is put in the page as text, not markup, its control characters shown escaped; the
    replay keeps them as they came."""
    replay = tmp_path / "evil.json"
    bots = [escaping_bot("escinvalid"), escaping_bot("escmessage", at=2)]
    played = CliRunner().invoke(main, ["play", "spring2021", *bots, "--seed", "1", "--replay", str(replay)])
    assert played.exit_code == 0, played.output
    document = read_replay(replay)
    assert EVIL in document["stderr_tail"][0]
    open_page(browser, document, tmp_path, "evil")
    places = (
        '[data-testid="stderr"]', '[data-testid="output"]', '[data-testid="action"]', '[data-testid="bot-message"]',
        '[data-testid="summary"]', '[data-testid="verdict"]', '[data-testid="final-verdict"]',
    )  # fmt: skip
    found: dict[str, list[str]] = {place: [] for place in places}
    for k in range(browser.execute_script("return cgView.frameCount()")):
        browser.execute_script("cgView.goto(arguments[0])", k)
        texts = browser.execute_script(
            """
            const app = document.getElementById("app");
            return {
              all: app.textContent,
              titles: [...app.querySelectorAll("[title]")].map((e) => e.title).join("\\n"),
              markup: app.querySelectorAll("i").length - document.querySelectorAll("footer i").length,
              places: Object.fromEntries(arguments[0].map((p) => [
                p, [...app.querySelectorAll(p)].map((e) => e.textContent),
              ])),
            };
            """,
            list(places),
        )
        assert texts["markup"] == 0, f"frame {k}: a bot's markup became HTML"
        for text in (texts["all"], texts["titles"]):
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text), (
                f"frame {k}: a control character shown: {text!r}"
            )
        for place, shown in texts["places"].items():
            found[place] += [t for t in shown if SHOWN in t]
        if SHOWN in texts["titles"]:
            found.setdefault("timeline", []).append(texts["titles"])
    assert all(found.values()) and "timeline" in found, {p: len(v) for p, v in found.items()}


def test_a_game_stopped_by_ctrl_c_after_its_end_shows_its_result(
    browser: Any, documents: dict[str, Any], tmp_path: Path
) -> None:
    """Issue #31, point 15: Ctrl-C while the bots are stopped at the game's end marks the match
    interrupted but keeps its result, which the page shows; without an outcome there is none."""
    whole = dict(documents["spring"], result=dict(documents["spring"]["result"], interrupted=True))
    open_page(browser, whole, tmp_path, "interrupted-at-the-end")
    shown = browser.execute_script("return document.querySelector('[data-testid=\"result\"]').textContent")
    assert " wins (" in shown and "no result" not in shown, shown
    partial = dict(whole, result=dict(whole["result"], scores=None, winner=None, end_reason="interrupted"))
    open_page(browser, partial, tmp_path, "interrupted")
    shown = browser.execute_script("return document.querySelector('[data-testid=\"result\"]').textContent")
    assert shown == "interrupted: no result"
