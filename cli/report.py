"""How tournament standings are printed: the table, the N-player tables, the sweep ranking.

Every table is a list of :class:`Column` specs and rows of text cells; the header and the rows are
laid out with the same widths by :func:`render`, so they stay in line whatever the values.

Figures that are not defined are never shown as a number:

* no games: score, Elo, its interval and LOS are ``n/a``;
* a score of 100% (or 0%): the Elo is ``+inf`` (``-inf``) and its interval ``±inf``;
* an interval end beyond a 0% or 100% score: the half-width is ``±inf`` (the data do not bound
  the Elo on that side);
* a sample of zero variance (all draws, every pair in one bin, a single pair): the normal
  approximation gives an interval of zero width and a LOS of exactly 0, 1/2 or 1, which are no
  95% interval and no likelihood: the interval is ``n/a`` (``±inf`` when the Elo itself is
  infinite) and the LOS is ``n/a``. The JSON keeps the raw figures; ``score_lo == score_hi`` (or
  ``score_se == 0``) marks this case there.

The SPRT state is worded by :meth:`arena.stats.sprt.SprtState.describe` everywhere ("continue",
"H0 accepted", "H1 accepted"); :func:`sprt_status` adds the pairs the test has seen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from arena.stats.sprt import SprtModel, SprtState
from arena.tournament.standings import SLOWER

from .common import plural

NA = "n/a"
"""What a figure that is not defined shows."""

SEP = "  "
"""Between two columns."""


# --------------------------------------------------------------------------- columns


@dataclass(frozen=True)
class Column:
    """One column of a table: its title, minimum width and alignment (``"<"`` or ``">"``)."""

    title: str
    align: str = ">"
    width: int = 0


def widths(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width: the widest of its minimum, its title and its cells."""
    return [max(col.width, len(col.title), *(len(row[i]) for row in rows)) for i, col in enumerate(columns)]


def render_row(columns: Sequence[Column], cells: Sequence[str], sizes: Sequence[int], indent: str = "") -> str:
    """One line: each cell padded to its column's width and alignment (no trailing blanks)."""
    parts = [format(cell, f"{col.align}{size}") for col, cell, size in zip(columns, cells, sizes)]
    return (indent + SEP.join(parts)).rstrip()


def render(columns: Sequence[Column], rows: Sequence[Sequence[str]], indent: str = "") -> list[str]:
    """The header line and one line per row, all with the same widths."""
    sizes = widths(columns, rows)
    return [
        render_row(columns, [c.title for c in columns], sizes, indent),
        *(render_row(columns, row, sizes, indent) for row in rows),
    ]


# --------------------------------------------------------------------------- figures


def fmt(x: float | None, spec: str, none: str = NA) -> str:
    """``x`` formatted, ``none`` when it is ``None``; never a negative zero (``-0.0``, or
    ``-0.04`` shown with one decimal, is ``0.0``)."""
    if x is None:
        return none
    text = format(x, spec)
    if text.startswith("-") and float(text) == 0.0:
        text = format(0.0, spec)
    return text


def percent(x: float | None) -> str:
    """A rate in [0, 1] as a percentage with one decimal, ``n/a`` when undefined."""
    return NA if x is None else fmt(100 * x, ".1f") + "%"


def zero_width(r: dict[str, Any]) -> bool:
    """Whether the score interval has zero width (a sample of zero variance): then the normal
    approximation's interval and LOS mean nothing."""
    lo, hi = r.get("score_lo"), r.get("score_hi")
    return lo is not None and hi is not None and lo == hi


def finite(x: float | None) -> float | None:
    """``x``, or ``None`` when it is infinite or NaN (as the JSON has them)."""
    return x if x is not None and math.isfinite(x) else None


def elo_cells(r: dict[str, Any]) -> tuple[str, str]:
    """The Elo and its interval's half-width, as shown, from a comparison's (or a sweep point's)
    ``score``, ``elo``, ``elo_ci95``, ``score_lo`` and ``score_hi`` (infinities may be ``None``, as
    in the JSON, or floats)."""
    if r.get("score") is None or r.get("score_lo") is None:
        return NA, NA  # no games
    elo = finite(r.get("elo"))
    if elo is None:  # mu is 1 or 0, so the interval is the point itself: lo == hi == mu
        return ("+inf" if r["score_hi"] >= 0.5 else "-inf"), "±inf"
    if zero_width(r):
        return fmt(elo, "+.1f"), NA
    ci = finite(r.get("elo_ci95"))
    return fmt(elo, "+.1f"), "±inf" if ci is None else "±" + fmt(ci, ".1f")


def los_cell(r: dict[str, Any]) -> str:
    """The likelihood of superiority, ``n/a`` without games or with a zero-variance sample."""
    if r.get("los") is None or zero_width(r):
        return NA
    return percent(r["los"])


