"""Which files make a bot's identity (its source hash), issue #31: its code and declared data, not
every path among its arguments (a bot appending to its log resumes); never a FIFO, a device or a
file over the size limit (each left out and named); the hashes of ordinary bots as before, and
tournaments stored with the earlier rule still resume."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.launch.botspec import BotSpec
from arena.store.results import Store
from arena.tournament import TournamentScheduler
from arena.tournament.config import load_config
from arena.versions import provenance
from tests.helpers.spring_text_bots import spring_bot_text
from tests.helpers.storage import ARENA, rows

FAST = ["--param", "MAX_ROUNDS=3", "--seed", "5", "--no-progress"]
GIB = 1 << 30


def waiting_bot(folder: Path, prologue: str = "") -> Path:
    """A bot that WAITs every turn, after ``prologue`` (Python run once at its start)."""
    bot = folder / "bot.py"
    bot.write_text(spring_bot_text(repr("WAIT"), imports=prologue))
    return bot


def limited(gib: int) -> None:
    """In the child: at most ``gib`` GiB of address space (reading /dev/urandom fails early)."""
    resource.setrlimit(resource.RLIMIT_AS, (gib << 30, gib << 30))


def arena(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARENA, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=lambda: limited(4),
    )


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(("note:", "warning:"))]


# -- arguments that are not regular files ----------------------------------------------------------


@pytest.fixture(params=["/dev/urandom", "fifo"])
def odd_argument(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "fifo":
        os.mkfifo(tmp_path / "fifo")
    return str(request.param)


def test_a_bot_argument_that_is_a_device_or_a_fifo_is_named_not_read(tmp_path: Path, odd_argument: str) -> None:
    """Observed: ``/dev/urandom`` read to 2.3 GB, then a MemoryError traceback; a FIFO waited
    for a writer forever, silently."""
    waiting_bot(tmp_path)
    result = arena(tmp_path, "tournament", "spring2021", f"bot.py {odd_argument}", "wait", "--games", "2", *FAST)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    (note,) = notes(result.stderr)
    assert note.startswith("note: files named on the bots' command lines are not part of their hashes")
    assert f"(bot: {odd_argument})" in note and "list those a bot reads under data:" in note


def test_declared_data_that_is_no_regular_file_or_too_large_is_left_out_and_named(tmp_path: Path) -> None:
    """A FIFO, a device and a file over the limit (sparse: nothing is written) as data: the run
    goes on, and says what its hash leaves out."""
    waiting_bot(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    with (tmp_path / "huge.bin").open("wb") as huge:
        huge.truncate(GIB + 1)
    (tmp_path / "t.yaml").write_text(
        "game: spring2021\n"
        "bots: [{name: mine, bot: bot.py, data: [pipe, /dev/urandom, huge.bin]}, wait]\n"
        "games: 2\nparams: {MAX_ROUNDS: 3}\n"
    )
    result = arena(tmp_path, "tournament", "t.yaml", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert provenance.HASH_LIMIT == GIB
    assert sorted(notes(result.stderr)) == [
        "warning: bot 'mine': /dev/urandom (a character device, not a regular file) is left out of its source hash",
        f"warning: bot 'mine': {tmp_path}/huge.bin (1 GiB, over the 1 GiB limit) is left out of its source hash",
        f"warning: bot 'mine': {tmp_path}/pipe (a named pipe (FIFO), not a regular file) is left out of its "
        "source hash",
    ]
    (files,) = rows(tmp_path / "arena.sqlite", "SELECT files FROM bots WHERE name = 'mine'")[0]
    assert json.loads(files) == [str(tmp_path / "bot.py")]


def test_a_fifo_inside_a_data_folder_is_named_and_the_hash_is_unchanged(tmp_path: Path) -> None:
    """A folder is taken whole: a FIFO in it is left out and named, like a FIFO declared itself;
    the files hashed are the folder's regular files, as before."""
    bot = waiting_bot(tmp_path)
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "a.txt").write_text("a")
    spec = BotSpec(name="mine", argv=(sys.executable, str(bot)), data=(str(tmp_path / "book"),))
    before = provenance.sources_of(spec)
    os.mkfifo(tmp_path / "book" / "pipe")
    after = provenance.sources_of(spec)
    assert after.files == before.files == [tmp_path / "book" / "a.txt", bot]
    assert after.skipped == [f"{tmp_path}/book/pipe (a named pipe (FIFO), not a regular file)"]


