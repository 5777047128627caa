"""``arena serve`` (#35) in a real browser (headless Chromium): a game's page opens its replay at
the frame the replay says, and a tournament's page follows a run in another process without
being reloaded."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.match.replay import read_replay
from arena.tournament.browse import find_games
from tests.helpers.dashboard import served, tournament_db
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
            assert browser.find_element("id", "games-stored").text == "0"
            browser.execute_script("window.notReloaded = true")
            hold.unlink()  # the held bot plays on: games are stored

            def grew() -> bool:
                return int(browser.find_element("id", "games-stored").text) > 0

            wait_for(grew, "the page to show the new games", timeout=60)
            assert browser.execute_script("return window.notReloaded === true")
            assert proc.wait(120) == 0
            wait_for(lambda: browser.find_element("id", "games-stored").text == "6", "all six games", timeout=30)
            assert browser.execute_script("return window.notReloaded === true")
    finally:
        if hold.exists():
            hold.unlink()
        proc.kill()
        proc.wait(30)
