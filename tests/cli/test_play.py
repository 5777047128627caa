"""``arena play`` from the command line."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match import sandbox
from arena.match.limits import enforcement
from arena.match.replay import read_replay
from cli.arena import main
from cli.bundle import main as bundle_main
from tests.helpers.escapes import SHOWN, assert_shown_escaped, escaping_bot
from tests.helpers.paths import FAULTY, SHIPPED_BOTS
from tests.helpers.sandboxing import gone, marker, processes_with, require_sandbox


def test_play_with_no_arguments_plays_the_default_match():
    result = CliRunner().invoke(main, ["play", "--seed", "-5"])
    assert result.exit_code == 0, result.output
    assert "beam vs greedy, seed -5" in result.output
    assert "result: " in result.output
    assert "arena play spring2021 beam greedy --seed -5" in result.output


def test_play_fall2020_with_no_bots_plays_its_default_match():
    result = CliRunner().invoke(main, ["play", "fall2020", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "beam vs greedy, seed 3" in result.output
    assert "result: " in result.output


def test_shipped_names_run_from_any_directory_even_beside_a_users_bots_folder(tmp_path, monkeypatch):
    """A shipped module bot runs from the directory that holds the toolkit's ``bots`` package, so
    a ``bots/`` folder of the user's in the current directory cannot shadow it."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "__init__.py").write_text("raise SystemExit('the user folder was imported')\n")
    monkeypatch.chdir(tmp_path)
    # limits scaled by 5: beam searches until 80 ms of its 100, which a busy machine can push past
    args = ["play", "spring2021", "wait", "beam", "--seed", "4", "--json", "--time-scale", "5"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert [p["status"] for p in data["players"]] == ["ok", "ok"]
    assert data["winner"] == 1


def test_json_is_the_last_line_and_complete():
    result = CliRunner().invoke(main, ["play", "spring2021", "random", "greedy", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["game"] == "spring2021" and data["seed"] == 7
    assert data["end_reason"] == "max_rounds" and data["turns"] > 24
    assert len(data["scores"]) == 2 and data["winner"] in (0, 1, None)
    for p in data["players"]:
        assert p["status"] == "ok"
        assert p["latency_ms"]["median"] <= p["latency_ms"]["max"]


def test_swap_changes_seats_and_same_seed_same_map(tmp_path):
    a = CliRunner().invoke(main, ["play", "spring2021", "random", "greedy", "--seed", "9", "--json"])
    b = CliRunner().invoke(main, ["play", "spring2021", "greedy", "random", "--seed", "9", "--json", "--swap"])
    da = json.loads(a.stdout.strip().splitlines()[-1])
    db = json.loads(b.stdout.strip().splitlines()[-1])
    assert da["scores"] == db["scores"]
    assert [p["name"] for p in db["players"]] == ["random", "greedy"]


def test_replay_file_has_every_execution(tmp_path):
    path = tmp_path / "game.json"
    # the default match (beam answers near its limit by design): a generous time scale, so that a
    # busy machine cannot cut the game short with a timeout
    result = CliRunner().invoke(main, ["play", "--seed", "3", "--replay", str(path), "--time-scale", "5"])
    assert result.exit_code == 0, result.output
    doc = read_replay(path)
    assert doc["game"] == "spring2021" and doc["seed"] == "3"
    assert doc["frames"][0]["executions"][0]["input"][0] == "37"
    answers = [e for f in doc["frames"] for e in f["executions"] if e["expected_lines"]]
    assert answers and all(e["output"] is not None and e["time_ms"] >= 0 for e in answers)
    assert doc["frames"][-1]["snapshot"]["day"] == 24
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_bad_bot_is_one_clear_line():
    result = CliRunner().invoke(main, ["play", "spring2021", "greedy", "no_such_bot.py"])
    assert result.exit_code == 2
    assert "no_such_bot.py" in result.output and "Traceback" not in result.output


def test_bot_that_cannot_start_fails_the_command(tmp_path):
    """Issue #16: a bot that cannot start (here a syntax error) is no game: `arena play` fails
    before the match, in one line with the bot's error (exit 1)."""
    script = tmp_path / "broken.py"
    script.write_text("def oops(:\n")
    result = CliRunner().invoke(main, ["play", "spring2021", str(script), "greedy", "--json", "--seed", "1"])
    assert result.exit_code == 1, result.output
    (error,) = result.stderr.splitlines()
    assert error.startswith("Error: bot 'broken' failed to start") and "SyntaxError" in error
    assert result.stdout == ""


def test_a_note_says_when_the_limits_are_only_approximate(monkeypatch):
    """Where the watchdog holds the limits (no cgroups for the bots; forced here), a note says so
    before the match; where cgroups hold them, none."""
    args = ["play", "spring2021", "random", "greedy", "--seed", "7", "--sandbox", "off"]
    if enforcement.enforcement() != "watchdog":
        plain = CliRunner().invoke(main, args)
        assert plain.exit_code == 0, plain.output
        assert "approximate" not in plain.output
    monkeypatch.setattr(enforcement, "_forced", "watchdog")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    (note,) = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert note.startswith("note: the memory and process limits are approximate here: without cgroups")
    assert "result: " in result.stdout


def test_unknown_game_and_bad_seed():
    assert CliRunner().invoke(main, ["play", "chess"]).exit_code == 2
    bad = CliRunner().invoke(main, ["play", "--seed", str(2**63)])
    assert bad.exit_code == 2 and "Java long" in bad.output


def test_ctrl_c_kills_the_bots_and_reports_a_partial_result(tmp_path):
    mark = marker()
    cmd = [
        sys.executable,
        "-m",
        "cli",
        "play",
        "spring2021",
        f"{sys.executable} {FAULTY} hang 2 {mark}",
        "greedy",
        "--no-timeout",
        "--seed",
        "4",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    header = proc.stdout.readline()  # printed once the bots passed their start check
    assert header.startswith("Spring Challenge 2021"), header
    deadline = time.monotonic() + 10
    while not processes_with(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(mark), "the bot did not start"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, _err = proc.communicate(timeout=10)
    assert proc.returncode == 130
    assert "interrupted" in header + out
    assert gone(mark)


def _starts_marker_bot(tmp_path: Path) -> tuple[str, Path]:
    """A bot that leaves a file behind as soon as it starts."""
    marker = tmp_path / "started"
    bot = tmp_path / "marker_bot.py"
    bot.write_text(f"open({str(marker)!r}, 'w').close()\nimport time\ntime.sleep(30)\n")
    return str(bot), marker


@pytest.mark.parametrize(
    "where,message",
    [
        ("missing/dir/game.json", "no such directory"),
        (".", "is a directory"),
        ("notes.txt/game.json", "no such directory"),
    ],
)
def test_a_bad_replay_path_is_refused_before_the_game(tmp_path, monkeypatch, where, message):
    """Point 10: checked before any bot starts, one line, nothing lost."""
    (tmp_path / "notes.txt").write_text("a file, not a folder\n")
    bot, marker = _starts_marker_bot(tmp_path)
    monkeypatch.chdir(tmp_path)
    # unsandboxed: the bot must be able to leave its file, were it started
    result = CliRunner().invoke(
        main, ["play", "spring2021", bot, "wait", "--seed", "1", "--replay", where, "--sandbox", "off"]
    )
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not marker.exists()


def test_the_replay_hint_is_the_exact_command(tmp_path):
    """Point 11: every option that changes the game, shell-quoted; running it plays the same."""
    spaced = tmp_path / "my bots"
    spaced.mkdir()
    bot = spaced / "wait bot.py"
    bot.write_text((SHIPPED_BOTS / "spring2021" / "wait_bot.py").read_text())
    args = [
        "play",
        "spring2021",
        f"mine={bot}",
        "random",
        "--seed",
        "0x1F",
        "--param",
        "MAX_ROUNDS=3",
        "--time-scale",
        "2.5",
        "--memory-limit",
        "512",
        "--swap",
        "--json",
    ]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    hint = next(line for line in first.output.splitlines() if line.startswith("replay this match with: "))
    words = shlex.split(hint.removeprefix("replay this match with: "))
    used = "on" if sandbox.support().works else "off"  # --sandbox auto: the mode it came to
    assert words == [
        "arena",
        "play",
        "spring2021",
        f"mine={bot}",
        "random",
        "--seed",
        "31",
        "--swap",
        "--time-scale",
        "2.5",
        "--memory-limit",
        "512",
        "--param",
        "MAX_ROUNDS=3",
        "--sandbox",
        used,
    ]
    again = CliRunner().invoke(main, [*words[1:], "--json"])
    a = json.loads(first.stdout.strip().splitlines()[-1])
    b = json.loads(again.stdout.strip().splitlines()[-1])
    assert (a["seed"], a["scores"], a["turns"]) == (b["seed"], b["scores"], b["turns"])
    assert [p["name"] for p in a["players"]] == ["random", "mine"]
    no_timeout = CliRunner().invoke(
        main, ["play", "spring2021", "wait", "wait", "--seed", "2", "--no-timeout", "--param", "MAX_ROUNDS=1"]
    )
    assert "--no-timeout" in no_timeout.output.splitlines()[-1]


def _data_bot(folder: Path) -> Path:
    """A spring2021 bot in ``folder/bot`` that plays the action written in ``folder/weights/move.txt``
    (read at its first turn, so it starts even where it cannot read it): a bot with a data file
    outside its own folder."""
    (folder / "bot").mkdir()
    (folder / "weights").mkdir()
    (folder / "weights" / "move.txt").write_text("WAIT\n")
    bot = folder / "bot" / "reader.py"
    source = (SHIPPED_BOTS / "spring2021" / "wait_bot.py").read_text()
    bot.write_text(
        source.replace(
            'print("WAIT", flush=True)',
            f"print(open({str(folder / 'weights' / 'move.txt')!r}).read().strip(), flush=True)",
        )
    )
    return bot


@pytest.mark.parametrize("mode", ["off", "on"])
def test_the_replay_hint_keeps_the_sandbox_and_the_data_files(tmp_path, monkeypatch, mode):
    """The hint asks for the sandbox the game ran in and names each bot's data files with --data
    N=PATH (N: the bot's place among the BOTs, which --swap does not change); run, it plays the
    same game. Sandboxed, the bot reads its data only because it is declared."""
    if mode == "on":
        require_sandbox()
    _data_bot(tmp_path)
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")  # neither the bot's folder nor its data's
    args = [
        "play",
        "spring2021",
        "greedy",
        "../bot/reader.py",
        "--seed",
        "5",
        "--data",
        "2=../weights/move.txt",
        "--param",
        "MAX_ROUNDS=3",
        "--swap",
        "--sandbox",
        mode,
        "--json",
    ]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    hint = next(line for line in first.output.splitlines() if line.startswith("replay this match with: "))
    words = shlex.split(hint.removeprefix("replay this match with: "))
    assert words == [
        "arena",
        "play",
        "spring2021",
        "greedy",
        "../bot/reader.py",
        "--seed",
        "5",
        "--data",
        "2=../weights/move.txt",
        "--swap",
        "--param",
        "MAX_ROUNDS=3",
        "--sandbox",
        mode,
    ]
    a = json.loads(first.stdout.strip().splitlines()[-1])
    assert [p["name"] for p in a["players"]] == ["reader", "greedy"]  # the file's name without .py (#34 point 11)
    assert [p["status"] for p in a["players"]] == ["ok", "ok"]
    again = CliRunner().invoke(main, [*words[1:], "--json"])
    assert again.exit_code == 0, again.output
    b = json.loads(again.stdout.strip().splitlines()[-1])
    assert (a["seed"], a["scores"], a["turns"], a["sandbox"]) == (b["seed"], b["scores"], b["turns"], mode)
    if mode == "on":  # without --data the sandbox hides the file: the bot crashes on its first turn
        undeclared = [w for w in words[1:] if w not in ("--data", "2=../weights/move.txt")]
        blind = CliRunner().invoke(main, [*undeclared, "--json"])
        assert "No such file or directory" in blind.output, blind.output


def test_bad_data_is_one_line_before_any_bot_starts(tmp_path, monkeypatch):
    bot, marker = _starts_marker_bot(tmp_path)
    (tmp_path / "book.txt").write_text("e4\n")
    monkeypatch.chdir(tmp_path)
    for given, message in (
        ("book.txt", "expected N=PATH"),
        ("0=book.txt", "expected N=PATH"),
        ("x=book.txt", "expected N=PATH"),
        ("1=", "expected N=PATH"),
        ("3=book.txt", "there is no bot 3 (2 bots)"),
        ("2=missing.txt", "--data 2=missing.txt: no such file or directory"),
    ):
        result = CliRunner().invoke(
            main, ["play", "spring2021", bot, "wait", "--seed", "1", "--data", given, "--sandbox", "off"]
        )
        assert result.exit_code == 2, (given, result.output)
        error = [line for line in result.output.splitlines() if line.startswith("Error: ")]
        assert len(error) == 1 and message in error[0], (given, result.output)
        assert "Traceback" not in result.output
    assert not marker.exists()


def test_versions():
    """Point 16."""
    from importlib.metadata import version

    for command in (main, bundle_main):
        result = CliRunner().invoke(command, ["--version"])
        assert result.exit_code == 0
        assert version("cgarena") in result.output


def test_a_replay_file_gets_the_usual_permissions(tmp_path):
    """Point 16: 0666 less the umask (mkstemp alone gives 0600)."""
    path = tmp_path / "game.json"
    old = os.umask(0o022)
    try:
        result = CliRunner().invoke(
            main,
            ["play", "spring2021", "wait", "wait", "--seed", "1", "--param", "MAX_ROUNDS=1", "--replay", str(path)],
        )
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert path.stat().st_mode & 0o777 == 0o644


# -- issue #31, point 8: a bot's escape sequences never reach the terminal --------------------------


def play_bytes(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``arena play`` as a user runs it, its output as the terminal would get it (bytes)."""
    return subprocess.run(
        [sys.executable, "-m", "cli", "play", "spring2021", *args, "--seed", "1", "--sandbox", "off"],
        cwd=cwd,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(SHIPPED_BOTS.parent)},
    )


@pytest.mark.parametrize(
    ("mode", "flags", "where", "times", "status"),
    [
        # the disqualification line quotes the answer, the result its verdict; each stderr line
        (
            "escinvalid",
            ["--show-stderr"],
            ["disqualified: ", ": invalid (", "stderr 0: evil ", "stderr 0: second "],
            4,
            0,
        ),
        ("escinvalid", ["-v"], ["Got 'JUMP "], 1, 0),  # the referee's summary quotes the answer
        ("esccrash", [], [": crash (no answer: the bot exited with code 3 (dying "], 1, 0),  # its last stderr line
        ("escstart", [], ["failed to start: it exited with code 1 before its first input (no start "], 1, 1),
    ],
    ids=["answer-and-stderr", "verbose", "crash", "start"],
)
def test_a_bots_escape_sequences_are_printed_escaped(tmp_path, mode, flags, where, times, status):
    """Issue #31, point 8: what a real bot wrote (its answer, its stderr), printed by arena play as
    it goes, in its result or in its failure, has its control characters escaped."""
    ran = play_bytes(escaping_bot(mode), "wait", *flags, cwd=tmp_path)
    assert ran.returncode == status, ran.stdout + ran.stderr
    text = assert_shown_escaped(ran.stdout + ran.stderr, times)
    for line in where:  # each place, one line, which quotes the sequence escaped
        assert any(line in printed and SHOWN in printed for printed in text.splitlines()), (line, text)


# -- issue #31, point 2: what --replay may replace --------------------------------------------------


def _database(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    return path


@pytest.mark.parametrize("force", [False, True], ids=["", "force"])
@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("arena.sqlite", "is a SQLite database"),
        ("results.json", "is a SQLite database"),  # whatever its name says
        ("marker_bot.py", "is a bot's own file"),
        ("book.json", "is a bot's own file"),  # a data file of the bot (--data 1=book.json)
        ("pkg/__main__.py", "is a bot's own file"),  # a file of a package bot
        ("link.py", "is a bot's own file"),  # a link to it
    ],
)
def test_replay_never_replaces_a_database_or_a_bots_file(tmp_path, monkeypatch, target, message, force):
    """Issue #31, point 2: refused in one line before any bot starts, even with --force; the file
    is left as it was."""
    bot, started = _starts_marker_bot(tmp_path)
    _database(tmp_path / "arena.sqlite")
    _database(tmp_path / "results.json")
    (tmp_path / "book.json").write_text('{"format": "cgarena-replay-v1"}')  # even one that looks like a replay
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__main__.py").write_text("import time\ntime.sleep(30)\n")
    (tmp_path / "link.py").symlink_to(bot)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    monkeypatch.chdir(tmp_path)
    args = ["play", "spring2021", bot, "pkg", "--seed", "1", "--data", "1=book.json", "--sandbox", "off"]
    result = CliRunner().invoke(main, [*args, "--replay", target, *(["--force"] if force else [])])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert errors == [f"Error: --replay: {target}: {message}; a replay never replaces one: choose another file"]
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert not started.exists()


def test_replay_replaces_a_replay_and_another_file_only_with_force(tmp_path, monkeypatch):
    """Issue #31, point 2: a new file or a replay file is written; any other file is refused in
    one line before any bot starts, unless --force is given."""
    monkeypatch.chdir(tmp_path)
    bot, started = _starts_marker_bot(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    refused = CliRunner().invoke(main, ["play", "spring2021", bot, "wait", "--sandbox", "off", "--replay", "notes.txt"])
    assert refused.exit_code == 2, refused.output
    errors = [line for line in refused.output.splitlines() if line.startswith("Error: ")]
    assert errors == [
        "Error: --replay: notes.txt: exists and is not a replay file; choose another file, or give --force"
    ]
    assert notes.read_text() == "my notes\n" and not started.exists()
    quick = ["play", "spring2021", "wait", "wait", "--param", "MAX_ROUNDS=1"]
    for path, flags in (("new.json", []), ("new.json", ["--seed", "2"]), ("notes.txt", ["--force"])):
        result = CliRunner().invoke(main, [*quick, "--replay", path, *flags])
        assert result.exit_code == 0, result.output
        assert read_replay(tmp_path / path)["game"] == "spring2021"
    assert read_replay(tmp_path / "new.json")["seed"] == "2"  # the second replaced the first
