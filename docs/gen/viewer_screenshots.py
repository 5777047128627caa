"""Regenerate the replay viewer's screenshots shown in the docs (docs/viewer-spring2021.png,
docs/viewer-fall2020.png), or write them elsewhere to compare.

Each is a game of two shipped bots whose moves do not depend on the clock (``greedy`` against
``random``, a fixed seed), played by this checkout's arena with ``--replay``, shown by
``arena view`` in a headless Chromium (``apt-get install chromium chromium-driver``, and selenium,
part of the test extra) at its middle frame, in a window of a fixed size.

``python docs/gen/viewer_screenshots.py`` rewrites the committed pictures;
``python docs/gen/viewer_screenshots.py --out DIR`` writes them to DIR instead. A test
(tests/docs/test_screenshots.py) makes them again and compares them, pixel by pixel, with the
committed ones: only what timing decides (the response times printed for the frame) may differ.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CGARENA_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CGARENA_CHROMEDRIVER", "/usr/bin/chromedriver"))
WINDOW = (1400, 1000)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)


@dataclass(frozen=True)
class Shot:
    """One screenshot: the game played and the file it is written to."""

    game: str
    bots: tuple[str, str]
    seed: int

    @property
    def name(self) -> str:
        return f"viewer-{self.game}.png"


SHOTS = (Shot("spring2021", ("greedy", "random"), 3), Shot("fall2020", ("greedy", "random"), 1))


def arena(*args: str, cwd: Path) -> None:
    """Run this checkout's ``arena`` command; raise with its output if it fails."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    command = [sys.executable, "-c", "from cli.arena import main; main(prog_name='arena')", *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"arena {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


def browser(profile: Path) -> Any:
    """A headless Chromium driven by selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={WINDOW[0]},{WINDOW[1]}")
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def take(driver: Any, shot: Shot, folder: Path, out: Path) -> Path:
    """Play ``shot``'s game, show its middle frame and save the picture as ``out / shot.name``."""
    arena("play", shot.game, *shot.bots, "--seed", str(shot.seed), "--replay", "game.json", cwd=folder)
    arena("view", "game.json", "--no-open", "-o", "game.html", cwd=folder)
    driver.get((folder / "game.html").resolve().as_uri())
    deadline = time.monotonic() + 20
    while driver.execute_script("return document.getElementById('app').dataset.ready") != "true":
        if time.monotonic() > deadline:
            raise RuntimeError("the viewer did not start")
        time.sleep(0.05)
    count = driver.execute_script("return cgView.frameCount()")
    driver.execute_script("cgView.goto(arguments[0])", count // 2)
    time.sleep(0.2)  # the board's drawing after the frame change
    path = out / shot.name
    if not driver.save_screenshot(str(path)):
        raise RuntimeError(f"no screenshot for {shot.name}")
    return path


def make(out: Path) -> list[Path]:
    """Every screenshot, written to ``out``."""
    written = []
    with tempfile.TemporaryDirectory(prefix="cgarena-shots-") as scratch:
        driver = browser(Path(scratch) / "profile")
        try:
            for shot in SHOTS:
                folder = Path(scratch) / shot.game
                folder.mkdir()
                written.append(take(driver, shot, folder, out))
        finally:
            driver.quit()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs", help="where to write (default: docs/)")
    options = parser.parse_args(argv)
    for path in make(options.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
