"""Make the dashboard's screenshots in ``docs/dashboard/``: a small tournament (a gauntlet with an
SPRT and a crashing bot, every replay kept), a sweep and a ladder are played in a temporary
folder, served by ``arena serve``'s application from a thread, and photographed in headless
Chromium.

    python docs/gen/dashboard_screenshots.py [--out docs/dashboard]

Needs the ``serve`` and ``test`` extras (Flask, Selenium) and Chromium with its driver
(``apt-get install chromium chromium-driver``). ``tests/docs/test_dashboard_screenshots.py``
makes them again and compares them with the committed ones, pixel by pixel: only what timing
decides (latencies, times of day) may differ.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from arena.store.browse import find_games  # noqa: E402
from cli.arena import main as arena  # noqa: E402
from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, CHROMIUM_FLAGS, browser_problem  # noqa: E402
from tests.helpers.dashboard import served  # noqa: E402

SHORT = ["--workers", "1", "--no-progress"]


def run(*args: str) -> None:
    result = CliRunner().invoke(arena, list(args))
    if result.exit_code != 0:
        sys.exit(f"arena {' '.join(args)} failed:\n{result.output}")


def databases(folder: Path) -> tuple[Path, Path]:
    """The tournaments' database (a gauntlet, then a sweep) and the ladder's."""
    crasher = folder / "crasher.py"
    crasher.write_text("import sys\nsys.stdin.readline()\nprint('about to fail', file=sys.stderr)\nsys.exit('boom')\n")
    db = folder / "arena.sqlite"
    run(
        "tournament", "spring2021", "greedy", str(crasher), "wait", "random", "--games", "16", "--sprt",
        "--max-failures", "1", "--db", str(db), "--replays", str(folder / "replays"), "--keep", "all", *SHORT,
    )  # fmt: skip
    run(
        "tournament", "spring2021", "baseline=greedy", "greedy --complete-day {day}", "--sweep-bot", "greedy",
        "--grid", "day=6,9,12,15,18", "--baseline", "baseline", "--games", "8", "--db", str(db), *SHORT,
    )  # fmt: skip
    ladder = folder / "ladder.sqlite"
    run("ladder", "init", "spring2021", "--db", str(ladder))
    for name in ("greedy", "random", "wait"):
        run("ladder", "add", name, name, "--db", str(ladder))
    run("ladder", "run", "--games", "60", "--db", str(ladder), *SHORT)
    return db, ladder


def driver() -> Any:
    problem = browser_problem()
    if problem:
        sys.exit(problem)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--window-size=1280,1000")
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def shoot(browser: Any, url: str, out: Path, wait: float = 0.5) -> None:
    browser.get(url)
    time.sleep(wait)
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(max(height + 40, 600), 2400))
    browser.save_screenshot(str(out))
    print(f"wrote {out}")


SHOTS = ("tournaments.png", "tournament.png", "sweep.png", "games.png", "game.png", "ladder.png")
"""The pictures, in ``docs/dashboard/``."""


def make(out: Path) -> None:
    """Play the databases in a temporary folder and photograph every page of :data:`SHOTS` into
    ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db, ladder = databases(Path(tmp))
        browser = driver()
        try:
            with served(db) as url:
                shoot(browser, f"{url}/", out / "tournaments.png")
                shoot(browser, f"{url}/tournament/1", out / "tournament.png")
                shoot(browser, f"{url}/tournament/2", out / "sweep.png")
                shoot(browser, f"{url}/games?tournament=1&bot=greedy", out / "games.png")
                game = next(g for g in find_games(db, 1).games if all(p.status == "ok" for p in g.players))
                shoot(browser, f"{url}/game/{game.id}", out / "game.png", wait=2.0)
            with served(ladder) as url:
                shoot(browser, f"{url}/ladder/1", out / "ladder.png")
        finally:
            browser.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "dashboard", help="folder of the PNG files")
    make(parser.parse_args().out)


if __name__ == "__main__":
    main()
