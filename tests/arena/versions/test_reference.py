"""BOT arguments naming a stored version (:mod:`arena.versions.reference`): parsed, then resolved
against versions stored with hashes chosen here (so that prefixes can share digits), each
expected version named by hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.store.results import Store
from arena.versions.errors import VersionError
from arena.versions.reference import Reference, parse, resolve

H1 = "aaaaaa11" + "0" * 56
H2 = "aaaaaa22" + "0" * 56
H3 = "12345678" + "b" * 56
OTHER = "cccccccc" + "0" * 56


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """mybot@1 (H1), mybot@2 (H2), mybot@3 (H3), solo@1 (OTHER)."""
    with Store(tmp_path / "results.sqlite") as s:
        for name, digest in (("mybot", H1), ("mybot", H2), ("solo", OTHER), ("mybot", H3)):
            s.add_version(name, digest, {"hash": digest, "how": "bundle"}, "o")
        yield s


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mybot@3", Reference("mybot", "number", "3")),
        ("mybot@03", Reference("mybot", "number", "3")),
        (" mybot@latest ", Reference("mybot", "latest")),
        ("mybot@PREV", Reference("mybot", "prev")),
        ("mybot@AaAaAa1", Reference("mybot", "hash", "aaaaaa1")),
        ("mybot@123456", Reference("mybot", "number", "123456")),
        ("v1.2_b#3+x-y@2", Reference("v1.2_b#3+x-y", "number", "2")),
        ("mybot", None),
        ("bots/mybot.py", None),
        ("my bot@3", None),
        ("ssh me@host ./bot", None),
        ("@3", None),
    ],
)
def test_what_names_a_version(text: str, expected: Reference | None) -> None:
    assert parse(text) == expected


def test_an_existing_path_with_an_at_is_never_a_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mybot@2").mkdir()
    (tmp_path / "v@latest").write_text("")
    assert parse("mybot@2", tmp_path) is None
    assert parse(str(tmp_path / "v@latest")) is None
    monkeypatch.chdir(tmp_path)
    assert parse("mybot@2") is None and parse("v@latest") is None
    assert parse("mybot@3") == Reference("mybot", "number", "3")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("mybot@abc", "mybot@abc: a hash prefix needs at least 6 hexadecimal digits"),
        ("mybot@lastest", "mybot@lastest: 'lastest' is no version: name one as mybot@N, mybot@latest"),
        ("mybot@", "mybot@: '' is no version"),
        ("mybot@" + "a" * 65, "is no version"),
    ],
)
def test_a_bot_name_with_a_malformed_version_is_refused(text: str, says: str) -> None:
    with pytest.raises(VersionError) as refused:
        parse(text)
    assert says in str(refused.value) and "\n" not in str(refused.value)


def _resolved(store: Store, text: str, current: dict[str, str] | None = None) -> str:
    ref = parse(text)
    assert ref is not None
    version = resolve(store, ref, current or {})
    return f"{version.label} {version.hash}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mybot@1", f"mybot@1 {H1}"),
        ("mybot@2", f"mybot@2 {H2}"),
        ("mybot@latest", f"mybot@3 {H3}"),
        ("solo@latest", f"solo@1 {OTHER}"),
        ("mybot@prev", f"mybot@2 {H2}"),
        ("mybot@aaaaaa1", f"mybot@1 {H1}"),
        ("mybot@AAAAAA22", f"mybot@2 {H2}"),
        ("mybot@123456", f"mybot@3 {H3}"),  # digits numbering no version: a hash prefix
        ("mybot@" + H2, f"mybot@2 {H2}"),
    ],
)
def test_references_resolve(store: Store, text: str, expected: str) -> None:
    assert _resolved(store, text) == expected


@pytest.mark.parametrize(
    ("current", "expected"),
    [
        ({"mybot": H3}, f"mybot@2 {H2}"),  # the source is the newest version: the one before it
        ({"mybot": H2}, f"mybot@3 {H3}"),  # the source went back to version 2: the newest other one
        ({"mybot": H1}, f"mybot@3 {H3}"),
        ({"mybot": "f" * 64}, f"mybot@3 {H3}"),  # an edit not recorded yet: the newest version
        ({"solo": OTHER}, f"mybot@2 {H2}"),  # another bot's source: as with none
    ],
)
def test_prev_is_relative_to_the_version_the_command_runs_from_source(
    store: Store, current: dict[str, str], expected: str
) -> None:
    assert _resolved(store, "mybot@prev", current) == expected


@pytest.mark.parametrize(
    ("text", "current", "says"),
    [
        ("mybot@7", {}, "mybot@7: mybot has no version 7 (its versions: mybot@1 (aaaaaa110000), mybot@2 "),
        ("mybot@aaaaaa", {}, "mybot@aaaaaa: the hash prefix aaaaaa is ambiguous (mybot@1 (aaaaaa1100...), mybot@2"),
        ("mybot@cccccc", {}, "mybot@cccccc: no version of mybot has a hash starting with cccccc"),
        ("mybto@1", {}, "no version of 'mybto' is recorded in "),
        ("mybto@1", {}, "(names with versions: mybot, solo); did you mean mybot?"),
        ("solo@prev", {}, "solo@prev: solo has one version only (solo@1 (cccccccc0000)): there is none before it"),
        ("solo@prev", {"solo": OTHER}, "solo@prev: solo has no version other than the one its source is now"),
    ],
)
def test_what_names_no_stored_version_is_refused_in_one_line(
    store: Store, text: str, current: dict[str, str], says: str
) -> None:
    with pytest.raises(VersionError) as refused:
        _resolved(store, text, current)
    assert says in str(refused.value) and "\n" not in str(refused.value)


def test_what_names_no_version_parses_to_none(store: Store) -> None:
    assert parse("greedy") is None
    assert parse("python3 bot.py") is None
    ref = parse("mybot@1")
    found = None if ref is None else resolve(store, ref)
    assert found is not None and found.hash == H1
