"""The CG Local application's side of the protocol, served to the CG Local browser extension.

The extension (Chrome and Firefox) connects from the CodinGame IDE to ``ws://localhost:53135/``
and exchanges JSON messages ``{"action": ..., "payload": {...}}`` with one application. This
module is such an application for the bundler: :class:`CGLocalApp` listens on the loopback
addresses only, accepts one connection at a time and talks in this order::

    app -> send-details                 ext -> details {title, questionId}
    app -> app-ready                    app -> set-read-only {state: true}
    app -> send-code                    ext -> code {code}      (saved to a file before any push)
    app -> update-code {code, play}     (each bundle offered, once the IDE's code is saved)

A second connection gets ``already-connected`` (the extension then closes it); a browser page
(an ``Origin`` other than an extension's) is refused before the handshake. Closing uses code
1000, the one the extension takes as a normal end. What happens is reported as events
(:data:`LinkEvent`) read with :meth:`CGLocalApp.events`; nothing here prints.
"""

from __future__ import annotations

import errno
import json
import os
import queue
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any

from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.sync.server import Server, ServerConnection, serve

from .errors import BundleError, OutputError
from .output import write_atomic

__all__ = [
    "DEFAULT_PORT",
    "PORT_VARIABLE",
    "NORMAL_CLOSURE",
    "Action",
    "CGLocalError",
    "Listening",
    "Connected",
    "Refused",
    "Blocked",
    "Disconnected",
    "Saved",
    "Pushed",
    "Unchanged",
    "SaveFailed",
    "LinkEvent",
    "port_from_env",
    "message",
    "parse",
    "CGLocalApp",
]

DEFAULT_PORT = 53135
"""The extension always connects to ``ws://localhost:53135/``."""
PORT_VARIABLE = "CGARENA_CG_LOCAL_PORT"
"""Overrides :data:`DEFAULT_PORT` (for tests; the extension itself cannot be told another port)."""
NORMAL_CLOSURE = 1000
"""The close code the extension treats as a normal end (any other shows it an error)."""
HOSTS = ("127.0.0.1", "::1")
EXTENSION_ORIGINS = ("chrome-extension://", "moz-extension://")
REFUSED_WAIT_S = 5.0
"""How long a refused second connection is given to close itself before it is closed."""


class Action(str, Enum):
    """The ``action`` of a message, as the extension names them."""

    SEND_DETAILS = "send-details"
    DETAILS = "details"
    APP_READY = "app-ready"
    ALREADY_CONNECTED = "already-connected"
    UPDATE_CODE = "update-code"
    SEND_CODE = "send-code"
    CODE = "code"
    SET_READ_ONLY = "set-read-only"
    ERROR = "error"


class CGLocalError(BundleError):
    """The application cannot serve (the port is taken, or cannot be bound)."""


@dataclass(frozen=True)
class Listening:
    """Waiting for the extension on ``ws://localhost:port/``."""

    port: int


@dataclass(frozen=True)
class Connected:
    """The IDE answered with the details of the question it has open (no language: the
    extension does not send it); ``None`` where it sent none."""

    title: str | None
    question_id: int | None


@dataclass(frozen=True)
class Refused:
    """A second connection (another browser) was answered ``already-connected``."""

    peer: str


@dataclass(frozen=True)
class Blocked:
    """A connection from a web page (not from an extension) was refused before the handshake."""

    origin: str


@dataclass(frozen=True)
class Disconnected:
    """The connection ended: ``code`` 1000 is a normal close (tab closed, CG Local turned off);
    anything else (``None``: no close frame) is a dropped connection."""

    code: int | None

    @property
    def clean(self) -> bool:
        return self.code == NORMAL_CLOSURE


@dataclass(frozen=True)
class Saved:
    """The IDE's code as it was before the first push, saved to ``path``."""

    path: Path
    characters: int


@dataclass(frozen=True)
class SaveFailed:
    """The IDE's code could not be saved, so nothing is pushed to it (it was told why)."""

    reason: str


@dataclass(frozen=True)
class Pushed:
    """A bundle was sent to the IDE (``play``: and the IDE was asked to play it)."""

    characters: int
    play: bool


