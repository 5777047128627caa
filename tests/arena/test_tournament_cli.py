"""``arena tournament`` and ``arena results`` as a user runs them: a run killed with SIGKILL and
resumed ends with the numbers of an uninterrupted run; Ctrl-C stops cleanly; sweeps report and
plot; bad input gets one line."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from tests.arena.sandboxing import alive

ARENA = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())"]


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
    working directory; other test runs on the machine are not counted)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                where = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                continue
            if b"bots/spring2021/" in cmdline and where == str(cwd) and alive(int(entry)):
                found.add(int(entry))
    return found


GAMES = "24"
COMMON = ["spring2021", "greedy", "random", "--games", GAMES, "--seed", "77", "--workers", "2",
          "--no-progress", "--json"]


def test_sigkill_mid_run_then_resume_equals_an_uninterrupted_run(tmp_path):
    reference = arena("tournament", *COMMON, "--db", "ref.sqlite", cwd=tmp_path)
    assert reference.returncode == 0, reference.stderr
    want = json.loads(reference.stdout.strip().splitlines()[-1])

    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen([*ARENA, "tournament", *COMMON, "--db", db.name], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
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
    proc = subprocess.Popen([*ARENA, "tournament", *COMMON, "--games", "400", "--db", db.name],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while stored_games(db) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    while not bot_pids(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bot_pids(tmp_path), "no bot seen running: the check below would prove nothing"
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
    run = CliRunner().invoke(main, ["tournament", str(config), "--db", str(tmp_path / "s.sqlite"),
                                    "--no-progress", "--json"])
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
    run = CliRunner().invoke(main, ["tournament", "spring2021", "greedy", "random", "--games", "4",
                                    "--workers", "2", "--db", db, "--no-progress", "--sprt"])
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
        (["tournament", "spring2021", "greedy", "random", "--db", str(tmp_path / "no" / "dir.sqlite")],
         "does not exist"),
    ]
    for args, message in cases:
        run = CliRunner().invoke(main, args)
        assert run.exit_code != 0, args
        assert message in run.output, (args, run.output)
        assert "Traceback" not in run.output
    assert not list(tmp_path.glob("*.sqlite*"))
