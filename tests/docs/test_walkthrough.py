"""The new user's walkthrough (issue #37), docs/getting-started/walkthrough.md, executed end to end:
every command of the page, in its order, in one folder (install, ``arena new``, play, tournament,
find a lost game, view it, bundle, push it into the IDE), each succeeding with the output the page
shows; the push against a scripted CG Local extension (``tests/helpers/cglocal.py``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.docs import load_regen
from tests.helpers.paths import REPO_ROOT
from tests.helpers.sandboxing import require_sandbox

regen = load_regen()
PAGE = REPO_ROOT / "docs" / "getting-started" / "walkthrough.md"
STEPS = ("arena new", "arena play", "arena tournament", "arena matches list", "arena view", "bundle")
"""The steps run by the generator, in order; step 8 (the push) is run by :func:`push_to_the_ide`."""


def test_the_page_has_every_step_in_order():
    commands = [b.arg for b in regen.blocks(PAGE) if b.kind == "run"]
    firsts = [next(i for i, c in enumerate(commands) if c.startswith(step)) for step in STEPS]
    assert firsts == sorted(firsts), commands
    assert "python -m pip install -e '.[test]'" in PAGE.read_text()  # the install step (the suite runs installed)


def test_the_walkthrough_runs_end_to_end_with_the_outputs_shown(tmp_path: Path):
    require_sandbox()  # the outputs shown were made with the sandbox
    drift = regen.differences(PAGE, tmp_path)
    if drift:  # a second session, in a folder of its own: a timeout on a busy machine is not a drift
        (tmp_path := tmp_path / "again").mkdir()
        drift = regen.differences(PAGE, tmp_path)
    assert not drift, "\n".join(drift) + "\nregenerate with: python docs/gen/regen.py"
    # what the steps leave behind: the starter bot, the results, the lost game's replay and its
    # viewer page, the bundle
    assert (tmp_path / "mybot" / "__main__.py").is_file()
    assert (tmp_path / "arena.sqlite").is_file()
    viewer = tmp_path / "replays" / "game2-seed6655178885845555200.html"
    assert viewer.is_file() and "<html" in viewer.read_text().lower()
    bundle = (tmp_path / "mybot.cg.py").read_text()
    assert "def choose(" in bundle and "from .strategy" not in bundle
    push_to_the_ide(tmp_path)


IDE_CODE = "print('WAIT')\n"
"""What the scripted IDE holds before the push (14 characters, as the page shows)."""


def shown_push() -> tuple[str, list[str]]:
    """Step 8's command and the lines the page shows for it."""
    text = PAGE.read_text().split("<!-- push:", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    first, *lines = text.strip().splitlines()
    return first.removeprefix("$ "), lines


def _masked(line: str) -> str:
    """A line without what changes from run to run: the port (a test's own), the backup's time."""
    line = re.sub(r"ws://localhost:\d+/", "ws://localhost:PORT/", line)
    return re.sub(r"ide-(\d+)-\d{8}-\d{6}\.txt", r"ide-\1-TIME.txt", line)


def push_to_the_ide(folder: Path) -> None:
    """Step 8: the page's command against a scripted CG Local extension, with the lines it shows;
    the IDE ends up holding the bundle of step 7, and its own code saved."""
    from tests.helpers.cglocal import BundleProcess, Extension, free_port

    command, shown = shown_push()
    port = free_port()
    process = BundleProcess(folder, port, *shlex.split(command)[1:])
    ide = Extension(port, code=IDE_CODE, title="Spring Challenge 2021", question_id=8339)
    actions = [ide.next()["action"] for _ in range(5)]
    assert actions == ["send-details", "app-ready", "set-read-only", "send-code", "update-code"]
    assert process.finish() == 0
    assert [_masked(line) for line in process.stderr().splitlines()] == [_masked(line) for line in shown]
    assert ide.code == (folder / "mybot.cg.py").read_text()
    (saved,) = (folder / "cg-local-backups").iterdir()
    assert saved.read_text() == IDE_CODE
