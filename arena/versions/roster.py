"""The bots a command runs, each as a version: :func:`enter` freezes every bot given by its source
(:func:`.freeze.freeze`, a Python bot as its module tree) and records it once under its name
(:func:`.registry.record`), and reads every stored version named by a reference (``mybot@3``,
``mybot@prev``: :mod:`.reference`) back from its snapshot. What runs is then always the frozen
version, from the store beside the results database: a tournament that plays for hours while
its user edits the source keeps playing the version it started with, an edited bot is simply the
next version, and ``mybot@prev`` is the one the command did not just freeze. (A bot's declared
data is shown at its declared place too: a bot that reads it by its absolute path finds it there.)

The sources are frozen first, references resolved after: ``prev`` is relative to the version the
same command froze the name's source to.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..match.launch.botspec import BotSpec, split_name, with_run_options
from ..match.request import Pin, RequestError
from ..store.results import Store
from .errors import VersionError
from .freeze import freeze
from .provenance import ArenaFiles
from .reference import Reference, parse, resolve
from .registry import Version, origin_of, record
from .snapshot import FreezeError, store_for, strays, verify

__all__ = ["Wanted", "Entrant", "enter", "version_name", "play_pin"]

_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9_.#+-]+")


@dataclass(frozen=True)
class Wanted:
    """A bot a command runs: its source (``spec``, frozen now) or a stored version (``reference``),
    the name it plays under (``None``: the spec's, or the version's label) and where it comes
    from (what the version records as its origin)."""

    spec: BotSpec | None = None
    reference: Reference | None = None
    name: str | None = None
    origin: str = ""


@dataclass(frozen=True)
class Entrant:
    """A bot as it runs: under ``name``, the version ``version`` (``spec`` starts it from its
    snapshot), with what freezing it had to say (``notes``)."""

    name: str
    version: Version
    spec: BotSpec
    notes: tuple[str, ...] = ()


def version_name(name: str) -> str:
    """The name a bot's versions are recorded under: its own, where it can name a bot version,
    else its letters, digits and ``_.#+-`` kept, the rest dashes (a sweep's ``mybot[depth=3]``
    is ``mybot-depth-3``)."""
    return _NOT_IN_NAME.sub("-", name).strip("-") or "bot"


def _frozen(store: Store, wanted: Wanted, avoid: ArenaFiles) -> tuple[Entrant, str]:
    assert wanted.spec is not None
    spec = wanted.spec
    frozen = freeze(replace(spec, name=version_name(spec.name)), store_for(store.path), avoid, lenient=True)
    version = record(store, version_name(spec.name), frozen, wanted.origin)
    name = wanted.name or spec.name
    notes = tuple(n for n in (frozen.warning, *frozen.notes) if n)
    # its data where it was declared too: a bot that reads it by its absolute path finds it (live)
    data = (*frozen.spec.data, *(d for d in spec.data if d not in frozen.spec.data))
    return Entrant(name, version, replace(frozen.spec, name=name, data=data), notes), frozen.hash


def _stored(store: Store, wanted: Wanted, current: dict[str, str]) -> Entrant:
    assert wanted.reference is not None
    version = resolve(store, wanted.reference, current)
    name = wanted.name or version.label
    try:
        frozen = version.frozen_version(store_for(store.path), name)
    except FreezeError as exc:
        raise VersionError(f"{version.label}: {exc}") from None
    why = verify(frozen)
    if why is not None:
        raise VersionError(f"{version.label}: {why}")
    return Entrant(name, version, frozen.spec, tuple(n for n in (frozen.warning, strays(frozen)) if n))


def enter(store: Store, bots: Sequence[Wanted], avoid: ArenaFiles | None = None) -> list[Entrant]:
    """Each of ``bots`` as a version, in order (see the module's text); ``avoid``: the arena's
    own files (the database, the replays), never frozen. Raises an
    :class:`arena.errors.ArenaError` (one line) for a bot that cannot be frozen, a reference to no
    stored version, or a stored version whose snapshot was damaged."""
    avoid = avoid or ArenaFiles.of(store.path)
    out: dict[int, Entrant] = {}
    current: dict[str, str] = {}
    for i, wanted in enumerate(bots):
        if wanted.spec is not None:
            out[i], current[version_name(wanted.spec.name)] = _frozen(store, wanted, avoid)
    for i, wanted in enumerate(bots):
        if wanted.spec is None:
            out[i] = _stored(store, wanted, current)
    return [out[i] for i in range(len(bots))]


def play_pin(store: Store, libs: Sequence[str] = (), env: Mapping[str, str] | None = None) -> Pin:
    """What ``arena play`` plays its bots as (:data:`arena.match.request.Pin`): each bot resolved
    from its source frozen and recorded, each other one read from the stored version it names
    (with the match's library folders ``libs`` and variables ``env``), named ``NAME=`` gives."""

    def pin(texts: Sequence[str], specs: list[BotSpec | RequestError]) -> list[BotSpec]:
        wanted = []
        for text, spec in zip(texts, specs, strict=True):
            label, bot = split_name(text)
            if isinstance(spec, BotSpec):
                wanted.append(Wanted(spec, origin=origin_of(bot)))
                continue
            ref = parse(bot)
            if ref is None:
                raise spec
            wanted.append(Wanted(reference=ref, name=label))
        entrants = enter(store, wanted)
        return [
            e.spec if w.spec is not None else with_run_options(e.spec, libs, env)
            for w, e in zip(wanted, entrants, strict=True)
        ]

    return pin
