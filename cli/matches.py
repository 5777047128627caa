"""``arena matches list|show`` and ``arena tournaments``: every stored game findable, explained and
reproducible."""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np

import referee
from arena.ladder.settings import is_ladder
from arena.match.protocol.latency import LimitUse
from arena.store.browse import RESULTS, STATUSES, GameFilter, UnknownBot, find_game, find_games, tournaments
from arena.store.records import GameRecord, TournamentRow
from arena.tournament.config import DEFAULT_DB

from .common import minute, plural, shown
from .repro import play_again_command
from .tables import Column, render
from .viewing import announce


def _game_dict(tid: int, g: GameRecord) -> dict[str, Any]:
    keys = ("id", "tournament", "comparison", "pair", "leg", "seed", "end_reason", "turns", "winner", "duration_s")
    seated = ("seat", "bot", "score", "rank", "status", "message", "refused")
    out = {k: tid if k == "tournament" else getattr(g, k) for k in keys}
    out.update(
        replay=g.replay,
        sandbox=None if g.sandboxed is None else ("on" if g.sandboxed else "off"),
        worker=g.worker,
        players=[{k: getattr(p, k) for k in seated} for p in g.players],
    )
    return out


GAME_COLUMNS = (
    Column("id"),
    Column("seed"),
    Column("players (seat: bot score status)", "<"),
    Column("end", "<"),
    Column("turns"),
    Column("replay", "<"),
)
"""The table of ``arena matches list``."""
TOURNAMENT_COLUMNS = (Column("id", width=3), Column("created", "<"), Column("status", "<", width=11), Column("", "<"))
"""The lines of ``arena tournaments`` (no header): id, date, status, then what it played."""


@click.group()
def matches() -> None:
    """The games stored by tournaments: list them, show one."""


@matches.command("list")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--tournament", "tid", type=int, help="Tournament id (default: the latest tournament or ladder).")
@click.option("--ladder", "lid", type=int, help="Ladder id (arena ladder): its games, as --tournament does.")
@click.option("--bot", help="Only games this bot played (and --result is from its side).")
@click.option("--result", type=click.Choice(RESULTS), help="Only the games --bot won, lost or drew.")
@click.option(
    "--status", type=click.Choice(STATUSES), help="Only games where a player (--bot, if given) ended with this status."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "seeds"]),
    default="table",
    show_default=True,
    help="seeds: the listed games' seeds on one line, each once, as --seeds takes them "
    '(arena tournament ... --seeds "$(arena matches list --bot B --result loss --format seeds)").',
)
def list_matches(
    db: str, tid: int | None, lid: int | None, bot: str | None, result: str | None, status: str | None, fmt: str
) -> None:
    """The games of a tournament or a ladder: id, seed, seats, scores, end reason, turns, each
    player's status."""
    if result is not None and bot is None:
        raise click.UsageError("--result is a bot's result: give --bot NAME too")
    if lid is not None:
        if tid is not None:
            raise click.UsageError("give --tournament or --ladder, not both")
        tid = _ladder_id(db, lid)
    try:
        found = find_games(db, tid, GameFilter(bot, result, status))
    except UnknownBot as exc:
        raise click.UsageError(str(exc)) from None
    tid = found.tournament.id
    if fmt == "json":
        click.echo(json.dumps({"tournament": tid, "games": [_game_dict(tid, g) for g in found.games]}))
        return
    if fmt == "seeds":
        click.echo(seed_list(tid, [g.seed for g in found.games]))
        return
    kind = "ladder" if is_ladder(found.tournament.settings) else "tournament"
    click.echo(f"{kind} {tid}: {len(found.games)} of {found.total} games")
    if not found.games:
        return
    rows = []
    for g in found.games:
        seats = "  ".join(f"{p.seat}: {p.bot} {p.score} {p.status}" for p in g.players)
        rows.append([str(g.id), str(g.seed), seats, g.end_reason, str(g.turns), "yes" if g.replay else ""])
    click.echo("\n".join(render(GAME_COLUMNS, rows)))
    click.echo("details: arena matches show ID" + (f" --db {db}" if db != DEFAULT_DB else ""))


def seed_list(tid: int, seeds: Sequence[int]) -> str:
    """The seeds of the listed games as ``--seeds`` takes them: ``A,B,C``, each once (a seed is
    one map, played once per seat), in the games' order. No game: a one-line error."""
    if not seeds:
        raise click.ClickException(f"no game of tournament {tid} matches these filters: no seeds to print")
    return ",".join(str(s) for s in dict.fromkeys(seeds))


def _ladder_id(db: str, lid: int) -> int:
    """``--ladder ID``: refused when ``ID`` is a tournament of ``db``."""
    from arena.ladder.errors import LadderError
    from arena.ladder.stored import find_ladder
    from arena.store.results import Store

    with Store(db, read_only=True) as store:
        try:
            return find_ladder(store, lid).id
        except LadderError as exc:
            raise click.UsageError(str(exc)) from None


