"""``bundle --cg-local``'s part of the command line: it serves the CG Local extension with
:class:`bundler.cglocal.CGLocalApp` and says what happened (imported only with ``--cg-local``:
it needs the optional ``websockets`` package)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bundler.build import BuildOptions
from bundler.cglocal import (
    Blocked,
    CGLocalApp,
    Connected,
    Disconnected,
    LinkEvent,
    Listening,
    Pushed,
    Refused,
    Saved,
    SaveFailed,
    Unchanged,
)
from bundler.cglocal_push import NotSent, push_once, push_watching
from bundler.steps import Event, Outputs

from .common import bundle_says, shown

__all__ = ["serve"]


def _connected(event: Connected) -> str:
    title = shown(event.title) if event.title is not None else "a question it did not name"
    question = f" (question {event.question_id})" if event.question_id is not None else ""
    return (
        f"connected to the CodinGame IDE: {title}{question}; CG Local does not say the IDE's "
        "language: make sure it is Python 3"
    )


def _disconnected(event: Disconnected) -> str:
    if event.clean:
        return "the IDE closed the connection (tab closed or CG Local turned off); waiting for it again"
    code = f"close code {event.code}" if event.code is not None else "no close code"
    return f"the connection to the IDE dropped ({code}); waiting for it again"


def render_link(event: LinkEvent | NotSent) -> None:
    """What the link to the IDE did, in words."""
    if isinstance(event, Listening):
        bundle_says(
            f"waiting for the CG Local extension on ws://localhost:{event.port}/ "
            "(open the CodinGame IDE and turn CG Local on; Ctrl-C to stop)"
        )
    elif isinstance(event, Connected):
        bundle_says(_connected(event))
    elif isinstance(event, Refused):
        bundle_says(f"refused a second connection ({event.peer}): already connected to one IDE tab")
    elif isinstance(event, Blocked):
        bundle_says(
            f"refused a connection from the web page {shown(event.origin)}: only the CG Local extension may connect"
        )
    elif isinstance(event, Disconnected):
        bundle_says(_disconnected(event))
    elif isinstance(event, Saved):
        bundle_says(f"saved the IDE's code ({event.characters:,} characters) to {event.path}")
    elif isinstance(event, SaveFailed):
        bundle_says(f"error: {event.reason}; nothing was sent to the IDE")
    elif isinstance(event, Pushed):
        play = ", and asked it to play" if event.play else ""
        bundle_says(f"sent the bundle to the IDE ({event.characters:,} characters){play}")
    elif isinstance(event, Unchanged):
        bundle_says("the bundle is unchanged: not sent to the IDE again")
    else:
        bundle_says(f"not sent to the IDE (it keeps the last good code): {shown(str(event.error))}")


def serve(
    options: BuildOptions,
    outputs: Outputs,
    watch_files: bool,
    link: tuple[int, Path, bool],
    render: Callable[[Event], None],
) -> None:
    """Serve the extension on ``link`` (port, folder for the IDE's saved code, play) and push
    the bundle once, or after every good rebuild with ``watch_files``."""
    port, backup, play = link
    with CGLocalApp(port, backup, play) as app:
        steps = push_watching(options, outputs, app) if watch_files else push_once(options, outputs, app)
        for event in steps:
            if isinstance(event, LinkEvent | NotSent):
                render_link(event)
            else:
                render(event)
