"""What a tournament tells its user while it runs: failures (with a command that replays them),
early stops, refused actions, adjusted settings, progress lines in a log."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.result import Verdict
from arena.runner.failures import FailureWatch
from arena.store.records import GameRecord, PlayerRecord
from cli.arena import main
from tests.helpers.spring_text_bots import write_spring_bot

SHORT = ["--param", "MAX_ROUNDS=3", "--workers", "1", "--no-progress"]


def record(pair: int, statuses: tuple[str, str], bots: tuple[str, str] = ("a", "b")) -> GameRecord:
    players = tuple(
        PlayerRecord(seat=i, bot=bots[i], score=0, rank=0, status=s, message=f"m{i}") for i, s in enumerate(statuses)
    )
    return GameRecord(
        comparison=0,
        pair=pair,
        leg=0,
        seed=pair,
        players=players,
        winner=None,
        end_reason="max_rounds",
        turns=1,
        duration_s=0.1,
    )


def test_the_failure_watch_reports_first_failures_and_stops_past_the_share():
    """Point 5, hand-worked: share 0.25 of a 4-game window allows 1 failure; the 2nd stops."""
    watch = FailureWatch(0.25, 4)
    ok, crash, timeout = Verdict.OK.value, Verdict.CRASH.value, Verdict.TIMEOUT.value
    assert watch.add(record(0, (ok, ok))) == []
    first = watch.add(record(1, (crash, ok)))
    assert [(f.player.bot, f.first) for f in first] == [("a", True)]
    assert watch.stop_reason is None
    second = watch.add(record(2, (timeout, Verdict.ELIMINATED.value)))  # eliminated: not a failure
    assert [(f.player.bot, f.first) for f in second] == [("a", False)]
    assert watch.stop_reason is not None and "'a' failed in 2 of its first 3 games" in watch.stop_reason


def test_failures_after_the_window_do_not_stop_and_share_one_never_stops():
    watch = FailureWatch(0.25, 4)
    for pair in range(4):
        watch.add(record(pair, ("ok", "ok")))
    for pair in range(4, 10):
        watch.add(record(pair, ("crash", "ok")))
    assert watch.stop_reason is None
    never = FailureWatch(1.0, 4)
    for pair in range(4):
        never.add(record(pair, ("crash", "crash")))
    assert never.stop_reason is None


def test_stored_failures_count_on_resume_but_do_not_stop_by_themselves():
    """A run stopped at its 6th failure (limit 0.25 * 20 = 5), resumed with the same limit: the
    stored games alone do not stop it, a success goes on, the next failure stops it again."""
    stored = [record(p, ("crash", "ok")) for p in range(6)]
    watch = FailureWatch(0.25, 20, stored)
    assert watch.stop_reason is None and watch.early_failures == {"a": 6}
    watch.add(record(6, ("ok", "ok")))
    assert watch.stop_reason is None
    assert watch.add(record(7, ("crash", "ok")))[0].first is False
    assert watch.stop_reason is not None and "7 of its first 8 games" in watch.stop_reason


def test_a_crashing_bot_is_reported_once_and_stops_the_tournament(tmp_path):
    """Point 5: the first crash prints a warning with the seed, the seats and a command that
    plays that game again; too many failures stop the run (exit 1) with the reason."""
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stdin.readline()\nsys.exit('boom')\n")  # starts, then crashes in the game
    result = CliRunner().invoke(
        main,
        ["tournament", "spring2021", str(crash), "wait", "--games", "40", "--db", str(tmp_path / "r.sqlite"), *SHORT],
    )
    assert result.exit_code == 1, result.output
    warnings = [line for line in result.output.splitlines() if "failed for the first time" in line]
    assert len(warnings) == 1
    warning = warnings[0]
    with sqlite3.connect(tmp_path / "r.sqlite") as conn:
        (seed,) = conn.execute("SELECT seed FROM games ORDER BY finished LIMIT 1").fetchone()
        stored = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    assert f"seed {seed}" in warning and "seats 0: crash, 1: wait" in warning
    assert "boom" in warning
    command = warning.split("play it again with: ", 1)[1]
    words = shlex.split(command)
    assert words[:3] == ["cd", str(Path.cwd()), "&&"]  # from where the tournament ran
    assert words[3:7] == ["arena", "play", "spring2021", f"crash={crash}"]
    assert "--param MAX_ROUNDS=3" in command
    # 0.25 of the first 20 games is 5 failures: the 6th stops the run.
    assert stored == 6
    assert "stopped: bot 'crash' failed in 6 of its first 6 games" in result.output
    again = subprocess.run(
        [sys.executable, "-m", "cli", *words[4:], "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    data = json.loads(again.stdout.strip().splitlines()[-1])
    assert data["seed"] == seed and data["players"][0]["status"] == "crash"


def test_max_failures_one_plays_every_game(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stdin.readline()\nsys.exit('boom')\n")  # starts, then crashes in the game
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            str(crash),
            "wait",
            "--games",
            "8",
            "--max-failures",
            "1",
            "--db",
            str(tmp_path / "r.sqlite"),
            *SHORT,
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("failed for the first time") == 1
    assert "stopped" not in result.output


def test_refused_actions_are_counted_per_bot(tmp_path):
    """Point 6: a bot that always asks to complete a tree on the centre cell, where no tree ever
    stands (start trees are on the outer ring and it never grows one), has every answer refused."""
    refuser = write_spring_bot(tmp_path, "refuser.py", "COMPLETE 0")
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            str(refuser),
            "wait",
            "--games",
            "4",
            "--db",
            str(tmp_path / "r.sqlite"),
            "--json",
            *SHORT,
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    bots = {b["name"]: b for b in data["bots"]}
    assert bots["refuser"]["refused"] == bots["refuser"]["answers"] > 0
    assert bots["wait"]["refused"] == 0
    table = CliRunner().invoke(main, ["results", "--db", str(tmp_path / "r.sqlite")])
    lines = table.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("bot "))
    header, row = lines[at], next(line for line in lines[at:] if line.startswith("refuser "))
    column = header.split().index("refused")
    assert int(row.split()[column]) == bots["refuser"]["answers"]


def test_adjusted_settings_and_an_undecided_sprt_are_said(tmp_path):
    """Point 8: an odd --games is rounded up and said; an SPRT that reaches --games undecided
    says so and how to go on."""
    draw = write_spring_bot(tmp_path, "draw.py", "WAIT")
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            str(draw),
            "wait",
            "--games",
            "3",
            "--sprt",
            "--db",
            str(tmp_path / "r.sqlite"),
            *SHORT,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "note: games 3 rounded up to 4: each seed is played once per seat" in result.output
    assert "4 games per comparison, 1 worker," in result.output  # point 16: not "1 workers"
    assert "draw vs wait: SPRT continue after 2 pairs at the --games limit (4)" in result.output


def test_progress_lines_when_the_output_is_not_a_terminal(tmp_path):
    """Point 9: no bar in a log, but lines with the games done, W-D-L, score and ETA."""
    draw = write_spring_bot(tmp_path, "draw.py", "WAIT")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "tournament",
            "spring2021",
            str(draw),
            "wait",
            "--games",
            "4",
            "--db",
            str(tmp_path / "r.sqlite"),
            "--param",
            "MAX_ROUNDS=3",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
    assert lines and lines[-1].startswith("progress: 4/4 games (100%), draw vs wait 0-4-0 (W-D-L), score 50.0%")
    assert "\r" not in result.stderr and "|" not in result.stderr  # no bar


def test_self_play_and_one_file_with_two_argument_sets(tmp_path):
    """Point 2 from the command line."""
    result = CliRunner().invoke(
        main, ["tournament", "spring2021", "wait", "wait", "--games", "2", "--db", str(tmp_path / "a.sqlite"), *SHORT]
    )
    assert result.exit_code == 0, result.output
    assert "wait vs wait#2" in result.output
    bot = write_spring_bot(tmp_path, "bot.py", "WAIT")
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            f"old={bot}",
            f"new={bot} --depth 3",
            "--games",
            "2",
            "--db",
            str(tmp_path / "b.sqlite"),
            *SHORT,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "old vs new" in result.output
    with sqlite3.connect(tmp_path / "b.sqlite") as conn:
        commands = dict(conn.execute("SELECT name, command FROM bots"))
    assert json.loads(commands["new"])[-2:] == ["--depth", "3"] and json.loads(commands["old"])[-1] == str(bot)


@pytest.mark.parametrize("bots", [["greedyy", "greedy"], ["greedy", "nosuch.py"], ["greedy", "./missing --x"]])
def test_a_typo_in_a_bot_creates_nothing(tmp_path, monkeypatch, bots):
    """Point 4: the bot is refused before the database exists."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["tournament", "spring2021", *bots, "--games", "2"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_seeds_from_the_command_line(tmp_path):
    """Point 12: --seeds plays exactly the listed maps, each once per seat."""
    (tmp_path / "lost.txt").write_text("11\n-4\n")
    for given, expected in (("2..4", [2, 3, 4]), (str(tmp_path / "lost.txt"), [-4, 11]), ("7,9", [7, 9])):
        db = tmp_path / f"{len(expected)}-{expected[0]}.sqlite"
        result = CliRunner().invoke(
            main, ["tournament", "spring2021", "wait", "random", "--seeds", given, "--db", str(db), *SHORT]
        )
        assert result.exit_code == 0, result.output
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT seed, count(*) FROM games GROUP BY seed").fetchall()
        assert sorted(s for s, _ in rows) == expected and all(n == 2 for _, n in rows)
