"""``arena view`` and the Python API of the viewer (no browser needed here)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.view import ViewError, build_page, write_view
from arena.view import page as page_module
from cli.arena import main
from tests.helpers.paths import REPO_ROOT

REPO = REPO_ROOT


def embedded(html: str) -> dict[str, Any]:
    start = html.index('<script type="application/json" id="replay-data">') + len(
        '<script type="application/json" id="replay-data">'
    )
    end = html.index("</script>", start)
    data: dict[str, Any] = json.loads(html[start:end])
    return data


def test_view_no_open_writes_the_page_beside_the_replay(
    replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(page_module.webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    replay = tmp_path / "game.json"
    replay.write_bytes(replays["spring"].read_bytes())
    result = CliRunner().invoke(main, ["view", str(replay), "--no-open"])
    assert result.exit_code == 0, result.output
    page = tmp_path / "game.html"
    assert result.output == f"replay viewer: {page}\n"
    assert opened == []
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and embedded(html) == documents["spring"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_view_opens_the_page_in_the_browser_and_o_names_it(
    replays: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(page_module.webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    monkeypatch.setenv("DISPLAY", ":0")
    out = tmp_path / "pages" / "fall.html"
    out.parent.mkdir()
    result = CliRunner().invoke(main, ["view", str(replays["fall"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and opened == [out.resolve().as_uri()]


def test_view_says_where_the_page_is_when_no_browser_starts(
    replays: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page_module.webbrowser, "open", lambda url, *a, **k: False)
    monkeypatch.setenv("DISPLAY", ":0")
    out = tmp_path / "p.html"
    result = CliRunner().invoke(main, ["view", str(replays["fall"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"open {out.resolve().as_uri()} yourself" in result.output


def test_no_text_browser_is_started_without_a_display(
    replays: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Linux with no display, webbrowser would fall back to lynx or w3m in the terminal."""
    monkeypatch.setattr(page_module.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(page_module.webbrowser, "open", lambda *a, **k: pytest.fail("a browser was started"))
    out = tmp_path / "p.html"
    result = CliRunner().invoke(main, ["view", str(replays["fall"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and f"open {out.resolve().as_uri()} yourself" in result.output


@pytest.mark.parametrize(
    ("content", "code", "words"),
    [
        (None, 2, "no such file"),
        ("{not json", 1, "invalid JSON at line 1"),
        ('{"format": "something-else"}', 1, "not a cgarena-replay-v1 replay file"),
        ("[1, 2, 3]", 1, "not a cgarena-replay-v1 replay file"),
        ('{"format": "cgarena-replay-v1", "frames": []}', 1, "no initial snapshot"),
        (b"\xff\xfe\x00binary", 1, "not UTF-8"),
    ],
)
def test_bad_input_gets_one_line_and_no_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | bytes | None, code: int, words: str
) -> None:
    monkeypatch.setattr(page_module.webbrowser, "open", lambda *a, **k: pytest.fail("no browser for bad input"))
    replay = tmp_path / "bad.json"
    if isinstance(content, bytes):
        replay.write_bytes(content)
    elif content is not None:
        replay.write_text(content)
    result = CliRunner().invoke(main, ["view", str(replay)])
    assert result.exit_code == code
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
    assert "Traceback" not in result.output and not isinstance(result.exception, (ValueError, OSError))
    assert not (tmp_path / "bad.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if content is None else ["bad.json"])


def test_bad_output_paths_get_one_line(replays: dict[str, Path], tmp_path: Path) -> None:
    cases = [
        (["-o", str(tmp_path / "missing" / "p.html")], "no such directory"),
        (["-o", str(tmp_path)], "is a directory"),
        (["-o", str(replays["spring"])], "would overwrite the replay"),
    ]
    for args, words in cases:
        result = CliRunner().invoke(main, ["view", str(replays["spring"]), "--no-open", *args])
        assert result.exit_code == 2, result.output
        assert len(result.stderr.splitlines()) == 1 and words in result.stderr, result.stderr
    assert json.loads(replays["spring"].read_text())["format"] == "cgarena-replay-v1"
    result = CliRunner().invoke(main, ["view", str(tmp_path), "--no-open"])
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_write_view_takes_a_document_or_a_path(
    replays: dict[str, Path], documents: dict[str, Any], tmp_path: Path
) -> None:
    a = write_view(documents["fall"], tmp_path / "a.html")
    b = write_view(replays["fall"], tmp_path / "b.html")
    assert a == tmp_path / "a.html" and b == tmp_path / "b.html"
    assert a.read_text() == b.read_text()
    with pytest.raises(ViewError):
        write_view({"format": "cgarena-replay-v1"}, tmp_path / "c.html")
    assert not (tmp_path / "c.html").exists()


def test_the_embedded_replay_cannot_end_its_script_element(documents: dict[str, Any]) -> None:
    document = json.loads(json.dumps(documents["crash"]))
    nasty = "</script><script>alert(1)</script><!-- & </SCRIPT >"
    document["stderr_tail"][0] = nasty
    document["bots"][0]["name"] = nasty
    html = build_page(document)
    data_start = html.index('id="replay-data">')
    data_end = html.index("</script>", data_start)
    assert "<" not in html[data_start + len('id="replay-data">') : data_end]
    assert embedded(html)["stderr_tail"][0] == nasty
    title = html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and "&lt;/script&gt;" in title


def test_the_viewer_files_are_package_data() -> None:
    """Every asset beside arena/view/*.py is shipped in the wheel (pyproject's package-data)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["arena.view"]
    folder = REPO / "arena" / "view"
    assets = [p for p in folder.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert {p.suffix for p in assets} == {".html", ".css", ".js"}
    for asset in assets:
        assert any(asset.match(pattern) for pattern in patterns), asset.name
