"""``arena view``: the replay viewer page of a replay file, opened in the default browser."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import click

from arena.view import ViewError, load_replay, write_view

from .viewing import announce


def _fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr, then exit with ``code`` (no traceback, no usage text)."""
    click.echo(f"error: {message}", err=True)
    raise SystemExit(code)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


@click.command()
@click.argument("replay", type=click.Path(dir_okay=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path),
    help="Write the page to this HTML file (default: REPLAY with the .html suffix).",
)
@click.option("--no-open", is_flag=True, help="Only write the page; do not open it in the browser.")
def view(replay: Path, out: Path | None, no_open: bool) -> None:
    """Write the replay viewer of REPLAY (a file written by arena play --replay) as one
    self-contained HTML page, and open it in the default browser.

    The page needs no network: play/pause, step with the arrow keys, a slider over every frame;
    each bot's input, output, time and stderr per turn; verdicts on the timeline; score charts.
    """
    if not replay.exists():
        _fail(f"{replay}: no such file", 2)
    if replay.is_dir():
        _fail(f"{replay}: is a directory; give a replay file (arena play ... --replay FILE)", 2)
    if out is None:
        out = replay.with_suffix(".html")
    if out.exists() and out.resolve() == replay.resolve():
        _fail(f"{out}: the page would overwrite the replay; choose another file with -o", 2)
    if out.is_dir():
        _fail(f"{out}: is a directory; give a file name, e.g. {out / replay.with_suffix('.html').name}", 2)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        _fail(f"{folder}: no such directory (create it first)", 2)
    try:
        document = load_replay(replay)
    except ViewError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{replay}: cannot read the replay ({_reason(exc)})")
    try:
        write_view(document, out)
    except ViewError as exc:
        _fail(f"{replay}: {exc}")
    except OSError as exc:
        _fail(f"{out}: cannot write the page ({_reason(exc)})")
    announce(out, no_open)
