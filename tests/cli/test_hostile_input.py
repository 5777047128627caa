"""Issue #16, part 4: hostile and invalid input. Each observed problem is reproduced here: an
alias bomb, infinite and NaN numbers, a bot that cannot start, a file name too long, a path that
is not UTF-8, a huge ``--games``, too many workers, a changed data file on resume. Every refusal is
one line (no traceback), comes before any work, and leaves no database or replay behind."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.match.launch.botspec import REPO_ROOT, BotSpec
from arena.match.preflight import start_failures
from arena.standings.tracker import ComparisonTracker, TableTracker, make_tracker
from arena.store.results import Store
from arena.tournament import TournamentScheduler, run_tournament
from arena.tournament import schedule as schedule_module
from arena.tournament.config import ConfigError, config_from_mapping, load_config
from arena.tournament.dispatcher import Dispatcher
from arena.tournament.schedule import GauntletSchedule, RoundRobinSchedule
from arena.versions.provenance import source_hash
from cli.arena import main

GREEDY = REPO_ROOT / "bots" / "spring2021" / "greedy_bot.py"
CLICK_FRAME = ("Usage: ", "Try '")
"""Lines click prints around a usage error: not part of the message."""


def error_lines(text: str) -> list[str]:
    """The lines of an error output that say something (click's usage frame left out)."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith(CLICK_FRAME)]


def assert_one_line_error(stderr: str, *needles: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = error_lines(stderr)
    assert len(lines) == 1, stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    """Databases and replays in ``folder`` (none may be left by a refused command)."""
    return sorted(
        p.name
        for p in folder.rglob("*")
        if p.suffix in (".sqlite", ".json", ".html") or p.name.endswith((".sqlite-journal", ".sqlite-wal"))
    )


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def arena_bytes(*args: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """The command line run as a user runs it, with arguments given as raw bytes (not UTF-8)."""
    return subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"cli", *args],
        cwd=cwd,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )


BASE = {"game": "spring2021", "bots": ["greedy", "random"]}


def write_config(folder: Path, body: str, name: str = "t.yaml") -> Path:
    path = folder / name
    path.write_text(f"game: spring2021\nbots: [greedy, random]\ndb: {folder / 'r.sqlite'}\n{body}")
    return path


# -- YAML: alias bombs, scalars -------------------------------------------------------------------


def _alias_bomb(levels: int = 9) -> str:
    """The billion laughs: 9 aliases of 9 aliases ... of 9 strings: 9**9 = 387 million strings."""
    lines = ["params:", '  X0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"  X{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_in_params_is_refused_at_once_in_one_line(tmp_path):
    """Observed: 20 s and 1.6 GB, then a MemoryError traceback."""
    path = write_config(tmp_path, _alias_bomb())
    code, _, err = cli("tournament", str(path), "--no-progress")
    assert code == 2
    assert_one_line_error(err, "t.yaml", "aliases")
    assert leftovers(tmp_path) == []


def test_a_recursive_alias_is_refused(tmp_path):
    path = write_config(tmp_path, "params: &p {X: *p}\n")
    with pytest.raises(ConfigError, match="refers to the value that contains it"):
        load_config(path)


def test_a_few_aliases_reusing_settings_still_work(tmp_path):
    """Anchors are for reuse: two bots sharing one argument list are fine."""
    path = tmp_path / "t.yaml"
    path.write_text(
        "game: spring2021\n"
        "bots:\n"
        "  - {name: a, bot: greedy, args: &common [--complete-day, '12']}\n"
        "  - {name: b, bot: greedy, args: *common}\n"
    )
    bots = {b.name: b for b in load_config(path).bots}
    assert bots["a"].args == bots["b"].args == ("--complete-day", "12")


def test_a_long_seed_list_written_out_is_not_mistaken_for_a_bomb(tmp_path):
    """The limit counts what aliases repeat, not the values written out."""
    seeds = ", ".join(str(s) for s in range(20_000))
    path = tmp_path / "t.yaml"
    path.write_text(f"game: spring2021\nbots: [greedy, random]\nseeds: [{seeds}]\n")
    assert load_config(path).games == 40_000


@pytest.mark.parametrize(
    "body,message",
    [
        ("params: {MAX_ROUNDS: [1, 2]}\n", "params.MAX_ROUNDS: expected a text or a number, got a list"),
        (
            "bots: [{bot: greedy, env: {A: {B: 1}}}, random]\n",
            "bots[1].env.A: expected a text or a number, got a mapping",
        ),
        ("bots: [{bot: greedy, args: [[--x]]}, random]\n", "bots[1].args[1]: expected a text or a number, got a list"),
        ("bots: [{bot: [greedy]}, random]\n", "bots[1].bot: expected a text or a number"),
        ("bots: [{bot: greedy, name: {x: 1}}, random]\n", "bots[1].name: expected a text or a number"),
        ("bots: [{bot: greedy, env: {A: }}, random]\n", "bots[1].env.A: expected a text or a number, got nothing"),
        ('bots: [{bot: greedy, args: ["a\\0b"]}, random]\n', "contains a NUL byte"),
        ("format: [gauntlet]\n", "format: expected a text or a number"),
        ("db: {x: 1}\n", "db: expected a text or a number"),
        ("1: x\nfoo: y\n", "unknown setting '1'"),
    ],
)
def test_only_a_single_value_is_taken_where_one_is_expected(tmp_path, body, message):
    path = tmp_path / "t.yaml"
    path.write_text("game: spring2021\n" + (body if body.startswith("bots") else "bots: [greedy, random]\n" + body))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_config_that_is_not_utf8_text_is_one_line(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_bytes(b"game: spring2021\nbots: [gr\xffedy, random]\n")
    code, _, err = cli("tournament", str(path), "--db", str(tmp_path / "r.sqlite"))
    assert code == 2
    assert_one_line_error(err, "not UTF-8")
    assert leftovers(tmp_path) == []


# -- numbers: finite and in range -----------------------------------------------------------------


@pytest.mark.parametrize(
    "body,message",
    [
        ("time_scale: .inf\n", "time_scale: expected a finite number"),
        ("time_scale: .nan\n", "time_scale: expected a finite number"),
        ("time_scale: 1e6\n", "time_scale: at most 1000"),
        ("games: .inf\n", "games: expected an integer"),
        ("games: .nan\n", "games: expected an integer"),
        ("games: 1.0e+300\n", "games: must be at most 1,000,000,000"),
        ("pairs: .inf\n", "pairs: expected an integer"),
        ("workers: .inf\n", "workers: expected an integer"),
        ("memory_limit_mb: .inf\n", "memory_limit_mb: expected an integer"),
        ("memory_limit_mb: 100000000000\n", "memory_limit_mb: must be at most"),
        ("seed: .inf\n", "seed:"),
        ("max_failures: .nan\n", "max_failures: expected a finite number"),
        ("sprt: {elo1: .inf}\n", "sprt.elo1: expected a finite number"),
        ("sprt: {elo0: -.inf}\n", "sprt.elo0: expected a finite number"),
        ("sprt: {elo1: 5000}\n", "sprt: elo1 must be between -1000 and 1000"),
        ("sprt: {alpha: .nan}\n", "sprt.alpha: expected a finite number"),
        ("sprt: {beta: .inf}\n", "sprt.beta: expected a finite number"),
    ],
)
def test_numbers_from_a_file_must_be_finite_and_in_range(tmp_path, body, message):
    """Observed: .inf/NaN in time_scale or games gave tracebacks (in the workers, after the
    database was made)."""
    path = write_config(tmp_path, body)
    code, _, err = cli("tournament", str(path), "--no-progress")
    assert code == 2
    assert_one_line_error(err, message)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--time-scale", "inf"], "time_scale: expected a finite number"),
        (["--time-scale", "nan"], "time_scale: expected a finite number"),
        (["--elo1", "inf", "--sprt"], "sprt.elo1: expected a finite number"),
        (["--elo0", "nan"], "sprt.elo0: expected a finite number"),
        (["--alpha", "nan"], "sprt.alpha: expected a finite number"),
        (["--max-failures", "nan"], "max_failures: expected a finite number"),
        (["--memory-limit", "99999999999"], "memory_limit_mb: must be at most"),
        (["--games", "99999999999999"], "games: must be at most"),
    ],
)
def test_numbers_from_tournament_flags_must_be_finite_and_in_range(tmp_path, flags, message):
    db = tmp_path / "r.sqlite"
    code, _, err = cli("tournament", "spring2021", "greedy", "random", "--db", str(db), "--no-progress", *flags)
    assert code == 2
    assert_one_line_error(err, message)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "flags",
    [
        ["--time-scale", "inf"],
        ["--time-scale", "nan"],
        ["--time-scale", "-inf"],
        ["--memory-limit", "10" * 12],
    ],
)
def test_numbers_from_play_flags_must_be_finite_and_in_range(tmp_path, flags):
    replay = tmp_path / "game.json"
    code, _, err = cli("play", "spring2021", "greedy", "random", "--seed", "1", "--replay", str(replay), *flags)
    assert code == 2
    assert_one_line_error(err, flags[0])
    assert leftovers(tmp_path) == []


