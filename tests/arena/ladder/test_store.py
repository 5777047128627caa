"""The store of frozen versions (:mod:`arena.versions.snapshot`): one snapshot per content, checked
before it is reused or played, replaced when damaged; only regular files within the limits are
frozen. Hashes are computed here with hashlib from the files the tests write."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.match.launch.botspec import BotSpec, resolve
from arena.versions import snapshot
from arena.versions.freeze import FreezeError, Frozen, freeze
from arena.versions.provenance import ArenaFiles
from arena.versions.snapshot import load, store_for, strays, verify


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_bot(folder: Path, answer: str = "WAIT") -> BotSpec:
    """A script bot printing ``answer`` and the contents of ``w.txt``, with ``w.txt`` as data."""
    (folder / "bot.py").write_text(f"print({answer!r}, open('w.txt').read())\n")
    (folder / "w.txt").write_text("weights")
    spec = resolve(str(folder / "bot.py"), "spring2021")
    return BotSpec(name=spec.name, argv=spec.argv, cwd=str(folder), data=("w.txt",), source=spec.source)


def run(frozen: Frozen) -> str:
    done = subprocess.run(frozen.spec.argv, cwd=frozen.spec.cwd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def versions(store: Path) -> list[str]:
    return sorted(p.name for p in store.iterdir())


def test_the_same_content_is_stored_once(tmp_path: Path) -> None:
    store = tmp_path / "store"
    spec = write_bot(tmp_path)
    first = freeze(spec, store)
    inode = (first.folder / "tree" / "bot.py").stat().st_ino
    second = freeze(BotSpec(name="other", argv=spec.argv, cwd=spec.cwd, data=spec.data, source=spec.source), store)
    assert second.hash == first.hash == sha((first.folder / "manifest.json").read_bytes())
    assert second.spec.name == "other" and second.spec.argv == first.spec.argv
    assert versions(store) == [first.hash]  # one snapshot, no temporary folder left
    assert (second.folder / "tree" / "bot.py").stat().st_ino == inode  # not written again
    files = {f.name: f.sha256 for f in first.files}
    assert files == {"bot.py": sha((tmp_path / "bot.py").read_bytes()), "w.txt": sha(b"weights")}


def test_other_content_or_arguments_make_another_version(tmp_path: Path) -> None:
    store = tmp_path / "store"
    spec = write_bot(tmp_path)
    first = freeze(spec, store)
    with_args = freeze(
        BotSpec(name=spec.name, argv=(*spec.argv, "--x"), cwd=spec.cwd, data=spec.data, source=spec.source), store
    )
    (tmp_path / "w.txt").write_text("weights 2")
    other_data = freeze(spec, store)
    assert len({first.hash, with_args.hash, other_data.hash}) == 3
    assert versions(store) == sorted([first.hash, with_args.hash, other_data.hash])
    assert run(first) == "WAIT weights\n" and run(other_data) == "WAIT weights 2\n"


def test_a_moved_project_freezes_to_the_same_version(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = freeze(write_bot(tmp_path / "a"), tmp_path / "store")
    two = freeze(write_bot(tmp_path / "b"), tmp_path / "store")
    assert one.hash == two.hash


def test_load_gives_back_the_frozen_version(tmp_path: Path) -> None:
    frozen = freeze(write_bot(tmp_path), tmp_path / "store")
    loaded = load(tmp_path / "store", frozen.hash, frozen.spec.name)
    assert loaded.spec == frozen.spec and loaded.files == frozen.files and loaded.how == frozen.how
    assert loaded.folder == frozen.folder and verify(loaded) is None
    moved = tmp_path / "moved-store"
    shutil.move(tmp_path / "store", moved)
    elsewhere = load(moved, frozen.hash, "renamed")
    assert elsewhere.spec.name == "renamed" and elsewhere.spec.cwd == str(moved / frozen.hash / "tree")
    assert verify(elsewhere) is None and run(elsewhere) == "WAIT weights\n"
    with pytest.raises(FreezeError, match=r"is not a version's hash"):
        load(moved, "../" + frozen.hash[3:], "x")
    with pytest.raises(
        FreezeError, match=r"^bot 'x', version 000000000000 in .*: it is missing; register the bot again$"
    ):
        load(moved, "0" * 64, "x")


def test_the_store_sits_beside_the_database(tmp_path: Path) -> None:
    assert store_for(tmp_path / "arena.sqlite") == tmp_path / "arena.sqlite-bots"
    assert store_for("results.db") == Path("results.db-bots")


def _change(frozen: Frozen) -> None:
    path = frozen.folder / "tree" / "bot.py"
    path.chmod(0o644)
    path.write_text("print('MOVE elsewhere')\n")


def _remove(frozen: Frozen) -> None:
    (frozen.folder / "tree" / "w.txt").unlink()


def _add(frozen: Frozen) -> None:
    (frozen.folder / "tree" / "json.py").write_text("raise SystemExit(3)\n")


def _chmod(frozen: Frozen) -> None:
    (frozen.folder / "tree" / "bot.py").chmod(0o755)


def _manifest(frozen: Frozen) -> None:
    path = frozen.folder / "manifest.json"
    path.chmod(0o644)
    doc = json.loads(path.read_text())
    doc["files"] = doc["files"][:1]
    path.write_text(json.dumps(doc))


def _half_written(frozen: Frozen) -> None:
    (frozen.folder / "manifest.json").unlink()


def _gone(frozen: Frozen) -> None:
    shutil.rmtree(frozen.folder)


DAMAGE: dict[str, tuple[Callable[[Frozen], None], str]] = {
    "edited": (_change, "bot.py was changed"),
    "deleted file": (_remove, "w.txt is missing"),
    "mode": (_chmod, "bot.py changed mode"),
    "manifest": (_manifest, "its manifest was changed"),
    "half written": (_half_written, "its manifest: No such file or directory"),
    "removed": (_gone, "it is missing"),
}


def test_a_file_added_beside_a_version_is_said_and_ignored_and_a_new_freeze_leaves_it_out(tmp_path: Path) -> None:
    """#43 point 7: a stray file (a page saved there, a file a bot wrote beside itself outside the
    sandbox) never stops a run: it is named (:func:`strays`) and the version plays; freezing the
    same content again writes a clean copy."""
    spec = write_bot(tmp_path)
    frozen = freeze(spec, tmp_path / "store")
    _add(frozen)
    assert verify(frozen) is None
    said = strays(frozen)
    assert said == (
        f"bot 'bot', version {frozen.hash[:12]}: json.py found in its folder are not part of the version (its "
        "manifest names its files): ignored"
    )
    assert run(frozen) == "WAIT weights\n"
    again = freeze(spec, tmp_path / "store")
    assert again.hash == frozen.hash and not (again.folder / "tree" / "json.py").exists() and strays(again) is None


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_snapshot_is_found_and_replaced(kind: str, tmp_path: Path) -> None:
    damage, why = DAMAGE[kind]
    spec = write_bot(tmp_path)
    frozen = freeze(spec, tmp_path / "store")
    expected = {f.name: (frozen.folder / "tree" / f.name).read_bytes() for f in frozen.files}
    damage(frozen)
    reason = verify(frozen)
    assert reason is not None and "\n" not in reason
    assert reason.startswith(f"bot 'bot', version {frozen.hash[:12]} ({frozen.folder}): {why}; ")
    assert reason.endswith("register the bot again to freeze it anew")
    again = freeze(spec, tmp_path / "store")
    assert again.hash == frozen.hash and verify(again) is None
    assert {name: (again.folder / "tree" / name).read_bytes() for name in expected} == expected
    assert not (again.folder / "tree" / "json.py").exists()
    assert versions(tmp_path / "store") == [frozen.hash]
    assert run(again) == "WAIT weights\n"


def test_pycache_in_a_snapshot_is_no_damage(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("X = 'WAIT'\n")
    (tmp_path / "bot.py").write_text("from helper import X\nprint(X)\n")
    frozen = freeze(resolve(str(tmp_path / "bot.py"), "spring2021"), tmp_path / "store")
    subprocess.run(
        [sys.executable, "-c", "import compileall, sys; compileall.compile_dir(sys.argv[1])", str(frozen.folder)],
        check=True,
        capture_output=True,
    )
    assert any(frozen.folder.rglob("__pycache__"))
    assert verify(frozen) is None


# -- what is refused ---------------------------------------------------------------------------------


def test_a_fifo_among_the_data_is_refused_without_waiting(tmp_path: Path) -> None:
    spec = write_bot(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(FreezeError) as caught:
        freeze(
            BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=("pipe",), source=spec.source),
            tmp_path / "store",
        )
    message = str(caught.value)
    assert message.startswith("bot 'bot' cannot be frozen: its data pipe: a named pipe (FIFO), not a regular file")
    assert "\n" not in message
    assert not (tmp_path / "store").exists() or versions(tmp_path / "store") == []  # nothing left behind


def test_a_fifo_in_a_data_folder_or_package_is_refused(tmp_path: Path) -> None:
    spec = write_bot(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "a.txt").write_text("a")
    os.mkfifo(tmp_path / "folder" / "pipe")
    with pytest.raises(FreezeError, match=r"folder/pipe \(a named pipe \(FIFO\), not a regular file\)"):
        freeze(
            BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=("folder",), source=spec.source),
            tmp_path / "store",
        )
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text("print('WAIT')\n")
    os.mkfifo(pkg / "pipe")
    with pytest.raises(FreezeError, match=r"^bot 'pkg' cannot be frozen: .*pkg/pipe \(a named pipe"):
        freeze(resolve(str(pkg), "spring2021"), tmp_path / "store")


def test_a_file_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = write_bot(tmp_path)
    (tmp_path / "big.bin").write_bytes(b"x" * 2000)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "big.bin").write_bytes(b"x" * 2000)
    monkeypatch.setattr(snapshot, "FILE_LIMIT", 1024)
    for data, shown in (
        ("big.bin", "its data big.bin: 1.95 KiB, over the 1 KiB limit"),
        ("folder", "over the 1 KiB limit"),
    ):
        with pytest.raises(FreezeError, match=rf"^bot 'bot' cannot be frozen: .*{shown}"):
            freeze(
                BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=(data,), source=spec.source),
                tmp_path / "store",
            )
    assert not any(p.name.startswith(".freezing-") for p in (tmp_path / "store").iterdir())
    monkeypatch.setattr(snapshot, "TOTAL_LIMIT", 1500)
    monkeypatch.setattr(snapshot, "FILE_LIMIT", 1 << 20)
    with pytest.raises(
        FreezeError, match=r"^bot 'bot' cannot be frozen: its files are over 1.46 KiB together \(at .*big.bin\)"
    ):
        freeze(
            BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=("big.bin",), source=spec.source),
            tmp_path / "store",
        )


def test_the_store_and_the_database_are_never_frozen_as_data(tmp_path: Path) -> None:
    spec = write_bot(tmp_path)
    (tmp_path / "arena.sqlite").write_text("")
    avoid = ArenaFiles.of(tmp_path / "arena.sqlite")
    store = tmp_path / "arena.sqlite-bots"
    freeze(spec, store, avoid)  # the store now exists inside the folder
    everything = BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=(".",), source=spec.source)
    frozen = freeze(everything, store, avoid)
    assert sorted(f.name for f in frozen.files) == ["bot.py", "w.txt"]  # inside a folder: left out
    database = BotSpec(name=spec.name, argv=spec.argv, cwd=spec.cwd, data=("arena.sqlite",), source=spec.source)
    with pytest.raises(FreezeError, match=r"arena.sqlite \(the arena's own file\)"):
        freeze(database, store, avoid)


def test_what_an_interrupted_freeze_left_is_removed_once_old(tmp_path: Path) -> None:
    store = tmp_path / "store"
    old, recent = store / ".freezing-old", store / ".freezing-recent"
    for folder in (old, recent):
        (folder / "tree").mkdir(parents=True)
        (folder / "tree" / "bot.py").write_text("half")
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    frozen = freeze(write_bot(tmp_path), store)
    assert versions(store) == sorted([".freezing-recent", frozen.hash])  # another freeze may be writing it


def test_a_frozen_version_kept_as_json_comes_back(tmp_path: Path) -> None:
    frozen = freeze(write_bot(tmp_path), tmp_path / "arena.sqlite-bots")
    kept = json.loads(json.dumps(frozen.to_dict()))
    assert kept["hash"] == sha((frozen.folder / "manifest.json").read_bytes()) and "name" not in kept
    assert Frozen.from_dict(kept, frozen.spec.name) == frozen
    renamed = Frozen.from_dict(kept, "v1")
    assert renamed.spec.name == "v1" and renamed.spec.argv == frozen.spec.argv
    moved = tmp_path / "elsewhere" / "arena.sqlite-bots"
    moved.parent.mkdir()
    shutil.move(tmp_path / "arena.sqlite-bots", moved)
    played = Frozen.from_dict({"hash": frozen.hash}, "v1", moved)
    assert played == load(moved, frozen.hash, "v1") and played.folder == moved / frozen.hash
    assert verify(played) is None and run(played) == "WAIT weights\n"
    with pytest.raises(
        FreezeError, match=r"^bot 'v1': its stored frozen version cannot be read \(KeyError\('entry'\)\)$"
    ):
        Frozen.from_dict({"hash": frozen.hash}, "v1")
