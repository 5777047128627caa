"""The replay viewer's page, written and opened: what ``arena view``, ``arena play --view`` and
``arena matches show --view`` share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.view import ViewError, open_in_browser, write_view


def announce(page: Path, no_open: bool = False) -> None:
    """Say where the page is and open it (unless ``no_open``)."""
    click.echo(f"replay viewer: {page}")
    if not no_open and not open_in_browser(page):
        click.echo(f"no browser could be started: open {page.resolve().as_uri()} yourself")


def view_document(document: dict[str, Any], page: Path, no_open: bool = False) -> None:
    """Write the viewer of an in-memory replay document (``arena play --view``) and open it."""
    try:
        write_view(document, page)
    except (ViewError, OSError) as exc:
        click.echo(f"error: {page}: cannot write the viewer ({exc})", err=True)
        raise SystemExit(1) from None
    announce(page, no_open)