def test_a_bot_that_is_a_fifo_is_refused_in_one_line(tmp_path: Path) -> None:
    """Observed: the tournament, and ``bundle``, waited for a writer forever."""
    os.mkfifo(tmp_path / "fifo.py")
    result = arena(tmp_path, "tournament", "spring2021", "fifo.py", "wait", "--games", "2", *FAST, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Error: bot 'fifo': {tmp_path}/fifo.py: a named pipe (FIFO), not a regular file: a bot is a file, "
        "a directory or a command"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.py"]  # no database made
    bundled = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.bundle import main; sys.exit(main())", "fifo.py", "-o", "out.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bundled.returncode == 1
    assert bundled.stderr.strip() == (
        f"bundle: error: {tmp_path}/fifo.py: cannot read it as Python source: a named pipe (FIFO), not a regular file"
    )


# -- what the hash covers ---------------------------------------------------------------------------


def test_a_bot_appending_to_the_log_on_its_command_line_resumes(tmp_path: Path) -> None:
    """Observed: "bot changed" on every resume: the log named among its arguments was hashed."""
    waiting_bot(tmp_path, "import sys\nwith open(sys.argv[1], 'a') as log:\n    log.write('started\\n')\n")
    command = ["tournament", "spring2021", "bot.py bot.log", "wait", "--sandbox", "off", *FAST]
    first = arena(tmp_path, *command, "--games", "2")
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "bot.log").read_text().count("started") >= 2
    again = arena(tmp_path, *command, "--games", "4")
    assert again.returncode == 0, again.stderr
    assert "tournament 1 (resumed, 2 games already stored)" in again.stdout
    assert notes(again.stderr) == [
        "note: resumed with the bots' code and declared data (data:) unchanged; other files they read are not "
        "checked (bot: bot.log): list those under data: in a config to have a change refused"
    ]


def test_changed_declared_data_is_a_new_version_and_a_new_tournament_naming_data(tmp_path: Path) -> None:
    """#43: changed data makes the bot another version: a new tournament starts for it (no
    --new), the first keeps its games, and the warning says why, naming data:."""
    (tmp_path / "weights.bin").write_bytes(b"\x00\x01")
    (tmp_path / "t.yaml").write_text(
        "game: spring2021\nbots: [{name: mine, bot: greedy, data: [weights.bin]}, random]\ngames: 2\ndb: r.sqlite\n"
    )
    config = load_config(tmp_path / "t.yaml")
    with Store(config.db) as store:
        assert TournamentScheduler(config).open(store) == (1, False)
    (tmp_path / "weights.bin").write_bytes(b"\x00\x02")
    with Store(config.db) as store:
        scheduler = TournamentScheduler(config)
        assert scheduler.open(store) == (2, False)
    (changed,) = [w for w in scheduler.warnings() if "tournament 1" in w]
    assert changed.startswith("bot 'mine' is mine@2 (tournament 1 played mine@1: its code, or the data its config")
    assert "lists under data:, changed): tournament 1 keeps its games, and a new tournament starts" in changed
    (tmp_path / "weights.bin").write_bytes(b"\x00\x01")  # back to the first version: its tournament resumes
    with Store(config.db) as store:
        assert TournamentScheduler(config).open(store) == (1, True)


def test_ordinary_bots_hash_as_before(tmp_path: Path) -> None:
    """The hashes cgarena computed before this rule, for the same files (anywhere)."""
    (tmp_path / "bot.py").write_text("import helper\n\nprint(helper.X)\n")
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "__main__.py").write_text("from .loop import run\n\nrun()\n")
    (tmp_path / "pkg" / "loop.py").write_text("def run():\n    pass\n")
    (tmp_path / "pkg" / "book.txt").write_text("e4\n")
    (tmp_path / "w.bin").write_bytes(b"\x00\x01")
    python, bot = sys.executable, str(tmp_path / "bot.py")
    script = BotSpec("a", (python, "-u", bot, "--depth", "3"))
    package = BotSpec("b", (python, "-u", "-m", "pkg", "--fast"), cwd=str(tmp_path))
    with_data = BotSpec("c", (python, "-u", bot), data=(str(tmp_path / "w.bin"),))
    assert provenance.identity(script).row.source_hash == "e0e495aa77845e78"
    assert provenance.identity(package).row.source_hash == "d9cfb486150c3c23"
    assert provenance.identity(with_data).row.source_hash == "2f36e962d3c690e8"


def test_a_tournament_stored_when_arguments_were_hashed_still_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot with a file among its arguments, stored by a release that hashed it: recognised by
    that rule (the file unchanged), so its tournament resumes."""
    monkeypatch.chdir(tmp_path)  # where the script bot runs, and its argument is found
    waiting_bot(tmp_path)
    (tmp_path / "opening.txt").write_text("e4\n")
    (tmp_path / "t.yaml").write_text(
        "game: spring2021\nbots: [{name: mine, bot: bot.py, args: [opening.txt]}, random]\ngames: 2\ndb: r.sqlite\n"
    )
    config = load_config(tmp_path / "t.yaml")
    with Store(config.db) as store:
        TournamentScheduler(config).open(store)
    earlier = [tmp_path / "bot.py", tmp_path / "opening.txt"]  # what earlier releases stored
    with Store(config.db) as store:
        store._db.execute(
            "UPDATE bots SET source_hash = ?, files = ? WHERE name = 'mine'",
            (provenance.source_hash(earlier), json.dumps([str(f) for f in earlier])),
        )
    with Store(config.db) as store:
        assert TournamentScheduler(config).open(store)[1]  # resumed
