"""What each dashboard page shows, gathered from the library and formatted by the functions
``arena results``, ``arena matches`` and ``arena ladder show`` print with (:mod:`cli.report`), so
that the terminal and the browser always agree."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from arena.ladder.commands import rating_history, show_ladder
from arena.ladder.settings import is_ladder
from arena.match.protocol.latency import BIN_LABELS
from arena.standings.health import BotHealth
from arena.standings.history import TournamentHistory, tournament_history
from arena.standings.ranking import Ranking
from arena.standings.tournament import PairStanding, TableStandings, load_standings, standings
from arena.store import paging
from arena.store.browse import GameFilter, find_game, find_tournament, result_of
from arena.store.records import GameRecord, TournamentRow
from arena.store.results import Store
from arena.store.where import parse_condition

from ..common import fmt
from ..ranking import model_name, ranking_cells
from ..report import bot_cells, bot_columns, elo_cells, percent, sprt_cell
from ..repro import play_again_command
from .charts import Band, Series, heat_colour, histogram, interval_bar, line_chart

__all__ = [
    "PAGE_SIZE",
    "is_ladder_id",
    "tournament_row",
    "tournament_page",
    "ladder_page",
    "games_page",
    "game_page",
    "replay_page",
    "version",
    "standings_json",
]

PAGE_SIZE = 50
"""Games a page of the games list shows."""
PALETTE = ("#1f6feb", "#d73a49", "#2da44e", "#bf8700", "#8250df", "#0598bc", "#cf222e", "#57606a")


def when(timestamp: float | None) -> str:
    return "" if timestamp is None else datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M:%S")


def is_ladder_id(db: Path, tid: int) -> bool:
    """Whether ``tid`` is a ladder of ``db``, not a tournament."""
    with Store(db, read_only=True) as store:
        return is_ladder(find_tournament(store, tid).settings)


def tournament_row(row: TournamentRow, stored: int, bots: Sequence[str]) -> dict[str, Any]:
    """One line of the list of tournaments and ladders."""
    s, ladder = row.settings, is_ladder(row.settings)
    return {
        "id": row.id,
        "kind": "ladder" if ladder else "tournament",
        "status": row.status,
        "game": s.get("game"),
        "format": "ladder" if ladder else s.get("format"),
        "bots": ", ".join(bots),
        "stored": stored,
        "target": None if ladder else row.games_target,
        "updated": when(row.updated),
    }


def _comparison(c: PairStanding) -> dict[str, Any]:
    st = c.stats
    elo, ci = elo_cells(st)
    scale = max(100.0, abs(st.elo_lo or 0.0), abs(st.elo_hi or 0.0)) if st.elo is not None else 100.0
    return {
        "index": c.index,
        "bots": st.bots,
        "games": st.games,
        "stored": c.games_stored,
        "wdl": f"{st.wins}-{st.draws}-{st.losses}",
        "score": percent(st.score),
        "elo": elo,
        "ci": ci,
        "los": percent(st.los),
        "penta": "[" + ", ".join(str(n) for n in st.penta) + "]",
        "sprt": sprt_cell(c),
        "bar": interval_bar(st.elo, st.elo_lo, st.elo_hi, min(scale, 800.0)),
        "raw": {"games": st.games, "wins": st.wins, "draws": st.draws, "losses": st.losses, "score": st.score},
    }


LINKED = {"timeouts": "timeout", "crashes": "crash", "invalid": "invalid"}
"""Health columns whose counts open the games list filtered by that status."""


def _health(bots: Sequence[BotHealth], players: int) -> dict[str, Any]:
    """The bots' health table, with the columns and cells ``arena results`` prints, and each
    bot's answers per share of the time limit as a bar chart."""
    columns = [c.title for c in bot_columns(players)]
    rows = []
    for b in bots:
        cells = [{"text": text, "status": LINKED.get(title)} for title, text in zip(columns, bot_cells(b, players))]
        use = b.limit_use
        chart = histogram(list(BIN_LABELS), list(use.histogram)) if use is not None and use.answers else Markup("")
        rows.append({"name": b.name, "cells": cells, "histogram": chart})
    return {"columns": columns, "rows": rows}


