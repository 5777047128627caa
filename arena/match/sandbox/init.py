"""The first process of a bot's sandbox, its init: what it is, and what the arena reads through it.

bubblewrap's own init (``bwrap --unshare-pid`` without ``--as-pid-1``) would be a copy of the
``bwrap`` process, whose command line (every path the sandbox hides), environment (the arena's,
whole) and memory the bot could read. The sandbox's init is instead a shell that ``bwrap`` starts
afresh with an empty environment, as the first process of the namespace (``--as-pid-1``): it runs
the bot with ``env -i`` and the bot's own variables, reaps whatever is left to it, and ends with
the bot, with its exit status (a signal's is 128 + its number, as bubblewrap's).

From outside, the init is the ``bwrap`` process's one child: it holds the bot's pipes, and its
root is the sandbox's, through which the arena reads what the bot holds in its in-memory ``/tmp``
and ``/dev/shm`` (:func:`scratch_bytes`). When the ``bwrap`` process dies first (the arena kills
it at a match's end), the init dies with it and is re-parented to the arena (a subreaper) in a
session of its own, so ``bwrap`` says its PID on a pipe (:class:`InitPid`) and the arena reaps it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence

from ..process import proctree

__all__ = ["INIT_NAME", "InitPid", "init_words", "environment_of", "has_init", "scratch_bytes"]

INIT_NAME = "arena-init"
"""The name of the sandbox's first process (``$0`` of its shell, see :func:`init_words`)."""
_INIT = 'exec 3>&2 2>/dev/null; ("$@") 2>&3 3>&-; exit $?'
"""The script of the sandbox's first process: run the bot (the shell reaps every child as it
waits), then exit with its status (the bot is not ``exec``'d: it would then be the init). The
shell's own stderr is ``/dev/null``: a shell tells there how a command it waited for died
("Terminated"), which would otherwise land in the bot's stderr. The bot gets the real one (kept
on descriptor 3) in the subshell, which ``exec``'s it."""
_ENV = "/usr/bin/env" if os.path.exists("/usr/bin/env") else (shutil.which("env") or "env")


def init_words(variables: Mapping[str, str], program: str | None) -> list[str]:
    """The sandbox's first process (see the module's docstring) and what it runs the bot with, up
    to the bot's command: ``--as-pid-1 -- /bin/sh -c INIT arena-init /usr/bin/env -i --
    NAME=VALUE...`` (``variables``). ``nice -n 0`` runs a program whose path holds a ``=``, which
    ``env`` would take for a variable."""
    words = [_ENV, "-i", "--", *(f"{k}={v}" for k, v in variables.items())]
    if program is not None and "=" in program:
        words += [shutil.which("nice") or "/usr/bin/nice", "-n", "0", "--"]
    return ["--as-pid-1", "--", "/bin/sh", "-c", _INIT, INIT_NAME, *words]


def environment_of(wrapper: Sequence[str]) -> dict[str, str] | None:
    """The whole environment a bot gets under ``wrapper``, a prefix made by
    :func:`arena.match.sandbox.confine` (whose init runs the bot with ``env -i -- NAME=VALUE...``);
    ``None`` for another prefix, whose bot's environment is not known from its words."""
    words = list(wrapper)
    for i in range(len(words) - 5):
        if words[i : i + 2] == ["-c", _INIT] and words[i + 3 : i + 6] == [_ENV, "-i", "--"]:
            env: dict[str, str] = {}
            for word in words[i + 6 :]:
                name, equals, value = word.partition("=")
                if not equals:
                    break
                env[name] = value
            return env
    return None


def has_init(wrapper: Sequence[str]) -> bool:
    """Whether ``wrapper`` (a command prefix) starts the bot under the sandbox's init: its
    ``bwrap`` process's one child, which holds the bot's pipes too."""
    return INIT_NAME in wrapper and "--as-pid-1" in wrapper


class InitPid:
    """The PID of a sandbox's init, as its ``bwrap`` process tells it on a pipe (``--info-fd``:
    ``{"child-pid": N}``, written once the init exists). Make it before the ``bwrap`` process
    starts, put :meth:`words` after its program and pass :attr:`write_fd` to it (then
    :meth:`started`); :meth:`pid` reads the PID once ``bwrap`` has ended (or written it)."""

    def __init__(self) -> None:
        self._read_fd, self.write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        self._pid: int | None = None

    def words(self) -> list[str]:
        """The ``bwrap`` option that makes it write the init's PID to :attr:`write_fd`."""
        return ["--info-fd", str(self.write_fd)]

    def started(self) -> None:
        """The ``bwrap`` process has started (or failed to): our copy of its end is closed, so
        that the pipe ends when ``bwrap`` does."""
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    def pid(self) -> int | None:
        """The init's PID, ``None`` when ``bwrap`` ended before it made one (or, still running,
        has not written it yet: call this once it has ended). Never waits."""
        if self._read_fd >= 0:
            self.started()
            data = b""
            try:
                while chunk := os.read(self._read_fd, 4096):
                    data += chunk
            except OSError:  # BlockingIOError: nothing more written (yet)
                pass
            finally:
                os.close(self._read_fd)
                self._read_fd = -1
            try:
                found = json.loads(data.decode()).get("child-pid")
                self._pid = found if isinstance(found, int) else None
            except (ValueError, UnicodeDecodeError, AttributeError):
                self._pid = None
        return self._pid

    def close(self) -> None:
        """Forget the pipe (the PID, once read, is kept)."""
        self.started()
        if self._read_fd >= 0:
            os.close(self._read_fd)
            self._read_fd = -1


def scratch_bytes(root: int) -> int:
    """The bytes held by the files of the sandbox whose ``bwrap`` process is ``root``: its
    in-memory ``/tmp`` and ``/dev/shm`` (the bot's memory, which only a cgroup charges it),
    read through its init's root (``/proc/INIT/root``); 0 once it is gone, and while ``bwrap`` is
    still making the sandbox (its future init's root is then ours, and our ``/tmp`` would count)."""
    total = 0
    for init in (proctree.children(root) or [])[:1]:
        for place in ("tmp", "dev/shm"):
            try:
                if _same_file(f"/proc/{init}/root/{place}", f"/{place}"):
                    continue  # not the sandbox's yet: bwrap is still making it (the host's is seen)
                used = os.statvfs(f"/proc/{init}/root/{place}")
            except OSError:
                continue
            total += (used.f_blocks - used.f_bfree) * used.f_frsize
    return total


def _same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name the same file (a missing ``b`` names none)."""
    first = os.stat(a)
    try:
        second = os.stat(b)
    except OSError:
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)
