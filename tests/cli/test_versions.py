"""``arena versions``: listing the recorded bot versions with their games, removing unused ones.

Each test makes its database under ``tmp_path``: real small bots frozen as their module tree,
recorded as versions, a tournament whose bots play some of them with games whose ranks are
chosen here. Every expected figure is worked out by hand from those games; hashes and sizes from
the snapshot files the freeze wrote; what is left from the database by plain SQL."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.store.results import Store
from arena.versions import registry
from cli.arena import main
from tests.helpers.versions import (
    frozen_bot,
    game,
    manifest_sha,
    rows,
    snapshot_bytes,
    snapshot_folders,
    tournament_with,
)


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@dataclass
class Setup:
    db: Path
    hashes: dict[str, str]
    """By label: mybot@1, mybot@2, other@1."""
    sizes: dict[str, int]
    """The bytes of each one's snapshot files."""
    tid: int


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    """mybot@1 (unused), mybot@2 (tournament 1's ``mybot``: won, drew, won, lost against ``rnd``,
    which plays no version) and other@1 (unused, origin a path with a control character)."""
    db = tmp_path / "results.sqlite"
    hashes, sizes = {}, {}
    with Store(db) as store:
        for label, folder, answer in (("mybot@1", "src", "one"), ("mybot@2", "src", "two"), ("other@1", "o", "x")):
            frozen = frozen_bot(tmp_path / folder, db, f"WAIT {answer}")
            hashes[label] = manifest_sha(frozen)
            sizes[label] = snapshot_bytes(tmp_path / folder / "bot.py", frozen)
            origin = "/home/me/other\x1b[2J" if label == "other@1" else str(tmp_path / "src" / "bot.py")
            registry.record(store, label.split("@")[0], frozen, origin)
        (v2,) = store.find_versions("mybot", number=2)
        tid = tournament_with(store, {"mybot": v2.id, "rnd": None})
        for pair, (mine, theirs) in enumerate(((0, 1), (0, 0), (0, 1), (1, 0))):
            store.record_game(tid, game(0, pair, 0, {"mybot": mine, "rnd": theirs}))
    return Setup(db, hashes, sizes, tid)


TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")


def test_it_lists_every_version_with_its_games_and_where_it_is_used(setup: Setup, tmp_path: Path) -> None:
    before = setup.db.read_bytes()
    done = arena("versions", "--db", str(setup.db))
    assert done.exit_code == 0, done.output
    lines = [TIME.sub("<TIME>", " ".join(line.split())) for line in done.output.splitlines()]
    h = {label: digest[:12] for label, digest in setup.hashes.items()}
    assert lines == [
        f"{setup.db}: 3 versions of 2 bots",
        "version hash frozen as recorded games W-D-L score used by origin",
        f"mybot@1 {h['mybot@1']} module tree <TIME> 0 - - unused {tmp_path}/src/bot.py",
        f"mybot@2 {h['mybot@2']} module tree <TIME> 4 2-1-1 62.5% tournament {setup.tid} (mybot) {tmp_path}/src/bot.py",
        f"other@1 {h['other@1']} module tree <TIME> 0 - - unused /home/me/other\\x1b[2J",
        "2 unused versions: arena versions --prune removes them",
    ]
    assert setup.db.read_bytes() == before


def test_name_or_a_reference_narrows_the_list(setup: Setup) -> None:
    mine = arena("versions", "mybot", "--db", str(setup.db))
    assert mine.exit_code == 0 and "2 versions of 1 bot" in mine.output
    assert "other@1" not in mine.output
    one = arena("versions", "mybot@prev", "--db", str(setup.db))
    assert one.exit_code == 0 and "1 version of 1 bot" in one.output
    assert "mybot@1" in one.output and "mybot@2" not in one.output
    wrong = arena("versions", "mybto", "--db", str(setup.db))
    assert wrong.exit_code == 1
    assert wrong.output.strip().splitlines() == [
        f"Error: no version of 'mybto' is recorded in {setup.db} (names with versions: mybot, other); "
        "did you mean mybot?"
    ]


