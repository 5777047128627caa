"""Freezing each kind of bot (:mod:`arena.versions.freeze`), played for real: the frozen version
plays a Spring 2021 game against the shipped ``wait`` bot from another working directory, and
keeps its answers after its source is edited. Expected answers and hashes come from the files
the tests write (hashed here with hashlib)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.match import MatchOptions, Verdict, play_match
from arena.match.launch.botspec import BotSpec, resolve, shipped_bots
from arena.versions.freeze import FreezeError, Frozen, freeze
from arena.versions.manifest import FrozenFile, Recipe, encode
from arena.versions.snapshot import verify
from bundler.ship import bundle_source
from tests.helpers.spring_text_bots import spring_bot_text, write_spring_bot

SH_BOT = """\
#!/bin/sh
read cells
i=0
while [ "$i" -lt "$cells" ]; do read line; i=$((i+1)); done
while read day; do
  read nutrients; read mine; read theirs
  read n; i=0; while [ "$i" -lt "$n" ]; do read line; i=$((i+1)); done
  read n; i=0; while [ "$i" -lt "$n" ]; do read line; i=$((i+1)); done
  echo "{answer}"
done
"""


def sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def answers(spec: BotSpec, seed: int = 1) -> set[str]:
    """Every line ``spec`` answers in one game against the shipped ``wait`` bot (all valid)."""
    opponent = resolve("wait", "spring2021")
    result = play_match("spring2021", seed, [spec, opponent], MatchOptions(record=True, time_scale=10))
    assert result.outcome is not None
    assert result.players[0].verdict is Verdict.OK, result.players[0].message
    return {line for f in result.frames for e in f.executions if e.player == 0 and e.output for line in e.output}


def manifest_hash(frozen: Frozen) -> str:
    return sha((frozen.folder / "manifest.json").read_bytes())


@dataclass
class Bot:
    """A bot written by a test: how to resolve it, and how to change its answer."""

    text: str
    edit: Callable[[str], None]
    files: dict[str, str]
    """Its files as the module tree freezes them (name in the snapshot: contents)."""


def rewrite(path: Path, text: str) -> None:
    path.write_text(text)


def script_bot(folder: Path) -> Bot:
    path = write_spring_bot(folder, "bot.py", "WAIT v1")
    return Bot(str(path), lambda a: rewrite(path, spring_bot_text(repr(a))), {"bot.py": path.read_text()})


def package_bot(folder: Path) -> Bot:
    pkg = folder / "twofile"
    pkg.mkdir()
    main = spring_bot_text("ANSWER", imports="from .logic import ANSWER\n")
    texts = {"__init__.py": "", "__main__.py": main, "logic.py": "ANSWER = 'WAIT v1'\n"}
    for name, text in texts.items():
        (pkg / name).write_text(text)
    return Bot(
        str(pkg),
        lambda a: rewrite(pkg / "logic.py", f"ANSWER = {a!r}\n"),
        {f"twofile/{n}": t for n, t in texts.items()},
    )


def binary_bot(folder: Path) -> Bot:
    path = folder / "shbot"
    path.write_text(SH_BOT.format(answer="WAIT v1"))
    path.chmod(0o755)
    return Bot(str(path), lambda a: rewrite(path, SH_BOT.format(answer=a)), {"shbot": path.read_text()})


def interpreter_bot(folder: Path) -> Bot:
    path = folder / "bot.sh"  # not executable: run by its interpreter
    path.write_text(SH_BOT.format(answer="WAIT v1"))
    return Bot(f"sh {path.name}", lambda a: rewrite(path, SH_BOT.format(answer=a)), {"bot.sh": path.read_text()})


KINDS = {
    "script": (script_bot, "module tree"),
    "package": (package_bot, "module tree"),
    "binary": (binary_bot, "binary"),
    "interpreter and script": (interpreter_bot, "script"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_frozen_bot_keeps_its_answers_after_its_source_is_edited(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, how = KINDS[kind]
    src = tmp_path / "src"
    src.mkdir()
    monkeypatch.chdir(src)
    bot = make(src)
    spec = resolve(bot.text, "spring2021")
    frozen = freeze(spec, tmp_path / "arena.sqlite-bots")
    assert frozen.how == how and frozen.warning is None
    assert frozen.hash == manifest_hash(frozen) == frozen.folder.name
    assert frozen.folder == tmp_path / "arena.sqlite-bots" / frozen.hash
    assert {f.name: f.sha256 for f in frozen.files} == {name: sha(text) for name, text in bot.files.items()}
    for f in frozen.files:
        assert sha((frozen.folder / "tree" / f.name).read_bytes()) == f.sha256

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert answers(frozen.spec) == {"WAIT v1"}
    bot.edit("WAIT v2")
    monkeypatch.chdir(src)
    assert answers(resolve(bot.text, "spring2021")) == {"WAIT v2"}  # the source did change
    monkeypatch.chdir(elsewhere)
    assert answers(frozen.spec) == {"WAIT v1"}
    assert verify(frozen) is None

    monkeypatch.chdir(src)
    again = freeze(resolve(bot.text, "spring2021"), tmp_path / "arena.sqlite-bots")
    assert again.hash != frozen.hash and again.hash == manifest_hash(again)
    assert verify(frozen) is None and answers(frozen.spec) == {"WAIT v1"}


def test_a_package_bot_keeps_its_layout_and_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pkg = tmp_path / "argbot"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "words.py").write_text("import sys\n\nANSWER = 'WAIT ' + ' '.join(sys.argv[1:])\n")
    (pkg / "__main__.py").write_text(spring_bot_text("ANSWER", imports="from .words import ANSWER\n"))
    frozen = freeze(resolve(f"{pkg} --depth 3", "spring2021"), tmp_path / "store")
    assert frozen.spec.argv[1:4] == ("-u", "-m", "argbot") and frozen.spec.argv[-2:] == ("--depth", "3")
    assert frozen.spec.source is not None
    assert frozen.spec.argv[frozen.spec.source.launcher :] == ("--depth", "3")
    assert Path(frozen.spec.source.entry).is_relative_to(frozen.folder / "tree")
    assert answers(frozen.spec) == {"WAIT --depth 3"}


def test_a_version_an_older_release_stored_as_its_bundle_still_loads_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Older releases could freeze a Python bot as its bundle: the bundle as the tree's one file,
    run as a script from the tree."""
    monkeypatch.chdir(tmp_path)
    bot = package_bot(tmp_path)
    text = bundle_source(bot.text).encode()
    main = ("tree", "twofile/__main__.py")
    recipe = Recipe("bundle", (("python", ""), ("word", "-u"), main), cwd=("tree", "."), entry=main, launcher=3)
    raw = encode(recipe, [FrozenFile(main[1], sha(text), False)], ["."])
    folder = tmp_path / "store" / sha(raw)
    (folder / "tree" / "twofile").mkdir(parents=True)
    (folder / "tree" / main[1]).write_bytes(text)
    (folder / "manifest.json").write_bytes(raw)
    frozen = Frozen.from_dict({"hash": sha(raw)}, "old", tmp_path / "store")
    assert frozen.how == "bundle" and verify(frozen) is None
    assert frozen.spec.argv[1:] == ("-u", str(folder / "tree" / main[1])) and frozen.spec.cwd == str(folder / "tree")
    bot.edit("WAIT v2")
    assert answers(frozen.spec) == {"WAIT v1"}