@matches.command("show")
@click.argument("game_id", type=int)
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--view", is_flag=True, help="Open the kept replay of this game in the replay viewer.")
@click.option("--no-open", is_flag=True, help="With --view: write the viewer page, do not open a browser.")
def show_match(game_id: int, db: str, fmt: str, view: bool, no_open: bool) -> None:
    """Everything stored about one game, and the command that plays it again."""
    row, g = find_game(db, game_id)
    command = play_again_command(db, row, g)
    if view and (g.replay is None or not Path(g.replay).is_file()):
        g = dataclasses.replace(g, replay=str(_replay_again(db, game_id, g, command)))
    if fmt == "json":
        data = _game_dict(row.id, g)
        for out, p in zip(data["players"], g.players):
            use = None if p.limit_use is None else p.limit_use.summary()
            out.update(latencies_ms=list(p.latencies_ms), limit_use=use, overloaded=p.overloaded, stderr=p.stderr)
        data["command"] = command
        click.echo(json.dumps(data))
        return
    _describe(row, g, command)
    if view:
        assert g.replay is not None
        from arena.view import ViewError, write_view

        page = Path(g.replay).with_suffix(".html")
        try:
            write_view(Path(g.replay), page)
        except (ViewError, OSError) as exc:
            raise click.ClickException(f"{g.replay}: cannot make the viewer ({exc})") from None
        announce(page, no_open)


def _replay_again(db: str, game_id: int, g: GameRecord, command: str) -> Path:
    """The replay of a game none was kept of: the game played again (its bots' versions, its seed
    and settings), kept in the database's replays folder (never in a bot's folder)."""
    from arena.runner.again import NoVersion, play_again, replays_for

    try:
        path = play_again(db, game_id)
    except NoVersion as exc:
        target = replays_for(db).resolve() / f"game{game_id}-seed{g.seed}.json"
        raise click.ClickException(
            f"game {game_id}: no replay was kept, and {exc}; play it again with --replay FILE --view: "
            f"{command} --replay {shlex.quote(str(target))} --view"
        ) from None
    click.echo(
        f"no replay was kept of game {game_id}: played it again (its bots' versions, seed and settings) into {path}"
    )
    return path


def _league(row: TournamentRow) -> str:
    """The league the tournament's games are played at (``league 2 (Wood 1)``)."""
    game = str(row.settings.get("game"))
    try:
        rules = referee.get(game)
    except (referee.UnknownGame, referee.PluginError):
        return f"league {row.settings.get('league', '(the top one)')}"
    return rules.league_label(int(row.settings.get("league") or rules.top_league))


def _limit_line(use: LimitUse | None) -> str:
    """``2.5% above 95% of the limit, closest call 97% (by share of the limit: <=50% 120 | ...)``."""
    if use is None:
        return "closeness to the limit not kept when this game was played"
    return f"{use.describe()} (by share of the limit: {use.bars()})"


def _describe(row: TournamentRow, g: GameRecord, command: str) -> None:
    """The game as text: where it belongs, how it ended, each player, its replay, how to play it again."""
    game = row.settings.get("game")
    click.echo(
        f"game {g.id} of tournament {row.id} ({game}): comparison {g.comparison}, pair {g.pair}, leg {g.leg}, "
        f"seed {g.seed}"
    )
    click.echo(
        f"  {g.end_reason} after {g.turns} turns, {g.duration_s:.1f} s, finished {minute(g.finished)}; "
        f"rules {g.referee_version}, {_league(row)}"
        + "".join(f", {k}={v}" for k, v in sorted((row.settings.get("params") or {}).items()))
        + ("" if g.sandboxed is None else f"; bots {'sandboxed' if g.sandboxed else 'not sandboxed'}")
        + ("" if g.worker is None else f"; on Dask worker {g.worker}")
    )
    for p in g.players:
        click.echo(
            f"player {p.seat}: {shown(p.bot)}, score {p.score}, rank {p.rank + 1}, {p.status}"
            + (f": {shown(p.message)}" if p.message else "")
        )
        lat = np.asarray(p.latencies_ms, dtype=float)
        if lat.size:
            click.echo(
                f"  {plural(int(lat.size), 'answer')}, latency ms median {np.median(lat):.1f} / p99 "
                f"{np.percentile(lat, 99):.1f} / max {lat.max():.1f}, " + _limit_line(p.limit_use)
            )
        else:
            click.echo("  no answer")
        refused = "unknown (not counted when this game was played)" if p.refused is None else str(p.refused)
        click.echo(f"  refused actions: {refused}")
        if p.stderr:
            click.echo("  stderr (tail):")
            for line in shown(p.stderr, lines=True).rstrip("\n").split("\n"):
                click.echo(f"    | {line}")
        else:
            click.echo("  stderr: none kept")
    if g.replay:
        click.echo(f"replay file: {g.replay}")
    click.echo(f"play it again with: {command}")


@click.command("tournaments")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_tournaments(db: str, fmt: str) -> None:
    """The tournaments (and ladders) in a results database: date, game, bots, games done, status."""
    rows = tournaments(db)
    if fmt == "json":
        keys = ("id", "created", "updated", "status")
        listed = [
            {k: getattr(t, k) for k in keys}
            | {k: t.settings.get(k) for k in ("game", "format")}
            | {"bots": list(bots), "games_stored": n, "games_target": t.games_target}
            for t, n, bots in rows
        ]
        click.echo(json.dumps(listed))
        return
    if not rows:
        click.echo(f"{db}: no tournament yet")
        return
    lines = []
    for t, n, bots in rows:
        target = "" if is_ladder(t.settings) else f" (target {t.games_target} per comparison)"
        what = f"{t.settings.get('game')}  {t.settings.get('format')}  {n} games stored{target}  {', '.join(bots)}"
        lines.append([str(t.id), minute(t.created), t.status, what])
    click.echo("\n".join(render(TOURNAMENT_COLUMNS, lines, header=False)))
