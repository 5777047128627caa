"""``arena view``: the replay viewer page of a replay file, opened in the default browser."""

from __future__ import annotations

from pathlib import Path

import click

from arena.view import ViewError, ViewPathError, view_file

from .viewing import announce


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
    try:
        page = view_file(replay, out)
    except ViewError as exc:  # one line on stderr, no usage text: 2 for a path mistake, else 1
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(2 if isinstance(exc, ViewPathError) else 1) from None
    announce(page, no_open)
