"""``arena versions``: the bot versions a results database records (:mod:`arena.versions.registry`),
with their games and where they are used; removing the unused ones."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from arena.paths import size_text
from arena.store.results import Store
from arena.tournament.config import DEFAULT_DB
from arena.versions import registry
from arena.versions.errors import VersionError
from arena.versions.reference import parse, resolve, unknown_name
from arena.versions.registry import Removed, Usage, Version

from .common import iso_utc, minute, plural, shown
from .tables import Column, render

FORMAT = 1
"""The layout of ``--format json``: keys may be added, none is renamed or removed without raising it."""


TABLE = [
    *(Column(title, "<") for title in ("version", "hash", "frozen as", "recorded")),
    *(Column(title) for title in ("games", "W-D-L", "score")),
    *(Column(title, "<") for title in ("used by", "origin")),
]
"""The columns of the table of versions: counts right-aligned."""


def _chosen(store: Store, name: str | None) -> list[Usage]:
    """The versions ``NAME`` asks for: all of them, those of a name, or the one a reference names."""
    if name is None:
        return registry.usage(store)
    ref = parse(name)
    if ref is not None:
        version = resolve(store, ref)
        return [u for u in registry.usage(store, version.name) if u.version.id == version.id]
    found = registry.usage(store, name)
    if not found:
        raise VersionError(unknown_name(store, name))
    return found


def _usage_dict(u: Usage) -> dict[str, Any]:
    v = u.version
    return {
        "version": v.label,
        "name": v.name,
        "number": v.number,
        "hash": v.hash,
        "frozen_as": v.how,
        "recorded": iso_utc(v.created),
        "origin": v.origin,
        "games": u.games,
        "wins": u.wins,
        "draws": u.draws,
        "losses": u.losses,
        "score": u.score,
        "used_by": [{"kind": b.kind, "id": b.id, "bot": b.bot} for b in u.used_by],
        "warning": v.warning,
    }


def _table(db: str, found: Sequence[Usage]) -> None:
    if not found:
        click.echo(
            f"no bot version is recorded in {db} yet: tournaments, ladders and arena play record the bots they run"
        )
        return
    names = {u.version.name for u in found}
    click.echo(f"{db}: {plural(len(found), 'version')} of {plural(len(names), 'bot')}")
    rows = []
    for u in found:
        v = u.version
        wdl, score = ("-", "-") if u.score is None else (f"{u.wins}-{u.draws}-{u.losses}", f"{100 * u.score:.1f}%")
        origin = shown(v.origin) if v.origin else "(unknown)"
        rows.append([v.label, v.short, v.how, minute(v.created), str(u.games), wdl, score, u.where(), origin])
    click.echo("\n".join(render(TABLE, rows)))
    unused = sum(not u.used for u in found)
    if unused:
        click.echo(f"{plural(unused, 'unused version')}: arena versions --prune removes them")


def _removed_line(r: Removed) -> str:
    v = r.version
    what = r.kept if r.kept is not None else f"{size_text(r.freed)} freed"
    return f"removed {v.label} ({v.short}): {what}"


def _remove(store: Store, name: str | None, refs: Sequence[str], prune: bool) -> None:
    if name is not None and "@" in name:
        raise click.UsageError(f"{name}: give the versions to remove as --remove REF, and a NAME (no @) to --prune")
    if name is not None and not store.versions(name):
        raise VersionError(unknown_name(store, name))
    chosen: list[Version] = []
    for text in refs:
        full = f"{name}@{text}" if name is not None and "@" not in text else text
        ref = parse(full)
        if ref is None:
            raise VersionError(
                f"--remove {text}: not a version: name one as NAME@N, NAME@latest, NAME@prev or NAME@HASH"
            )
        chosen.append(resolve(store, ref))
    removed = registry.remove(store, *chosen)
    for r in removed:
        click.echo(_removed_line(r))
    if prune:
        pruned = registry.prune(store, name)
        for r in pruned:
            click.echo(_removed_line(r))
        which = "" if name is None else f" of {name}"
        if not pruned:
            click.echo(f"no unused version{which} to remove")
        removed += pruned
    if len(removed) > 1:
        click.echo(f"{plural(len(removed), 'version')} removed, {size_text(registry.freed(removed))} freed")


@click.command("versions")
@click.argument("name", required=False)
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results file.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option(
    "--remove",
    "refs",
    multiple=True,
    metavar="REF",
    help="Remove this version (NAME@N, NAME@HASH, NAME@latest, NAME@prev; N alone with NAME) and its "
    "frozen files; refused when a tournament or a ladder uses it. Repeatable.",
)
@click.option(
    "--prune",
    is_flag=True,
    help="Remove every unused version (of NAME, when given) and the frozen files no version uses any more.",
)
def versions(name: str | None, db: str, fmt: str, refs: tuple[str, ...], prune: bool) -> None:
    """List the bot versions recorded in the results database (of NAME, or the version NAME@N):
    each one's hash, how it was frozen, when, its games, wins-draws-losses and score in two-player
    games, the tournaments and ladders that use it, where it was frozen from. A BOT argument names
    a version as NAME@N, NAME@latest, NAME@prev or NAME@HASH (6 hex digits or more)."""
    if refs or prune:
        with Store(db, create=False) as store:
            _remove(store, name, refs, prune)
        return
    with Store(db, read_only=True) as store:
        found = _chosen(store, name)
    if fmt == "json":
        click.echo(json.dumps({"format": FORMAT, "db": db, "versions": [_usage_dict(u) for u in found]}))
        return
    _table(db, found)
