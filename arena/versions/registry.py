"""Bot versions recorded in the results database: every bot a tournament, a ladder or ``arena
play`` runs is frozen by content (:mod:`.freeze`) and recorded here once, under its name.

A version is a name and a content hash (:attr:`.snapshot.Frozen.hash`), numbered 1, 2, 3... per
name in the order first recorded (:func:`record`): an unchanged bot is one version however often
it runs, an edited one the next version, and the same content under two names two versions that
share one snapshot folder (``<db>-bots/<hash>``). A BOT argument names one as ``NAME@N``,
``NAME@latest``, ``NAME@prev`` or ``NAME@HASH`` (:mod:`.reference`).

A version is *used* while a tournament's or a ladder's bot plays it (its ``bots.version``): its
games need it, so only unused versions are removed (:func:`remove`, :func:`prune`). Every failure
is one line: a :class:`.errors.VersionError` or, for the database itself, a
:class:`arena.store.database.StoreError`.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..match.launch.botspec import is_bot_name
from ..store.records import VersionRow
from ..store.results import Store
from .errors import VersionError
from .snapshot import Frozen, discard, store_for

__all__ = [
    "Version",
    "UsedBy",
    "Usage",
    "Removed",
    "record",
    "origin_of",
    "labels",
    "versions",
    "usage",
    "remove",
    "prune",
    "freed",
]


@dataclass(frozen=True)
class Version(VersionRow):
    """A recorded bot version: the row the database keeps, and what is said of it."""

    @classmethod
    def of(cls, row: VersionRow) -> Version:
        return cls(row.id, row.name, row.number, row.hash, row.created, row.origin, row.frozen)

    @property
    def label(self) -> str:
        """``mybot@3``: how a BOT argument names it."""
        return f"{self.name}@{self.number}"

    @property
    def short(self) -> str:
        """The first 12 digits of its hash, as versions are shown."""
        return self.hash[:12]

    @property
    def how(self) -> str:
        """How it was frozen (``bundle``, ``module tree``, ``script``, ``binary``, ``command``)."""
        return str(self.frozen.get("how", "?"))

    @property
    def warning(self) -> str | None:
        """Why it is not frozen (a command kept as given), in one line; ``None`` when it is."""
        warning = self.frozen.get("warning")
        return None if warning is None else str(warning)

    def frozen_version(self, snapshots: Path, name: str | None = None) -> Frozen:
        """The version as it plays now, read back from the snapshot store ``snapshots``
        (:func:`.snapshot.store_for` of the database), its bot named ``name`` (default: its own
        name). Raises :class:`.snapshot.FreezeError` when its snapshot cannot be read."""
        return Frozen.from_dict(self.frozen, name or self.name, snapshots)


def record(store: Store, name: str, frozen: Frozen, origin: str) -> Version:
    """The version of ``name`` that ``frozen`` is (frozen into :func:`.snapshot.store_for` of
    ``store``'s database): the one recorded with its hash, else a new one, numbered after the
    name's others. ``origin``: where it was frozen from (:func:`origin_of`)."""
    if not is_bot_name(name):
        raise VersionError(f"{name!r} cannot name a bot version: use letters, digits and _.#+- only")
    return Version.of(store.add_version(name, frozen.hash, frozen.to_dict(), paths.readable(origin)))


def origin_of(bot: str, base: Path | None = None) -> str:
    """Where a version is frozen from, as its record keeps it: the BOT argument ``bot`` with each
    word that names an existing file or folder (relative ones from ``base``, default the working
    directory) made an absolute path; a shipped bot's name or a command stays as given."""
    text = bot.strip()
    try:
        words = shlex.split(text)
    except ValueError:
        return text

    def absolute(word: str) -> str | None:
        path = paths.located(word, base)
        return os.path.abspath(path) if word and not word.startswith("-") and paths.exists(path) else None

    whole = absolute(text)
    if whole is not None:
        return whole
    made = [absolute(w) or w for w in words]
    return text if made == words else shlex.join(made)


def labels(store: Store, tid: int) -> dict[str, str]:
    """The version each bot of tournament or ladder ``tid`` plays, as a BOT argument names it
    (``mybot@2``), by bot name (a bot stored before versions were recorded has none)."""
    out = {}
    for bot in store.bots(tid):
        row = None if bot.version is None else store.version(bot.version)
        if row is not None:
            out[bot.name] = f"{row.name}@{row.number}"
    return out


def versions(store: Store, name: str | None = None) -> list[Version]:
    """Every recorded version (of ``name`` only, when given), by name and number."""
    return [Version.of(r) for r in store.versions(name)]


@dataclass(frozen=True)
class UsedBy:
    """A bot of a tournament or a ladder that plays a version."""

    kind: str
    """``tournament`` or ``ladder``."""
    id: int
    bot: str

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.bot})"


