"""``arena ladder show``: the ranking and the cross-table as a table, CSV or JSON.

The JSON (``--format json``) is one object, documented in ``docs/how-to/ladder.md`` and kept
stable: new keys may be added, none is renamed or removed without raising ``format``."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

import referee

from .common import iso_utc, plural
from .ranking import ranking_table
from .tables import Column, render

if TYPE_CHECKING:
    from arena.ladder.commands import LadderView
    from arena.standings.ranking import Ranking

__all__ = ["JSON_FORMAT", "to_json", "print_json", "print_csv", "print_table", "print_top", "CSV_COLUMNS"]

JSON_FORMAT = 1
"""The version of ``arena ladder show --format json``'s layout."""
CSV_COLUMNS = ("rank", "bot", "state", "rating", "low", "high", "games", "score", "above_next")


def to_json(found: LadderView) -> dict[str, Any]:
    """``arena ladder show --format json``."""
    ladder, ranking = found.ladder, found.ranking
    shown = set(found.shown)
    rules = referee.get(ladder.settings.game)
    data = ranking.to_dict()
    return {
        "format": JSON_FORMAT,
        "ladder": ladder.id,
        "game": ladder.settings.game,
        "league": ladder.settings.league or rules.top_league,
        "settings": {k: v for k, v in ladder.settings.to_dict().items() if k not in ("kind", "format")},
        "games_stored": found.stored,
        "games_counted": ranking.games,
        "where": list(found.where),
        "facts": list(found.facts),
        "model": ranking.model,
        "ranking": [r for r in data["ranking"] if r["bot"] in shown],
        "cross": [c for c in data["cross"] if c["bot"] in shown and c["against"] in shown],
        "bots": [
            {
                "bot": b.name,
                "state": b.state,
                "added": None if b.added is None else iso_utc(b.added),
                "version": b.source_hash,
                "frozen_as": (b.frozen or {}).get("how"),
                "warning": (b.frozen or {}).get("warning"),
            }
            for b in ladder.bots
        ],
        "recent_picks": [
            {
                "bots": list(p.bots),
                "pair": p.pair,
                "seed": p.seed,
                "games": p.games,
                "picked": iso_utc(p.picked),
                "reason": p.reason,
            }
            for p in found.picks
        ],
    }


def print_json(found: LadderView) -> None:
    click.echo(json.dumps(to_json(found)))


def _rows(ranking: Ranking, shown: tuple[str, ...]) -> list[tuple[str, ...]]:
    keep = set(shown)
    return [
        (
            str(b.rank),
            b.name,
            b.state,
            f"{b.rating:.1f}",
            f"{b.low:.1f}",
            f"{b.high:.1f}",
            str(b.games),
            "" if b.score is None else f"{b.score:.4f}",
            "" if b.above_next is None else f"{b.above_next:.4f}",
        )
        for b in ranking.bots
        if b.name in keep
    ]


def print_csv(found: LadderView) -> None:
    """The ranking, one row per bot (:data:`CSV_COLUMNS`)."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_rows(found.ranking, found.shown))


def print_table(found: LadderView) -> None:
    ladder, ranking = found.ladder, found.ranking
    rules = referee.get(ladder.settings.game)
    league = rules.league_label(ladder.settings.league or rules.top_league)
    counted = f"{ranking.games} counted" + (f" where {' and '.join(found.where)}" if found.where else "")
    click.echo(
        f"ladder {ladder.id} ({ladder.settings.game}, {league}): {plural(len(ladder.bots), 'bot')}, "
        f"{plural(found.stored, 'game')} stored, {counted}; {ranking.model}"
    )
    if not ranking.bots:
        click.echo("no bot yet: arena ladder add NAME BOT")
        return
    click.echo("\n".join(ranking_table(ranking, found.shown, states=True)))
    keep = set(found.shown)
    names = [b.name for b in ranking.bots if b.name in keep]
    if len(names) > 1:
        click.echo("\ncross-table: the row bot's score against the column bot (games)")
        click.echo("\n".join(cross_table(ranking, names)))
    if found.picks:
        click.echo("\nrecent picks (latest first):")
        for p in found.picks:
            click.echo(f"  {' vs '.join(p.bots)}, pair {p.pair} (seed {p.seed}, {p.games} games stored): {p.reason}")


def cross_table(ranking: Ranking, names: Sequence[str]) -> list[str]:
    """The row bot's score against the column bot, with the games they played (``-`` on the
    diagonal, empty where they never met), for the bots ``names`` in that order."""
    rows = []
    for row in names:
        cells = []
        for column in names:
            got = ranking.cross.get((row, column))
            cells.append("-" if row == column else "" if got is None else f"{100 * got[0]:.0f}% ({got[1]})")
        rows.append([row, *cells])
    return render([Column("", "<"), *(Column(name) for name in names)], rows)


def print_top(ranking: Ranking, top: int = 5) -> None:
    """The first bots of the ranking, after a run."""
    for b in ranking.bots[:top]:
        p = "" if b.above_next is None else f", P(above next) {b.above_next:.2f}"
        click.echo(f"{b.rank:3d}. {b.name}  {b.rating:+.0f} [{b.low:+.0f}, {b.high:+.0f}], {b.games} games{p}")
