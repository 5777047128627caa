"""``arena ladder``: a persistent ladder of bot versions in the results database. Add a bot at
any time (a frozen copy of it), run games where they inform the ranking, show the ranking."""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING, Any

import click

from arena.settings import WORKER_KEYS, ConfigError, read_workers
from arena.tournament.config import DEFAULT_DB

from .common import bundler, shown, stop_on_signals
from .options import PLAYED, given, setting_options
from .progress import RunView

if TYPE_CHECKING:  # the ladder's modules load on first use
    from arena.ladder.commands import LadderOutcome
    from arena.runner.runner import Started
    from arena.store.records import GameRecord

_DB = click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
_LADDER = click.option("--ladder", "ladder_id", type=int, help="Ladder id (default: the latest ladder of --db).")


@click.group()
def ladder() -> None:
    """A persistent ladder of bot versions: init, add, run, show, retire, remove, rename.

    Every bot added is a frozen copy (beside the database, by content hash); games are stored in
    the results database like a tournament's, reused by every later run, and chosen where they
    inform the ranking. Its games are listed with: arena matches list --ladder ID.
    """


@ladder.command()
@click.argument("game")
@setting_options((*PLAYED, "seed"))
@_DB
@click.option("--new", is_flag=True, help="Make another ladder even if the database holds one.")
def init(game: str, db: str, new: bool, **flags: Any) -> None:
    """Make a ladder of GAME; its settings are fixed from now on."""
    from arena.ladder.commands import init_ladder
    from arena.ladder.stored import title

    made = init_ladder(db, game, given(flags, (*PLAYED, "seed")), new=new)
    s = made.settings
    click.echo(
        f"{title(made)} made in {db}: time scale {s.time_scale:g}, "
        + ("no memory limit" if s.memory_limit_mb is None else f"memory limit {s.memory_limit_mb} MB")
        + f", sandbox {s.sandbox}, seed {s.seed}"
        + "".join(f", {k}={v}" for k, v in sorted(s.params.items()))
    )
    click.echo("add bots with: arena ladder add NAME BOT" + (f" --db {db}" if db != DEFAULT_DB else ""))


@ladder.command()
@click.argument("name")
@click.argument("bot", required=False)
@click.option(
    "--data", multiple=True, metavar="FILE", help="A file or folder the bot reads, frozen with it (repeatable)."
)
@_DB
@_LADDER
def add(name: str, bot: str | None, data: tuple[str, ...], db: str, ladder_id: int | None) -> None:
    """Register BOT as NAME (or BOT alone: named after it), after a self-play game.

    BOT is what arena play takes, recorded as a version (arena versions lists them): a Python file
    or package (frozen as its module tree), a binary (copied), an interpreter and its script (the
    script copied), or a command (kept as given, with a warning: it cannot be frozen); or a stored
    version, as NAME@N or NAME@prev (arena ladder add mybot@prev).
    """
    from arena.ladder.commands import add_bot
    from arena.ladder.stored import title

    try:
        with stop_on_signals(signal.SIGINT, signal.SIGTERM):
            added = add_bot(db, name if bot else None, bot or name, data=data, ladder_id=ladder_id)
    except KeyboardInterrupt:
        click.echo("interrupted: the bot is not added", err=True)
        sys.exit(130)
    if added.warning:
        click.echo(f"warning: {shown(added.warning)}", err=True)
    for note in added.notes:
        click.echo(f"note: {shown(note)}", err=True)
    if added.same_as:
        click.echo(f"note: {', '.join(added.same_as)} {'is' if len(added.same_as) == 1 else 'are'} this very version")
    version = added.version
    click.echo(
        f"added {added.name} to {title(added.ladder)}: {version.label}, version {version.short} ({version.how}); "
        "its self-play game went through"
    )