def sprt_status(state: SprtState, pairs: int) -> str:
    """The SPRT state and the pairs it was reached on, the same words in the report and in the
    tournament's progress messages: ``"H1 accepted after 12 pairs"``, ``"continue after 3 pairs"``."""
    return f"{state.describe()} after {plural(pairs, 'pair')}"


def sprt_pairs(c: dict[str, Any]) -> int:
    """The pairs a comparison's SPRT has seen: those it was decided on, or the complete pairs
    from the first one (its samples are pairs, or two games per pair with the trinomial model)."""
    if c.get("decided_at_pair") is not None:
        return int(c["decided_at_pair"])
    sprt = c.get("sprt") or {}
    samples = int(sprt.get("samples", 0))
    return samples if sprt.get("model", SprtModel.PENTANOMIAL.value) == SprtModel.PENTANOMIAL else samples // 2


def sprt_cell(c: dict[str, Any]) -> str:
    """A comparison's SPRT: state, pairs, LLR and its bounds; empty without an SPRT."""
    sprt = c.get("sprt")
    if not sprt:
        return ""
    return (
        f"{sprt_status(SprtState(sprt['state']), sprt_pairs(c))}, LLR {fmt(sprt['llr'], '.2f')} "
        f"[{sprt['lower_bound']:.2f}, {sprt['upper_bound']:.2f}]"
    )


def stored(c: dict[str, Any]) -> int:
    """The games stored for a comparison (the counted ones when that field is missing)."""
    return int(c.get("games_stored", c["games"]))


# --------------------------------------------------------------------------- two-player comparisons


def comparison_columns(comparisons: Sequence[dict[str, Any]]) -> list[Column]:
    """The columns of the comparison table: a ``stored`` column when some comparison counts
    fewer games than it stored, an ``SPRT`` column when some comparison runs one."""
    split = any(c["games"] != stored(c) for c in comparisons)
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
    if any(c.get("sprt") for c in comparisons):
        cols.append(Column("SPRT", "<"))
    return cols


def comparison_cells(c: dict[str, Any], columns: Sequence[Column]) -> list[str]:
    """One comparison's cells, for ``columns`` (from :func:`comparison_columns`)."""
    a, b = c["bots"]
    elo, ci = elo_cells(c)
    values = {
        "comparison": f"{a} vs {b}",
        "games": str(c["games"]),
        "counted": str(c["games"]),
        "stored": str(stored(c)),
        "W-D-L": f"{c['wins']}-{c['draws']}-{c['losses']}",
        "score": percent(c["score"]),
        "Elo": elo,
        "95%": ci,
        "LOS": los_cell(c),
        "penta": "[" + ", ".join(str(n) for n in c["penta"]) + "]",
        "SPRT": sprt_cell(c),
    }
    return [values[col.title] for col in columns]


def comparison_table(comparisons: Sequence[dict[str, Any]]) -> list[str]:
    """The header and one line per comparison."""
    cols = comparison_columns(comparisons)
    return render(cols, [comparison_cells(c, cols) for c in comparisons])


def comparison_line(c: dict[str, Any]) -> str:
    """One comparison on its own line, with the columns' minimum widths."""
    cols = comparison_columns([c])
    cells = comparison_cells(c, cols)
    return render_row(cols, cells, widths(cols, [cells]))


# --------------------------------------------------------------------------- N-player tables

TABLE_COLUMNS = [Column("bot", "<"), Column("games"), Column("firsts"), Column("mean rank"), Column("mean score")]


def print_tables(data: dict[str, Any]) -> None:
    """The tables of an N-player tournament: each bot's games, first places and mean rank (one set
    of widths for every table, so they line up with each other too)."""
    rows = [
        [
            [s["bot"], str(s["games"]), str(s["firsts"]), fmt(s["mean_rank"], ".2f"), fmt(s["mean_score"], ".1f")]
            for s in c["standings"]
        ]
        for c in data["comparisons"]
    ]
    sizes = widths(TABLE_COLUMNS, [row for table in rows for row in table])
    for c, table in zip(data["comparisons"], rows):
        click.echo(f"table {c['index']}: {', '.join(c['bots'])} ({plural(c['games_stored'], 'game')})")
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
        Column(">80% limit"),
    ]
    if players > 2:
        cols += [Column("elim."), Column("mean rank")]
    return [*cols, Column("latency ms median / p99 / max", "<")]


def bot_cells(b: dict[str, Any], players: int) -> list[str]:
    lat = b["latency_ms"]
    latency = (
        NA
        if lat["median"] is None
        else f"{fmt(lat['median'], '.1f')} / {fmt(lat['p99'], '.1f')} / {fmt(lat['max'], '.1f')}"
    )
    cells = [
        b["name"],
        str(b["games"]),
        str(b["timeouts"]),
        str(b["crashes"]),
        str(b["invalid"]),
        fmt(b.get("refused", 0), "d", none="n/a"),
        str(b["near_limit"]),
    ]
    if players > 2:
        cells += [str(b["eliminated"]), fmt(b["mean_rank"], ".2f")]
    return [*cells, latency]