def _charts(history: TournamentHistory) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    charts = []
    for h in history.comparisons:
        xs = [float(p.games) for p in h.points]
        elo = Series(
            "Elo",
            list(zip(xs, [p.elo for p in h.points])),
            low=[p.elo_lo for p in h.points],
            high=[p.elo_hi for p in h.points],
        )
        chart: dict[str, Any] = {
            "title": f"{h.bots[0]} vs {h.bots[1]}",
            "elo": line_chart(
                [elo],
                [Band("0 Elo", 0.0)],
                y_label="Elo (95% interval)",
                empty="no finite Elo yet: every counted game was won, or every one lost",
            ),
        }
        if h.lower_bound is not None and h.upper_bound is not None:
            llr = Series("LLR", list(zip(xs, [p.llr for p in h.points])), colour="#8250df")
            bounds = [Band("H0 bound", h.lower_bound, "#d73a49"), Band("H1 bound", h.upper_bound, "#2da44e")]
            chart["llr"] = line_chart([llr], bounds, y_label="SPRT LLR")
        charts.append(chart)
    return charts, history.losses


def _sweep(data: Any) -> Markup | None:
    if data.sweep is None:
        return None
    points = []
    for r in data.sweep.ranking:
        f = r.figures
        try:
            x = float(f.value)
        except (TypeError, ValueError):
            return None
        if f.score is not None and f.score_lo is not None and f.score_hi is not None:
            points.append((x, 100 * f.score, 100 * f.score_lo, 100 * f.score_hi))
    return line_chart([], [Band("50%", 50.0)], x_label=data.sweep.parameter, y_label="score %", points=sorted(points))


def tournament_page(db: Path, tid: int) -> dict[str, Any]:
    """A tournament: its comparisons (or N-player tables), the ranking of its bots, their health,
    the charts of its figures over the games, the maps each bot loses most, a sweep's plot."""
    with Store(db, read_only=True) as store:  # the games read once, for the standings and the charts
        row = find_tournament(store, tid, ladders=False)
        games = store.games(row.id)
        data = standings(store, row, games)
        history = tournament_history(store, row, games)
    pairs = [_comparison(c) for c in data.comparisons if isinstance(c, PairStanding)]
    tables = [c for c in data.comparisons if isinstance(c, TableStandings)]
    charts, losses = _charts(history)
    return {
        "t": data.tournament,
        "updated": when(data.tournament.updated),
        "pairs": pairs,
        "tables": tables,
        "ranking": data.ranking,
        "ranking_rows": ranking_rows(data.ranking) if data.ranking.games else [],
        "model": model_name(data.ranking),
        "health": _health(data.bots, data.tournament.players),
        "charts": charts,
        "losses": losses,
        "sweep": _sweep(data),
        "fmt": fmt,
    }


def ranking_rows(ranking: Ranking) -> list[dict[str, Any]]:
    """A ranking's rows with the cells ``arena results`` and ``arena ladder show`` print
    (:func:`cli.ranking.ranking_cells`), each bot's interval drawn as a bar (one scale for all)."""
    finite = [abs(v) for b in ranking.bots for v in (b.low, b.high) if math.isfinite(v)]
    scale = max([100.0, *finite])
    rows = []
    for b in ranking.bots:
        _, _, rating, interval, games, score, above = ranking_cells(b, ranking.fit is not None)
        rows.append(
            {
                "rank": b.rank,
                "name": b.name,
                "state": b.state,
                "rating": rating,
                "interval": interval,
                "bar": interval_bar(b.rating, b.low, b.high, scale),
                "games": games,
                "score": score,
                "above": above,
            }
        )
    return rows


