"""What a Dask worker gets for each bot (:mod:`arena.runner.shipping`), and how a slow worker
is told apart (:func:`arena.runner.dask_worker.slow_workers`,
:func:`arena.standings.health.worker_health`), without a cluster: the expected values are
worked out by hand."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.match.launch.botspec import BotSpec, resolve
from arena.runner.dask_worker import WorkerPace, slow_workers
from arena.runner.shipping import Need, Shipped, ShippingError, describe_missing, missing, pack, unpack
from arena.standings.health import Latency, worker_health
from arena.store.records import GameRecord, PlayerRecord
from bundler.ship import bundle_source


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tempfile.gettempdir()`` (where the bundle cache lives) inside the test's folder."""
    folder = tmp_path / "worker-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def write_package(folder: Path) -> Path:
    """A two-module package bot: ``__main__`` prints what ``logic`` says, with a relative import."""
    pkg = folder / "twofile"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "logic.py").write_text("def answer(turn):\n    return f'WAIT turn {turn}'\n")
    (pkg / "__main__.py").write_text("import sys\nfrom .logic import answer\n\nprint(answer(int(sys.argv[1])))\n")
    return pkg


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- pack: which bots travel as bundles, what the others need --------------------------------------


def test_each_python_source_is_bundled_once_and_keeps_its_arguments(tmp_path: Path) -> None:
    pkg = write_package(tmp_path)
    calls: list[str] = []

    def bundler(entry: str) -> str:
        calls.append(entry)
        return f"# bundle of {entry}\n"

    first = resolve(f"{pkg} 7", "spring2021")
    second = BotSpec(name="again", argv=(*first.argv[:-1], "9"), cwd=first.cwd, source=first.source)
    shipment = pack([first, second], bundler)
    assert calls == [str(pkg)]
    text = f"# bundle of {pkg}\n"
    assert shipment.bundles == {sha(text): text}
    assert shipment.shipped == {
        "twofile": Shipped(sha(text), ("7",), keep_cwd=False),
        "again": Shipped(sha(text), ("9",), keep_cwd=False),
    }
    assert shipment.needs == ()  # a bundle of the standard library only


def test_other_bots_need_their_program_folder_data_and_the_files_their_arguments_name(tmp_path: Path) -> None:
    program = tmp_path / "engine"
    weights = tmp_path / "weights.bin"
    book = tmp_path / "book.txt"
    for path in (program, weights, book):
        path.write_text("x")
    spec = BotSpec(
        name="engine",
        argv=(str(program), "--book", "book.txt", "--depth", "3"),
        cwd=str(tmp_path),
        data=(str(weights),),
    )
    on_path = BotSpec(name="sh", argv=("sh", "-c", "echo WAIT"))
    shipment = pack([spec, on_path], lambda entry: pytest.fail("no Python bot here"))
    assert shipment.shipped == {} and shipment.bundles == {}
    assert list(shipment.needs) == [
        Need("engine", "folder", str(tmp_path), "path"),
        Need("engine", "data file", str(weights), "path"),
        Need("engine", "program", str(program), "path"),
        Need("engine", "file", str(book), "path"),  # "3" and "--depth" name no file here
        Need("sh", "program", "sh", "program"),
    ]


def test_a_python_bot_with_data_keeps_its_folder_and_needs_it_on_the_worker(tmp_path: Path) -> None:
    pkg = write_package(tmp_path)
    spec = resolve(str(pkg), "spring2021")
    spec = BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=(str(tmp_path / "w.bin"),), source=spec.source)
    shipment = pack([spec], lambda entry: "import numpy\nimport os.path\nfrom collections import deque\n")
    assert shipment.shipped["twofile"].keep_cwd
    assert list(shipment.needs) == [
        Need("twofile", "module", "numpy", "module"),
        Need("twofile", "folder", str(tmp_path), "path"),
        Need("twofile", "data file", str(tmp_path / "w.bin"), "path"),
    ]


