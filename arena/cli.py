"""The ``arena`` command line. The only module of the arena that prints."""

from __future__ import annotations

import functools
import json
import math
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import click

import referee

from . import botspec
from .config import DEFAULT_DB
from .match import Frame, MatchOptions, play_match
from .process import DEFAULT_MEMORY_LIMIT_MB
from .replay import replay_document, write_replay
from .schedule import Format
from .sprt import SprtModel, SprtState

DEFAULT_GAME = "spring2021"


def _java_long(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        seed = int(value, 0)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an integer (any Java long is accepted)") from None
    if not -(2**63) <= seed < 2**63:
        raise click.BadParameter(f"{seed} is outside the Java long range [-2^63, 2^63-1]")
    return seed


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cgarena")
def main() -> None:
    """Play CodinGame contest games locally, under the official rules."""


@main.command()
def games() -> None:
    """List the games (and their aliases)."""
    aliases = referee.aliases()
    for name in referee.names():
        cls = referee.get(name)
        extra = [a for a, target in aliases.items() if target == name]
        click.echo(f"{name:12} {cls.title}" + (f"  (also: {', '.join(extra)})" if extra else ""))




def _params(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


@main.command("bots")
@click.argument("game", required=False)
def list_bots(game: str | None) -> None:
    """List the shipped bots (of GAME, or of every game) and how each is run."""
    if game is not None:
        try:
            names = [referee.get(game).name]
        except referee.UnknownGame as exc:
            raise click.UsageError(str(exc)) from None
    else:
        names = referee.names()
    for name in names:
        defaults = botspec.default_bots(name)
        click.echo(f"{name} (default match: {' vs '.join(defaults) or 'none'})")
        for bot in botspec.shipped_bots(name):
            spec = botspec.resolve(bot, name)
            shown = shlex.join(spec.argv[1:]) if spec.argv[0] == sys.executable else spec.command_line()
            click.echo(f"  {bot:8} {shown}")


@main.command()
@click.argument("game", required=False, default=DEFAULT_GAME)
@click.argument("bots", nargs=-1)
@click.option("--seed", callback=_java_long, help="Game seed, any Java long (random if omitted).")
@click.option("--swap", is_flag=True, help="Swap the seats: BOT2 plays as player 0.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line describing the match.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the full replay (inputs, outputs, timings, snapshots) to this JSON file.")
@click.option("--time-scale", type=click.FloatRange(min=0, min_open=True), default=1.0,
              show_default=True, help="Multiply every time limit.")
@click.option("--no-timeout", is_flag=True, help="Wait for every answer forever (debugging).")
@click.option("--memory-limit", type=click.IntRange(min=16), default=DEFAULT_MEMORY_LIMIT_MB,
              show_default=True, help="Memory limit of each bot, in MB.")
@click.option("--param", "params", multiple=True, callback=_params, metavar="NAME=VALUE",
              help="Game parameter (repeatable).")
@click.option("--show-stderr", is_flag=True, help="Print each bot's stderr as it plays.")
@click.option("-v", "--verbose", is_flag=True, help="Print every frame's summary.")
def play(
    game: str,
    bots: tuple[str, ...],
    seed: int | None,
    swap: bool,
    as_json: bool,
    replay_path: str | None,
    time_scale: float,
    no_timeout: bool,
    memory_limit: int,
    params: dict[str, str],
    show_stderr: bool,
    verbose: bool,
) -> None:
    """Play one match of GAME between its BOTs, one per seat in seat order (default:
    spring2021; default bots: the game's first two shipped bots, beam against greedy).

    A BOT is a .py file, a directory with __main__.py, an executable, a command line in one
    string, or a shipped bot name from bots/shipped.yaml (arena bots lists them).
    """
    try:
        cls = referee.get(game)
    except referee.UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    if not bots:
        bots = botspec.default_bots(cls.name)
    if not bots:
        raise click.UsageError(f"{cls.name} has no shipped bots: give its {cls.player_count} BOTs")
    if len(bots) != cls.player_count:
        raise click.UsageError(f"{cls.name} is played by {cls.player_count} bots, got {len(bots)}")
    specs = []
    for text in bots:
        try:
            specs.append(botspec.resolve(text, cls.name))
        except botspec.BotSpecError as exc:
            raise click.UsageError(f"bot {text!r}: {exc}") from None
    if swap:
        specs.reverse()
    if seed is None:
        seed = random.SystemRandom().randrange(-(2**63), 2**63)
    try:
        cls(seed, params)  # validate the parameters before starting any bot
    except referee.ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    out = click.echo if not as_json else functools.partial(click.echo, err=True)
    out(f"{cls.title}: {' vs '.join(s.name for s in specs)}, seed {seed}")

    def on_frame(frame: Frame) -> None:
        report = frame.report
        if verbose:
            for line in report.summary:
                out(f"  [{report.turn:3}] {line}")
        else:
            for p, message in report.errors:
                out(f"  turn {report.turn:3}  player {p} ({specs[p].name}): {message}")
            for d in report.deactivations:
                how = "eliminated" if d.cause is referee.DeactivationCause.ELIMINATED else "disqualified"
                out(f"  turn {report.turn:3}  player {d.player} ({specs[d.player].name}) {how}: {d.reason}")
            marker = cls.progress(frame.snapshot) if frame.snapshot else None
            if marker:
                out(f"  turn {report.turn:3}  {marker}")
        if show_stderr:
            for e in frame.executions:
                if e.stderr:
                    for line in e.stderr.rstrip("\n").split("\n"):
                        out(f"  [{report.turn:3}] stderr {e.player}: {line}")

    options = MatchOptions(
        time_scale=time_scale,
        no_timeout=no_timeout,
        memory_limit_mb=memory_limit,
        params=params or None,
        record=bool(replay_path) or show_stderr,
    )
    result = play_match(cls.name, seed, specs, options, on_frame=on_frame)
    for p in result.players:
        if p.message.startswith("failed to start"):
            click.echo(f"error: bot {p.index} ({p.name}): {p.message}", err=True)
    if replay_path:
        write_replay(Path(replay_path), replay_document(result, params))
    if result.outcome is None:
        out(f"interrupted after {result.turns} turns: bots stopped, no result")
    else:
        o = result.outcome
        if o.winner is not None:
            verdict = f"player {o.winner} ({specs[o.winner].name}) wins"
        elif len(o.scores) == 2:
            verdict = "draw"
        else:
            verdict = "tie for first between players " + ", ".join(str(i) for i, r in enumerate(o.ranks) if r == 0)
        ranks = f", ranks {[r + 1 for r in o.ranks]}" if len(o.scores) > 2 else ""
        out(f"result: {verdict}, scores {list(o.scores)}{ranks}, {o.end_reason.value} after {o.turns} turns")
        for p in result.players:
            lat = p.latency_summary()
            timing = (f"median {lat['median']:.1f} ms, max {lat['max']:.1f} ms" if lat["median"] is not None
                      else "no answer")
            note = f" ({p.message})" if p.message else ""
            out(f"  player {p.index} {p.name}: {p.verdict.value}{note}; {timing}")
    again = " ".join(shlex.quote(b) for b in bots)
    out(f"replay this match with: arena play {cls.name} {again} --seed {seed}" + (" --swap" if swap else ""))
    if replay_path:
        out(f"replay file: {replay_path}")
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    if result.interrupted:
        sys.exit(130)


# -- tournament ------------------------------------------------------------------------------------

def _grid(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in values:
        key, sep, rest = item.partition("=")
        items = [v.strip() for v in rest.split(",") if v.strip()]
        if not sep or not key.strip() or not items:
            raise click.BadParameter(f"{item!r}: expected NAME=V1,V2,...")
        out[key.strip()] = items
    return out


def _fmt(x: float | None, spec: str, none: str = "-") -> str:
    return none if x is None else format(x, spec)


def _comparison_line(c: dict[str, Any]) -> str:
    a, b = c["bots"]
    score = _fmt(None if c["score"] is None else 100 * c["score"], ".1f") + "%"
    elo = _fmt(c["elo"], "+.1f", none={1.0: "+inf", 0.0: "-inf"}.get(c["score"], "-"))
    ci = _fmt(c["elo_ci95"], ".1f")
    los = _fmt(None if c["los"] is None else 100 * c["los"], ".1f") + "%"
    line = (f"{a + ' vs ' + b:32} {c['games']:6d}  {c['wins']:4d}-{c['draws']}-{c['losses']:<4d} "
            f"{score:>7} {elo:>8} ±{ci:<6} LOS {los:>6}  penta {c['penta']}")
    sprt = c.get("sprt")
    if sprt:
        sprt_state = SprtState(sprt["state"])
        state = sprt_state.describe() if sprt_state.decided else "running"
        line += (f"  SPRT {state}: LLR {_fmt(sprt['llr'], '.2f')} "
                 f"[{sprt['lower_bound']:.2f}, {sprt['upper_bound']:.2f}]")
    return line


def _print_tables(data: dict[str, Any]) -> None:
    """The tables of an N-player tournament: each bot's games, first places and mean rank."""
    for c in data["comparisons"]:
        click.echo(f"table {c['index']}: {', '.join(c['bots'])} ({c['games_stored']} games)")
        for s in c["standings"]:
            click.echo(f"  {s['bot']:28} {s['games']:6d} games  {s['firsts']:4d} first  "
                       f"mean rank {_fmt(s['mean_rank'], '.2f')}  mean score {_fmt(s['mean_score'], '.1f')}")


def _print_standings(data: dict[str, Any]) -> None:
    t = data["tournament"]
    players = t.get("players", 2)
    click.echo(f"tournament {t['id']} ({t['status']}): {t['game']}, {t['format']}, "
               f"{t['games_stored']} games stored")
    if players == 2:
        click.echo(f"{'comparison':32} {'games':>6}  {'W-D-L':11} {'score':>7} {'Elo':>8} {'95%':7} {'':10}")
        for c in data["comparisons"]:
            click.echo(_comparison_line(c))
    else:
        _print_tables(data)
    click.echo("")
    extra = f" {'elim.':>5} {'mean rank':>9}" if players > 2 else ""
    click.echo(f"{'bot':28} {'games':>6} {'timeouts':>8} {'crashes':>7} {'invalid':>7} {'>80% limit':>10}"
               f"{extra}  latency ms median / p99 / max")
    for b in data["bots"]:
        lat = b["latency_ms"]
        extra = f" {b['eliminated']:5d} {_fmt(b['mean_rank'], '9.2f')}" if players > 2 else ""
        click.echo(f"{b['name']:28} {b['games']:6d} {b['timeouts']:8d} {b['crashes']:7d} {b['invalid']:7d} "
                   f"{b['near_limit']:10d}{extra}  {_fmt(lat['median'], '.1f')} / {_fmt(lat['p99'], '.1f')} / "
                   f"{_fmt(lat['max'], '.1f')}")
    if data.get("leaderboard"):
        click.echo("")
        click.echo("leaderboard (openskill):")
        for i, e in enumerate(data["leaderboard"], 1):
            click.echo(f"  {i:2d}. {e['name']:28} ordinal {e['ordinal']:7.2f}  mu {e['mu']:6.2f}  "
                       f"sigma {e['sigma']:5.2f}")
    sweep = data.get("sweep")
    if sweep:
        click.echo("")
        click.echo(f"sweep of {sweep['bot']} against {sweep['baseline']}, best first:")
        for r in sweep["ranking"]:
            score = _fmt(None if r["score"] is None else 100 * r["score"], ".1f")
            lo = _fmt(None if r["score_lo"] is None else 100 * r["score_lo"], ".1f")
            hi = _fmt(None if r["score_hi"] is None else 100 * r["score_hi"], ".1f")
            state = f"  SPRT {r['sprt']}" if r["sprt"] else ""
            click.echo(f"  {r['rank']:2d}. {r['variant']:32} score {score}% [{lo}, {hi}]  "
                       f"Elo {_fmt(r['elo'], '+.1f')} ±{_fmt(r['elo_ci95'], '.1f')}  "
                       f"({r['games']} games){state}")


def _sweep_plot_path(db: str, tid: int) -> Path:
    p = Path(db)
    return p.with_name(f"{p.stem}-t{tid}-sweep.png")


@main.command()
@click.argument("args", nargs=-1)
@click.option("--games", type=click.IntRange(min=1), help="Games per comparison (pairs of seat-swapped games).")
@click.option("--workers", type=click.IntRange(min=1), help="Games played at once (default: the number of cores).")
@click.option("--seed", callback=_java_long, help="Master seed: the whole schedule follows from it.")
@click.option("--format", "fmt", type=click.Choice([f.value for f in Format]), help="Pairing.")
@click.option("--baseline", help="Gauntlet: the bot the others are measured against (default: the last).")
@click.option("--sprt", is_flag=True, help="Stop each comparison when the SPRT decides.")
@click.option("--elo0", type=float, help="SPRT H0 Elo (default 0).")
@click.option("--elo1", type=float, help="SPRT H1 Elo (default 5).")
@click.option("--alpha", type=float, help="SPRT false-positive rate (default 0.05).")
@click.option("--beta", type=float, help="SPRT false-negative rate (default 0.05).")
@click.option("--sprt-model", type=click.Choice([m.value for m in SprtModel]), help="SPRT model.")
@click.option("--time-scale", type=click.FloatRange(min=0, min_open=True), help="Multiply every time limit.")
@click.option("--memory-limit", type=click.IntRange(min=16), help="Memory limit of each bot, in MB.")
@click.option("--param", "params", multiple=True, callback=_params, metavar="NAME=VALUE",
              help="Game parameter (repeatable).")
@click.option("--sweep-bot", help="Sweep: the bot whose {NAME} placeholders take the grid's values.")
@click.option("--grid", multiple=True, callback=_grid, metavar="NAME=V1,V2,...",
              help="Sweep grid (repeatable).")
@click.option("--db", help="SQLite results file (default: arena.sqlite in the working directory).")
@click.option("--new", is_flag=True, help="Start a new tournament even if this one can be resumed.")
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line: the standings.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def tournament(args: tuple[str, ...], games: int | None, workers: int | None, seed: int | None,
               fmt: str | None, baseline: str | None, sprt: bool, elo0: float | None, elo1: float | None,
               alpha: float | None, beta: float | None, sprt_model: str | None, time_scale: float | None,
               memory_limit: int | None, params: dict[str, str], sweep_bot: str | None,
               grid: dict[str, list[str]], db: str | None, new: bool, as_json: bool,
               no_progress: bool) -> None:
    """Self-play: arena tournament CONFIG.yaml | GAME BOT BOT... [options].

    Every seed is played twice with the seats swapped; results go to SQLite game by game. Run the
    same command again to resume (finished games are kept), or with a larger --games to extend.
    With two bots, the first is measured against the second.
    """
    import signal as _signal

    from tqdm import tqdm

    from .config import ConfigError, config_from_mapping, load_config
    from .standings import standings
    from .store import Store, StoreError
    from .tournament import Decided, GameDone, Started, Tournament, TournamentError, bot_spec

    sprt_values = {k: v for k, v in {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
                                     "model": sprt_model}.items() if v is not None}
    overrides: dict[str, Any] = {
        "games": games, "workers": workers, "seed": seed, "format": fmt, "baseline": baseline,
        "time_scale": time_scale, "memory_limit_mb": memory_limit, "params": params or None, "db": db,
    }
    if sprt or sprt_values:
        overrides["sprt"] = sprt_values or True
    if grid:
        overrides["sweep"] = {"grid": grid, **({"bot": sweep_bot} if sweep_bot else {})}
    elif sweep_bot:
        raise click.UsageError("--sweep-bot needs --grid NAME=V1,V2,...")
    try:
        if args and args[0].endswith((".yaml", ".yml")):
            if len(args) > 1:
                raise click.UsageError("give a config file or GAME BOT BOT..., not both")
            config = load_config(args[0], overrides)
        else:
            if len(args) < 3:
                raise click.UsageError("expected CONFIG.yaml, or GAME and at least two bots")
            mapping = {"game": args[0], "bots": list(args[1:])}
            mapping.update({k: v for k, v in overrides.items() if v is not None})
            config = config_from_mapping(mapping)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = _signal.signal(_signal.SIGTERM, on_term)
    bar = None
    decided: list[str] = []
    out = click.echo if not as_json else functools.partial(click.echo, err=True)

    def on_event(event: object) -> None:
        nonlocal bar
        if isinstance(event, Started):
            for w in event.warnings:
                click.echo(f"warning: {w}", err=True)
            state = f"resumed, {event.done} games already stored" if event.resumed else "new"
            n = len(config.bots)
            out(f"tournament {event.tournament_id} ({state}): {config.game}, {config.format}, {n} bots, "
                f"{config.games} games per comparison, {config.workers} workers, seed {config.seed}, "
                f"db {config.db}")
            if not no_progress:
                bar = tqdm(total=event.total, initial=event.done, unit="game", dynamic_ncols=True,
                           file=sys.stderr)
        elif isinstance(event, GameDone):
            if bar is not None:
                bar.total = event.total
                bar.update(event.done - bar.n)
                st = event.leader
                if st is not None and st.score is not None:
                    a, b = st.bots
                    finite = st.elo is not None and math.isfinite(st.elo)
                    ci = f"±{st.elo_ci95:.0f}" if st.elo_ci95 is not None and math.isfinite(st.elo_ci95) else ""
                    elo = f" Elo {st.elo:+.0f}{ci}" if finite else ""
                    bar.set_postfix_str(f"{a} vs {b}: {100 * st.score:.1f}%{elo}", refresh=False)
        elif isinstance(event, Decided):
            text = (f"{event.bots[0]} vs {event.bots[1]}: SPRT {event.state.describe()} after "
                    f"{event.pairs} pairs")
            decided.append(text)
            (bar.write if bar is not None else out)(text)

    try:
        for entry in config.bots:  # a bot that names nothing fails before the database exists
            bot_spec(entry, config.game)
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        try:
            store = Store(config.db)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        with store:
            try:
                runner = Tournament(config, store, new=new, on_event=on_event)
                result = runner.run()
            except TournamentError as exc:
                raise click.ClickException(str(exc)) from None
            finally:
                if bar is not None:
                    bar.close()
            row = store.tournament(result.tournament_id)
            assert row is not None
            data = standings(store, row)
    finally:
        _signal.signal(_signal.SIGTERM, previous)
    if result.interrupted:
        again = " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "tournament ..."
        out(f"interrupted: {data['tournament']['games_stored']} games are stored in {config.db}; "
            f"resume with: arena {again}")
        if as_json:
            click.echo(json.dumps(data))
        sys.exit(130)
    if not as_json:
        _print_standings(data)
    if data.get("sweep"):
        from .plot import plot_sweep

        path = plot_sweep(data["sweep"], _sweep_plot_path(config.db, result.tournament_id),
                          title=f"{config.game}: sweep of {data['sweep']['bot']}")
        data["sweep"]["plot"] = str(path)
        out(f"sweep plot: {path}")
    if as_json:
        click.echo(json.dumps(data))


@main.command()
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--tournament", "tid", type=int, help="Tournament id (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Sweeps: draw the score-against-parameter plot to this PNG file.")
def results(db: str, tid: int | None, fmt: str, plot_path: str | None) -> None:
    """Standings of a tournament (finished or running) from its database."""
    from .standings import find_tournament, standings
    from .store import Store, StoreError

    try:
        with Store(db, create=False) as store:
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
                writer.writerow([c["index"], st["bot"], st["games"], st["firsts"], st["mean_rank"],
                                 st["mean_score"]])
    elif fmt == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        fields = ["bot_a", "bot_b", "games", "wins", "draws", "losses", "score", "draw_ratio", "elo",
                  "elo_ci95", "elo_lo", "elo_hi", "los", "ll", "ld", "wl_dd", "wd", "ww", "sprt_state",
                  "sprt_llr"]
        writer.writerow(fields)
        for c in data["comparisons"]:
            sprt = c.get("sprt") or {}
            writer.writerow([c["bots"][0], c["bots"][1], c["games"], c["wins"], c["draws"], c["losses"],
                             c["score"], c["draw_ratio"], c["elo"], c["elo_ci95"], c["elo_lo"], c["elo_hi"],
                             c["los"], *c["penta"], sprt.get("state", ""), sprt.get("llr", "")])
    else:
        _print_standings(data)
        if plot_path:
            click.echo(f"sweep plot: {plot_path}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