# -- a bot that cannot start ----------------------------------------------------------------------


def _broken_bot(folder: Path) -> Path:
    bot = folder / "broken.py"
    bot.write_text("import sys\nprint('cannot load the model', file=sys.stderr)\nsys.exit(3)\n")
    return bot


def test_a_bot_that_cannot_start_makes_play_fail_in_one_line(tmp_path):
    """Observed: `arena play` exited 0 (the bot just 'crashed')."""
    replay = tmp_path / "game.json"
    code, _, err = cli(
        "play", "spring2021", str(_broken_bot(tmp_path)), "random", "--seed", "1", "--replay", str(replay)
    )
    assert code == 1
    assert_one_line_error(err, "broken", "exited with code 3", "cannot load the model")
    assert leftovers(tmp_path) == []


def test_a_bot_that_cannot_start_stops_the_tournament_before_any_game(tmp_path):
    """Observed: the tournament recorded 20 'crash' games and exited 0."""
    db = tmp_path / "r.sqlite"
    code, out, err = cli(
        "tournament",
        "spring2021",
        str(_broken_bot(tmp_path)),
        "random",
        "--games",
        "20",
        "--db",
        str(db),
        "--no-progress",
    )
    assert code == 1
    assert_one_line_error(err, "bot 'broken' failed to start", "exited with code 3", "cannot load the model")
    assert out == ""
    assert leftovers(tmp_path) == []  # no database: not one game was played


