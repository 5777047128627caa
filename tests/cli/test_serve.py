"""``arena serve`` (#35): the dashboard's pages against the terminal's figures, its games list
against ``arena matches list`` and against a second, plain implementation of its paging, its
escaping, the files it refuses to serve, and the databases it never changes."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.store.browse import GameFilter, find_games
from arena.store.paging import game_page
from arena.store.where import parse_condition
from cli.arena import main
from tests.helpers.dashboard import EVIL, SHORT, arena, evil_tournament, headers, row_ids, table, tournament_db
from tests.helpers.paths import REPO_ROOT

pytest.importorskip("flask", reason="the dashboard needs Flask: pip install -e '.[test]'")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament_db(tmp_path_factory.mktemp("served"))


def client(db: Path) -> Any:
    from cli.dashboard import create_app

    return create_app(db).test_client()


def page(db: Path, url: str, status: int = 200) -> str:
    response = client(db).get(url)
    assert response.status_code == status, (url, response.status_code)
    return str(response.get_data(as_text=True))


def test_the_tournament_page_shows_the_figures_of_arena_results(db: Path) -> None:
    results = json.loads(arena("results", "--db", str(db), "--format", "json"))
    shown = page(db, "/tournament/1")
    rows = table(shown, "comparisons")
    assert len(rows) == len(results["comparisons"]) == 2
    for cells, c in zip(rows, results["comparisons"]):
        assert cells[0] == f"{c['bots'][0]} vs {c['bots'][1]}"
        assert cells[1] == str(c["games"])
        assert cells[2] == f"{c['wins']}-{c['draws']}-{c['losses']}"
        assert cells[3] == f"{100 * c['score']:.1f}%"
        assert cells[8] == "[" + ", ".join(map(str, c["penta"])) + "]"
        assert (
            f"LLR {c['sprt']['llr']:.2f} [{c['sprt']['lower_bound']:.2f}, {c['sprt']['upper_bound']:.2f}]" in cells[9]
        )
    titles = headers(shown, "bots")
    bots = {cells[0]: dict(zip(titles, cells)) for cells in table(shown, "bots")}
    assert len(bots) == len(results["bots"]) == 3
    for b in results["bots"]:
        cells = bots[b["name"]]
        assert [cells["games"], cells["timeouts"], cells["crashes"], cells["invalid"]] == [
            str(b["games"]), str(b["timeouts"]), str(b["crashes"]), str(b["invalid"])
        ]  # fmt: skip
        median, p99, top = (b["latency_ms"][k] for k in ("median", "p99", "max"))
        if median is not None:
            assert cells["latency ms median / p99 / max"] == f"{median:.1f} / {p99:.1f} / {top:.1f}"
    assert f'<span id="games-stored">{results["tournament"]["games_stored"]}</span>' in shown
    assert client(db).get("/api/standings/1").get_json() == results


def test_the_tournament_page_ranks_the_bots_as_arena_results_does(db: Path) -> None:
    """The ranking (#43: the Bradley-Terry fit ``arena results`` and ``arena ladder show`` print):
    the same bots in the same order, the same cells as the terminal's table (the page adds the
    interval's bar), and the model named."""
    ranking = json.loads(arena("results", "--db", str(db), "--format", "json"))["leaderboard"]
    printed = arena("results", "--db", str(db)).splitlines()
    at = next(i for i, line in enumerate(printed) if line.startswith("ranking (Bradley-Terry, Elo scale"))
    assert headers(page(db, "/tournament/1"), "ranking") == [
        "#", "bot", "rating", "95%", "", "games", "score", "above next"
    ]  # fmt: skip
    rows = table(page(db, "/tournament/1"), "ranking")
    assert [r[1] for r in rows] == [b["bot"] for b in ranking["ranking"]] and len(rows) == 3
    for cells, line in zip(rows, printed[at + 2 : at + 5], strict=True):
        terminal = re.split(r"  +", line.strip())
        assert cells[:4] + cells[5:] == terminal + [""] * (7 - len(terminal))
    assert f"over the {ranking['games']} counted games" in page(db, "/tournament/1")


def test_the_games_list_filtered_by_crash_is_the_one_matches_list_gives(db: Path) -> None:
    listed = json.loads(arena("matches", "list", "--db", str(db), "--status", "crash", "--format", "json"))
    expected = [g["id"] for g in listed["games"]]
    assert len(expected) == 6  # the crasher's six games
    assert row_ids(page(db, "/games?tournament=1&status=crash"), "games") == expected
    listed = json.loads(
        arena("matches", "list", "--db", str(db), "--bot", "greedy", "--result", "loss", "--format", "json")
    )
    shown = page(db, "/games?tournament=1&bot=greedy&result=loss")
    assert row_ids(shown, "games") == [g["id"] for g in listed["games"]]


FILTERS = [
    GameFilter(),
    GameFilter("greedy"),
    GameFilter("greedy", "win"),
    GameFilter("greedy", "loss"),
    GameFilter("wait", "draw"),
    GameFilter(None, None, "crash"),
    GameFilter("crasher", None, "crash"),
    GameFilter("greedy", None, "crash"),
    GameFilter("wait", "win", "ok"),
]


@pytest.mark.parametrize("which", FILTERS, ids=str)
def test_paging_in_sql_chooses_what_the_plain_filter_chooses(db: Path, which: GameFilter) -> None:
    everything = [g.id for g in find_games(db, 1, which).games]  # the plain one: every game read, filtered
    for offset, limit in ((0, 3), (3, 3), (5, 50), (0, 100)):
        found = game_page(db, 1, which, offset=offset, limit=limit)
        assert [g.id for g in found.games] == everything[offset : offset + limit]
        assert found.matching == len(everything) and found.total == 12


def test_seed_and_map_filters(db: Path) -> None:
    games = find_games(db, 1).games
    seed = games[0].seed
    assert [g.id for g in game_page(db, 1, seed=seed).games] == [g.id for g in games if g.seed == seed]
    holes = games[0].meta["holes"] if games[0].meta else None
    assert holes is not None
    wanted = [g.id for g in games if g.meta and g.meta["holes"] == holes]
    assert [g.id for g in game_page(db, 1, facts=(parse_condition(f"holes={holes}"),)).games] == wanted
    assert row_ids(page(db, f"/games?tournament=1&where=holes%3D{holes}"), "games") == wanted


def test_a_game_page_gives_the_command_of_matches_show_and_its_replay(db: Path) -> None:
    shown = arena("matches", "show", "1", "--db", str(db))
    command = shown.strip().splitlines()[-1].removeprefix("play it again with: ")
    game = page(db, "/game/1")
    from html import unescape

    assert unescape(game.split('<pre id="command" class="command">')[1].split("</pre>")[0]) == command
    assert '<iframe id="replay" src="/game/1/replay"' in game
    replay = page(db, "/game/1/replay")
    assert "cgView" in replay or 'id="app"' in replay


def test_a_bot_named_like_markup_is_shown_as_text(tmp_path: Path) -> None:
    db = evil_tournament(tmp_path)
    for url in ("/", "/tournament/1", "/games?tournament=1", "/game/1", f"/games?tournament=1&bot={EVIL}"):
        shown = page(db, url)
        assert "<img" not in shown, url
    assert "&lt;img src=x onerror=alert(1)&gt;" in page(db, "/tournament/1")


@pytest.mark.parametrize(
    "url",
    [
        "/game/1/replay/../../../../etc/passwd",
        "/static/../app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e/%2e%2e/pages.py",
        "/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/static//etc/passwd",
        "/game/..%2f..%2fetc%2fpasswd",
        "/replays/game1-seed1.json",
    ],
)
def test_no_path_from_a_url_reaches_the_file_system(db: Path, url: str) -> None:
    response = client(db).get(url)
    assert response.status_code == 404, (url, response.status_code)
    assert b"root:" not in response.get_data()


def test_a_game_without_a_replay_gives_the_command_that_makes_one(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE games SET replay = NULL WHERE rowid = 2")
    shown = page(copy, "/game/2")
    assert "No replay was kept" in shown and "--replay game2.json --view" in shown
    assert client(copy).get("/game/2/replay").status_code == 404


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_old_database_is_shown_never_migrated(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    shutil.copy(REPO_ROOT / "tests" / "fixtures" / "store_v1" / "results.sqlite", old)
    before = _digest(old)
    index = page(old, "/")
    assert 'href="/tournament/1"' in index
    page(old, "/tournament/1")
    page(old, "/games?tournament=1")
    assert _digest(old) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


def test_a_missing_database_is_one_line_and_nothing_is_created(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert "none.sqlite" in result.output and list(tmp_path.iterdir()) == []


def test_without_flask_the_command_says_what_to_install(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "flask" or m.startswith(("flask.", "cli.dashboard"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "flask", None)
    result = CliRunner().invoke(main, ["serve", "--db", str(db)])
    assert result.exit_code == 1 and "pip install 'cgarena[serve]'" in result.output


@pytest.mark.parametrize(("host", "said"), [("127.0.0.1", "(this machine only)"), ("0.0.0.0", "no authentication")])
def test_the_address_is_local_unless_asked_and_then_a_warning_says_so(db: Path, host: str, said: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--db", str(db), "--port", "0", "--host", host],
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
    finally:
        proc.terminate()
        proc.wait(10)
    assert said in first, first


def test_the_ladder_page_shows_the_ranking_of_ladder_show(tmp_path: Path) -> None:
    db = str(tmp_path / "l.sqlite")
    arena("ladder", "init", "spring2021", "--param", "MAX_ROUNDS=3", "--db", db)
    for name in ("greedy", "random", "wait"):
        arena("ladder", "add", name, name, "--db", db)
    arena("ladder", "run", "--games", "12", "--workers", "1", "--no-progress", "--db", db)
    data = json.loads(arena("ladder", "show", "--format", "json", "--db", db))
    shown = page(Path(db), "/ladder/1")
    assert client(Path(db)).get("/tournament/1").headers["Location"].endswith("/ladder/1")
    rows = table(shown, "ranking")
    assert [r[1] for r in rows] == [b["bot"] for b in data["ranking"]]
    for cells, b in zip(rows, data["ranking"]):
        assert cells[6] == str(b["games"])
        if b["rating"] is not None:
            assert cells[3] == f"{b['rating']:+.0f}"
    cross = table(shown, "cross")
    order = [b["bot"] for b in data["ranking"]]
    for c in data["cross"]:
        row = next(r for r in cross if r[0] == c["bot"])
        assert row[1 + order.index(c["against"])] == f"{100 * c['score']:.1f}% ({c['games']})"
    assert 'id="history"' in shown and shown.count('class="line"') == len(order)
    # a ladder game's page gives the command of matches show: the versions that played it, from anywhere
    said = arena("matches", "show", "1", "--db", db).strip().splitlines()[-1].removeprefix("play it again with: ")
    game = page(Path(db), "/game/1")
    from html import unescape

    assert unescape(game.split('<pre id="command" class="command">')[1].split("</pre>")[0]) == said
    assert said.startswith("arena play spring2021 ") and f"--db {db}" in said


def test_a_sweep_draws_every_variant_with_its_interval(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    arena(
        "tournament", "spring2021", "baseline=greedy", "greedy --complete-day {day}", "--sweep-bot", "greedy",
        "--grid", "day=6,12,18", "--baseline", "baseline", "--games", "2", "--db", db, *SHORT,
    )  # fmt: skip
    results = json.loads(arena("results", "--db", db, "--format", "json"))
    variants = results["sweep"]["ranking"]
    assert len(variants) == 3
    shown = page(Path(db), "/tournament/1")
    sweep = shown.split('<figure id="sweep">')[1].split("</figure>")[0]
    assert sweep.count('class="errorbar"') == sweep.count('class="dot"') == 3
