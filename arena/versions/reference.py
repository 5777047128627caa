"""BOT arguments that name a stored version, as ``NAME@N``, ``NAME@latest``, ``NAME@prev`` or
``NAME@HASH``. The versions are :mod:`.registry`'s.

- ``NAME@N``: version number ``N`` of ``NAME`` (``mybot@3``). Digits only are a number; six
  digits or more that number no version are tried as a hash prefix (a hash may start with
  digits only).
- ``NAME@latest``: the newest version of ``NAME`` (the highest number).
- ``NAME@prev``: the newest version of ``NAME`` other than the one the same command froze
  ``NAME``'s source to (its hash given to :func:`resolve` as ``current[NAME]``): ``arena
  tournament mybot/ mybot@prev`` plays ``mybot/`` against its newest *other* version, whether or
  not the source changed. With no current version of ``NAME``, the one before the newest.
- ``NAME@HASH``: the version of ``NAME`` whose content hash starts with ``HASH``: at least
  :data:`MIN_PREFIX` hexadecimal digits, any case, naming one of ``NAME``'s versions only.

``NAME`` is a bot name (letters, digits and ``_.#+-``:
:func:`arena.match.launch.botspec.is_bot_name`). A text that names an existing file or folder is
never a reference (a path may contain ``@``), nor one whose ``NAME`` is not a bot name (a command
such as ``ssh me@host ./bot``); :func:`parse` gives ``None`` for those. ``NAME@`` followed by
anything else is refused (:class:`.errors.VersionError`), as is a reference that names no stored
version: one line listing ``NAME``'s versions, or the names that have versions with the closest
one suggested.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from referee.suggest import did_you_mean

from .. import paths
from ..match.launch.botspec import is_bot_name
from ..store.results import Store
from .errors import VersionError
from .registry import Version, versions

__all__ = ["MIN_PREFIX", "Kind", "Reference", "parse", "resolve", "unknown_name"]

MIN_PREFIX = 6
"""The fewest hexadecimal digits of a hash prefix (``mybot@3f2a9c``)."""
MAX_LISTED = 8
"""The most versions an error message lists (the newest ones)."""

Kind = Literal["number", "latest", "prev", "hash"]
_NUMBER = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9a-f]+")


@dataclass(frozen=True)
class Reference:
    """A stored version as a BOT argument names it."""

    name: str
    kind: Kind
    value: str = ""
    """The digits of a number or of a hash prefix (lower case); ``""`` for latest and prev."""

    def __str__(self) -> str:
        return f"{self.name}@{self.value or self.kind}"


def parse(text: str, base: Path | None = None) -> Reference | None:
    """The version ``text`` names, or ``None`` when it names none (see the module's text; relative
    paths from ``base``, default the working directory). Raises :class:`VersionError`."""
    text = text.strip()
    name, at, selector = text.partition("@")
    if not at or not is_bot_name(name) or paths.exists(paths.located(text, base)):
        return None
    word = selector.lower()
    if word in ("latest", "prev"):
        return Reference(name, "latest" if word == "latest" else "prev")
    if _NUMBER.fullmatch(word):
        return Reference(name, "number", str(int(word)) if len(word) < MIN_PREFIX else word)
    if _HEX.fullmatch(word) and MIN_PREFIX <= len(word) <= 64:
        return Reference(name, "hash", word)
    if _HEX.fullmatch(word) and len(word) < MIN_PREFIX:
        why = f"a hash prefix needs at least {MIN_PREFIX} hexadecimal digits (arena versions {name} shows them)"
    else:
        why = f"{selector!r} is no version: name one as {name}@N, {name}@latest, {name}@prev or {name}@HASH"
    raise VersionError(f"{text}: {why}")


def _listing(known: Sequence[Version]) -> str:
    """``mybot@1 (3f2a9c1d0e4b), mybot@2 (...)``: the newest :data:`MAX_LISTED` of them."""
    shown = [f"{v.label} ({v.short})" for v in known[-MAX_LISTED:]]
    more = len(known) - len(shown)
    return (f"... {more} older, " if more else "") + ", ".join(shown)


def unknown_name(store: Store, name: str) -> str:
    """Why ``name`` has no version in ``store``, with the names that have some (the closest one
    suggested)."""
    names = store.version_names()
    known = ", ".join(names) if names else "none yet"
    return (
        f"no version of {name!r} is recorded in {store.path} (names with versions: {known}){did_you_mean(name, names)}"
    )


def _previous(ref: Reference, known: Sequence[Version], current: str | None) -> Version:
    if current is None:
        if len(known) < 2:
            raise VersionError(f"{ref}: {ref.name} has one version only ({_listing(known)}): there is none before it")
        return known[-2]
    others = [v for v in known if v.hash != current]
    if not others:
        raise VersionError(
            f"{ref}: {ref.name} has no version other than the one its source is now ({_listing(known)}): "
            "there is none before it"
        )
    return others[-1]


def _by_prefix(store: Store, ref: Reference, prefix: str) -> Version | None:
    found = [Version.of(r) for r in store.find_versions(ref.name, prefix=prefix)]
    if len(found) > 1:
        both = ", ".join(f"{v.label} ({v.hash[: len(prefix) + 4]}...)" for v in found)
        raise VersionError(f"{ref}: the hash prefix {prefix} is ambiguous ({both}): give more of its digits")
    return found[0] if found else None


def resolve(store: Store, ref: Reference, current: Mapping[str, str] | None = None) -> Version:
    """The stored version ``ref`` names in ``store``; ``current``: see ``prev`` in the module's
    text. Raises :class:`VersionError` naming the versions there are."""
    known = versions(store, ref.name)
    if not known:
        raise VersionError(f"{ref}: {unknown_name(store, ref.name)}")
    if ref.kind == "latest":
        return known[-1]
    if ref.kind == "prev":
        return _previous(ref, known, (current or {}).get(ref.name))
    if ref.kind == "number":
        found = [Version.of(r) for r in store.find_versions(ref.name, number=int(ref.value))]
        if found:
            return found[0]
        by_hash = _by_prefix(store, ref, ref.value) if len(ref.value) >= MIN_PREFIX else None
        if by_hash is not None:
            return by_hash
        raise VersionError(
            f"{ref}: {ref.name} has no version {int(ref.value)} (its versions: {_listing(known)}); "
            f"arena versions {ref.name} lists them"
        )
    by_hash = _by_prefix(store, ref, ref.value)
    if by_hash is None:
        raise VersionError(
            f"{ref}: no version of {ref.name} has a hash starting with {ref.value} (its versions: "
            f"{_listing(known)}); arena versions {ref.name} lists them"
        )
    return by_hash