def test_a_python_bot_without_a_bundler_is_named_with_what_to_do(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("print('WAIT')\n")
    with pytest.raises(ShippingError, match=r"bot 'bot' is a Python bot, .* no bundler was given .*bundle_source"):
        pack([resolve(str(bot), "spring2021")], None)
    assert pack([resolve("python3 -c pass", "spring2021")], None).bundles == {}  # a command needs none


def test_a_bot_the_bundler_refuses_is_named_with_what_to_do(tmp_path: Path) -> None:
    bot = tmp_path / "uses_requests.py"
    bot.write_text("import requests_that_nobody_installs\nprint('WAIT')\n")
    with pytest.raises(ShippingError) as caught:
        pack([resolve(str(bot), "spring2021")], bundle_source)
    message = str(caught.value)
    assert message.startswith("bot 'uses_requests' cannot be sent to Dask workers as one file: ")
    assert "requests_that_nobody_installs" in message and f'"python3 {bot}"' in message
    assert "\n" not in message


def test_the_bundler_makes_a_bundle_that_runs_without_the_source(tmp_path: Path) -> None:
    pkg = write_package(tmp_path)
    text = bundle_source(str(pkg))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "bot.py").write_text(text)
    done = subprocess.run([sys.executable, "bot.py", "5"], cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert done.stdout == "WAIT turn 5\n", done.stderr


# -- unpack: the bundle on the worker ----------------------------------------------------------------


def test_a_bundle_is_written_once_and_run_with_its_arguments(tmp_path: Path, private_tmp: Path) -> None:
    spec = resolve(f"{write_package(tmp_path)} 3", "spring2021")
    text = "print('WAIT')\n"
    ship = Shipped(sha(text), ("3",), keep_cwd=False)
    fetched: list[str] = []

    def fetch() -> str:
        fetched.append(text)
        return text

    ran = unpack(spec, ship, fetch)
    path = private_tmp / f"cgarena-bundles-{os.getuid()}" / sha(text) / "bot.py"
    assert ran.argv == (sys.executable, "-u", str(path), "3")
    assert ran.cwd == str(path.parent) and ran.source is None and ran.name == spec.name
    assert path.read_text() == text
    inode = path.stat().st_ino
    unpack(spec, ship, fetch)
    assert path.stat().st_ino == inode and len(fetched) == 1  # neither fetched nor written again


def test_a_damaged_bundle_on_disk_is_written_again(tmp_path: Path, private_tmp: Path) -> None:
    spec = resolve(str(write_package(tmp_path)), "spring2021")
    text = "print('WAIT')\n"
    ship = Shipped(sha(text), (), keep_cwd=False)
    path = Path(unpack(spec, ship, lambda: text).argv[2])
    path.write_text("print('MOVE nowhere')\n")  # changed on the worker's disk
    unpack(spec, ship, lambda: text)
    assert path.read_text() == text


def test_a_bundle_that_arrives_damaged_is_refused(tmp_path: Path, private_tmp: Path) -> None:
    spec = resolve(str(write_package(tmp_path)), "spring2021")
    ship = Shipped(sha("print('WAIT')\n"), (), keep_cwd=False)
    with pytest.raises(ShippingError, match="its bundle arrived damaged on this worker"):
        unpack(spec, ship, lambda: "print('WAIT') \n")
    assert not any(private_tmp.rglob("*.py"))  # nothing written


# -- missing: what a worker lacks ----------------------------------------------------------------------


def test_missing_finds_what_is_not_here(tmp_path: Path) -> None:
    there = tmp_path / "there"
    there.write_text("")
    needs = [
        Need("a", "program", "sh", "program"),
        Need("a", "program", "no-such-program-xyz", "program"),
        Need("b", "data file", str(there), "path"),
        Need("b", "data file", str(tmp_path / "gone"), "path"),
        Need("c", "module", "json", "module"),
        Need("c", "module", "no_such_module_xyz", "module"),
    ]
    assert missing(needs) == [needs[1], needs[3], needs[5]]
    assert describe_missing(needs[3], "tcp://10.0.0.2:40000") == (
        f"bot 'b' cannot run on Dask worker tcp://10.0.0.2:40000: its data file {tmp_path / 'gone'} is missing "
        "there; bots other than Python files and packages, and data files, must be at the same paths on every worker"
    )
    assert "pip install no_such_module_xyz" in describe_missing(needs[5], "w")


# -- slow workers -------------------------------------------------------------------------------------


def test_a_worker_much_slower_than_the_fastest_or_off_pace_is_named() -> None:
    paces = {
        "tcp://a:1": WorkerPace(0.020, 1.0),
        "tcp://b:1": WorkerPace(0.029, 0.99),
        "tcp://c:1": WorkerPace(0.032, 1.0),
        "tcp://d:1": WorkerPace(0.021, 0.90),
    }
    lines = slow_workers(paces)
    assert len(lines) == 2
    assert lines[0].startswith("Dask worker tcp://c:1 is 1.6x slower than the fastest worker (32 ms against 20 ms")
    assert lines[1].startswith("Dask worker tcp://d:1's clock runs at 0.90x this machine's: its bots get 1.11x")
    assert slow_workers({"tcp://alone:1": WorkerPace(5.0, 1.0)}) == []  # nothing to compare with


def player(seat: int, bot: str, latencies: list[float], status: str = "ok", near: int = 0) -> PlayerRecord:
    return PlayerRecord(seat=seat, bot=bot, score=0, rank=0, status=status, latencies_ms=latencies, near_limit=near)


def game(pair: int, worker: str | None, a: list[float], b: list[float], **kw) -> GameRecord:
    return GameRecord(
        comparison=0,
        pair=pair,
        leg=0,
        seed=pair,
        players=(player(0, "fixed", a, **kw), player(1, "clock", b)),
        winner=None,
        end_reason="turns",
        turns=len(a),
        duration_s=1.0,
        worker=worker,
    )


def test_worker_health_shows_the_worker_where_a_fixed_work_bot_answers_slower() -> None:
    # "fixed" answers in 2 ms on w1 and 4 ms on w2 (a slower CPU); "clock" always takes 80 ms.
    # All workers: fixed's median is 3 ms (20 answers of 2, 20 of 4: the median of 2 and 4);
    # w1's pace is max(2/3, 80/80) = 1.0, w2's is max(4/3, 1.0) = 1.333.
    games = [
        game(0, "tcp://w1:1", [2.0] * 20, [80.0] * 20),
        game(1, "tcp://w2:1", [4.0] * 20, [80.0] * 20, status="timeout", near=3),
        game(2, None, [1.0] * 20, [80.0] * 20),
    ]
    rows = worker_health(games[:2])
    assert [r.worker for r in rows] == ["tcp://w1:1", "tcp://w2:1"]
    assert [r.pace for r in rows] == [1.0, 1.333]
    assert [r.slow for r in rows] == [False, False]
    assert rows[1].timeouts == 1 and rows[1].near_limit == 3 and rows[1].games == 1
    assert rows[0].latency == Latency(41.0, 80.0, None)
    # A worker three times slower: fixed takes 6 ms there; everywhere its median is 2 (40 of 2, 20 of 6).
    slow = [
        game(0, "tcp://w1:1", [2.0] * 20, [80.0] * 20),
        game(1, "tcp://w1:1", [2.0] * 20, [80.0] * 20),
        game(2, "tcp://w3:1", [6.0] * 20, [80.0] * 20),
    ]
    rows = worker_health(slow)
    assert [(r.worker, r.pace, r.slow) for r in rows] == [
        ("tcp://w1:1", 1.0, False),
        ("tcp://w3:1", 3.0, True),
    ]
    # Games played on this machine have no worker row; too few answers give no pace.
    assert worker_health([games[2]]) == []
    assert worker_health([game(0, "tcp://w1:1", [2.0] * 5, [80.0] * 5)])[0].pace is None
