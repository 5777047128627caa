"""``arena matches list|show`` and ``arena tournaments``: every stored game findable, explained and
reproducible."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import numpy as np

from arena.tournament.config import DEFAULT_DB
from arena.tournament.records import GameRecord, PlayerRecord, TournamentRow
from arena.tournament.store import Store, StoreError

from .common import plural
from .repro import stored_game_command

RESULTS = ("win", "loss", "draw")
STATUSES = ("ok", "timeout", "crash", "invalid", "memory", "eliminated")


@contextmanager
def _open(db: str) -> Iterator[Store]:
    """The results database, opened read-only; a failure to open or read it (a damaged file, say)
    ends the command with its one-line message."""
    try:
        with Store(db, read_only=True) as store:
            yield store
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None


def _result(record: GameRecord, player: PlayerRecord) -> str:
    if player.rank > 0:
        return "loss"
    return "draw" if sum(p.rank == 0 for p in record.players) > 1 else "win"


def _when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def _game_dict(tid: int, g: GameRecord) -> dict[str, Any]:
    return {
        "id": g.id,
        "tournament": tid,
        "comparison": g.comparison,
        "pair": g.pair,
        "leg": g.leg,
        "seed": g.seed,
        "end_reason": g.end_reason,
        "turns": g.turns,
        "winner": g.winner,
        "duration_s": g.duration_s,
        "replay": g.replay,
        "sandbox": None if g.sandboxed is None else ("on" if g.sandboxed else "off"),
        "worker": g.worker,
        "players": [
            {
                "seat": p.seat,
                "bot": p.bot,
                "score": p.score,
                "rank": p.rank,
                "status": p.status,
                "message": p.message,
                "refused": p.refused,
            }
            for p in g.players
        ],
    }


@click.group()
def matches() -> None:
    """The games stored by tournaments: list them, show one."""


@matches.command("list")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--tournament", "tid", type=int, help="Tournament id (default: the latest).")
@click.option("--bot", help="Only games this bot played (and --result is from its side).")
@click.option("--result", type=click.Choice(RESULTS), help="Only the games --bot won, lost or drew.")
@click.option(
    "--status", type=click.Choice(STATUSES), help="Only games where a player (--bot, if given) ended with this status."
)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_matches(db: str, tid: int | None, bot: str | None, result: str | None, status: str | None, fmt: str) -> None:
    """The games of a tournament: id, seed, seats, scores, end reason, turns, each player's status."""
    if result is not None and bot is None:
        raise click.UsageError("--result is a bot's result: give --bot NAME too")
    from arena.tournament.standings import find_tournament

    with _open(db) as store:
        try:
            row = find_tournament(store, tid)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        names = {b.name for b in store.bots(row.id)}
        if bot is not None and bot not in names:
            raise click.UsageError(f"no bot {bot!r} in tournament {row.id} (bots: {', '.join(sorted(names))})")
        games = store.games(row.id)
    chosen = []
    for g in sorted(games, key=lambda g: g.id or 0):
        players = [p for p in g.players if bot is None or p.bot == bot]
        if not players:
            continue
        if status is not None and not any(p.status == status for p in players):
            continue
        if result is not None and not any(_result(g, p) == result for p in players):
            continue
        chosen.append(g)
    if fmt == "json":
        click.echo(json.dumps({"tournament": row.id, "games": [_game_dict(row.id, g) for g in chosen]}))
        return
    click.echo(f"tournament {row.id}: {len(chosen)} of {len(games)} games")
    if not chosen:
        return
    header = ("id", "seed", "players (seat: bot score status)", "end", "turns", "replay")
    rows = []
    for g in chosen:
        seats = "  ".join(f"{p.seat}: {p.bot} {p.score} {p.status}" for p in g.players)
        rows.append((str(g.id), str(g.seed), seats, g.end_reason, str(g.turns), "yes" if g.replay else ""))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {0, 1, 4}
    for r in [header, *rows]:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        click.echo("  ".join(cells).rstrip())
    click.echo("details: arena matches show ID" + (f" --db {db}" if db != DEFAULT_DB else ""))


