"""``arena serve`` (#35) in a real browser (headless Chromium): a game's page opens its replay at
the frame the replay says, and a tournament's page follows a run in another process without
being reloaded."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.match.replay import read_replay
from arena.store.browse import find_games
from tests.helpers.dashboard import EVIL, arena, evil_tournament, served, tournament_db
from tests.helpers.paths import REPO_ROOT
from tests.helpers.storage import held_bot, playing, tournament_argv, wait_for
from tests.helpers.viewer_page import check_spring, press

pytest.importorskip("flask", reason="the dashboard needs Flask: pip install -e '.[test]'")


def _ready(driver: Any) -> None:
    deadline = time.monotonic() + 20
    while driver.execute_script("const a = document.getElementById('app'); return a && a.dataset.ready") != "true":
        assert time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.05)


def test_a_game_page_opens_its_replay_at_the_frame_of_the_replay(browser: Any, tmp_path: Path) -> None:
    db = tournament_db(tmp_path)
    game = next(g for g in find_games(db, 1).games if all(p.status == "ok" for p in g.players))
    assert game.replay is not None
    document = read_replay(Path(game.replay))
    with served(db) as url:
        browser.get(f"{url}/game/{game.id}")
        assert browser.find_element("id", "command").text.startswith("cd ")
        browser.switch_to.frame(browser.find_element("id", "replay"))
        try:
            _ready(browser)
            browser.find_element("tag name", "body").click()
            check_spring(browser, document, 0)
            press(browser, "\ue014", "\ue014", "\ue014")  # three steps forward (ArrowRight)
            check_spring(browser, document, 3)
        finally:
            browser.switch_to.default_content()


def stored_shown(driver: Any) -> str:
    """The games stored, as the page shows them now (read in one script: the page swaps its
    content in while it is read)."""
    return str(driver.execute_script("return document.getElementById('games-stored').textContent"))


def test_a_tournament_page_follows_a_running_tournament_without_a_reload(browser: Any, tmp_path: Path) -> None:
    bot, hold = held_bot(tmp_path)
    hold.write_text("")
    db = tmp_path / "live.sqlite"
    argv = [sys.executable, "-m", "cli", *tournament_argv(bot, db, 6, "--workers", "1")]
    proc = subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: db.exists() and playing(db), "the tournament to start")
        with served(db) as url:
            browser.get(f"{url}/tournament/1")
            assert stored_shown(browser) == "0"
            browser.execute_script("window.notReloaded = true")
            hold.unlink()  # the held bot plays on: games are stored

            def grew() -> bool:
                return int(stored_shown(browser)) > 0

            wait_for(grew, "the page to show the new games", timeout=60)
            assert browser.execute_script("return window.notReloaded === true")
            assert proc.wait(120) == 0
            wait_for(lambda: stored_shown(browser) == "6", "all six games", timeout=30)
            assert browser.execute_script("return window.notReloaded === true")
    finally:
        if hold.exists():
            hold.unlink()
        proc.kill()
        proc.wait(30)


def _cells(driver: Any, table: str) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' tbody tr')]"
        ".map((tr) => [...tr.children].map((td) => td.textContent.trim()))",
        f"#{table}",
    )


def test_in_the_browser_the_figures_the_crash_filter_and_the_escaping_hold(browser: Any, tmp_path: Path) -> None:
    """The acceptance's browser checks, on what Chromium shows: the tournament's figures are
    ``arena results --format json``'s, the games list filtered (with its form) by crash is
    ``arena matches list --status crash``, a bot named like markup is text, ``../`` gets 404."""
    from selenium.webdriver.support.ui import Select

    (tmp_path / "t").mkdir()
    db = tournament_db(tmp_path / "t")
    results = json.loads(arena("results", "--db", str(db), "--format", "json"))
    crashed = json.loads(arena("matches", "list", "--db", str(db), "--status", "crash", "--format", "json"))
    with served(db) as url:
        browser.get(f"{url}/tournament/1")
        rows = _cells(browser, "comparisons")
        assert [r[2] for r in rows] == [f"{c['wins']}-{c['draws']}-{c['losses']}" for c in results["comparisons"]]
        assert [r[8] for r in rows] == ["[" + ", ".join(map(str, c["penta"])) + "]" for c in results["comparisons"]]
        browser.get(f"{url}/games?tournament=1")
        Select(browser.find_element("name", "status")).select_by_visible_text("crash")
        browser.find_element("css selector", "#filters button").click()
        wait_for(lambda: "status=crash" in browser.current_url, "the filtered list")
        assert [int(r[0]) for r in _cells(browser, "games")] == [g["id"] for g in crashed["games"]]
        statuses = browser.execute_script(
            "return Promise.all(['/static/../app.py', '/game/1/replay/../../../etc/passwd', '/%2e%2e/etc/passwd']"
            ".map((u) => fetch(u).then((r) => r.status)))"
        )
        assert statuses == [404, 404, 404]
    evil_db = evil_tournament(tmp_path)
    with served(evil_db) as url:
        for page in ("/", "/tournament/1", "/games?tournament=1", "/game/1"):
            browser.get(url + page)
            assert browser.execute_script("return document.querySelectorAll('img').length") == 0, page
            assert EVIL in browser.find_element("tag name", "main").text, page
