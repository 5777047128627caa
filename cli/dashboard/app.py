"""The dashboard's web application (Flask): one page per tournament, ladder and game, the games
list, and a small JSON answer the pages poll to update themselves while a run goes on.

The results database is only read: every request opens it read-only
(:class:`arena.store.results.Store`), so a running tournament or ladder writes on undisturbed;
a database of an older schema is read through a private in-memory copy, never migrated. Every
text comes from the templates with Jinja's escaping on; a replay is served only from the path the
database records for a game, found by the game's id (nothing in a URL reaches the file system).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from arena.ladder.errors import LadderError
from arena.store.browse import STATUSES, UnknownBot, find_game, tournaments
from arena.store.results import Store, StoreError

from . import pages


def _guard(app: Flask) -> None:
    """One-line errors as pages, and a Content-Security-Policy on every page but the replay
    viewer's (which carries its own)."""

    @app.errorhandler(StoreError)
    @app.errorhandler(LadderError)
    def unreadable(exc: Exception) -> tuple[str, int]:
        return render_template("error.html", message=str(exc)), 404

    @app.after_request
    def no_outside(response: Response) -> Response:
        if response.mimetype == "text/html" and request.endpoint != "replay":
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self'"
            )
        return response


def create_app(db: str | Path) -> Flask:
    """The dashboard of the results database ``db``: a :class:`StoreError` when it cannot be read
    (it is never created)."""
    path = Path(db)
    with Store(path, read_only=True):
        pass
    app = Flask(__name__)
    app.config["DB"] = path
    app.url_map.merge_slashes = False  # "/static//etc/passwd" is a 404, not a redirect to one
    app.jinja_env.globals.update(statuses=STATUSES)

    _guard(app)

    @app.get("/")
    def index() -> str:
        rows = [pages.tournament_row(t, n, bots) for t, n, bots in tournaments(path)]
        return render_template("index.html", rows=rows, db=str(path))

    cache: dict[tuple[str, int], tuple[tuple[Any, ...], str]] = {}

    def cached(kind: str, tid: int, make: Callable[[], str]) -> str:
        """A tournament's or ladder's page, made again only when its games or status changed
        (pages poll while a run goes on: most polls find nothing new)."""
        v = pages.version(path, tid)
        key = (v["games"], v["status"], v["updated"])
        hit = cache.get((kind, tid))
        if hit is None or hit[0] != key:
            hit = (key, make())
            cache[kind, tid] = hit
        return hit[1]

    @app.get("/tournament/<int:tid>")
    def tournament(tid: int) -> str | Response:
        if pages.is_ladder_id(path, tid):
            return redirect(url_for("ladder", lid=tid))
        return cached("t", tid, lambda: render_template("tournament.html", **pages.tournament_page(path, tid)))

    @app.get("/ladder/<int:lid>")
    def ladder(lid: int) -> str:
        return cached("l", lid, lambda: render_template("ladder.html", **pages.ladder_page(path, lid)))

    @app.get("/games")
    def games() -> str:
        try:
            context = pages.games_page(path, request.args)
        except (UnknownBot, ValueError) as exc:
            return render_template("error.html", message=str(exc))
        return render_template("games.html", **context)

    @app.get("/game/<int:gid>")
    def game(gid: int) -> str:
        return render_template("game.html", **pages.game_page(path, gid))

    @app.get("/game/<int:gid>/replay")
    def replay(gid: int) -> Response:
        _, record = find_game(path, gid)
        page = pages.replay_page(record)
        if page is None:
            abort(404)
        return Response(page, mimetype="text/html")

    @app.get("/api/version/<int:tid>")
    def version(tid: int) -> Response:
        return jsonify(pages.version(path, tid))

    @app.get("/api/standings/<int:tid>")
    def standings_json(tid: int) -> Response:
        return jsonify(pages.standings_json(path, tid))

    return app
