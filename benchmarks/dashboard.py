"""The dashboard (``arena serve``): how fast it lists a big database, and what a page polling it
costs a running tournament.

    python benchmarks/dashboard.py [--games N] [--runs R] [--tournament-games G] [--quick]

1. **Listing.** A results database of ``--games`` games (100,000 by default) is made from a real
   two-game tournament whose rows are copied with new pairs and seeds (in SQL, in one
   transaction); then the dashboard's pages are timed in-process (Flask's test client, a fresh
   read-only opening of the database per request, as served): the first and the last page of the
   games list, a filtered first page, the list of tournaments. Issue #35 asks the first page in
   under 0.5 s on a 2-core machine.
2. **Polling.** The same tournament (``greedy`` against ``random``, ``--tournament-games`` games,
   one worker) is played ``--runs`` times alone and ``--runs`` times with ``arena serve`` running
   and a client doing what an open page does: ask the tournament's version every second and fetch
   the page again when it changed. The two cases alternate; the median wall times and their ratio
   are printed (issue #35 asks at most 1.05).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ARENA = [sys.executable, "-m", "cli"]
SHORT = ["--param", "MAX_ROUNDS=6", "--workers", "1", "--no-progress"]


def seed_tournament(db: Path, games: int) -> None:
    """A real tournament of ``games`` games (two bots), stored in ``db``."""
    cmd = [*ARENA, "tournament", "spring2021", "greedy", "random", "--games", str(games), "--db", str(db), *SHORT]
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def inflate(db: Path, games: int) -> None:
    """Copy the tournament's two games into ``games`` games: pair ``k`` gets seed ``seed + k``."""
    conn = sqlite3.connect(db)
    try:
        game_cols = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
        player_cols = [r[1] for r in conn.execute("PRAGMA table_info(game_players)")]
        pairs = games // 2

        def picked(cols: list[str]) -> str:
            swap = {"pair": "n.k", "seed": "g.seed + n.k"}
            return ", ".join(swap.get(c, f"g.{c}") for c in cols)

        series = "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?)"
        with conn:
            conn.execute(
                f"INSERT INTO games ({', '.join(game_cols)}) {series} "
                f"SELECT {picked(game_cols)} FROM games g, n WHERE g.pair = 0",
                (pairs - 1,),
            )
            conn.execute(
                f"INSERT INTO game_players ({', '.join(player_cols)}) {series} "
                f"SELECT {picked(player_cols)} FROM game_players g, n WHERE g.pair = 0",
                (pairs - 1,),
            )
            conn.execute("UPDATE tournaments SET games_target = ?, status = 'finished'", (games,))
        count = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    assert count == pairs * 2, count


def timed(client: object, url: str, runs: int) -> float:
    """The median seconds of ``runs`` requests of ``url`` (each must answer 200)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        response = client.get(url)  # type: ignore[attr-defined]
        times.append(time.perf_counter() - t0)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


def listing(folder: Path, games: int, runs: int) -> None:
    from cli.dashboard import create_app

    db = folder / "big.sqlite"
    seed_tournament(db, 2)
    t0 = time.perf_counter()
    inflate(db, games)
    print(f"made a database of {games} games in {time.perf_counter() - t0:.1f} s ({db.stat().st_size / 1e6:.0f} MB)")
    client = create_app(db).test_client()
    last = (games + 49) // 50
    for what, url in (
        ("tournaments list", "/"),
        ("games, first page", "/games?tournament=1"),
        ("games, last page", f"/games?tournament=1&page={last}"),
        ("games of greedy it lost, first page", "/games?tournament=1&bot=greedy&result=loss"),
        ("games of one seed", "/games?tournament=1&seed=12345"),
    ):
        print(f"  {what:40} median {1000 * timed(client, url, runs):8.1f} ms over {runs} requests")


def poller(base: str, stop: threading.Event, counts: list[int]) -> None:
    """What an open tournament page does: the version every second, the page when it changed."""
    last = None
    while not stop.wait(1.0):
        try:
            with urllib.request.urlopen(f"{base}/api/version/1", timeout=5) as r:
                version = json.loads(r.read())
        except OSError:
            continue  # no tournament yet
        key = (version["games"], version["status"])
        if key != last:
            with urllib.request.urlopen(f"{base}/tournament/1", timeout=30) as r:
                r.read()
            counts[0] += 1
        last = key


def one_run(folder: Path, games: int, served: bool) -> float:
    db = folder / f"poll-{time.monotonic_ns()}.sqlite"
    seed_tournament(db, 2)  # the database exists before the dashboard opens it
    cmd = [*ARENA, "tournament", "spring2021", "greedy", "random", "--games", str(games), "--db", str(db), *SHORT]
    cmd += ["--new"]
    server = None
    stop = threading.Event()
    counts = [0]
    thread = None
    if served:
        server = subprocess.Popen(
            [*ARENA, "serve", "--db", str(db), "--port", "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        assert server.stderr is not None
        line = server.stderr.readline()
        base = line.split(" on ", 1)[1].split()[0].rstrip("/")
        thread = threading.Thread(target=poller, args=(base, stop, counts), daemon=True)
        thread.start()
    try:
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t0
    finally:
        stop.set()
        if thread is not None:
            thread.join(30)
        if server is not None:
            server.terminate()
            server.wait(10)


def polling(folder: Path, games: int, runs: int) -> None:
    alone, served = [], []
    for _ in range(runs):
        alone.append(one_run(folder, games, False))
        served.append(one_run(folder, games, True))
    a, s = statistics.median(alone), statistics.median(served)
    print(f"  tournament of {games} games alone:            median {a:.2f} s  ({', '.join(f'{x:.2f}' for x in alone)})")
    print(f"  the same with a page polling every second:   median {s:.2f} s  ({', '.join(f'{x:.2f}' for x in served)})")
    print(f"  ratio served / alone: {s / a:.3f} (issue #35: at most 1.05)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the listed database")
    parser.add_argument("--runs", type=int, default=5, help="requests per page, and tournaments per case")
    parser.add_argument("--tournament-games", type=int, default=40, help="games of the polled tournament")
    parser.add_argument("--quick", action="store_true", help="10,000 games, 3 runs, a 20-game tournament")
    args = parser.parse_args()
    if args.quick:
        args.games, args.runs, args.tournament_games = 10_000, 3, 20
    try:
        import flask  # noqa: F401
    except ImportError:
        sys.exit("the dashboard needs Flask: pip install 'cgarena[serve]'")
    with tempfile.TemporaryDirectory() as tmp:
        print("listing:")
        listing(Path(tmp), args.games, args.runs)
        print("polling:")
        polling(Path(tmp), args.tournament_games, args.runs)


if __name__ == "__main__":
    main()