def ladder_page(db: Path, lid: int) -> dict[str, Any]:
    """A ladder: ranking with intervals, the cross-table as a heat map, the ratings over time."""
    view = show_ladder(db, ladder_id=lid)
    ranking = view.ranking
    order = [b.name for b in ranking.bots]
    rows = ranking_rows(ranking)
    cross = []
    for a in order:
        cells = []
        for b in order:
            score, n = ranking.cross.get((a, b), (None, 0))
            cells.append(
                {
                    "text": "" if a == b or not n else f"{percent(score)} ({n})",
                    "colour": heat_colour(score if n else None),
                }
            )
        cross.append({"name": a, "cells": cells})
    history = rating_history(db, lid)
    series = [
        Series(name, [(float(p.games), p.ratings.get(name)) for p in history], PALETTE[i % len(PALETTE)])
        for i, name in enumerate(order)
    ]
    return {
        "view": view,
        "t": view.ladder.row,
        "rows": rows,
        "order": order,
        "cross": cross,
        "history": line_chart(series, [Band("0", 0.0)], y_label="rating (Elo)") if history else None,
        "legend": [(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(order)],
        "updated": when(view.ladder.row.updated),
    }


def _int(args: Mapping[str, str], key: str) -> int | None:
    text = (args.get(key) or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key} must be a whole number, not {text!r}") from None


def games_page(db: Path, args: Any) -> dict[str, Any]:
    """The games list: filters from the query string (``tournament``, ``bot``, ``result``,
    ``status``, ``seed``, ``where`` (repeatable), ``page``)."""
    bot = args.get("bot") or None
    which = GameFilter(bot, (args.get("result") or None) if bot else None, args.get("status") or None)
    facts = tuple(parse_condition(w) for w in args.getlist("where") if w.strip())
    page = max(1, _int(args, "page") or 1)
    found = paging.game_page(
        db,
        _int(args, "tournament"),
        which,
        seed=_int(args, "seed"),
        facts=facts,
        offset=(page - 1) * PAGE_SIZE,
        limit=PAGE_SIZE,
    )
    pages = max(1, math.ceil(found.matching / PAGE_SIZE))
    with Store(db, read_only=True) as store:
        names = [b.name for b in store.bots(found.tournament.id)]
    query = {k: v for k, v in args.items() if k != "page" and v}
    return {
        "t": found.tournament,
        "rows": [_game_row(g) for g in found.games],
        "matching": found.matching,
        "total": found.total,
        "page": page,
        "pages": pages,
        "query": query,
        "wheres": [w for w in args.getlist("where") if w.strip()],
        "names": names,
        "bot": bot,
        "result": which.result,
        "status": which.status,
        "seed": args.get("seed", ""),
    }


def _game_row(g: GameRecord) -> dict[str, Any]:
    return {
        "id": g.id,
        "seed": g.seed,
        "players": [{"bot": p.bot, "score": p.score, "status": p.status, "result": result_of(g, p)} for p in g.players],
        "end": g.end_reason,
        "turns": g.turns,
        "replay": g.replay is not None,
        "facts": ", ".join(f"{k}={v}" for k, v in sorted((g.meta or {}).items())),
    }


def _replay_file(g: GameRecord) -> Path | None:
    if g.replay is None:
        return None
    path = Path(g.replay)
    return path if path.is_file() else None


def game_page(db: Path, gid: int) -> dict[str, Any]:
    """One game as ``arena matches show`` gives it, with its replay embedded when kept."""
    row, g = find_game(db, gid)
    command = play_again_command(db, row, g)
    players = []
    for p in g.players:
        lat = sorted(p.latencies_ms)
        players.append(
            {
                "p": p,
                "result": result_of(g, p),
                "answers": len(lat),
                "median": fmt(lat[len(lat) // 2] if lat else None, ".1f"),
                "max": fmt(lat[-1] if lat else None, ".1f"),
            }
        )
    replay = _replay_file(g)
    return {
        "t": row,
        "g": g,
        "players": players,
        "command": command,
        "replay": replay is not None,
        "missing": g.replay is not None and replay is None,
        "finished": when(g.finished),
        "facts": sorted((g.meta or {}).items()),
    }


def replay_page(g: GameRecord) -> str | None:
    """The viewer page of the game's kept replay, ``None`` when it has none (or it is gone or
    unreadable)."""
    from arena.view import ViewError
    from arena.view.page import build_page, load_replay

    path = _replay_file(g)
    if path is None:
        return None
    try:
        return build_page(load_replay(path))
    except (ViewError, OSError):
        return None


def version(db: Path, tid: int) -> dict[str, Any]:
    """What the pages poll: a tournament's status and games stored (a page reloads its content
    when they change)."""
    with Store(db, read_only=True) as store:
        row = find_tournament(store, tid)
        return {"id": row.id, "status": row.status, "games": store.count_games(row.id), "updated": row.updated}


def standings_json(db: Path, tid: int) -> dict[str, Any]:
    """The standings as ``arena results --format json`` gives them."""
    return load_standings(db, tid).to_dict()
