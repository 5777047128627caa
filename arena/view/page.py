"""The replay viewer page: one self-contained HTML file built from a replay document.

The page is the template ``page.html`` with the style sheet, the scripts (the core ``viewer.js``
and the renderer of the replay's game) and the replay itself inlined. Nothing is loaded from the
network: a Content-Security-Policy forbids it, so a page that works offline works everywhere.

The replay is embedded as JSON in a ``<script type="application/json">`` element, with ``<``,
``>`` and ``&`` written as ``\\u003c``, ``\\u003e`` and ``\\u0026`` (still the same JSON), so that no
string of the replay (a bot's stderr, say) can close the element or open a comment. ``viewer.js``
then puts what the bots wrote in the page as text, never markup, its control characters shown
escaped (``\\x1b``): the replay itself keeps them as they came.
"""

from __future__ import annotations

import html
import os
import re
import sys
import webbrowser
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import referee

from ..errors import ArenaError
from ..match.replay import FORMAT, read_replay, replay_text, write_text_atomic

__all__ = [
    "GAME_SCRIPTS",
    "ViewError",
    "build_page",
    "check_replay",
    "load_replay",
    "open_in_browser",
    "write_view",
]

GAME_SCRIPTS: dict[str, str] = {
    "spring2021": "spring2021.js",
    "fall2020": "fall2020.js",
}
"""The renderer script of each game; a replay of any other game gets the generic view (scores,
chart, inputs and outputs, the snapshot as text)."""

_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


class ViewError(ArenaError, ValueError):
    """A replay the viewer cannot show (the message says why)."""


class ViewPathError(ViewError):
    """The replay or the page asked for cannot be used as given (a path mistake: nothing was read
    or written)."""


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _inline_script(name: str) -> str:
    text = _asset(name)
    if re.search(r"</script", text, re.IGNORECASE):  # pragma: no cover - a mistake in an asset
        raise AssertionError(f"{name} must not contain '</script'")
    return text


def check_replay(replay: Mapping[str, Any]) -> None:
    """Raise :class:`ViewError` unless ``replay`` looks like a replay document the page can show."""
    if replay.get("format") != FORMAT:
        raise ViewError(f"not a {FORMAT} replay")
    frames = replay.get("frames")
    if not isinstance(frames, list):
        raise ViewError("the replay has no list of frames")
    if not isinstance(replay.get("initial"), dict):
        raise ViewError("the replay has no initial snapshot (was it recorded with --replay?)")
    for i, frame in enumerate(frames):
        if not isinstance(frame, dict) or not isinstance(frame.get("snapshot"), dict):
            raise ViewError(f"frame {i + 1} of the replay has no snapshot")
        if not isinstance(frame.get("executions", []), list):
            raise ViewError(f"frame {i + 1} of the replay has no list of executions")
    bots = replay.get("bots")
    if not isinstance(bots, list) or not bots:
        raise ViewError("the replay names no bots")


def load_replay(path: Path) -> dict[str, Any]:
    """Read the replay file at ``path``: :class:`ViewError` (a ``ValueError``) when it is not a
    JSON replay document, ``OSError`` when it cannot be read."""
    try:
        document = read_replay(path)
    except ValueError as exc:
        raise ViewError(str(exc)) from None
    try:
        check_replay(document)
    except ViewError as exc:
        raise ViewError(f"{path}: {exc}") from None
    return document


def _league(game: str, params: Any) -> str:
    """The league the replay's game was played at (``league 1 (Wood 2)``), empty for a game this
    arena does not know or a replay without parameters to read."""
    try:
        rules = referee.get(game)
        return rules.league_label(rules.league_level(params if isinstance(params, Mapping) else None))
    except (referee.UnknownGame, referee.PluginError, referee.ParameterError):
        return ""


def build_page(replay: Mapping[str, Any]) -> str:
    """The whole HTML page showing ``replay`` (checked with :func:`check_replay`)."""
    check_replay(replay)
    game = str(replay.get("game", ""))
    bots = " vs ".join(str(b.get("name", "?")) for b in replay["bots"] if isinstance(b, dict))
    league = _league(game, replay.get("params"))
    title = f"{game} replay: {bots} (seed {replay.get('seed', '?')}{', ' + league if league else ''})"
    scripts = [_inline_script(GAME_SCRIPTS[game])] if game in GAME_SCRIPTS else []
    scripts.append(_inline_script("viewer.js"))
    values = {
        "TITLE": html.escape(title),
        "LEAGUE": html.escape(league, quote=True),
        "STYLE": _asset("viewer.css"),
        "DATA": replay_text(replay).translate(_JSON_ESCAPES),
        "SCRIPTS": "\n".join(f"<script>\n{s}\n</script>" for s in scripts),
    }
    # One pass: text put in (the replay above all) is never scanned for placeholders again.
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _asset("page.html"))


def write_view(replay: Mapping[str, Any] | Path, out: Path) -> Path:
    """Write the viewer page of ``replay`` (a replay document, or the path of a replay file) to
    ``out``, atomically, and return ``out``.

    Raises :class:`ValueError` for a file that is not a replay or not JSON (nothing is written),
    :class:`OSError` when the replay cannot be read or the page cannot be written.
    """
    document = load_replay(Path(replay)) if isinstance(replay, str | os.PathLike) else replay
    out = Path(out)
    write_text_atomic(out, build_page(document))
    return out


def view_file(replay: Path, out: Path | None = None) -> Path:
    """Write the viewer page of the replay file ``replay`` to ``out`` (default: beside it, with
    the ``.html`` suffix) and return where. Raises :class:`ViewPathError` before anything is read
    when a path cannot be used, :class:`ViewError` (one line naming the file) when the replay
    cannot be read or shown, or the page cannot be written."""
    if not replay.exists():
        raise ViewPathError(f"{replay}: no such file")
    if replay.is_dir():
        raise ViewPathError(f"{replay}: is a directory; give a replay file (arena play ... --replay FILE)")
    out = replay.with_suffix(".html") if out is None else out
    if out.exists() and out.resolve() == replay.resolve():
        raise ViewPathError(f"{out}: the page would overwrite the replay; choose another file with -o")
    if out.is_dir():
        raise ViewPathError(f"{out}: is a directory; give a file name, e.g. {out / replay.with_suffix('.html').name}")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise ViewPathError(f"{folder}: no such directory (create it first)")
    try:
        document = load_replay(replay)
    except OSError as exc:
        raise ViewError(f"{replay}: cannot read the replay ({exc.strerror or exc})") from None
    try:
        return write_view(document, out)
    except ViewError as exc:
        raise ViewError(f"{replay}: {exc}") from None
    except OSError as exc:
        raise ViewError(f"{out}: cannot write the page ({exc.strerror or exc})") from None


def open_in_browser(path: Path) -> bool:
    """Open the page at ``path`` in the default browser; ``False`` when no browser could be
    started (the caller says where the page is).

    On Linux without a display (``DISPLAY``, ``WAYLAND_DISPLAY``) and without ``$BROWSER``, no
    browser is tried: the only candidates would be text browsers, which take over the terminal
    and cannot run the page's scripts.
    """
    graphical = any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"))
    if sys.platform.startswith("linux") and not graphical:
        return False
    try:
        return webbrowser.open(Path(path).resolve().as_uri())
    except webbrowser.Error:
        return False