def test_a_script_bot_takes_the_local_modules_it_imports(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("ANSWER = 'WAIT helped'\n")
    (tmp_path / "unrelated.py").write_text("x = 1\n")
    (tmp_path / "bot.py").write_text(spring_bot_text("ANSWER", imports="from helper import ANSWER\n"))
    frozen = freeze(resolve(str(tmp_path / "bot.py"), "spring2021"), tmp_path / "store")
    assert sorted(f.name for f in frozen.files) == ["bot.py", "helper.py"]
    (tmp_path / "helper.py").write_text("ANSWER = 'WAIT changed'\n")
    assert answers(frozen.spec) == {"WAIT helped"}


def test_a_shipped_module_bot_plays_as_the_shipped_one(tmp_path: Path) -> None:
    spec = resolve("beam", "spring2021")
    budget = tuple(str(a) for a in shipped_bots("spring2021")["beam"]["deterministic"])
    spec = dataclasses.replace(spec, argv=spec.argv + budget)
    frozen = freeze(spec, tmp_path / "store")
    assert frozen.how == "module tree" and frozen.spec.leagues == spec.leagues
    names = {f.name for f in frozen.files}
    assert {"bots/__init__.py", "bots/spring2021/beam/__main__.py", "bots/lib/timer.py"} <= names
    for name in names:
        assert sha((frozen.folder / "tree" / name).read_bytes()) == sha(Path(spec.cwd or "", name).read_bytes())
    assert frozen.spec.cwd == str(frozen.folder / "tree")
    assert answers(frozen.spec, seed=2) == answers(spec, seed=2)


def test_a_binary_keeps_its_executable_mode(tmp_path: Path) -> None:
    bot = binary_bot(tmp_path)
    frozen = freeze(resolve(bot.text, "spring2021"), tmp_path / "store")
    copy = frozen.folder / "tree" / "shbot"
    assert frozen.spec.argv == (str(copy),)
    assert [(f.name, f.executable) for f in frozen.files] == [("shbot", True)]
    assert stat.S_IMODE(copy.stat().st_mode) == 0o555


def test_an_interpreter_and_its_script_copy_the_script_and_say_what_is_not_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bot = interpreter_bot(tmp_path)
    frozen = freeze(resolve(bot.text, "spring2021"), tmp_path / "store")
    assert frozen.spec.argv == ("sh", str(frozen.folder / "tree" / "bot.sh"))
    assert frozen.spec.cwd is None and frozen.warning is None
    assert len(frozen.notes) == 1
    assert "sh runs as installed and only its script is frozen (bot.sh)" in frozen.notes[0]


def test_a_bare_command_is_kept_as_given_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = spring_bot_text(repr("WAIT inline"))
    spec = BotSpec(name="inline", argv=("python3", "-c", code))
    frozen = freeze(spec, tmp_path / "store")
    assert frozen.how == "command" and frozen.files == ()
    assert frozen.spec.argv == spec.argv and frozen.spec.cwd == str(tmp_path)
    assert frozen.warning is not None and "\n" not in frozen.warning
    assert frozen.warning.startswith("bot 'inline' cannot be frozen: ")
    assert "give the file it runs by path" in frozen.warning and "or a Python bot" in frozen.warning
    assert frozen.hash == manifest_hash(frozen) and verify(frozen) is None
    assert answers(frozen.spec) == {"WAIT inline"}
    again = freeze(spec, tmp_path / "store")
    assert again.hash == frozen.hash


def test_a_command_whose_program_is_gone_cannot_be_played(tmp_path: Path) -> None:
    frozen = freeze(BotSpec(name="gone", argv=("no-such-program-l33",)), tmp_path / "store")
    assert frozen.how == "command"
    reason = verify(frozen)
    assert reason is not None and "its program no-such-program-l33 is not found" in reason


# -- data files --------------------------------------------------------------------------------------


def data_bot(folder: Path) -> Path:
    """A bot answering the contents of the file named by its first argument and of
    ``book/extra.txt`` (relative to its working directory)."""
    reads = "import sys\nANSWER = 'WAIT ' + open(sys.argv[1]).read().strip() + open('book/extra.txt').read().strip()\n"
    (folder / "answer.txt").write_text("one")
    (folder / "book").mkdir()
    (folder / "book" / "extra.txt").write_text("-two")
    path = folder / "databot.py"
    path.write_text(spring_bot_text("ANSWER", imports=reads))
    return path


def test_data_files_are_copied_and_the_frozen_bot_reads_the_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    monkeypatch.chdir(src)
    path = data_bot(src)
    spec = dataclasses.replace(resolve(f"{path.name} answer.txt", "spring2021"), data=("answer.txt", "book"))
    assert answers(spec) == {"WAIT one-two"}
    frozen = freeze(spec, tmp_path / "store")
    tree = frozen.folder / "tree"
    assert frozen.spec.data == (str(tree / "answer.txt"), str(tree / "book"))
    assert frozen.spec.cwd == str(tree) and frozen.spec.argv[-1] == str(tree / "answer.txt")
    names = {f.name: f.sha256 for f in frozen.files}
    assert names["answer.txt"] == sha("one") and names["book/extra.txt"] == sha("-two")
    (src / "answer.txt").write_text("three")
    (src / "book" / "extra.txt").write_text("-four")
    monkeypatch.chdir(tmp_path)
    assert answers(frozen.spec) == {"WAIT one-two"}
    assert frozen.notes == ()


def test_an_argument_naming_a_file_not_declared_is_noted_and_kept_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = data_bot(tmp_path)
    spec = dataclasses.replace(resolve(f"{path.name} answer.txt", "spring2021"), data=("book",))
    frozen = freeze(spec, tmp_path / "store")
    assert frozen.spec.argv[-1] == str(tmp_path / "answer.txt")  # the bot runs from the snapshot
    assert len(frozen.notes) == 1 and "answer.txt name files that are not frozen" in frozen.notes[0]
    (tmp_path / "answer.txt").write_text("live")
    assert answers(frozen.spec) == {"WAIT live-two"}


def test_missing_data_is_refused(tmp_path: Path) -> None:
    bot = script_bot(tmp_path)
    spec = dataclasses.replace(resolve(bot.text, "spring2021"), data=(str(tmp_path / "nothing.bin"),))
    with pytest.raises(FreezeError, match=r"^bot 'bot' cannot be frozen: its data .*nothing.bin: no such file"):
        freeze(spec, tmp_path / "store")


def test_the_frozen_spec_names_no_file_of_the_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = data_bot(tmp_path)
    spec = dataclasses.replace(resolve(f"{path.name} answer.txt", "spring2021"), data=("answer.txt", "book"))
    frozen = freeze(spec, tmp_path / "store")
    words = [*frozen.spec.argv[1:], frozen.spec.cwd or "", *frozen.spec.data]
    assert all(w.startswith(str(frozen.folder)) or not os.path.isabs(w) for w in words), words


def test_two_frozen_versions_of_a_bot_play_each_other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    bot = script_bot(tmp_path)
    old = freeze(resolve(bot.text, "spring2021"), tmp_path / "store")
    bot.edit("WAIT v2")
    new = freeze(resolve(bot.text, "spring2021"), tmp_path / "store")
    result = play_match("spring2021", 3, [old.spec, new.spec], MatchOptions(record=True, time_scale=10))
    assert [p.verdict for p in result.players] == [Verdict.OK, Verdict.OK], [p.message for p in result.players]
    said = {(e.player, line) for f in result.frames for e in f.executions if e.output for line in e.output}
    assert said == {(0, "WAIT v1"), (1, "WAIT v2")}
