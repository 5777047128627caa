"""Linux process plumbing: who adopts orphans (:func:`become_subreaper`), how a child is launched
under its limits so that it dies with its parent (:func:`launch_command`), and how a process tree
is signalled, killed and reaped.

OS mechanism only, nothing about bots or games: :class:`arena.match.process.botprocess.BotProcess`
starts and kills each bot with it, and the tournament kills what dead workers left
(:func:`kill_orphans`). What a tree holds is read from ``/proc`` by
:mod:`arena.match.process.proctree`; this module acts on it. Linux only (``prctl``, ``/proc``,
pidfds where the kernel has them).
"""

from __future__ import annotations

import ctypes
import functools
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence

from . import proctree

__all__ = [
    "LAUNCHER_FAILED",
    "admission_text",
    "become_subreaper",
    "die_with_parent",
    "launch_command",
    "tree_of",
    "send",
    "signal_all",
    "alive",
    "reap",
    "wait_for_exit",
    "reap_when_gone",
    "kill_orphans",
]

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1
_subreaper_lock = threading.Lock()
_is_subreaper = False


def _prctl() -> Callable[..., int] | None:
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL = _prctl()


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux ``PR_SET_CHILD_SUBREAPER``).

    A bot's grandchild whose parent exited is then re-parented to us, so it can still be found,
    killed and reaped. Returns whether it worked.
    """
    global _is_subreaper
    with _subreaper_lock:
        if not _is_subreaper and _PRCTL is not None:
            _is_subreaper = _PRCTL(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        return _is_subreaper


def die_with_parent(parent: int | None = None) -> None:
    """Ask for ``SIGKILL`` when the parent dies (``PR_SET_PDEATHSIG``); exit at once when it
    already has (``parent``: its pid as seen before the fork). Safe between fork and exec."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


