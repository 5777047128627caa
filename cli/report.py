"""How stored standings are printed: a tournament's (the comparison table, the N-player tables,
the sweep ranking) and a ladder's (``arena ladder show``: the ranking and the cross-table as a
table, CSV or JSON).

Every table is a list of :class:`cli.tables.Column` specs and rows of text cells, laid out by
:func:`cli.tables.render`; the ranking is printed as ``arena ladder show`` prints it
(:mod:`cli.ranking`).

Every figure of a comparison is shown from the same sample, ``n/a`` without games, and never as
an infinity (:func:`elo_cells`; docs/statistics.md has the rules with examples). The SPRT state
is worded by :meth:`arena.stats.sprt.SprtState.describe` everywhere ("continue", "H0 accepted",
"H1 accepted"); :func:`sprt_status` adds the pairs the test has seen.

The ladder's JSON (``arena ladder show --format json``) is one object, documented in
``docs/how-to/ladder.md`` and kept stable: new keys may be added, none is renamed or removed
without raising ``format`` (:data:`LADDER_JSON_FORMAT`).
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

import referee
from arena.match.protocol.latency import LimitUse
from arena.standings.health import SLOWER, BotHealth, WorkerHealth
from arena.standings.tournament import PairStanding, Standings, SweepVariant, TableStandings
from arena.stats.elo import elo_from_score, finite
from arena.stats.headtohead import ComparisonStats
from arena.stats.sprt import SprtState
from arena.stats.sweep import SweepPoint

from .common import NA, fmt, iso_utc, plural
from .ranking import heading, ranking_table
from .tables import Column, render, render_row, widths

if TYPE_CHECKING:
    from arena.ladder.commands import LadderView
    from arena.standings.ranking import Ranking

# --------------------------------------------------------------------------- figures


def percent(x: float | None) -> str:
    """A rate in [0, 1] as a percentage with one decimal, ``n/a`` when undefined."""
    return NA if x is None else fmt(100 * x, ".1f") + "%"


def elo_cells(r: ComparisonStats | SweepPoint, spec: str = "+.1f", half_spec: str = ".1f") -> tuple[str, str]:
    """The Elo and its interval's half-width, as shown, from a comparison's (or a sweep point's)
    ``score``, ``elo``, ``elo_ci95``, ``score_lo`` and ``score_hi`` (infinities may be ``None``, as
    in the JSON, or floats): ``+240.8``, ``±120.3``. At a score of 100% (0%) the Elo is unbounded
    above (below): it is shown as the interval's finite end, ``> +166.2`` (``< -166.2``), with no
    half-width. See docs/statistics.md."""
    if r.score is None or r.score_lo is None or r.score_hi is None:
        return NA, NA  # no games
    elo = finite(r.elo)
    if elo is None:  # mu is 1 (the interval's top is 1) or 0: the other end bounds it
        above = r.score_hi >= 1.0
        end = r.score_lo if above else r.score_hi
        if not 0.0 < end < 1.0:
            return ("+inf" if above else "-inf"), NA
        return f"{'>' if above else '<'} {fmt(elo_from_score(end), spec)}", NA
    half = finite(r.elo_ci95)
    return fmt(elo, spec), NA if half is None else "±" + fmt(half, half_spec)


def sprt_status(state: SprtState, pairs: int) -> str:
    """The SPRT state and the pairs it was reached on, the same words in the report and in the
    tournament's progress messages: ``"H1 accepted after 12 pairs"``, ``"continue after 3 pairs"``."""
    return f"{state.describe()} after {plural(pairs, 'pair')}"


def sprt_cell(c: PairStanding) -> str:
    """A comparison's SPRT: state, pairs, LLR and its bounds; empty without an SPRT."""
    sprt = c.stats.sprt
    if sprt is None:
        return ""
    return (
        f"{sprt_status(sprt.state, c.sprt_pairs)}, LLR {fmt(finite(sprt.llr), '.2f')} "
        f"[{sprt.lower_bound:.2f}, {sprt.upper_bound:.2f}]"
    )


# --------------------------------------------------------------------------- two-player comparisons


def comparison_columns(comparisons: Sequence[PairStanding]) -> list[Column]:
    """The columns of the comparison table: a ``stored`` column when some comparison counts
    fewer games than it stored, an ``SPRT`` column when some comparison runs one."""
    split = any(c.stats.games != c.games_stored for c in comparisons)
    cols = [Column("comparison", "<"), Column("counted" if split else "games")]
    if split:
        cols.append(Column("stored"))
    cols += [
        Column("W-D-L", "<"),
        Column("score", width=6),
        Column("Elo", width=6),
        Column("95%", "<", width=6),
        Column("LOS", width=6),
        Column("penta", "<"),
    ]
    if any(c.stats.sprt is not None for c in comparisons):
        cols.append(Column("SPRT", "<"))
    return cols


def comparison_cells(c: PairStanding, columns: Sequence[Column]) -> list[str]:
    """One comparison's cells, for ``columns`` (from :func:`comparison_columns`)."""
    st = c.stats
    a, b = st.bots
    elo, ci = elo_cells(st)
    values = {
        "comparison": f"{a} vs {b}",
        "games": str(st.games),
        "counted": str(st.games),
        "stored": str(c.games_stored),
        "W-D-L": f"{st.wins}-{st.draws}-{st.losses}",
        "score": percent(st.score),
        "Elo": elo,
        "95%": ci,
        "LOS": percent(st.los),
        "penta": "[" + ", ".join(str(n) for n in st.penta) + "]",
        "SPRT": sprt_cell(c),
    }
    return [values[col.title] for col in columns]


def comparison_table(comparisons: Sequence[PairStanding]) -> list[str]:
    """The header and one line per comparison."""
    cols = comparison_columns(comparisons)
    return render(cols, [comparison_cells(c, cols) for c in comparisons])


# --------------------------------------------------------------------------- N-player tables

TABLE_COLUMNS = [Column("bot", "<"), Column("games"), Column("firsts"), Column("mean rank"), Column("mean score")]


def print_tables(data: Standings) -> None:
    """The tables of an N-player tournament: each bot's games, first places and mean rank (one set
    of widths for every table, so they line up with each other too)."""
    tables = [c for c in data.comparisons if isinstance(c, TableStandings)]
    rows = [
        [[s.bot, str(s.games), str(s.firsts), fmt(s.mean_rank, ".2f"), fmt(s.mean_score, ".1f")] for s in c.rows]
        for c in tables
    ]
    sizes = widths(TABLE_COLUMNS, [row for table in rows for row in table])
    for c, table in zip(tables, rows):
        click.echo(f"table {c.index}: {', '.join(c.bots)} ({plural(c.games_stored, 'game')})")
        click.echo(render_row(TABLE_COLUMNS, [col.title for col in TABLE_COLUMNS], sizes, "  "))
        for row in table:
            click.echo(render_row(TABLE_COLUMNS, row, sizes, "  "))


# --------------------------------------------------------------------------- bots, sweeps


def bot_columns(players: int) -> list[Column]:
    cols = [
        Column("bot", "<"),
        Column("games"),
        Column("timeouts"),
        Column("crashes"),
        Column("invalid"),
        Column("refused", width=7),
        Column("overloaded"),
        Column(">95% limit"),
        Column("closest"),
    ]
    if players > 2:
        cols += [Column("elim."), Column("mean rank")]
    return [*cols, Column("latency ms median / p99 / max", "<")]


def bot_cells(b: BotHealth, players: int) -> list[str]:
    lat = b.latency
    latency = NA if lat.median is None else f"{fmt(lat.median, '.1f')} / {fmt(lat.p99, '.1f')} / {fmt(lat.max, '.1f')}"
    cells = [
        b.name,
        str(b.games),
        str(b.timeouts),
        str(b.crashes),
        str(b.invalid),
        fmt(b.refused, "d", none="n/a"),
        str(b.overloaded_timeouts),
        *limit_cells(b.limit_use),
    ]
    if players > 2:
        cells += [str(b.eliminated), fmt(b.mean_rank, ".2f")]
    return [*cells, latency]


def limit_cells(use: LimitUse | None) -> list[str]:
    """The share of answers above 95% of their limit (with those past it, taken within the time
    margin) and the closest call; ``n/a`` for games stored before they were kept."""
    if use is None or use.share_above is None or use.closest is None:
        return [NA, NA]
    past = f" ({use.past_limit} past)" if use.past_limit else ""
    return [f"{100 * use.share_above:.1f}%{past}", f"{100 * use.closest:.0f}%"]


HISTOGRAM_COLUMNS = (Column("bot", "<"), Column("answers", "<"))


def limit_histograms(bots: Sequence[BotHealth]) -> list[str]:
    """One line per bot that answered: its answers per share of the limit (empty bins left out)."""
    named = [(b.name, b.limit_use) for b in bots if b.limit_use is not None and b.limit_use.answers]
    if not named:
        return []
    rows = [[name, use.bars()] for name, use in named if use]
    return ["answers by share of their time limit:", *render(HISTOGRAM_COLUMNS, rows, "  ", header=False)]


def overload_note(bots: Sequence[BotHealth]) -> str | None:
    """What to do when some timeouts came in overloaded windows."""
    count = sum(b.overloaded_timeouts for b in bots)
    if not count:
        return None
    return (
        f"{plural(count, 'timeout')} in an overloaded window (the machine, not the bot: not counted as failures): "
        "run fewer workers or use --time-scale"
    )


WORKER_COLUMNS = [
    Column("Dask worker", "<"),
    Column("games"),
    Column("timeouts"),
    Column("crashes"),
    Column("overloaded"),
    Column(">95% limit"),
    Column("closest"),
    Column("latency ms median / p99", "<"),
    Column("pace", "<"),
]


def worker_cells(w: WorkerHealth) -> list[str]:
    """One worker: its games and its bots' health there; its pace (how many times slower the bot
    that slows most answers there than on all workers), marked when slow."""
    lat = w.latency
    latency = NA if lat.median is None else f"{fmt(lat.median, '.1f')} / {fmt(lat.p99, '.1f')}"
    pace = NA if w.pace is None else f"{w.pace:.2f}x" + ("  slow" if w.slow else "")
    counts = [str(w.games), str(w.timeouts), str(w.crashes), str(w.overloaded_timeouts)]
    return [w.worker, *counts, *limit_cells(w.limit_use), latency, pace]


SWEEP_COLUMNS = [
    Column("variant", "<"),
    Column("games"),
    Column("score", width=6),
    Column("score 95%", "<"),
    Column("Elo", width=6),
    Column("95%", "<", width=6),
    Column("SPRT", "<"),
]


def sweep_cells(r: SweepVariant, digits: int = 1) -> list[str]:
    """One variant of a sweep: its rank (right-aligned on ``digits``) and name, games, score with
    its 95% interval, Elo with its interval's half-width, SPRT state."""
    f = r.figures
    if f.score_lo is None or f.score_hi is None:
        interval = NA
    else:
        interval = f"[{fmt(100 * f.score_lo, '.1f')}, {fmt(100 * f.score_hi, '.1f')}]%"
    elo, ci = elo_cells(f)
    state = SprtState(f.sprt_state).describe() if f.sprt_state else ""
    return [f"{r.rank:>{digits}}. {f.label}", str(f.games), percent(f.score), interval, elo, ci, state]


def sweep_table(ranking: Sequence[SweepVariant]) -> list[str]:
    """The header and one line per variant, best first."""
    digits = len(str(max((r.rank for r in ranking), default=1)))
    return render(SWEEP_COLUMNS, [sweep_cells(r, digits) for r in ranking], "  ")


# --------------------------------------------------------------------------- the report


def print_standings(data: Standings) -> None:
    t = data.tournament
    total = t.games_stored
    counted = data.counted
    head = f"tournament {t.id} ({t.status}): {t.game}, {t.format}, "
    if counted < total:
        head += (
            f"{counted} counted of {plural(total, 'game')} stored (games played after an SPRT decision are not counted)"
        )
    else:
        head += f"{plural(total, 'game')} stored"
    click.echo(head)
    if t.players == 2:
        click.echo("\n".join(comparison_table(data.pairs)))
    else:
        print_tables(data)
    click.echo("")
    if counted < total:
        click.echo(f"bots, over all {plural(total, 'stored game')}:")
    click.echo("\n".join(render(bot_columns(t.players), [bot_cells(b, t.players) for b in data.bots])))
    for line in limit_histograms(data.bots):
        click.echo(line)
    note = overload_note(data.bots)
    if note is not None:
        click.echo(note)
    if data.workers:
        click.echo("")
        click.echo("\n".join(render(WORKER_COLUMNS, [worker_cells(w) for w in data.workers])))
        slow = [w.worker for w in data.workers if w.slow]
        if slow:
            click.echo(
                f"slow: {', '.join(slow)} (a bot answers there {SLOWER:g}x slower or more than on all workers: "
                "a slower CPU, or more games at once than cores)"
            )
    if data.ranking.games:
        click.echo("\n" + heading(data.ranking, counted_only=counted < total))
        click.echo("\n".join(ranking_table(data.ranking)))
    sweep = data.sweep
    if sweep is not None:
        click.echo(f"\nsweep of {sweep.bot} against {sweep.baseline}, best first:")
        click.echo("\n".join(sweep_table(sweep.ranking)))


CSV_FIGURES = ("games", "wins", "draws", "losses", "score", "draw_ratio", "elo", "elo_ci95", "elo_lo", "elo_hi", "los")
"""The figures of a comparison's JSON that ``arena results --format csv`` has as they are."""
CSV_FIELDS = ("bot_a", "bot_b", *CSV_FIGURES, "ll", "ld", "wl_dd", "wd", "ww", "sprt_state", "sprt_llr")
"""The columns of ``arena results --format csv`` for a two-player tournament."""
TABLE_CSV_FIELDS = ("table", "bot", "games", "firsts", "mean_rank", "mean_score")
"""Its columns for an N-player tournament: one row per bot of each table."""


def csv_rows(data: Standings) -> list[list[object]]:
    """The CSV of the standings, header first: one row per comparison (the JSON's figures:
    infinities empty), or per bot of each table of an N-player game."""
    if data.tournament.players > 2:
        tables = [c for c in data.comparisons if isinstance(c, TableStandings)]
        rows: list[list[object]] = [
            [c.index, s.bot, s.games, s.firsts, s.mean_rank, s.mean_score] for c in tables for s in c.rows
        ]
        return [list(TABLE_CSV_FIELDS), *rows]
    out: list[list[object]] = [list(CSV_FIELDS)]
    for c in data.pairs:
        d = c.to_dict()  # the JSON's figures: infinities are None (an empty cell)
        sprt = d.get("sprt") or {}
        out.append([*c.bots, *(d[k] for k in CSV_FIGURES), *d["penta"], sprt.get("state", ""), sprt.get("llr", "")])
    return out


def sweep_plot_path(db: str, tid: int) -> Path:
    p = Path(db)
    return p.with_name(f"{p.stem}-t{tid}-sweep.png")


# --------------------------------------------------------------------------- a ladder

LADDER_JSON_FORMAT = 1
"""The version of ``arena ladder show --format json``'s layout."""
LADDER_CSV_COLUMNS = ("rank", "bot", "state", "rating", "low", "high", "games", "score", "above_next")


def ladder_json(found: LadderView) -> dict[str, Any]:
    """``arena ladder show --format json``."""
    ladder, ranking = found.ladder, found.ranking
    shown = set(found.shown)
    rules = referee.get(ladder.settings.game)
    data = ranking.to_dict()
    return {
        "format": LADDER_JSON_FORMAT,
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


def print_ladder_json(found: LadderView) -> None:
    click.echo(json.dumps(ladder_json(found)))


def _ladder_rows(ranking: Ranking, shown: tuple[str, ...]) -> list[tuple[str, ...]]:
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


def print_ladder_csv(found: LadderView) -> None:
    """The ranking, one row per bot (:data:`LADDER_CSV_COLUMNS`)."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(LADDER_CSV_COLUMNS)
    writer.writerows(_ladder_rows(found.ranking, found.shown))


def print_ladder(found: LadderView) -> None:
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