@dataclass(frozen=True)
class Unchanged:
    """A rebuild gave the bundle the IDE already has: it is not sent again."""


LinkEvent = Listening | Connected | Refused | Blocked | Disconnected | Saved | SaveFailed | Pushed | Unchanged


def port_from_env(environ: Mapping[str, str] = os.environ) -> int:
    """The port to serve: :data:`PORT_VARIABLE` when set, else :data:`DEFAULT_PORT`."""
    text = environ.get(PORT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_PORT
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise CGLocalError(f"{PORT_VARIABLE}={text!r}: not a port number (1 to 65535); unset it to use {DEFAULT_PORT}")
    return int(text)


def message(action: Action, payload: dict[str, Any] | None = None) -> str:
    """One message as the extension reads it."""
    return json.dumps({"action": action.value, "payload": payload if payload is not None else {}})


def parse(text: str | bytes) -> tuple[str, Any]:
    """A received message's action and payload (``("", None)`` when it is not one)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return "", None
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return "", None
    return data["action"], data.get("payload")


def _listen(port: int) -> list[socket.socket]:
    """A listening socket on each loopback address (``::1`` is skipped where IPv6 is off)."""
    sockets: list[socket.socket] = []
    for host in HOSTS:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            sockets.append(socket.create_server((host, port), family=family))
        except OSError as exc:
            if family == socket.AF_INET6 and exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                continue
            for s in sockets:
                s.close()
            if exc.errno == errno.EADDRINUSE:
                raise CGLocalError(
                    f"port {port} on {host} is in use: close the CG Local application (or another "
                    f"bundle --cg-local) first"
                ) from None
            raise CGLocalError(f"cannot listen on {host} port {port} ({exc.strerror or exc})") from None
    return sockets


class CGLocalApp:
    """The application end of CG Local: one IDE tab at a time; :meth:`offer` a bundle and it
    reaches the IDE once the IDE's own code is saved under ``backup_dir``. Use as a context
    manager (leaving it closes the connection with code 1000 and stops listening)."""

    def __init__(self, port: int, backup_dir: Path, play: bool = False) -> None:
        self.port = port
        self.backup_dir = backup_dir
        self.play = play
        self._events: queue.Queue[LinkEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._current: ServerConnection | None = None
        self._open: set[ServerConnection] = set()
        """Every connection being handled (the one served and refused ones), closed by :meth:`stop`."""
        self._ready: ServerConnection | None = None
        self._latest: str | None = None
        self._sent: str | None = None
        """What the ready connection's IDE was last sent."""
        self._servers: list[Server] = []
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> CGLocalApp:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def start(self) -> None:
        """Listen (raises :class:`CGLocalError` when the port cannot be had)."""
        for sock in _listen(self.port):
            server = serve(
                self._handle, sock=sock, process_request=self._check_origin, compression=None, close_timeout=2
            )
            thread = threading.Thread(target=server.serve_forever, name="cg-local", daemon=True)
            thread.start()
            self._servers.append(server)
            self._threads.append(thread)
        self._events.put(Listening(self.port))

    def stop(self) -> None:
        """Close the connections (code 1000) and stop listening; idempotent."""
        with self._lock:
            connections = list(self._open)
        for ws in connections:
            ws.close(NORMAL_CLOSURE, "bundle stopped")
        for server in self._servers:
            server.shutdown()
        for thread in self._threads:
            thread.join(timeout=REFUSED_WAIT_S)
        self._servers, self._threads = [], []

    def offer(self, code: str) -> None:
        """The newest good bundle: sent now if the IDE is ready, else when it is."""
        with self._lock:
            self._latest = code
            if self._ready is not None:
                if code == self._sent:
                    self._events.put(Unchanged())
                else:
                    self._push(self._ready, code)

    def events(self, timeout: float) -> Iterator[LinkEvent]:
        """What happened: waits up to ``timeout`` seconds for the first event, then takes what
        is there."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                yield self._events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            deadline = 0.0

    # -- the connection (in the server's threads) -----------------------------------------------

    def _check_origin(self, connection: ServerConnection, request: Request) -> Response | None:
        origin = request.headers.get("Origin")
        if origin is None or origin.startswith(EXTENSION_ORIGINS):
            return None
        self._events.put(Blocked(origin))
        return Response(403, "Forbidden", Headers([("Content-Length", "0")]), b"")

    def _handle(self, ws: ServerConnection) -> None:
        with self._lock:
            self._open.add(ws)
            busy = self._current is not None
            if not busy:
                self._current = ws
        try:
            if busy:
                self._refuse(ws)
            else:
                self._serve(ws)
        finally:
            with self._lock:
                self._open.discard(ws)

    def _serve(self, ws: ServerConnection) -> None:
        try:
            self._converse(ws)
        except ConnectionClosed:
            pass
        finally:
            with self._lock:
                self._current = self._ready = self._sent = None
            self._events.put(Disconnected(ws.close_code))

    def _refuse(self, ws: ServerConnection) -> None:
        peer = _peer(ws)
        try:
            ws.send(message(Action.ALREADY_CONNECTED))
            self._events.put(Refused(peer))
            while True:  # the extension closes it (code 1000) on reading the answer
                ws.recv(timeout=REFUSED_WAIT_S)
        except (ConnectionClosed, TimeoutError):
            return

    def _converse(self, ws: ServerConnection) -> None:
        ws.send(message(Action.SEND_DETAILS))
        details = _expect(ws, Action.DETAILS)
        self._events.put(_connected(details))
        ws.send(message(Action.APP_READY))
        ws.send(message(Action.SET_READ_ONLY, {"state": True}))
        ws.send(message(Action.SEND_CODE))
        answer = _expect(ws, Action.CODE)
        code = answer.get("code") if isinstance(answer, dict) else None
        if not isinstance(code, str):
            code = ""
        try:
            path = self._save(code, details)
        except (OSError, OutputError) as exc:
            why = exc if isinstance(exc, OutputError) else exc.strerror or exc
            reason = f"could not save the IDE's code under {self.backup_dir} ({why})"
            self._events.put(SaveFailed(reason))
            ws.send(message(Action.ERROR, {"message": f"bundle: {reason}; nothing was sent"}))
            _drain(ws)
            return
        self._events.put(Saved(path, len(code)))
        with self._lock:
            self._ready = ws
            if self._latest is not None:
                self._push(ws, self._latest)
        _drain(ws)  # the editor's own code messages: the bundle is the source of truth

    def _push(self, ws: ServerConnection, code: str) -> None:
        try:
            ws.send(message(Action.UPDATE_CODE, {"code": code, "play": self.play}))
        except ConnectionClosed:
            return  # the handler reports the disconnection; the bundle waits for the next one
        self._sent = code
        self._events.put(Pushed(len(code), self.play))

    def _save(self, code: str, details: Any) -> Path:
        question = details.get("questionId") if isinstance(details, dict) else None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        stem = f"ide-{question if isinstance(question, int) else 'unknown'}-{stamp}"
        self.backup_dir.mkdir(parents=True, exist_ok=True)
        path = self.backup_dir / f"{stem}.txt"
        n = 1
        while path.exists():
            n += 1
            path = self.backup_dir / f"{stem}-{n}.txt"
        write_atomic(path, code)
        return path


def _expect(ws: ServerConnection, action: Action) -> Any:
    """The payload of the next message with ``action`` (others before it are ignored)."""
    while True:
        got, payload = parse(ws.recv())
        if got == action.value:
            return payload


def _drain(ws: ServerConnection) -> None:
    """Read (and ignore) messages until the connection closes."""
    while True:
        ws.recv()


def _connected(details: Any) -> Connected:
    if not isinstance(details, dict):
        return Connected(None, None)
    title, question = details.get("title"), details.get("questionId")
    return Connected(
        title if isinstance(title, str) else None,
        question if isinstance(question, int) and not isinstance(question, bool) else None,
    )


def _peer(ws: ServerConnection) -> str:
    try:
        address = ws.remote_address
        return f"{address[0]} port {address[1]}"
    except (OSError, IndexError, TypeError):
        return "an unknown peer"