def test_a_bot_whose_interpreter_is_missing_stops_the_tournament(tmp_path):
    script = tmp_path / "bot"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    code, _, err = cli("tournament", "spring2021", str(script), "random", "--db", str(tmp_path / "r.sqlite"))
    assert code == 1
    assert_one_line_error(err, "bot 'bot' failed to start")
    assert leftovers(tmp_path) == []


def test_the_start_check_tells_waiting_bots_from_dead_ones(tmp_path):
    waits = BotSpec("waits", (sys.executable, "-c", "input()"))
    child_answers = BotSpec("child", ("sh", "-c", "sleep 5 &"))  # a launcher whose child holds its output
    silent = BotSpec("silent", (sys.executable, "-c", "pass"))  # exits 0 with nobody left to answer
    killed = BotSpec("killed", (sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"))
    loads_then_fails = BotSpec(
        "slow",
        (
            sys.executable,
            "-c",
            "import time\nend = time.monotonic() + 0.6\n"
            "while time.monotonic() < end: pass\nraise SystemExit('no model')",
        ),
    )
    failures = start_failures([waits, child_answers, silent, killed, loads_then_fails, waits])
    assert [f.bot for f in failures] == ["silent", "killed", "slow"]
    assert "exited with code 0" in failures[0].reason
    assert "killed by SIGKILL" in failures[1].reason
    assert "exited with code 1" in failures[2].reason and "(no model)" in failures[2].reason


# -- paths ----------------------------------------------------------------------------------------

LONG = "b" * 300  # longer than any file name can be (255 bytes)


@pytest.mark.parametrize(
    "command",
    [
        ["play", "spring2021", f"{LONG}.py", "random", "--seed", "1"],
        ["play", "spring2021", "greedy", "random", "--seed", "1", "--replay", f"{LONG}.json"],
        ["tournament", "spring2021", f"{LONG}.py", "random", "--db", "r.sqlite"],
        ["tournament", f"{LONG}.yaml"],
        ["tournament", "spring2021", "greedy", "random", "--db", f"{LONG}.sqlite"],
        ["tournament", "spring2021", "greedy", "random", "--db", "r.sqlite", "--seeds", f"{LONG}.txt"],
        ["tournament", "spring2021", "greedy", "random", "--db", "r.sqlite", "--replays", LONG],
    ],
    ids=["play-bot", "play-replay", "tournament-bot", "config", "db", "seed-file", "replay-folder"],
)
def test_a_file_name_too_long_is_one_line(tmp_path, monkeypatch, command):
    """Observed: OSError [Errno 36] tracebacks."""
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(*command)
    assert code in (1, 2)
    assert_one_line_error(err, "too long")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "command,needle",
    [
        ([b"play", b"spring2021", b"\xff.py", b"random", b"--seed", b"1"], "no such file"),
        ([b"tournament", b"spring2021", b"\xff.py", b"random", b"--db", b"r.sqlite"], "no such file"),
        ([b"tournament", b"\xff.yaml"], "no such config file"),
        ([b"tournament", b"spring2021", b"greedy", b"random", b"--db", b"no\xff/r.sqlite"], "does not exist"),
        (
            [b"tournament", b"spring2021", b"greedy", b"random", b"--db", b"r.sqlite", b"--seeds", b"\xff.txt"],
            "not a seed file",
        ),
        (
            [b"tournament", b"spring2021", b"greedy", b"random", b"--db", b"r.sqlite", b"--replays", b"no\xff/x"],
            "does not exist",
        ),
        ([b"play", b"spring2021", b"greedy", b"random", b"--replay", b"no\xff/g.json"], "no such directory"),
    ],
    ids=["play-bot", "tournament-bot", "config", "db", "seed-file", "replay-folder", "play-replay"],
)
def test_a_path_that_is_not_utf8_is_one_line(tmp_path, command, needle):
    proc = arena_bytes(*command, cwd=tmp_path)
    assert proc.returncode in (1, 2)
    assert_one_line_error(proc.stderr.decode("utf-8", "replace"), needle)
    assert leftovers(tmp_path) == []


def test_a_tournament_bot_at_a_path_that_is_not_utf8_is_hashed_and_stored(tmp_path):
    """Observed: UnicodeEncodeError while hashing the bot's files. Its file name's bytes are hashed
    as they are; its default name shows the bad byte as U+FFFD."""
    folder = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff")
    Path(folder).mkdir()
    bot = Path(folder) / os.fsdecode(b"\xfe.py")
    bot.write_bytes(GREEDY.read_bytes())
    config = config_from_mapping({**BASE, "bots": [str(bot), "random"], "db": str(tmp_path / "r.sqlite")})
    assert config.bots[0].name == "\ufffd"
    with Store(config.db) as store:
        scheduler = TournamentScheduler(config)
        row = next(r for r in scheduler.bot_rows(store) if r.name == "\ufffd")
        scheduler.open(store)
    want = hashlib.sha256(b"\xfe.py" + b"\0" + hashlib.sha256(GREEDY.read_bytes()).digest()).hexdigest()[:16]
    assert row.source_hash == want == source_hash([bot])


# -- a large --games starts at once ---------------------------------------------------------------


def test_the_schedule_of_ten_million_games_is_counted_not_listed(monkeypatch):
    """Observed: --games 10000000 took 14 s before the first game (every game was listed to
    count those left). Counting is arithmetic; one seed is computed for the first game."""
    calls = []
    real = schedule_module.pair_seed
    monkeypatch.setattr(schedule_module, "pair_seed", lambda master, pair: calls.append(pair) or real(master, pair))
    schedule = GauntletSchedule(["a", "b"], master_seed=1, pairs=5_000_000, baseline="b")
    dispatcher = Dispatcher(schedule, [ComparisonTracker(0, "a", "b", None)], set())
    assert dispatcher.remaining() == 10_000_000  # one comparison, 5 million seeds, two seats each
    first = dispatcher.next_game()
    assert first is not None and (first.comparison, first.pair, first.leg) == (0, 0, 0)
    assert first.seed == real(1, 0)
    assert dispatcher.remaining() == 10_000_000  # the game handed out is still being played
    assert len(calls) == 1


@pytest.mark.parametrize("seed", range(6))
def test_the_counted_remainder_matches_listing_the_games(seed):
    """The count agrees with the games the dispatcher hands out, with stored games and decisions."""
    import random

    rng = random.Random(seed)
    players = 3 if seed % 2 else 2
    bots = ["a", "b", "c", "d"][: players + 1]
    schedule = (
        RoundRobinSchedule(bots, 1, pairs=5, players=players)
        if players == 3
        else GauntletSchedule(bots, 1, pairs=5, baseline="a")
    )
    trackers: list[ComparisonTracker | TableTracker] = [
        make_tracker(c.index, c.bots, None) for c in schedule.comparisons()
    ]
    if players == 2:
        trackers[0].decided_at = rng.randint(0, 5)  # a decision: no pair from there on
    every = [(c.index, p, leg) for c in schedule.comparisons() for p in range(5) for leg in range(players)]
    done = set(rng.sample(every, 7)) | {(0, 9, 0)}  # a stored game beyond today's --games
    dispatcher = Dispatcher(schedule, trackers, set(done))
    counted = dispatcher.remaining()
    handed = []
    while (game := dispatcher.next_game()) is not None:
        handed.append((game.comparison, game.pair, game.leg))
    expected = [
        k
        for k in every
        if k not in done and (trackers[k[0]].decided_at is None or k[1] < (trackers[k[0]].decided_at or 0))
    ]
    assert sorted(handed) == sorted(expected)
    assert counted == len(expected)


def test_a_tournament_of_ten_million_games_starts_at_once(tmp_path):
    class Refuses:
        """An executor that stops the run at the first game it is given."""

        def __init__(self, workers: int) -> None:
            self.workers = workers

        def free_slots(self) -> int:
            return 1

        def running(self) -> int:
            return 0

        def submit(self, task: object) -> None:
            raise KeyboardInterrupt

        def results(self, timeout: float | None) -> list[object]:
            return []

        def stop(self, interrupt: bool = False, timeout: float = 10.0) -> None:
            pass

    config = config_from_mapping({**BASE, "games": 10_000_000, "workers": 1, "db": str(tmp_path / "r.sqlite")})
    events: list[object] = []
    start = time.monotonic()
    with Store(config.db) as store:
        run = run_tournament(config, store, on_event=events.append, executor=Refuses)
    assert time.monotonic() - start < 2  # today: 14 s or more
    assert run.interrupted
    started = next(e for e in events if type(e).__name__ == "Started")
    assert started.total == 10_000_000


# -- workers --------------------------------------------------------------------------------------


def test_more_workers_than_twice_the_cores_are_refused_unless_forced(tmp_path):
    """Observed: --workers 10000 spawned workers with only a warning."""
    cores = os.cpu_count() or 1
    db = tmp_path / "r.sqlite"
    code, _, err = cli("tournament", "spring2021", "greedy", "random", "--workers", "10000", "--db", str(db))
    assert code == 2
    assert_one_line_error(err, "workers: 10000", f"at most {2 * cores}", "--force-workers")
    assert leftovers(tmp_path) == []
    path = write_config(tmp_path, "workers: 10000\n")
    code, _, err = cli("tournament", str(path))
    assert code == 2 and "--force-workers" in assert_one_line_error(err)
    assert config_from_mapping({**BASE, "workers": 2 * cores}).workers == 2 * cores
    with pytest.raises(ConfigError, match="twice the"):
        config_from_mapping({**BASE, "workers": 2 * cores + 1})
    assert config_from_mapping({**BASE, "workers": 2 * cores + 1, "force_workers": True}).workers == 2 * cores + 1
    with pytest.raises(ConfigError, match="at most 1024"):
        config_from_mapping({**BASE, "workers": 10000, "force_workers": True})


# -- data files -----------------------------------------------------------------------------------


def _data_config(tmp_path: Path, data: list[str]) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(
        "game: spring2021\n"
        f"bots: [{{name: mine, bot: greedy, data: [{', '.join(data)}]}}, random]\n"
        "games: 2\ndb: r.sqlite\n"
    )
    return path


def _open(path: Path) -> tuple[int, bool]:
    config = load_config(path)
    with Store(config.db) as store:
        return TournamentScheduler(config).open(store)


@pytest.mark.parametrize("changed", ["weights.bin", "book/openings.txt"])
def test_a_changed_data_file_is_noticed_on_resume(tmp_path, changed):
    """Observed: a data file the bot reads changed between runs and the run resumed anyway. Since
    #43 the bot is another version, played in a new tournament (the first keeps its games)."""
    (tmp_path / "weights.bin").write_bytes(b"\x00\x01\x02")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "openings.txt").write_text("e4 e5\n")
    path = _data_config(tmp_path, ["weights.bin", "book/"])
    first, resumed = _open(path)
    assert not resumed
    assert _open(path) == (first, True)  # unchanged: resumed
    (tmp_path / changed).write_bytes((tmp_path / changed).read_bytes() + b"changed")
    assert _open(path) == (first + 1, False)


def test_declared_data_files_must_exist(tmp_path):
    path = _data_config(tmp_path, ["missing.bin"])
    code, _, err = cli("tournament", str(path))
    assert code == 2
    assert_one_line_error(err, "bot 'mine': data missing.bin: no such file or directory")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_config_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path, kind):
    """A FIFO given as the config waited forever for a writer; a device never ends."""
    if kind == "fifo":
        path = tmp_path / "t.yaml"
        os.mkfifo(path)
    else:
        path = tmp_path / "urandom.yaml"
        path.symlink_to("/dev/urandom")
    started = time.monotonic()
    code, _, err = cli("tournament", str(path), "--no-progress")
    assert time.monotonic() - started < 30
    assert code == 2
    what = "a named pipe (FIFO)" if kind == "fifo" else "a character device"
    assert_one_line_error(err, f"{path}: not a config file ({what}, not a regular file)")