@functools.cache
def _setpriv() -> str | None:
    """``setpriv`` (util-linux) where it can set the parent-death signal, else ``None``."""
    found = shutil.which("setpriv")
    if found is None:
        return None
    try:
        done = subprocess.run(
            [found, "--pdeathsig", "KILL", "--", "/bin/sh", "-c", ":"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return found if done.returncode == 0 else None


LAUNCHER_FAILED = 125
"""The exit code of a bot whose launcher could not put it under its limits (its stderr says why),
or whose parent was gone before the parent-death signal was set."""
_LAUNCHER = (
    'while [ "$1" != -- ]; do case $1 in '
    f'-p) [ "$PPID" = "$2" ] || exit {LAUNCHER_FAILED}; shift 2;; '
    f'-v) ulimit -v "$2" || exit {LAUNCHER_FAILED}; shift 2;; '
    f'*) echo 0 > "$1" || exit {LAUNCHER_FAILED}; shift;; esac; done; shift; exec "$@"'
)


def _launcher(cgroup_procs: Sequence[str], address_space_kb: int | None, parent: int | None) -> list[str]:
    """The shell that admits the process under its limits, then replaces itself with the
    command: ``/bin/sh -c LAUNCHER arena-launch [-p PARENT] [-v KB] [CGROUP_PROCS...] --``, or []
    when there is nothing to do. ``-p``: exit unless the parent is still ``parent`` (a parent
    that died before ``setpriv`` set the parent-death signal would otherwise never send it)."""
    words = [
        *(["-p", str(parent)] if parent is not None else []),
        *(["-v", str(address_space_kb)] if address_space_kb else []),
        *cgroup_procs,
    ]
    return ["/bin/sh", "-c", _LAUNCHER, "arena-launch", *words, "--"] if words else []


def admission_text(cgroup_procs: Sequence[str] = (), address_space_kb: int | None = None) -> str:
    """The admission of :func:`launch_command`'s shell for a process that does it itself (a
    Python bot's fast start, :func:`arena.match.launch.pystart.admitting`), one item per line: this
    process's PID where ``setpriv`` sets the parent-death signal (else empty: the child checks
    its parent before ``exec``), the address-space limit in KiB (or empty), then the
    ``cgroup.procs`` files to join. A shell and its ``exec`` cost about a millisecond a bot."""
    parent = str(os.getpid()) if _setpriv() is not None else ""
    return "\n".join([parent, str(address_space_kb) if address_space_kb else "", *cgroup_procs])


def launch_command(
    command: Sequence[str],
    cgroup_procs: Sequence[str] = (),
    address_space_kb: int | None = None,
    *,
    admitted: bool = False,
) -> tuple[list[str], Callable[[], None] | None]:
    """What runs ``command`` as a child that dies with the thread that starts it, after joining
    the cgroups whose ``cgroup.procs`` files are given and limiting its address space (KiB), and
    the function to run in the child between fork and exec (for :class:`subprocess.Popen`'s
    ``preexec_fn``; ``None`` where ``setpriv`` sets the parent-death signal).

    The command is ``setpriv --pdeathsig KILL -- /bin/sh -c LAUNCHER ... -- command``: each part
    ``exec`` s the next and no Python runs in the child, so :mod:`subprocess` starts it with
    ``vfork``, not a ``fork`` of a big arena process (tens of milliseconds; without ``setpriv``,
    :func:`die_with_parent` runs in the child). ``admitted``: the command does the shell's work
    itself (:func:`admission_text`)."""
    setpriv, parent = _setpriv(), os.getpid()
    launcher = [] if admitted else _launcher(cgroup_procs, address_space_kb, parent if setpriv else None)
    launched = [*launcher, *command]
    if setpriv is not None:
        return [setpriv, "--pdeathsig", "KILL", "--", *launched], None
    return launched, functools.partial(die_with_parent, parent)


# -- ending a process tree -------------------------------------------------------------------------


def tree_of(root: int, mark: int | None = None) -> list[int]:
    """The descendants of ``root`` and the orphans of its session or with the address-space limit
    ``mark`` (see :func:`proctree.tree_of`), the faster way when this process is a subreaper."""
    return proctree.tree_of(root, _is_subreaper, mark)


def send(pids: Iterable[int], sig: signal.Signals = signal.SIGKILL) -> None:
    """Send ``sig`` to each of ``pids`` (those gone meanwhile are skipped)."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def signal_all(root: int, pids: list[int], sig: signal.Signals) -> None:
    """Send ``sig`` to the process group of ``root``, to ``root`` and to each of ``pids``."""
    try:
        os.killpg(root, sig)
    except OSError:
        pass
    send([root, *pids], sig)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs; a zombie is reaped (when it is ours to reap) and counts as gone."""
    st = proctree.stat(pid)
    if st is None:
        return False
    if st.state == "Z":
        reap([pid])
        return False
    return True


def reap(pids: list[int]) -> None:
    """Reap the descendants re-parented to us (we are a subreaper)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def wait_for_exit(proc: subprocess.Popen[bytes], timeout_s: float) -> None:
    """Wait until ``proc`` exits or ``timeout_s`` passes, woken by the kernel when it exits (a
    pidfd) rather than by polling; without pidfds (Linux < 5.3), :meth:`Popen.wait` polls."""
    if not _wait_pidfd(proc.pid, timeout_s):
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass
        return
    proc.poll()


def reap_when_gone(pid: int, timeout_s: float) -> None:
    """Wait until ``pid``, a child of ours (a descendant re-parented to us) ends or ``timeout_s``
    passes, as :func:`wait_for_exit` does, and reap it."""
    if _wait_pidfd(pid, timeout_s):
        reap([pid])
        return
    end = time.monotonic() + timeout_s
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.002)


def _wait_pidfd(pid: int, timeout_s: float) -> bool:
    """Wait for ``pid`` to exit by a pidfd, at most ``timeout_s``; False without pidfds."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.poll(max(0, int(timeout_s * 1000)))
    finally:
        os.close(fd)
    return True


def kill_orphans(keep: Sequence[int] = ()) -> int:
    """Kill and reap what dead children left to this process (a subreaper, see
    :func:`become_subreaper`): every child in a session of its other than ours (bots start their
    own) and its descendants, ``keep`` aside. Returns how many processes were killed."""
    own_session = os.getsid(0)
    kids = proctree.children(os.getpid())
    if kids is None:
        kids = [pid for pid, st in proctree.table() if st.ppid == os.getpid()]
    orphans = [p for p in kids if p not in keep and (st := proctree.stat(p)) is not None and st.session != own_session]
    if not orphans:
        return 0
    targets = list(dict.fromkeys(orphans + (proctree.descendants(orphans) or [])))
    send(targets)
    end = time.monotonic() + 2
    while any(alive(p) for p in orphans) and time.monotonic() < end:
        reap(orphans)
        time.sleep(0.002)
    return len(targets)
