"""The CG Local extension's side of its protocol, scripted, and ``bundle --cg-local`` run as a
process, for the tests.

:class:`Extension` answers as the extension's source (jmerle/cg-local-ext 1.2.1) defines it:
``src/background/application.ts`` opens ``ws://localhost:53135/`` (here the test's port), sends
``{action, payload}`` JSON, closes with code 1000 on ``already-connected`` and ``error``;
``src/content/index.ts`` answers ``send-details`` with the question details ``{title,
questionId}`` (``src/content/Editor.ts``), ``send-code`` with ``code {code}``, applies
``update-code {code, play}`` (line ends made ``\\n``) and ``set-read-only {state}``, and makes the
editor read-only on ``app-ready``. Every message received is kept, in order, for the test.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.helpers.paths import REPO_ROOT

CHROME_ORIGIN = "chrome-extension://ihakjfajoihlncbnggmcmmeabclpfdgo"
"""The Origin a Chrome extension's background worker sends (the Web Store id of CG Local)."""
WAIT_S = 20.0


def free_port() -> int:
    """A port free on both loopback addresses now."""
    while True:
        with socket.socket(socket.AF_INET) as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        try:
            with socket.socket(socket.AF_INET6) as s6:
                s6.bind(("::1", port))
        except OSError:
            if socket.has_ipv6 and ipv6_loopback():
                continue
        return port


def ipv6_loopback() -> bool:
    """Whether ``::1`` can be listened on here."""
    try:
        with socket.socket(socket.AF_INET6) as s6:
            s6.bind(("::1", 0))
        return True
    except OSError:
        return False


def open_socket(port: int, host: str = "127.0.0.1", origin: str | None = CHROME_ORIGIN) -> ClientConnection:
    """Connect as the extension does, retrying while the application is starting."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            where = host if ":" not in host else f"[{host}]"
            connection = connect(f"ws://{where}:{port}/", origin=origin, open_timeout=5)
            return connection.__enter__()  # held open by the test (what websockets 17 asks for this)
        except (ConnectionRefusedError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Extension:
    """One browser's CG Local extension connected from an IDE tab holding ``code``."""

    def __init__(
        self,
        port: int,
        code: str = "",
        title: str = "Spring Challenge 2021",
        question_id: int = 8339,
        backups: Path | None = None,
    ):
        self.code = code
        self.read_only = False
        self.details = {"title": title, "questionId": question_id}
        self.received: queue.Queue[dict[str, Any]] = queue.Queue()
        self.backups = backups
        self.backups_at_update: list[list[str]] = []
        """The contents of the files in ``backups`` as each ``update-code`` arrived."""
        self.ws = open_socket(port)
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _send(self, action: str, payload: Any) -> None:
        self.ws.send(json.dumps({"action": action, "payload": payload}))

    def _run(self) -> None:
        try:
            for text in self.ws:
                msg = json.loads(text)
                self._answer(msg["action"], msg["payload"])
                self.received.put(msg)  # after its effect, so that the test sees both
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()

    def _answer(self, action: str, payload: Any) -> None:
        if action == "send-details":
            self._send("details", self.details)
        elif action == "app-ready":
            self.read_only = True
        elif action == "set-read-only":
            self.read_only = bool(payload["state"])
        elif action == "send-code":
            self._send("code", {"code": self.code})
        elif action == "update-code":
            if self.backups is not None:
                found = sorted(self.backups.iterdir()) if self.backups.is_dir() else []
                self.backups_at_update.append([p.read_text() for p in found])
            self.code = payload["code"].replace("\r\n", "\n").replace("\r", "\n")
        elif action in ("already-connected", "error"):
            self.ws.close(1000)

    def next(self, timeout: float = WAIT_S) -> dict[str, Any]:
        return self.received.get(timeout=timeout)

    def nothing_within(self, seconds: float) -> bool:
        """No message arrives within ``seconds``."""
        try:
            got = self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        self.received.put(got)
        return False

    def handshake(self) -> list[dict[str, Any]]:
        """The four messages the application sends up to asking for the IDE's code."""
        return [self.next() for _ in range(4)]

    def close(self, code: int = 1000) -> None:
        self.ws.close(code)
        self.closed.wait(WAIT_S)

    def drop(self) -> None:
        """Lose the connection without a close frame (a crashed browser, a lost network)."""
        self.ws.socket.shutdown(socket.SHUT_RDWR)
        self.ws.socket.close()


class BundleProcess:
    """``bundle ARGS`` run in ``cwd`` with the application's port set to ``port``; its standard
    error read line by line as it comes."""

    def __init__(self, cwd: Path, port: int, *args: str):
        path = os.pathsep.join([str(REPO_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
        env = dict(os.environ, PYTHONPATH=path, CGARENA_CG_LOCAL_PORT=str(port), PYTHONUNBUFFERED="1")
        code = "import sys; from cli.bundle import main; sys.argv[0] = 'bundle'; main()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = WAIT_S) -> str:
        """The first line (from now on) of standard error containing ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {text!r}; standard error so far:\n{self.stderr()}") from None
            self.seen.append(line)
            if text in line:
                return line

    def stderr(self) -> str:
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "".join(self.seen)

    def interrupt(self) -> int:
        """Ctrl-C; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        return self.finish()

    def finish(self) -> int:
        try:
            return self.proc.wait(timeout=WAIT_S)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(timeout=WAIT_S)
