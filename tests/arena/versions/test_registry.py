"""Recording, counting and removing bot versions (:mod:`arena.versions.registry`), with real small
bots frozen as their module tree. What is expected is worked out from the files the tests write
(hashes: the SHA-256 of each snapshot's manifest file; sizes: the bytes of the files) and read back
from the database by plain SQL."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.store.results import Store
from arena.versions import registry
from arena.versions.errors import VersionError
from arena.versions.snapshot import store_for, verify
from tests.helpers.versions import (
    frozen_bot,
    game,
    manifest_sha,
    renamed,
    rows,
    snapshot_bytes,
    snapshot_folders,
    tournament_with,
)

VERSIONS = "SELECT name, number, hash, origin FROM versions ORDER BY id"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite"
    Store(path).close()
    return path


def test_the_same_content_recorded_twice_is_one_version(db: Path, tmp_path: Path) -> None:
    first = frozen_bot(tmp_path / "src", db, "WAIT one")
    again = frozen_bot(tmp_path / "src", db, "WAIT one")  # frozen anew, unchanged
    with Store(db) as store:
        a = registry.record(store, "mybot", first, "/src/bot.py")
        b = registry.record(store, "mybot", again, "somewhere else")
    digest = manifest_sha(first)
    assert rows(db, VERSIONS) == [("mybot", 1, digest, "/src/bot.py")]
    assert (a.id, a.label, a.hash) == (1, "mybot@1", digest)
    assert (b.id, b.label, b.origin) == (1, "mybot@1", "/src/bot.py")  # the first record
    assert a == b


def test_an_edit_is_the_next_version_and_the_old_content_keeps_its_number(db: Path, tmp_path: Path) -> None:
    one = frozen_bot(tmp_path / "src", db, "WAIT one")
    two = frozen_bot(tmp_path / "src", db, "WAIT two")
    with Store(db) as store:
        registry.record(store, "mybot", one, "o")
        second = registry.record(store, "mybot", two, "o")
        back = registry.record(store, "mybot", one, "o")  # the edit undone: version 1 again
        listed = registry.versions(store)
    assert manifest_sha(one) != manifest_sha(two)
    assert rows(db, VERSIONS) == [("mybot", 1, manifest_sha(one), "o"), ("mybot", 2, manifest_sha(two), "o")]
    assert (second.label, back.label) == ("mybot@2", "mybot@1")
    assert [v.label for v in listed] == ["mybot@1", "mybot@2"]
    assert listed[0].how == "module tree" and listed[0].warning is None


def test_a_version_plays_from_its_snapshot(db: Path, tmp_path: Path) -> None:
    frozen = frozen_bot(tmp_path / "src", db, "WAIT one")
    with Store(db) as store:
        version = registry.record(store, "mybot", frozen, "o")
    again = version.frozen_version(store_for(db), "seat0")
    assert again.spec.name == "seat0" and again.hash == manifest_sha(frozen)
    assert str(store_for(db) / manifest_sha(frozen) / "tree" / "bot.py") in again.spec.argv
    assert verify(again) is None


def test_two_names_with_one_content_share_its_folder_until_both_are_removed(db: Path, tmp_path: Path) -> None:
    source = tmp_path / "src" / "bot.py"
    frozen = frozen_bot(tmp_path / "src", db, "WAIT one")
    digest, size = manifest_sha(frozen), snapshot_bytes(source, frozen)
    with Store(db) as store:
        a = registry.record(store, "alpha", frozen, "o")
        b = registry.record(store, "beta", renamed(frozen, "beta"), "o")
        assert rows(db, VERSIONS) == [("alpha", 1, digest, "o"), ("beta", 1, digest, "o")]
        assert snapshot_folders(db) == [digest]
        (first,) = registry.remove(store, a)
        assert (first.freed, first.kept) == (0, "its files stay: beta@1 has the same content")
        assert snapshot_folders(db) == [digest]
        (second,) = registry.remove(store, b)
    assert (second.freed, second.kept) == (size, None)
    assert snapshot_folders(db) == [] and rows(db, VERSIONS) == []
    assert not list(store_for(db).iterdir())  # nothing set aside is left


def test_a_used_version_is_refused_naming_where_it_is_used_and_nothing_is_removed(db: Path, tmp_path: Path) -> None:
    one = frozen_bot(tmp_path / "src", db, "WAIT one")
    two = frozen_bot(tmp_path / "src", db, "WAIT two")
    with Store(db) as store:
        v1 = registry.record(store, "mybot", one, "o")
        v2 = registry.record(store, "mybot", two, "o")
        tid = tournament_with(store, {"v2": v2.id, "other": None})
        lid = tournament_with(store, {"mybot": v2.id}, {"game": "spring2021", "kind": "ladder"})
        with pytest.raises(VersionError) as refused:
            registry.remove(store, v1, v2)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"mybot@2 is used by tournament {tid} (v2), ladder {lid} (mybot): ")
    assert [r[:2] for r in rows(db, VERSIONS)] == [("mybot", 1), ("mybot", 2)]  # v1 not removed either
    assert snapshot_folders(db) == sorted([manifest_sha(one), manifest_sha(two)])


def test_prune_removes_the_unused_versions_and_frees_their_folders(db: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    made = {}
    for answer in ("one", "two", "three"):  # each an edit of src/bot.py
        frozen = frozen_bot(src, db, f"WAIT {answer}")
        made[answer] = (frozen, manifest_sha(frozen), snapshot_bytes(src / "bot.py", frozen))
    other = frozen_bot(tmp_path / "other", db, "WAIT other")
    with Store(db) as store:
        for answer in ("one", "two", "three"):
            registry.record(store, "mybot", made[answer][0], "o")
        registry.record(store, "other", other, "o")
        (two,) = store.find_versions("mybot", number=2)
        tournament_with(store, {"mybot": two.id})
        mine = registry.prune(store, "mybot")
        assert [(r.version.label, r.freed, r.kept) for r in mine] == [
            ("mybot@1", made["one"][2], None),
            ("mybot@3", made["three"][2], None),
        ]
        assert registry.freed(mine) == made["one"][2] + made["three"][2]
        assert snapshot_folders(db) == sorted([made["two"][1], manifest_sha(other)])
        rest = registry.prune(store)
    assert [r.version.label for r in rest] == ["other@1"]
    assert rows(db, VERSIONS) == [("mybot", 2, made["two"][1], "o")]
    assert snapshot_folders(db) == [made["two"][1]]


def test_usage_counts_each_versions_games_and_two_player_results(db: Path, tmp_path: Path) -> None:
    """mybot@1 plays 3 two-player games as ``a`` in tournament 1 (won, drawn, lost) and one
    three-player game as ``m`` in tournament 2 (second); the others play no version."""
    with Store(db) as store:
        v1 = registry.record(store, "mybot", frozen_bot(tmp_path / "a", db, "WAIT a"), "o")
        v2 = registry.record(store, "mybot", frozen_bot(tmp_path / "a", db, "WAIT b"), "o")
        t1 = tournament_with(store, {"a": v1.id, "b": None})
        for pair, ranks in enumerate(((0, 1), (0, 0), (1, 0))):
            store.record_game(t1, game(0, pair, 0, {"a": ranks[0], "b": ranks[1]}))
        t2 = tournament_with(store, {"x": None, "m": v1.id, "y": None})
        store.record_game(t2, game(0, 0, 0, {"x": 0, "m": 1, "y": 2}))
        found = registry.usage(store)
        assert registry.usage(store, "other") == []
    one, two = found
    assert (one.version, one.games, one.wins, one.draws, one.losses) == (v1, 4, 1, 1, 1)
    assert one.score == pytest.approx(0.5)
    assert one.where() == f"tournament {t1} (a), tournament {t2} (m)" and one.used
    assert (two.version, two.games, two.score, two.where(), two.used) == (v2, 0, None, "unused", False)


def test_a_name_that_cannot_name_a_bot_is_refused(db: Path, tmp_path: Path) -> None:
    frozen = frozen_bot(tmp_path / "src", db, "WAIT one")
    with Store(db) as store, pytest.raises(VersionError, match="cannot name a bot version"):
        registry.record(store, "my bot@2", frozen, "o")
    assert rows(db, VERSIONS) == []


def test_the_origin_is_the_bot_as_given_with_its_paths_absolute(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text("")
    (tmp_path / "pkg").mkdir()
    here = str(tmp_path)
    assert registry.origin_of("bot.py", tmp_path) == os.path.join(here, "bot.py")
    assert registry.origin_of("pkg/", tmp_path) == os.path.join(here, "pkg")
    assert registry.origin_of("node bot.py --seed 2", tmp_path) == f"node {here}/bot.py --seed 2"
    assert registry.origin_of("greedy", tmp_path) == "greedy"
    assert registry.origin_of("java Main", tmp_path) == "java Main"


def test_removing_a_version_whose_snapshot_is_gone_or_whose_hash_names_no_folder_touches_nothing_else(
    db: Path, tmp_path: Path
) -> None:
    """A version whose folder was deleted by hand is removed (nothing to free); one whose stored
    hash is no hash (a hand-edited database: ``../keep``) never reaches outside the store."""
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "file").write_text("mine")
    store_for(db).mkdir()
    with Store(db) as store:
        store.add_version("gone", "a" * 64, {"hash": "a" * 64}, "o")
        store.add_version("odd", "../keep", {"hash": "../keep"}, "o")
        removed = registry.prune(store)
    assert [(r.version.label, r.freed, r.kept) for r in removed] == [
        ("gone@1", 0, None),
        (
            "odd@1",
            0,
            "its files in " + str(store_for(db) / "../keep") + " could not be removed "
            "('../keep' is not a version's hash (64 hexadecimal digits))",
        ),
    ]
    assert (keep / "file").read_text() == "mine" and rows(db, VERSIONS) == []