WORKER_COLUMNS = [
    Column("Dask worker", "<"),
    Column("games"),
    Column("timeouts"),
    Column("crashes"),
    Column(">80% limit"),
    Column("latency ms median / p99", "<"),
    Column("pace", "<"),
]


def worker_cells(w: dict[str, Any]) -> list[str]:
    """One worker: its games and its bots' health there; its pace (how many times slower the bot
    that slows most answers there than on all workers), marked when slow."""
    lat = w["latency_ms"]
    latency = NA if lat["median"] is None else f"{fmt(lat['median'], '.1f')} / {fmt(lat['p99'], '.1f')}"
    pace = NA if w["pace"] is None else f"{w['pace']:.2f}x" + ("  slow" if w["slow"] else "")
    return [w["worker"], str(w["games"]), str(w["timeouts"]), str(w["crashes"]), str(w["near_limit"]), latency, pace]


SWEEP_COLUMNS = [
    Column("variant", "<"),
    Column("games"),
    Column("score", width=6),
    Column("score 95%", "<"),
    Column("Elo", width=6),
    Column("95%", "<", width=6),
    Column("SPRT", "<"),
]


def sweep_cells(r: dict[str, Any], digits: int = 1) -> list[str]:
    """One variant of a sweep: its rank (right-aligned on ``digits``) and name, games, score with
    its 95% interval, Elo with its interval's half-width, SPRT state."""
    if r["score_lo"] is None or zero_width(r):
        interval = NA
    else:
        interval = f"[{fmt(100 * r['score_lo'], '.1f')}, {fmt(100 * r['score_hi'], '.1f')}]%"
    elo, ci = elo_cells(r)
    state = SprtState(r["sprt"]).describe() if r["sprt"] else ""
    return [f"{r['rank']:>{digits}}. {r['variant']}", str(r["games"]), percent(r["score"]), interval, elo, ci, state]


def sweep_table(ranking: Sequence[dict[str, Any]]) -> list[str]:
    """The header and one line per variant, best first."""
    digits = len(str(max((r["rank"] for r in ranking), default=1)))
    return render(SWEEP_COLUMNS, [sweep_cells(r, digits) for r in ranking], "  ")


# --------------------------------------------------------------------------- the report


def print_standings(data: dict[str, Any]) -> None:
    t = data["tournament"]
    players = t.get("players", 2)
    comparisons = data["comparisons"]
    total = t["games_stored"]
    head = f"tournament {t['id']} ({t['status']}): {t['game']}, {t['format']}, "
    counted = sum(c["games"] for c in comparisons) if players == 2 else total
    if counted < total:
        head += (
            f"{counted} counted of {plural(total, 'game')} stored (games played after an SPRT decision are not counted)"
        )
    else:
        head += f"{plural(total, 'game')} stored"
    click.echo(head)
    if players == 2:
        for line in comparison_table(comparisons):
            click.echo(line)
    else:
        print_tables(data)
    click.echo("")
    if counted < total:
        click.echo(f"bots, over all {plural(total, 'stored game')}:")
    for line in render(bot_columns(players), [bot_cells(b, players) for b in data["bots"]]):
        click.echo(line)
    if data.get("workers"):
        click.echo("")
        for line in render(WORKER_COLUMNS, [worker_cells(w) for w in data["workers"]]):
            click.echo(line)
        slow = [w["worker"] for w in data["workers"] if w["slow"]]
        if slow:
            click.echo(
                f"slow: {', '.join(slow)} (a bot answers there {SLOWER:g}x slower or more than on all workers: "
                "a slower CPU, or more games at once than cores)"
            )
    if data.get("leaderboard"):
        click.echo("")
        click.echo("leaderboard (openskill, counted games only):" if counted < total else "leaderboard (openskill):")
        for i, e in enumerate(data["leaderboard"], 1):
            click.echo(
                f"  {i:2d}. {e['name']:28} ordinal {e['ordinal']:7.2f}  mu {e['mu']:6.2f}  sigma {e['sigma']:5.2f}"
            )
    sweep = data.get("sweep")
    if sweep:
        click.echo("")
        click.echo(f"sweep of {sweep['bot']} against {sweep['baseline']}, best first:")
        for line in sweep_table(sweep["ranking"]):
            click.echo(line)


def sweep_plot_path(db: str, tid: int) -> Path:
    p = Path(db)
    return p.with_name(f"{p.stem}-t{tid}-sweep.png")
