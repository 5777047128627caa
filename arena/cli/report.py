"""How tournament standings are printed: the table, the N-player tables, CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..stats.sprt import SprtState


def fmt(x: float | None, spec: str, none: str = "-") -> str:
    return none if x is None else format(x, spec)


def comparison_line(c: dict[str, Any]) -> str:
    a, b = c["bots"]
    score = fmt(None if c["score"] is None else 100 * c["score"], ".1f") + "%"
    elo = fmt(c["elo"], "+.1f", none={1.0: "+inf", 0.0: "-inf"}.get(c["score"], "-"))
    ci = fmt(c["elo_ci95"], ".1f")
    los = fmt(None if c["los"] is None else 100 * c["los"], ".1f") + "%"
    line = (f"{a + ' vs ' + b:32} {c['games']:6d}  {c['wins']:4d}-{c['draws']}-{c['losses']:<4d} "
            f"{score:>7} {elo:>8} ±{ci:<6} LOS {los:>6}  penta {c['penta']}")
    sprt = c.get("sprt")
    if sprt:
        sprt_state = SprtState(sprt["state"])
        state = sprt_state.describe() if sprt_state.decided else "running"
        line += (f"  SPRT {state}: LLR {fmt(sprt['llr'], '.2f')} "
                 f"[{sprt['lower_bound']:.2f}, {sprt['upper_bound']:.2f}]")
    return line


def print_tables(data: dict[str, Any]) -> None:
    """The tables of an N-player tournament: each bot's games, first places and mean rank."""
    for c in data["comparisons"]:
        click.echo(f"table {c['index']}: {', '.join(c['bots'])} ({c['games_stored']} games)")
        for s in c["standings"]:
            click.echo(f"  {s['bot']:28} {s['games']:6d} games  {s['firsts']:4d} first  "
                       f"mean rank {fmt(s['mean_rank'], '.2f')}  mean score {fmt(s['mean_score'], '.1f')}")


def print_standings(data: dict[str, Any]) -> None:
    t = data["tournament"]
    players = t.get("players", 2)
    click.echo(f"tournament {t['id']} ({t['status']}): {t['game']}, {t['format']}, "
               f"{t['games_stored']} games stored")
    if players == 2:
        click.echo(f"{'comparison':32} {'games':>6}  {'W-D-L':11} {'score':>7} {'Elo':>8} {'95%':7} {'':10}")
        for c in data["comparisons"]:
            click.echo(comparison_line(c))
    else:
        print_tables(data)
    click.echo("")
    extra = f" {'elim.':>5} {'mean rank':>9}" if players > 2 else ""
    click.echo(f"{'bot':28} {'games':>6} {'timeouts':>8} {'crashes':>7} {'invalid':>7} {'>80% limit':>10}"
               f"{extra}  latency ms median / p99 / max")
    for b in data["bots"]:
        lat = b["latency_ms"]
        extra = f" {b['eliminated']:5d} {fmt(b['mean_rank'], '9.2f')}" if players > 2 else ""
        click.echo(f"{b['name']:28} {b['games']:6d} {b['timeouts']:8d} {b['crashes']:7d} {b['invalid']:7d} "
                   f"{b['near_limit']:10d}{extra}  {fmt(lat['median'], '.1f')} / {fmt(lat['p99'], '.1f')} / "
                   f"{fmt(lat['max'], '.1f')}")
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
            score = fmt(None if r["score"] is None else 100 * r["score"], ".1f")
            lo = fmt(None if r["score_lo"] is None else 100 * r["score_lo"], ".1f")
            hi = fmt(None if r["score_hi"] is None else 100 * r["score_hi"], ".1f")
            state = f"  SPRT {r['sprt']}" if r["sprt"] else ""
            click.echo(f"  {r['rank']:2d}. {r['variant']:32} score {score}% [{lo}, {hi}]  "
                       f"Elo {fmt(r['elo'], '+.1f')} ±{fmt(r['elo_ci95'], '.1f')}  "
                       f"({r['games']} games){state}")


def sweep_plot_path(db: str, tid: int) -> Path:
    p = Path(db)
    return p.with_name(f"{p.stem}-t{tid}-sweep.png")

