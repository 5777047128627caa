"""What the dashboard's tests share: a results database of a small tournament with a crashing
bot and kept replays, a dashboard served from a thread on the loopback interface, and reading
tables out of its pages."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path

from click.testing import CliRunner

from cli.arena import main
from tests.helpers.storage import crashing_bot

SHORT = ["--param", "MAX_ROUNDS=3", "--workers", "1", "--no-progress"]


def arena(*args: str) -> str:
    """Run an ``arena`` command that must succeed; its output."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


EVIL = "<img src=x onerror=alert(1)>"
"""A bot name that is markup: every page must show it as text."""


def evil_tournament(folder: Path) -> Path:
    """A two-game tournament (from a config: names are free there) of a bot named :data:`EVIL`
    against random; its database."""
    config = folder / "evil.yaml"
    config.write_text(
        "game: spring2021\ngames: 2\nparams: {MAX_ROUNDS: 3}\n"
        f"bots:\n  - name: {json.dumps(EVIL)}\n    bot: greedy\n  - random\n"
    )
    db = folder / "e.sqlite"
    arena("tournament", str(config), "--db", str(db), "--workers", "1", "--no-progress")
    return db


def tournament_db(folder: Path) -> Path:
    """A gauntlet of greedy against a crashing bot and wait (an SPRT, every replay kept)."""
    crashing_bot(folder)
    db = folder / "r.sqlite"
    arena(
        "tournament", "spring2021", "greedy", str(folder / "crasher.py"), "wait", "--games", "6", "--sprt",
        "--max-failures", "1", "--db", str(db), "--replays", str(folder / "replays"), "--keep", "all", *SHORT,
    )  # fmt: skip
    return db


@contextmanager
def served(db: Path) -> Iterator[str]:
    """The dashboard of ``db`` on a free port of 127.0.0.1, from a thread: its base URL."""
    from werkzeug.serving import make_server

    from cli.dashboard import create_app

    server = make_server("127.0.0.1", 0, create_app(db), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


_ROW = re.compile(r"<tr\b([^>]*)>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def table(page: str, table_id: str) -> list[list[str]]:
    """The body rows of the table ``table_id`` of ``page``: each cell's text, tags removed."""
    match = re.search(rf'<table id="{table_id}"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    assert match, f"no table {table_id}"
    return [
        [unescape(_TAGS.sub("", c)).strip() for c in _CELL.findall(body)] for _, body in _ROW.findall(match.group(1))
    ]


def row_ids(page: str, table_id: str) -> list[int]:
    """The ``data-id`` of each row of the table ``table_id``."""
    match = re.search(rf'<table id="{table_id}"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    assert match, f"no table {table_id}"
    return [int(m) for m in re.findall(r'<tr data-id="(\d+)"', match.group(1))]


def headers(page: str, table_id: str) -> list[str]:
    """The column titles of the table ``table_id`` of ``page``."""
    match = re.search(rf'<table id="{table_id}"[^>]*>\s*<thead>(.*?)</thead>', page, re.S)
    assert match, f"no table {table_id}"
    return [unescape(_TAGS.sub("", c)).strip() for c in _CELL.findall(match.group(1))]
