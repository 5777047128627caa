"""The ``bundle`` command line."""

from __future__ import annotations

import sys

import click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("entry", required=False)
def main(entry: str | None) -> None:
    """Flatten the bot ENTRY into one file for CodinGame (not implemented yet)."""
    click.echo("bundle: not implemented yet (see the bundler issue)", err=True)
    sys.exit(1)
