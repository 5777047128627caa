"""``arena results``: the standings of a stored tournament, as a table, CSV or JSON."""

from __future__ import annotations

import json
import sys

import click

from arena.tournament.config import DEFAULT_DB

from .report import print_standings


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
    from arena.tournament.standings import find_tournament, standings
    from arena.tournament.store import Store, StoreError

    from .plot import INSTALL_HINT, plot_available

    if plot_path and not plot_available():
        raise click.ClickException(f"--plot: {INSTALL_HINT}")

    try:
        with Store(db, read_only=True) as store:
            row = find_tournament(store, tid)
            data = standings(store, row)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    if plot_path:
        if not data.get("sweep"):
            raise click.ClickException(f"tournament {data['tournament']['id']} is not a sweep: nothing to plot")
        from .plot import plot_sweep

        try:
            plot_sweep(data["sweep"], plot_path)
        except OSError as exc:
            raise click.ClickException(f"{plot_path}: cannot write the plot ({exc.strerror})") from None
        data["sweep"]["plot"] = plot_path
    if fmt == "json":
        click.echo(json.dumps(data))
    elif fmt == "csv" and data["tournament"].get("players", 2) > 2:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["table", "bot", "games", "firsts", "mean_rank", "mean_score"])
        for c in data["comparisons"]:
            for st in c["standings"]:
                writer.writerow([c["index"], st["bot"], st["games"], st["firsts"], st["mean_rank"], st["mean_score"]])
    elif fmt == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        fields = [
            "bot_a",
            "bot_b",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "draw_ratio",
            "elo",
            "elo_ci95",
            "elo_lo",
            "elo_hi",
            "los",
            "ll",
            "ld",
            "wl_dd",
            "wd",
            "ww",
            "sprt_state",
            "sprt_llr",
        ]
        writer.writerow(fields)
        for c in data["comparisons"]:
            sprt = c.get("sprt") or {}
            writer.writerow(
                [
                    c["bots"][0],
                    c["bots"][1],
                    c["games"],
                    c["wins"],
                    c["draws"],
                    c["losses"],
                    c["score"],
                    c["draw_ratio"],
                    c["elo"],
                    c["elo_ci95"],
                    c["elo_lo"],
                    c["elo_hi"],
                    c["los"],
                    *c["penta"],
                    sprt.get("state", ""),
                    sprt.get("llr", ""),
                ]
            )
    else:
        print_standings(data)
        if plot_path:
            click.echo(f"sweep plot: {plot_path}")
