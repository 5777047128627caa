"""``bundle --cg-local``: the bundles that pass every step go to the CodinGame IDE through a
:class:`bundler.cglocal.CGLocalApp`; the others never do (the IDE keeps the last good code).

:func:`push_once` builds, waits for the IDE, pushes and returns; :func:`push_watching` pushes
again after every good rebuild. Both yield the steps of :mod:`bundler.steps` and the
application's :data:`bundler.cglocal.LinkEvent`, and never print.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

from .build import BuildOptions
from .cglocal import CGLocalApp, LinkEvent, Pushed
from .errors import BundleError
from .steps import POLL_SECONDS, Built, Changed, Event, Outputs, Watching, changed_names, make, snapshot, watched_paths

__all__ = ["NotSent", "PushEvent", "push_once", "push_watching"]


@dataclass(frozen=True)
class NotSent:
    """A rebuild failed a step (it does not build, is over the size limit, or ``--verify``
    found a difference): it is not sent, and the IDE keeps the last good bundle."""

    error: BundleError


PushEvent = Event | LinkEvent | NotSent


def _made(options: BuildOptions, outputs: Outputs, inputs: list[Path]) -> Generator[Event, None, str]:
    """:func:`bundler.steps.make`'s steps; the bundle's text once every step passed."""
    text = ""
    for event in make(options, outputs, inputs):
        if isinstance(event, Built):
            text = event.bundle.text
        yield event
    return text


def push_once(
    options: BuildOptions, outputs: Outputs, app: CGLocalApp, poll_s: float = POLL_SECONDS
) -> Iterator[PushEvent]:
    """Build the bundle (a failed step raises its :class:`BundleError`: nothing is sent), then
    wait for the IDE and push it there once."""
    text = yield from _made(options, outputs, [])
    app.offer(text)
    while True:
        for event in app.events(poll_s):
            yield event
            if isinstance(event, Pushed):
                return


def push_watching(
    options: BuildOptions, outputs: Outputs, app: CGLocalApp, poll_s: float = POLL_SECONDS
) -> Iterator[PushEvent]:
    """Build now and after every change of an input file (as :func:`bundler.steps.watch`);
    each bundle that passes every step is offered to the IDE, the others are :class:`NotSent`.
    Runs until interrupted."""
    yield from app.events(0)
    files = watched_paths(options, [])
    while True:
        before = snapshot(files)
        inputs: list[Path] = []
        text: str | None = None
        try:
            text = yield from _made(options, outputs, inputs)
        except BundleError as exc:
            yield NotSent(exc)
        files = watched_paths(options, inputs)
        state = snapshot(files + list(dict.fromkeys(p.parent for p in files)))
        if text is not None:
            app.offer(text)  # after the look at the files: an edit made on seeing it is a change
        yield Watching(len(files))
        names = changed_names(before, state)  # a file saved while the bundle was being made
        while not names:
            yield from app.events(poll_s)
            names = changed_names(state, snapshot(list(state)))
        yield Changed(names)
