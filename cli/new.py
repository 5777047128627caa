"""``arena new GAME NAME``: a starter bot to begin with."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from arena.starter import write_starter


@click.command()
@click.argument("game", metavar="GAME")
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The folder to write the bot's package NAME/ in (made if missing).",
)
def new(game: str, name: str, parent: Path) -> None:
    """Write a starter bot for GAME (spring2021 or fall2020) as the Python package NAME: it reads
    the input as the statement gives it and plays a legal move every turn, with a test of its
    reader against an input recorded from the referee and a README of the commands to play,
    test, run a tournament and bundle it. An existing NAME folder is never overwritten."""
    starter = write_starter(game, name, parent)
    shown = shlex.quote(str(starter.folder))
    click.echo(f"wrote {starter.folder}/ ({starter.game} starter): {', '.join(starter.files)}")
    click.echo("next:")
    click.echo(f"  arena play {starter.game} {shown} greedy --seed 1")
    click.echo(f"  python -m pytest {shown}")
    click.echo(f"  bundle {shown} -o {shlex.quote(name + '.cg.py')} --verify {starter.game}")
    click.echo(f"  (more in {starter.folder / 'README.md'})")
