"""``arena tournament`` and ``arena results`` as a user runs them: a run killed with SIGKILL and
resumed ends with the numbers of an uninterrupted run; Ctrl-C stops cleanly; sweeps report and
plot; bad input gets one line."""

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

from arena.match.limits import DEFAULT_MEMORY_LIMIT_MB
from arena.store.records import GameRecord, PlayerRecord
from cli.arena import main
from cli.repro import stored_game_command
from tests.helpers.escapes import SHOWN, assert_shown_escaped, escaping_bot
from tests.helpers.paths import SHIPPED_BOTS
from tests.helpers.sandboxing import alive, require_sandbox

ARENA = [sys.executable, "-c", "import sys; from cli.arena import main; sys.exit(main())"]


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*ARENA, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def stored_games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def comparison_figures(data: dict) -> list[dict]:
    keep = ("bots", "games", "wins", "draws", "losses", "penta", "elo", "elo_ci95", "los", "sprt")
    return [{k: c.get(k) for k in keep} for c in data["comparisons"]]


def bot_pids(cwd: Path) -> set[int]:
    """Running processes of the shipped bots started in ``cwd`` (bots inherit the tournament's
    working directory), or of their frozen versions in the store beside a database there (other
    test runs on the machine are not counted)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                where = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                continue
            shipped = b"bots/spring2021/" in cmdline and where == str(cwd)
            frozen = f"{cwd}/".encode() in cmdline and b".sqlite-bots/" in cmdline  # their versions, beside the db
            if (shipped or frozen) and alive(int(entry)):
                found.add(int(entry))
    return found


GAMES = "24"
COMMON = [
    "spring2021",
    "greedy",
    "random",
    "--games",
    GAMES,
    "--seed",
    "77",
    "--workers",
    "2",
    "--no-progress",
    "--json",
]


def test_sigkill_mid_run_then_resume_equals_an_uninterrupted_run(tmp_path):
    reference = arena("tournament", *COMMON, "--db", "ref.sqlite", cwd=tmp_path)
    assert reference.returncode == 0, reference.stderr
    want = json.loads(reference.stdout.strip().splitlines()[-1])

    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [*ARENA, "tournament", *COMMON, "--db", db.name],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while stored_games(db) < 6 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole process group: main process and workers
    proc.wait()
    killed_at = stored_games(db)
    assert 6 <= killed_at < int(GAMES), f"killed after {killed_at} games: make the run longer"
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    resumed = arena("tournament", *COMMON, "--db", db.name, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed, {killed_at} games already stored" in resumed.stderr
    got = json.loads(resumed.stdout.strip().splitlines()[-1])
    assert got["tournament"]["games_stored"] == int(GAMES)
    with sqlite3.connect(db) as con:
        keys = con.execute("SELECT comparison, pair, leg FROM games").fetchall()
    assert len(keys) == len(set(keys)) == int(GAMES)  # nothing lost, nothing twice
    assert comparison_figures(got) == comparison_figures(want)
    assert got["leaderboard"] == want["leaderboard"]
    # orphaned bots of the killed workers see their input close and exit
    deadline = time.monotonic() + 5
    while bot_pids(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not bot_pids(tmp_path)


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path):
    db = tmp_path / "int.sqlite"
    proc = subprocess.Popen(
        [*ARENA, "tournament", *COMMON, "--games", "400", "--db", db.name],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while stored_games(db) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    while not bot_pids(tmp_path) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    if not bot_pids(tmp_path):  # say why: the run may have stopped, or no bot matched
        ended = proc.poll()
        if ended is None:
            os.killpg(proc.pid, signal.SIGKILL)
        _out, err = proc.communicate(timeout=30)
        raise AssertionError(f"no bot seen running (the run's exit: {ended}, games stored: {stored_games(db)}): {err}")
    os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "resume with: arena tournament" in err
    assert "Traceback" not in err
    assert not bot_pids(tmp_path), "bots left running after Ctrl-C"
    with sqlite3.connect(db) as con:
        status = con.execute("SELECT status FROM tournaments").fetchone()[0]
        assert status == "interrupted"
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_resume_command_of_a_run_started_with_new_resumes_that_run(tmp_path):
    """Observed: the "resume with:" line kept --new, so running it started tournament 3 and left
    tournament 2 interrupted."""
    db = tmp_path / "n.sqlite"
    fast = ["spring2021", "wait", "wait", "--param", "MAX_ROUNDS=3", "--seed", "3", "--no-progress", "--db", db.name]
    assert arena("tournament", *fast, "--games", "2", cwd=tmp_path).returncode == 0  # tournament 1
    proc = subprocess.Popen(
        [*ARENA, "tournament", *fast, "--games", "200", "--workers", "1", "--new"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while stored_games(db) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    line = next(line for line in out.splitlines() if line.startswith("interrupted:"))
    command = shlex.split(line.split("; resume with: ", 1)[1])
    assert command[:2] == ["arena", "tournament"] and "--new" not in command
    resumed = arena(*command[1:], cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "tournament 2 (resumed, " in resumed.stdout
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT id, status FROM tournaments").fetchall() == [(1, "finished"), (2, "finished")]


def test_the_resume_command_leaves_out_only_the_new_flag():
    from cli.tournament import _resume_command

    assert _resume_command(["tournament", "g", "a", "b", "--new", "--db", "x"]) == "arena tournament g a b --db x"
    assert _resume_command(["tournament", "g", "a", "--db", "--new"]) == "arena tournament g a --db --new"  # a file
    assert _resume_command(["tournament", "g", "a", "--db=x", "--new"]) == "arena tournament g a --db=x"


def test_sweep_reports_ranked_variants_and_draws_the_plot(tmp_path):
    config = tmp_path / "sweep.yaml"
    config.write_text(
        "game: spring2021\n"
        "bots:\n"
        "  - {name: base, bot: greedy}\n"
        "  - {name: g, bot: greedy, args: [--complete-day, '{day}']}\n"
        "sweep: {bot: g, grid: {day: [6, 18]}}\n"
        "games: 4\nseed: 5\nworkers: 2\n"
    )
    run = CliRunner().invoke(
        main, ["tournament", str(config), "--db", str(tmp_path / "s.sqlite"), "--no-progress", "--json"]
    )
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout.strip().splitlines()[-1])
    ranking = data["sweep"]["ranking"]
    assert [r["variant"] for r in ranking] == ["g[day=18]", "g[day=6]"]  # late completion is better
    assert ranking[0]["score"] > 0.5 > ranking[1]["score"]
    for r in ranking:
        assert r["score_lo"] <= r["score"] <= r["score_hi"]
    plot = Path(data["sweep"]["plot"])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = CliRunner().invoke(main, ["results", "--db", str(tmp_path / "s.sqlite")])
    assert "sweep of g against base, best first:" in table.output
    assert " 1. g[day=18]" in table.output


def test_results_formats(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run = CliRunner().invoke(
        main,
        [
            "tournament",
            "spring2021",
            "greedy",
            "random",
            "--games",
            "4",
            "--workers",
            "2",
            "--db",
            db,
            "--no-progress",
            "--sprt",
        ],
    )
    assert run.exit_code == 0, run.output
    as_json = json.loads(CliRunner().invoke(main, ["results", "--db", db, "--format", "json"]).output)
    (c,) = as_json["comparisons"]
    for key in ("bots", "games", "wins", "draws", "losses", "elo", "elo_ci95", "los", "sprt"):
        assert key in c
    assert c["bots"] == ["greedy", "random"] and c["games"] == 4 and c["wins"] == 4
    assert c["sprt"]["state"] == "continue" and c["sprt"]["elo1"] == 5
    assert {b["name"] for b in as_json["bots"]} == {"greedy", "random"}
    assert set(as_json["bots"][0]["latency_ms"]) == {"median", "p99", "max"}
    csv_out = CliRunner().invoke(main, ["results", "--db", db, "--format", "csv"]).output.splitlines()
    assert csv_out[0].startswith("bot_a,bot_b,games,wins,draws,losses")
    assert csv_out[1].startswith("greedy,random,4,4,0,0")


def test_bad_input_gets_one_line_and_no_results_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the default arena.sqlite would go
    cases = [
        (["tournament", str(tmp_path / "missing.yaml")], "no such config file"),
        (["tournament", "spring2021", "greedy"], "expected CONFIG.yaml, or GAME and at least two bots"),
        (["tournament", "spring2021", "greedy", "nosuchbot"], "nosuchbot"),
        (["tournament", "spring2021", "greedy", "random", "--elo0", "5", "--elo1", "1"], "elo1"),
        (["results", "--db", str(tmp_path / "none.sqlite")], "no results database"),
        (
            ["tournament", "spring2021", "greedy", "random", "--db", str(tmp_path / "no" / "dir.sqlite")],
            "does not exist",
        ),
    ]
    for args, message in cases:
        run = CliRunner().invoke(main, args)
        assert run.exit_code != 0, args
        assert message in run.output, (args, run.output)
        assert "Traceback" not in run.output
    assert not list(tmp_path.glob("*.sqlite*"))


def _bots_with_data(folder: Path) -> None:
    """``folder/bot/reader.py`` plays the action in ``folder/weights/move.txt``; ``folder/bot/boom.py``
    starts, then exits with the text of ``folder/weights/why.txt``: two bots whose data lies
    outside their own folder, read once the game is on."""
    (folder / "bot").mkdir()
    (folder / "weights").mkdir()
    move, why = folder / "weights" / "move.txt", folder / "weights" / "why.txt"
    move.write_text("WAIT\n")
    why.write_text("boom from the data\n")
    source = (SHIPPED_BOTS / "spring2021" / "wait_bot.py").read_text()
    (folder / "bot" / "reader.py").write_text(
        source.replace('print("WAIT", flush=True)', f"print(open({str(move)!r}).read().strip(), flush=True)")
    )
    (folder / "bot" / "boom.py").write_text(
        f"import sys\nsys.stdin.readline()\nsys.exit(open({str(why)!r}).read().strip())\n"
    )


@pytest.mark.parametrize("mode", ["off", "on"])
def test_the_reproduce_commands_keep_the_sandbox_and_the_data_files(tmp_path, monkeypatch, mode):
    """The command a tournament prints for a failed game, and the one `matches show` prints for a
    stored game, ask for the sandbox the game ran in and declare each seat's data (--data SEAT=PATH,
    seats from 1, paths as in the config, run from its folder); run, they play the same game."""
    if mode == "on":
        require_sandbox()
    _bots_with_data(tmp_path)
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "t.yaml").write_text(
        "game: spring2021\n"
        "bots:\n"
        "  - {name: reader, bot: ../bot/reader.py, data: [../weights/move.txt]}\n"
        "  - {name: boom, bot: ../bot/boom.py, data: ../weights/why.txt}\n"
        f"games: 2\nseed: 3\nworkers: 1\nmax_failures: 1\nparams: {{MAX_ROUNDS: '3'}}\nsandbox: '{mode}'\n"
        "db: r.sqlite\n"
    )
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")  # neither the bots' folder nor their data's
    run = CliRunner().invoke(main, ["tournament", str(conf / "t.yaml"), "--no-progress"])
    assert run.exit_code == 0, run.output
    data = {"reader": "../weights/move.txt", "boom": "../weights/why.txt"}
    db = str(conf / "r.sqlite")
    games = json.loads(CliRunner().invoke(main, ["matches", "list", "--db", db, "--format", "json"]).output)["games"]
    assert len(games) == 2
    (warning,) = [line for line in run.output.splitlines() if "failed for the first time" in line]
    first = next(
        g
        for g in games
        if f"seed {g['seed']}, seats 0: {g['players'][0]['bot']}, 1: {g['players'][1]['bot']};" in warning
    )
    for g in games:
        seats = [p["bot"] for p in g["players"]]
        expected = [
            "cd",
            str(conf),
            "&&",
            "arena",
            "play",
            "spring2021",
            *(f"{b}=../bot/{b}.py" for b in seats),
            "--seed",
            str(g["seed"]),
            "--data",
            f"1={data[seats[0]]}",
            "--data",
            f"2={data[seats[1]]}",
            "--param",
            "MAX_ROUNDS=3",
            "--sandbox",
            mode,
        ]
        if g is first:
            assert shlex.split(warning.split("play it again with: ", 1)[1]) == expected
        shown = json.loads(
            CliRunner().invoke(main, ["matches", "show", str(g["id"]), "--db", db, "--format", "json"]).output
        )
        assert shlex.split(shown["command"]) == expected
        again = subprocess.run(
            shown["command"] + " --json",
            shell=True,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
        )
        assert again.returncode == 0, again.stderr
        played = json.loads(again.stdout.strip().splitlines()[-1])
        assert played["sandbox"] == g["sandbox"] == mode
        assert played["seed"] == g["seed"]
        assert played["scores"] == [p["score"] for p in g["players"]]
        assert [p["status"] for p in played["players"]] == [p["status"] for p in g["players"]]
        assert "boom from the data" in played["players"][seats.index("boom")]["message"]


def test_a_stored_game_without_its_sandbox_uses_the_tournaments_mode():
    """Games stored before games recorded their sandbox: ``on`` and ``off`` still tell, ``auto``
    does not (no option); a game that says wins over its tournament. A bot's data is written from
    the command's folder when the bot's own folder differs, quoted for the shell."""
    players = (
        PlayerRecord(seat=0, bot="b", score=1, rank=0, status="ok"),
        PlayerRecord(seat=1, bot="a", score=0, rank=1, status="ok"),
    )

    def command(sandbox: str, sandboxed: bool | None) -> str:
        settings = {
            "game": "spring2021",
            "time_scale": 1.0,
            "memory_limit_mb": DEFAULT_MEMORY_LIMIT_MB,
            "params": {},
            "sandbox": sandbox,
            "bot_dirs": {"a": "/x/other", "b": "/x/y"},
            "bots": [{"name": "a", "bot": "a.py", "data": ["my data/w.bin"]}, {"name": "b", "bot": "greedy"}],
        }
        record = GameRecord(
            comparison=0,
            pair=0,
            leg=1,
            seed=7,
            players=players,
            winner=0,
            end_reason="max_rounds",
            turns=3,
            duration_s=0.1,
            sandboxed=sandboxed,
        )
        return stored_game_command(settings, record)

    start = "cd /x/y && arena play spring2021 b=greedy a=a.py --seed 7 --data '2=/x/other/my data/w.bin'"
    assert command("off", None) == start + " --sandbox off"
    assert command("on", None) == start + " --sandbox on"
    assert command("auto", None) == start
    assert command("off", True) == start + " --sandbox on"
    assert command("auto", False) == start + " --sandbox off"


@pytest.mark.parametrize(
    ("mode", "flags", "where", "status"),
    [
        # the warning about its first failure, and the line saying why the run stopped, quote its answer
        ("escinvalid", ["--max-failures", "0"], ["failed for the first time: invalid (", "stopped: bot 'evil'"], 1),
        ("escstart", [], ["Error: bot 'evil' failed to start: "], 1),  # its last stderr line, before any game
    ],
    ids=["failure", "start"],
)
def test_a_bots_escape_sequences_are_printed_escaped(tmp_path, mode, flags, where, status):
    """Issue #31, point 8: a real bot's escape sequences, quoted by the tournament's warnings and
    errors, reach the terminal with their control characters escaped."""
    ran = subprocess.run(
        [*ARENA, "tournament", "spring2021", f"evil={escaping_bot(mode)}", "wait", "--games", "2", "--workers", "1",
         "--no-progress", "--param", "MAX_ROUNDS=3", "--sandbox", "off", "--db", "t.sqlite", *flags],
        cwd=tmp_path, capture_output=True, timeout=300,
    )  # fmt: skip
    assert ran.returncode == status, ran.stdout + ran.stderr
    text = assert_shown_escaped(ran.stdout + ran.stderr, len(where))
    for line in where:
        assert any(line in printed and SHOWN in printed for printed in text.splitlines()), (line, text)