def test_json_gives_each_version_with_its_figures(setup: Setup) -> None:
    done = arena("versions", "--db", str(setup.db), "--format", "json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output)
    assert doc["format"] == 1 and doc["db"] == str(setup.db)
    two = doc["versions"][1]
    assert {k: two[k] for k in ("version", "name", "number", "hash", "frozen_as", "games")} == {
        "version": "mybot@2",
        "name": "mybot",
        "number": 2,
        "hash": setup.hashes["mybot@2"],
        "frozen_as": "module tree",
        "games": 4,
    }
    assert (two["wins"], two["draws"], two["losses"], two["score"]) == (2, 1, 1, 0.625)
    assert two["used_by"] == [{"kind": "tournament", "id": setup.tid, "bot": "mybot"}]
    assert [v["version"] for v in doc["versions"]] == ["mybot@1", "mybot@2", "other@1"]
    assert doc["versions"][2]["origin"] == "/home/me/other\x1b[2J" and doc["versions"][2]["used_by"] == []


def test_a_used_version_is_not_removed(setup: Setup) -> None:
    done = arena("versions", "--db", str(setup.db), "--remove", "mybot@1", "--remove", "mybot@latest")
    assert done.exit_code == 1
    assert done.output.strip().splitlines() == [
        f"Error: mybot@2 is used by tournament {setup.tid} (mybot): a version is kept while a tournament or a "
        "ladder plays it (its games name it); only unused versions are removed (arena versions marks them)"
    ]
    assert rows(setup.db, "SELECT name, number FROM versions ORDER BY id") == [("mybot", 1), ("mybot", 2), ("other", 1)]
    assert snapshot_folders(setup.db) == sorted(setup.hashes.values())


def test_remove_deletes_a_version_and_its_folder(setup: Setup) -> None:
    done = arena("versions", "mybot", "--db", str(setup.db), "--remove", "1")
    assert done.exit_code == 0, done.output
    size = setup.sizes["mybot@1"]
    assert size < 1024  # a manifest and a short script: counted in bytes
    assert done.output.splitlines() == [f"removed mybot@1 ({setup.hashes['mybot@1'][:12]}): {size} bytes freed"]
    assert rows(setup.db, "SELECT name, number FROM versions ORDER BY id") == [("mybot", 2), ("other", 1)]
    assert snapshot_folders(setup.db) == sorted([setup.hashes["mybot@2"], setup.hashes["other@1"]])


def test_prune_removes_every_unused_version_and_says_what_it_freed(setup: Setup) -> None:
    done = arena("versions", "--db", str(setup.db), "--prune")
    assert done.exit_code == 0, done.output
    one, other = setup.sizes["mybot@1"], setup.sizes["other@1"]
    assert one + other > 1024  # together over a KiB: shown in KiB, three significant digits
    assert done.output.splitlines() == [
        f"removed mybot@1 ({setup.hashes['mybot@1'][:12]}): {one} bytes freed",
        f"removed other@1 ({setup.hashes['other@1'][:12]}): {other} bytes freed",
        f"2 versions removed, {round((one + other) / 1024, 2)} KiB freed",
    ]
    assert rows(setup.db, "SELECT name, number FROM versions") == [("mybot", 2)]
    assert snapshot_folders(setup.db) == [setup.hashes["mybot@2"]]
    again = arena("versions", "--db", str(setup.db), "--prune")
    assert again.exit_code == 0 and again.output == "no unused version to remove\n"


def test_without_a_database_it_says_so_and_creates_none(tmp_path: Path) -> None:
    for args in ((), ("--prune",), ("--remove", "mybot@1")):
        done = arena("versions", "--db", str(tmp_path / "none.sqlite"), *args)
        assert done.exit_code == 1
        assert done.output == (
            f"Error: {tmp_path / 'none.sqlite'}: no results database here (run a tournament first, or pass --db)\n"
        )
    assert list(tmp_path.iterdir()) == []


def test_a_database_without_versions_says_how_they_come(tmp_path: Path) -> None:
    Store(tmp_path / "r.sqlite").close()
    done = arena("versions", "--db", str(tmp_path / "r.sqlite"))
    assert done.exit_code == 0
    assert done.output.startswith(f"no bot version is recorded in {tmp_path / 'r.sqlite'} yet")
    assert (
        json.loads(arena("versions", "--db", str(tmp_path / "r.sqlite"), "--format", "json").output)["versions"] == []
    )