@matches.command("show")
@click.argument("game_id", type=int)
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--view", is_flag=True, help="Open the kept replay of this game in the replay viewer.")
@click.option("--no-open", is_flag=True, help="With --view: write the viewer page, do not open a browser.")
def show_match(game_id: int, db: str, fmt: str, view: bool, no_open: bool) -> None:
    """Everything stored about one game, and the command that plays it again."""
    with _open(db) as store:
        found = store.game(game_id)
        if found is None:
            raise click.ClickException(f"{db}: no game {game_id} (arena matches list shows the ids)")
        tid, g = found
        row = store.tournament(tid)
    assert row is not None
    command = stored_game_command(row.settings, g)
    if view and (g.replay is None or not Path(g.replay).is_file()):
        why = "no replay was kept" if g.replay is None else f"its replay {g.replay} is gone"
        raise click.ClickException(
            f"game {game_id}: {why}; play it again with --replay FILE --view: "
            f"{command} --replay game{game_id}.json --view"
        )
    if fmt == "json":
        data = _game_dict(tid, g)
        for out, p in zip(data["players"], g.players):
            out.update(latencies_ms=list(p.latencies_ms), near_limit=p.near_limit, stderr=p.stderr)
        data["command"] = command
        click.echo(json.dumps(data))
        return
    game = row.settings.get("game")
    click.echo(
        f"game {g.id} of tournament {tid} ({game}): comparison {g.comparison}, pair {g.pair}, leg {g.leg}, "
        f"seed {g.seed}"
    )
    click.echo(
        f"  {g.end_reason} after {g.turns} turns, {g.duration_s:.1f} s, finished {_when(g.finished)}; "
        f"rules {g.referee_version}"
        + ("" if g.sandboxed is None else f"; bots {'sandboxed' if g.sandboxed else 'not sandboxed'}")
        + ("" if g.worker is None else f"; on Dask worker {g.worker}")
    )
    for p in g.players:
        rank = f"rank {p.rank + 1}"
        click.echo(
            f"player {p.seat}: {p.bot}, score {p.score}, {rank}, {p.status}" + (f": {p.message}" if p.message else "")
        )
        lat = np.asarray(p.latencies_ms, dtype=float)
        if lat.size:
            click.echo(
                f"  {plural(int(lat.size), 'answer')}, latency ms median {np.median(lat):.1f} / p99 "
                f"{np.percentile(lat, 99):.1f} / max {lat.max():.1f}, {p.near_limit} over 80% of the limit"
            )
        else:
            click.echo("  no answer")
        refused = "unknown (not counted when this game was played)" if p.refused is None else str(p.refused)
        click.echo(f"  refused actions: {refused}")
        if p.stderr:
            click.echo("  stderr (tail):")
            for line in p.stderr.rstrip("\n").split("\n"):
                click.echo(f"    | {line}")
    if g.replay:
        click.echo(f"replay file: {g.replay}")
    click.echo(f"play it again with: {command}")
    if view:
        from arena.view import ViewError, write_view

        from .viewing import announce

        assert g.replay is not None
        page = Path(g.replay).with_suffix(".html")
        try:
            write_view(Path(g.replay), page)
        except (ViewError, OSError) as exc:
            raise click.ClickException(f"{g.replay}: cannot make the viewer ({exc})") from None
        announce(page, no_open)


@click.command("tournaments")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_tournaments(db: str, fmt: str) -> None:
    """The tournaments in a results database: date, game, bots, games done, status."""
    with _open(db) as store:
        rows: list[tuple[TournamentRow, int]] = [(t, store.count_games(t.id)) for t in store.tournaments()]
    if fmt == "json":
        click.echo(
            json.dumps(
                [
                    {
                        "id": t.id,
                        "created": t.created,
                        "updated": t.updated,
                        "status": t.status,
                        "game": t.settings.get("game"),
                        "format": t.settings.get("format"),
                        "bots": [b["name"] for b in t.settings.get("bots", [])],
                        "games_stored": n,
                        "games_target": t.games_target,
                    }
                    for t, n in rows
                ]
            )
        )
        return
    if not rows:
        click.echo(f"{db}: no tournament yet")
        return
    for t, n in rows:
        bots = ", ".join(b["name"] for b in t.settings.get("bots", []))
        click.echo(
            f"{t.id:3d}  {_when(t.created)}  {t.status:11}  {t.settings.get('game')}  "
            f"{t.settings.get('format')}  {n} games stored (target {t.games_target} per comparison)  {bots}"
        )