@ladder.command()
@click.option(
    "--games", type=click.IntRange(1), help="Play this many more games, then stop (rounded up to whole pairs)."
)
@click.option(
    "--until-confident",
    is_flag=True,
    help="Stop when every two active bots next to each other in the ranking are ordered with P >= 0.95 "
    "(never, for two bots of equal strength: give --games too).",
)
@setting_options(PLAYED, default="the ladder's own")
@setting_options(("replays", "keep", *WORKER_KEYS))
@click.option("--no-progress", is_flag=True, help="No progress bar or progress lines.")
@_DB
@_LADDER
def run(
    games: int | None, until_confident: bool, no_progress: bool, db: str, ladder_id: int | None, **flags: Any
) -> None:
    """Play the ladder's games: until Ctrl-C, --games more, or --until-confident.

    A new bot plays first, against opponents spread over the ranking; then each pair of games
    (one map, both seats) goes to the two bots next to each other in the ranking whose order is
    least certain, weighted by how much one more pair would tell. The settings options, if given,
    must be the ladder's. Stop it any time: the games stored are kept, and the next run goes on.
    """
    from arena.ladder.commands import run_ladder

    try:
        workers = read_workers(given(flags, WORKER_KEYS))
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    view = RunView(_run_header, _failure_hint, quiet=no_progress, header_err=True)
    asked = given(flags, (*PLAYED, "replays", "keep"))
    try:
        with stop_on_signals(signal.SIGINT, signal.SIGTERM):
            result = run_ladder(
                db, asked, ladder_id=ladder_id, workers=workers, games=games, until_confident=until_confident,
                bundle=bundler(workers.executor), on_event=view.on_event,
            )  # fmt: skip
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        view.close()
    _after_run(result, db)


def _run_header(event: Started) -> str:
    """``ladder 1: 40 games stored, 3 active bots (a, b, c); playing 200 games``."""
    from arena.ladder.scheduler import LadderStart

    start = event.detail
    assert isinstance(start, LadderStart)
    what = "until stopped (Ctrl-C)" if start.target is None else f"{start.target} games"
    unfinished = (
        f", with the {start.unfinished} games left of pairs already picked (after any new bot's placement)"
        if start.unfinished
        else ""
    )
    bots = f"{len(start.bots)} active bots ({', '.join(start.bots)})"
    return f"ladder {event.run_id}: {event.stored} games stored, {bots}; playing {what}{unfinished}"


def _failure_hint(record: GameRecord) -> str:
    return f"game {record.id}, seed {record.seed} (details: arena matches show {record.id})"


def _after_run(outcome: LadderOutcome, db: str) -> None:
    """The first bots of the ranking, why the run ended; exit 130 when interrupted."""
    from .report import print_top

    result = outcome.run
    print_top(outcome.ranking)
    shown_db = f" --db {db}" if db != DEFAULT_DB else ""
    if result.interrupted:
        click.echo(
            f"interrupted after {result.played} games of this run (all stored); go on with: arena ladder run{shown_db}"
        )
        sys.exit(130)
    click.echo(f"{result.played} games played: {result.ended}; the full ranking: arena ladder show{shown_db}")


@ladder.command()
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--min-games", type=click.IntRange(0), default=0, help="Only bots with at least this many games counted.")
@click.option(
    "--where",
    multiple=True,
    metavar="FACT OP VALUE",
    help="Count only the games whose start matches (holes>=2, first_orders~76; repeatable: all must hold).",
)
@click.option("--recent", type=click.IntRange(0), default=10, show_default=True, help="Recent picks shown (and why).")
@_DB
@_LADDER
def show(fmt: str, min_games: int, where: tuple[str, ...], recent: int, db: str, ladder_id: int | None) -> None:
    """The ranking (rating, 95% interval, P above the next bot) and the cross-table."""
    from arena.ladder.commands import show_ladder

    from .report import print_ladder, print_ladder_csv, print_ladder_json

    found = show_ladder(db, ladder_id=ladder_id, min_games=min_games, where=where, recent=recent)
    {"json": print_ladder_json, "csv": print_ladder_csv, "table": print_ladder}[fmt](found)


def _state_command(name: str, state: str, doc: str) -> click.Command:
    @click.argument("bot")
    @_DB
    @_LADDER
    def command(bot: str, db: str, ladder_id: int | None) -> None:
        from arena.ladder.commands import set_state
        from arena.ladder.stored import title
        from arena.store.records import BotState

        changed = set_state(db, bot, BotState(state), ladder_id=ladder_id)
        click.echo(f"{bot} is {state} in {title(changed)}")

    command.__doc__ = doc
    return ladder.command(name)(command)


_state_command("retire", "retired", "Take BOT out of matchmaking: it plays no more games, and stays ranked.")
_state_command("remove", "removed", "Take BOT out of the ranking and of the fit (its games stay in the database).")
_state_command("activate", "active", "Bring a retired or removed BOT back: it plays and is ranked again.")


@ladder.command()
@click.argument("old")
@click.argument("new")
@_DB
@_LADDER
def rename(old: str, new: str, db: str, ladder_id: int | None) -> None:
    """Rename bot OLD to NEW, in its games too."""
    from arena.ladder.commands import rename_bot
    from arena.ladder.stored import title

    renamed = rename_bot(db, old, new, ladder_id=ladder_id)
    click.echo(f"{old} is now {new} in {title(renamed)}")
