"""``arena serve``: the dashboard of a results database, a local web application (Flask, the
``serve`` extra) that only reads the database and updates its pages while a tournament or a
ladder runs in another process."""

from __future__ import annotations

import ipaddress
import threading
import webbrowser

import click

from arena.tournament.config import DEFAULT_DB

INSTALL_HINT = "the dashboard needs Flask: pip install 'cgarena[serve]'"
LOCAL = "127.0.0.1"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--db", default=DEFAULT_DB, help="SQLite results file (never created nor changed).")
@click.option("--port", default=8765, type=click.IntRange(0, 65535), help="Port to listen on (0: any free one).")
@click.option("--host", default=LOCAL, help="Address to listen on; another than this machine's needs saying so.")
@click.option("--open", "open_browser", is_flag=True, help="Open the dashboard in the default browser.")
def serve(db: str, port: int, host: str, open_browser: bool) -> None:
    """Serve a dashboard of the tournaments and ladders of a results database: standings with
    intervals, Elo and SPRT charts, bot health, the maps each bot loses, every game one click from
    its replay. Pages update themselves while a run goes on. Ctrl-C stops it."""
    try:
        from werkzeug.serving import make_server

        from .dashboard import create_app
    except ImportError:
        raise click.ClickException(INSTALL_HINT) from None
    app = create_app(db)
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port} ({exc.strerror}): try another --port") from None
    url = f"http://{host if ':' not in host else f'[{host}]'}:{server.server_port}/"
    if _is_loopback(host):
        click.echo(f"dashboard of {db} on {url} (this machine only); Ctrl-C stops it", err=True)
    else:
        click.echo(
            f"warning: the dashboard listens on {host}: anyone who can reach this address reads your results "
            "(there is no authentication)",
            err=True,
        )
        click.echo(f"dashboard of {db} on {url}; Ctrl-C stops it", err=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
