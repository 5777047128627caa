"""Issue #34, points 4 and 5: a run that starts a new tournament because a setting differs from the
latest tournament of the same bots says which and how to resume it; a stopped tournament run again
says it was stopped, why, and how to go on, and exits non-zero."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.store.records import TournamentRow
from arena.tournament.config import config_from_mapping
from arena.tournament.resume import settings_change
from cli.arena import main

SHORT = ["--param", "MAX_ROUNDS=3", "--workers", "1", "--no-progress", "--games", "2"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tournament", *args])
    return result.exit_code, result.output


def test_a_forgotten_time_scale_names_the_difference_and_how_to_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    status, out = run("spring2021", "greedy", "wait", "--db", db, "--time-scale", "3", *SHORT)
    assert status == 0, out
    assert "settings differ" not in out
    status, out = run("spring2021", "greedy", "wait", "--db", db, *SHORT)  # --time-scale 3 forgotten
    assert status == 0, out
    lines = [line for line in out.splitlines() if "settings differ" in line]
    assert len(lines) == 1, out
    assert "time scale 1 (tournament 1: 3)" in lines[0]
    assert "to resume tournament 1 instead, add --time-scale 3;" in lines[0]
    assert "--new" in lines[0]
    assert "tournament 2 (new)" in out
    status, out = run("spring2021", "greedy", "wait", "--db", db, *SHORT, "--new")  # --new: no warning
    assert status == 0 and "settings differ" not in out and "tournament 3 (new)" in out
    status, out = run("spring2021", "greedy", "wait", "--db", db, "--time-scale", "3", *SHORT)  # resumes 1
    assert status == 0 and "tournament 1 (resumed" in out and "settings differ" not in out


def row(tid: int, **settings: object) -> TournamentRow:
    return TournamentRow(
        id=tid, key="k", settings=settings, status="finished", games_target=2, referee_version="v", created=0, updated=0
    )


def test_the_settings_change_picks_the_latest_tournament_of_the_same_bots_and_names_each_flag() -> None:
    config = config_from_mapping({"game": "spring2021", "bots": ["greedy", "wait"], "seed": "4"}, base=Path.cwd())
    same = config.schedule_key()
    others = [
        row(1, **{**same, "seed": 1}),
        row(2, **{**same, "seed": 2, "params": {"MAX_ROUNDS": "3"}, "memory_limit_mb": 512}),
        row(3, **{**same, "bots": [{"name": "greedy", "bot": "greedy"}, {"name": "x", "bot": "x"}]}),
        row(4, **{**same, "game": "fall2020"}),
    ]
    change = settings_change(config, others)
    assert change is not None and change.tournament_id == 2
    text = change.describe()
    assert "seed 4 (tournament 2: 2)" in text
    assert "memory limit (MB) " in text and "(tournament 2: 512)" in text
    assert 'game parameters {} (tournament 2: {"MAX_ROUNDS":"3"})' in text
    assert "add --seed 2 --memory-limit 512 --param MAX_ROUNDS=3;" in text
    assert settings_change(config, [row(5, **same)]) is None  # nothing differs
    assert settings_change(config, []) is None


def test_a_stopped_tournament_run_again_says_so_and_fails(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stdin.readline()\nsys.exit('boom')\n")  # starts, then crashes in the game
    db = str(tmp_path / "r.sqlite")
    args = ["spring2021", f"crash={crash}", "wait", "--db", db, *SHORT, "--games", "40"]
    status, out = run(*args)
    assert status == 1 and "stopped: bot 'crash' failed in 6 of its first 6 games" in out, out
    status, out = run(*args)  # the same command again: refused, not "finished"
    assert status == 1, out
    last = out.strip().splitlines()[-1]
    assert "tournament 1 was stopped: bot 'crash' failed in 6 of its first 6 games" in last
    assert "--new" in last
    assert "--max-failures 0.3 or more (now 0.25" in last  # 6 failures of a 20-game window
    assert "finished" not in out
    status, out = run(*args, "--max-failures", "1")  # raised: it resumes and plays on
    assert status == 0 and "tournament 1 (resumed, 6 games already stored)" in out, out


def test_a_changed_bot_and_a_long_seed_list_are_named_shortly() -> None:
    config = config_from_mapping(
        {"game": "spring2021", "bots": ["greedy", "wait"], "seeds": list(range(100))}, base=Path.cwd()
    )
    same = config.schedule_key()
    bots = [{"name": "greedy", "bot": "greedy", "args": ["--x", "1"]}, {"name": "wait", "bot": "wait"}]
    change = settings_change(config, [row(7, **{**same, "bots": bots, "seeds": [5]})])
    assert change is not None
    text = change.describe()
    assert 'bot \'greedy\' {"bot":"greedy"} (tournament 7: {"args":["--x","1"],"bot":"greedy"})' in text
    assert "bot 'wait'" not in text  # unchanged
    assert "seeds [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,... (tournament 7: [5])" in text
    assert "to resume tournament 7 instead, give the bot 'greedy', seeds of tournament 7;" in text
