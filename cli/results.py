"""``arena results``: the standings of a stored tournament, as a table, CSV or JSON."""

from __future__ import annotations

import csv
import dataclasses
import json
import sys

import click

from arena.tournament.config import DEFAULT_DB

from .report import csv_rows, print_standings


@click.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--tournament", "tid", type=int, help="Tournament id (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Sweeps: draw the score-against-parameter plot to this PNG file.",
)
def results(db: str, tid: int | None, fmt: str, plot_path: str | None) -> None:
    """Standings of a tournament (finished or running) from its database."""
    from arena.standings.tournament import load_standings

    from .plot import INSTALL_HINT, plot_available, plot_sweep

    if plot_path and not plot_available():
        raise click.ClickException(f"--plot: {INSTALL_HINT}")
    data = load_standings(db, tid)
    if plot_path:
        if data.sweep is None:
            raise click.ClickException(f"tournament {data.tournament.id} is not a sweep: nothing to plot")
        try:
            plot_sweep(data.sweep, plot_path)
        except OSError as exc:
            raise click.ClickException(f"{plot_path}: cannot write the plot ({exc.strerror})") from None
        data = dataclasses.replace(data, sweep=dataclasses.replace(data.sweep, plot=plot_path))
    if fmt == "json":
        click.echo(json.dumps(data.to_dict()))
    elif fmt == "csv":
        csv.writer(sys.stdout, lineterminator="\n").writerows(csv_rows(data))
    else:
        print_standings(data)
        if plot_path:
            click.echo(f"sweep plot: {plot_path}")