@dataclass(frozen=True)
class Usage:
    """A version, its stored games and where it is used."""

    version: Version
    games: int = 0
    """Its games, one per seat its bots played (a game between two bots of one version counts
    twice)."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    """Its two-player games won, drawn and lost (from the games' ranks; none for games of more
    players)."""
    used_by: tuple[UsedBy, ...] = ()

    @property
    def used(self) -> bool:
        return bool(self.used_by)

    @property
    def score(self) -> float | None:
        """Its mean score over its two-player games (a win 1, a draw 1/2); ``None`` without any."""
        decided = self.wins + self.draws + self.losses
        return None if decided == 0 else (self.wins + self.draws / 2) / decided

    def where(self) -> str:
        """Where it is used, in words: ``ladder 3 (mybot), tournament 5 (v2)``; ``unused``."""
        return ", ".join(str(u) for u in self.used_by) or "unused"


def _used_by(store: Store) -> dict[int, list[UsedBy]]:
    kinds = {t.id: "ladder" if t.settings.get("kind") == "ladder" else "tournament" for t in store.tournaments()}
    out: dict[int, list[UsedBy]] = {}
    for vid, tid, bot in store.version_bots():
        out.setdefault(vid, []).append(UsedBy(kinds.get(tid, "tournament"), tid, bot))
    return out


def usage(store: Store, name: str | None = None) -> list[Usage]:
    """Every recorded version (of ``name`` only, when given), by name and number, with its games
    and where it is used."""
    games = {g.version: g for g in store.version_games()}
    used = _used_by(store)
    out = []
    for v in versions(store, name):
        g = games.get(v.id)
        counts = (0, 0, 0, 0) if g is None else (g.games, g.wins, g.draws, g.losses)
        out.append(Usage(v, *counts, used_by=tuple(used.get(v.id, ()))))
    return out


@dataclass(frozen=True)
class Removed:
    """A version removed, and what became of its snapshot folder."""

    version: Version
    freed: int = 0
    """The bytes its snapshot's files held, when the folder was removed; 0 otherwise."""
    kept: str | None = None
    """Why its snapshot folder is still there (another version has the same content, it could not
    be removed), in words; ``None`` when it was removed, or was gone already."""


def _drop_snapshot(store: Store, version: Version) -> Removed:
    """Remove the snapshot of ``version`` (just deleted) unless another version has its hash."""
    others = store.versions_with_hash(version.hash)
    if others:
        labels = ", ".join(f"{o.name}@{o.number}" for o in others)
        return Removed(version, kept=f"its files stay: {labels} has the same content")
    snapshots = store_for(store.path)
    try:
        return Removed(version, freed=discard(snapshots, version.hash))
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Removed(version, kept=f"its files in {snapshots / version.hash} could not be removed ({why})")


def remove(store: Store, *chosen: Version) -> list[Removed]:
    """Remove the versions ``chosen`` (each once), and each one's snapshot folder unless another
    version has the same content. Refused (:class:`VersionError`, naming where it is used) before
    anything is removed when a tournament or a ladder uses one of them."""
    chosen = tuple({v.id: v for v in chosen}.values())
    used = _used_by(store)
    for version in chosen:
        if version.id in used:
            where = Usage(version, used_by=tuple(used[version.id])).where()
            raise VersionError(
                f"{version.label} is used by {where}: a version is kept while a tournament or a ladder "
                "plays it (its games name it); only unused versions are removed (arena versions marks them)"
            )
    out = []
    for version in chosen:
        if not store.delete_version(version.id):
            if store.version(version.id) is None:
                raise VersionError(f"{version.label}: no such version in {store.path} (removed meanwhile?)")
            raise VersionError(f"{version.label} was taken into use meanwhile: it is not removed")
        out.append(_drop_snapshot(store, version))
    return out


def prune(store: Store, name: str | None = None) -> list[Removed]:
    """Remove every unused version (of ``name`` only, when given), and the snapshot folders that
    no version uses any more; by name and number."""
    used = {vid for vid, _, _ in store.version_bots()}
    out = []
    for version in versions(store, name):
        if version.id not in used and store.delete_version(version.id):
            out.append(_drop_snapshot(store, version))
    return out


def freed(removed: Sequence[Removed]) -> int:
    """The bytes the removals freed, together."""
    return sum(r.freed for r in removed)
