"""One bot as a child process: its own session, bounded reads, deadlines, and a clean kill.

Nothing here knows about games. A :class:`BotProcess` writes input lines, reads answer lines
before a deadline (:mod:`arena.match.protocol`), keeps a bounded tail of stderr
(:mod:`arena.match.process.stderrtail`) and holds the bot's whole tree to its limits
(:mod:`arena.match.limits`: past one, it is killed at once and :attr:`BotProcess.breach` says
which). :meth:`BotProcess.kill_tree` terminates the whole tree (TERM, then KILL after a grace
period) and reaps it, even when the bot spawned children, started new sessions or ignores
SIGTERM. The Linux mechanism under it (launcher, parent-death signal, subreaper, reaping) is
:mod:`arena.match.process.plumbing`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import ArenaError
from .. import sandbox
from ..launch import pystart
from ..limits import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TASK_LIMIT, Breach, TreeLimiter, TreeLimits, limitwatch
from ..limits.enforcement import tree_limiter
from ..protocol.lines import LineSplitter
from ..protocol.pipes import BotPipes, ReadResult, ReadStatus
from ..sandbox import init as sandboxinit
from . import plumbing, proctree
from .shield import shielded
from .stderrtail import StderrTail

__all__ = ["BotProcess", "BotStartError", "ReadStatus", "ReadResult", "ExitInfo", "resolve_program"]

KILL_GRACE_S = 0.2
QUICK_LOOK_S = 0.001
"""After an answer the limits are looked at again unless they were less than this long ago (a
bot answering in microseconds, a thousand turns a second, would spend the arena's time on it)."""


class BotStartError(ArenaError):
    """The bot could not be started (missing file, not executable, ...)."""


@dataclass(frozen=True, slots=True)
class ExitInfo:
    returncode: int | None
    """Exit code, or None while running."""
    signal: str | None
    """Name of the signal that killed the process (``SIGKILL``...), if any."""


_ELF = b"\x7fELF"


def resolve_program(program: str, cwd: str | None, env: Mapping[str, str] | None) -> str:
    """The file ``exec`` would run for ``program`` (searched in the ``PATH`` of ``env``, or ours;
    a path with a slash is relative to ``cwd``). Raises :class:`BotStartError` when there is none,
    it is not executable, or it is neither a binary nor a ``#!`` script (the shell and ``execvp``
    would run such a file as a shell script instead of refusing it)."""
    where = cwd or "."
    if "/" in program:
        candidates = [os.path.join(where, program)]
    else:
        candidates = [os.path.join(where, d, program) for d in os.get_exec_path(dict(env) if env is not None else None)]
    denied = False
    for path in candidates:
        if not os.path.exists(path):
            continue
        if os.path.isdir(path) or not os.access(path, os.X_OK):
            denied = True
            continue
        try:
            with open(path, "rb") as f:
                head = f.read(4)
        except OSError:
            return path  # executable but not readable: a binary, exec decides
        if head.startswith(b"#!") or head == _ELF:
            return path
        raise BotStartError(
            f"{program}: neither a binary nor a script with a '#!' line "
            f"(add one, or name its interpreter in the command)"
        )
    if denied:
        raise BotStartError(f"{program}: permission denied (not executable?)")
    raise BotStartError(f"{program}: no such file or command")


class BotProcess:
    """A running bot. Create with :meth:`start`."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
        task_limit: int | None = DEFAULT_TASK_LIMIT,
        name: str = "bot",
        wrapper: Sequence[str] = (),
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.limits = TreeLimits(memory_limit_mb, task_limit)
        self._limiter: TreeLimiter | None = None
        self.wrapper = list(wrapper)
        """The command prefix that runs ``argv`` (the sandbox's, :func:`arena.match.sandbox.confine`)."""
        self._wrapper_exe = os.path.realpath(shutil.which(self.wrapper[0]) or self.wrapper[0]) if self.wrapper else None
        self._init = sandbox.has_init(self.wrapper)
        self._init_pid: sandboxinit.InitPid | None = None
        self._mark: int | None = None
        """The address-space limit (bytes) that marks the bot's processes, where the limiter
        gives one (see :func:`arena.match.process.proctree.tree_of`)."""
        self.breach: Breach | None = None
        """The limit the bot went past (it was killed for it), if any."""
        self.name = name
        self._splitter = LineSplitter()
        self._stderr = StderrTail()
        self._proc: subprocess.Popen[bytes] | None = None
        self._killed = False
        self._pipes: BotPipes | None = None
        self._looked_at = 0.0  # time.monotonic() of the last look at the limits

    def start(self) -> BotProcess:
        """Start the process in its own session, under its limits (the command is
        :func:`arena.match.process.plumbing.launch_command`'s; a Python bot may get the fast start
        of :mod:`arena.match.launch.pystart`). Raises :class:`BotStartError`.

        Ctrl-C (or SIGTERM) during the start is held until it has ended, then raised: the caller
        then has a whole process to kill (:meth:`kill_tree`), not one half started.
        """
        with shielded():
            self._start()
        return self

    def _start(self) -> None:
        resolve_program(self.argv[0], self.cwd, self.env)
        plumbing.become_subreaper()
        held = sandbox.scratch_bytes if self._init else None
        self._limiter = limiter = tree_limiter(self.limits, held)
        argv = pystart.launch_argv(self.argv, self.cwd, self._bot_env())
        admission = limiter.admission()
        self._mark = admission.address_space_kb * 1024 if admission.address_space_kb else None
        admitted = (
            None
            if self.wrapper
            else pystart.admitting(argv, plumbing.admission_text(admission.cgroup_procs, admission.address_space_kb))
        )
        wrapper = self.wrapper
        if self._init:
            self._init_pid = info = sandboxinit.InitPid()
            wrapper = [wrapper[0], *info.words(), *wrapper[1:]]
        command, setup = plumbing.launch_command(
            [*wrapper, *(admitted or argv)],
            admission.cgroup_procs,
            admission.address_space_kb,
            admitted=admitted is not None,
        )
        try:
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
                close_fds=True,
                pass_fds=() if self._init_pid is None else (self._init_pid.write_fd,),
                preexec_fn=setup,
            )
        except FileNotFoundError as exc:
            limiter.close()
            if self.cwd is not None and not os.path.isdir(self.cwd):
                raise BotStartError(f"{self.cwd}: the bot's working folder does not exist") from None
            raise BotStartError(f"{exc.filename or command[0]}: no such file or command") from None
        except PermissionError:
            limiter.close()
            raise BotStartError(f"{command[0]}: permission denied (not executable?)") from None
        except (OSError, subprocess.SubprocessError) as exc:
            limiter.close()
            raise BotStartError(f"{command[0]}: {getattr(exc, 'strerror', None) or exc}") from None
        finally:
            if self._init_pid is not None:
                self._init_pid.started()
                if self._proc is None:  # not started: no init to wait for
                    self._init_pid.close()
        assert self._proc.stdout and self._proc.stdin and self._proc.stderr
        limitwatch.watch(self, lambda: self._look_at_limits() is not None)  # True: killed, no more looks
        stdin_fd, stdout_fd = self._proc.stdin.fileno(), self._proc.stdout.fileno()
        os.set_blocking(stdout_fd, False)
        os.set_blocking(stdin_fd, False)
        self._pipes = BotPipes(stdin_fd, stdout_fd, self._splitter)
        self._stderr.start(self._proc.stderr.fileno())

    def _bot_env(self) -> Mapping[str, str] | None:
        """The environment the bot gets: ours, ``env``, or the one the sandbox sets (``bwrap
        --clearenv --setenv NAME VALUE...``); ``None`` when a wrapper makes it unknown."""
        if not self.wrapper:
            return self.env if self.env is not None else os.environ
        return sandbox.environment_of(self.wrapper)

    def _look_at_limits(self, thorough: bool = True) -> Breach | None:
        """Check the limits now; on a breach, record it and kill every process of the bot."""
        proc, limiter = self._proc, self._limiter
        if proc is None or limiter is None:
            return None
        self._looked_at = time.monotonic()
        breach = limiter.check(proc.pid, self._tree if thorough else self._quick_tree)
        if breach is not None:
            self.breach = self.breach or breach
            limiter.kill_all()
            plumbing.signal_all(proc.pid, plumbing.tree_of(proc.pid, self._mark), signal.SIGKILL)
        return breach

    def _tree(self) -> list[int]:
        """The bot's descendants and the processes they left to us (:func:`plumbing.tree_of`)."""
        assert self._proc is not None
        return plumbing.tree_of(self._proc.pid, self._mark)

    def _quick_tree(self) -> list[int]:
        """The bot's descendants, without looking for the processes they left to the arena."""
        assert self._proc is not None
        found = proctree.descendants([self._proc.pid])
        return found if found is not None else self._tree()

    def limit_breach(self, thorough: bool = True) -> Breach | None:
        """The limit the bot went past, if any, looking once more now (a breach found kills the
        bot). Not ``thorough`` (after each answer, where it must be cheap): the processes its
        descendants left to the arena are not counted (the regular look counts them), and a look
        less than :data:`QUICK_LOOK_S` old is not repeated."""
        if (
            self.breach is None
            and not self._killed
            and (thorough or time.monotonic() - self._looked_at >= QUICK_LOOK_S)
        ):
            self._look_at_limits(thorough)
        return self.breach

    def tree(self) -> list[int]:
        """The bot's process and every descendant (what :meth:`kill_tree` would kill now)."""
        if self._proc is None:
            return []
        return [self._proc.pid, *plumbing.tree_of(self._proc.pid, self._mark)]

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def poll(self) -> ExitInfo:
        if self._proc is None:
            return ExitInfo(None, None)
        return self._exit_info(self._proc.poll())

    def wait_exit(self, timeout_s: float) -> ExitInfo:
        """Wait up to ``timeout_s`` for the process to exit on its own."""
        if self._proc is None:
            return ExitInfo(None, None)
        try:
            return self._exit_info(self._proc.wait(timeout=timeout_s))
        except subprocess.TimeoutExpired:
            return self._exit_info(None)

    @staticmethod
    def _exit_info(code: int | None) -> ExitInfo:
        if code is None or code >= 0:
            return ExitInfo(code, None)
        try:
            return ExitInfo(code, signal.Signals(-code).name)
        except ValueError:
            return ExitInfo(code, f"signal {-code}")

    @property
    def input_closed(self) -> bool:
        """Whether the bot closed its input (a write found the pipe broken: it exited, most
        likely)."""
        return self._pipes is not None and self._pipes.stdin_closed

    def send(self, lines: Sequence[str], deadline: float | None = None) -> bool:
        """Write ``lines`` (each followed by ``\\n``). Returns False if the bot cannot take them
        (closed its input, or did not read them before ``deadline``)."""
        assert self._pipes is not None, "the bot is not started"
        return self._pipes.send(lines, deadline)

    def read_line(self, timeout_s: float | None) -> ReadResult:
        """The next answer line, waiting at most ``timeout_s`` seconds (None = forever) counted
        from the end of the last :meth:`send`. A line already buffered is returned at once."""
        lines, elapsed_ms, status = self.read_lines(1, timeout_s)
        return ReadResult(status, None if lines is None else lines[0], elapsed_ms)

    def read_lines(self, count: int, timeout_s: float | None) -> tuple[tuple[str, ...] | None, float, ReadStatus]:
        """The next ``count`` answer lines within one deadline (:meth:`BotPipes.read_lines`)."""
        assert self._pipes is not None, "the bot is not started"
        return self._pipes.read_lines(count, timeout_s)

    def output_closed(self) -> bool:
        """Whether no process of the bot holds its output open any more, the wrapper and the
        sandbox's init aside: a sandboxed bot that closed its stdout but keeps running (they still
        hold the pipe, so no end of file comes). Looks through the tree's ``/proc/PID/fd``."""
        proc = self._proc
        if proc is None or proc.stdout is None or self._pipes is None or self._pipes.stdout_eof:
            return True
        try:
            pipe = f"pipe:[{os.fstat(proc.stdout.fileno()).st_ino}]"
        except OSError:
            return True
        pids = [proc.pid, *plumbing.tree_of(proc.pid, self._mark)]
        if self._init:  # the wrapper's one child
            init = proctree.children(proc.pid) or []
            pids = [p for p in pids if p not in init]
        return not proctree.holds_open(pids, pipe, self._wrapper_exe)

    def take_turn_stderr(self) -> str:
        """The stderr written since the last call (its last few KB)."""
        return self._stderr.take_turn()

    def stderr_tail(self) -> str:
        """The last bytes the bot wrote to stderr (bounded)."""
        return self._stderr.tail()

    def last_stderr_line(self, wait_s: float = 0.2) -> str:
        """The last non-empty stderr line (a traceback's error, e.g. ``SyntaxError: ...``), cut
        to 200 characters, after waiting up to ``wait_s`` for stderr to end."""
        return self._stderr.last_line(wait_s)

    @property
    def stderr_bytes(self) -> int:
        """Total bytes the bot wrote to stderr."""
        return self._stderr.total

    def kill_tree(self, grace_s: float = KILL_GRACE_S) -> ExitInfo:
        """Terminate the bot and every descendant (TERM, then KILL after ``grace_s``), reap them
        and close the pipes. Safe to call more than once."""
        proc = self._proc
        if proc is None:
            return ExitInfo(None, None)
        if not self._killed:
            self._killed = True
            limitwatch.unwatch(self)
            if self._init:
                self._end_sandbox(proc, grace_s)
            else:
                self._end_tree(proc, grace_s)
            self._close(proc)
        return self._exit_info(proc.returncode)

    def _end_tree(self, proc: subprocess.Popen[bytes], grace_s: float) -> None:
        """End the bot's process and its descendants, those it left to us too, and reap them."""
        targets = plumbing.tree_of(proc.pid, self._mark)
        plumbing.signal_all(proc.pid, targets, signal.SIGTERM)
        end = time.monotonic() + grace_s
        if not targets:  # the usual case: one process, whose exit is waited for, not polled
            plumbing.wait_for_exit(proc, grace_s)
        while time.monotonic() < end:
            plumbing.reap(targets)
            if proc.poll() is not None and not any(plumbing.alive(p) for p in targets):
                break
            time.sleep(0.002)
        if proc.poll() is None or any(plumbing.alive(p) for p in targets):
            targets = list(dict.fromkeys(targets + plumbing.tree_of(proc.pid, self._mark)))
        plumbing.signal_all(proc.pid, targets, signal.SIGKILL)
        if self._limiter is not None:
            self._limiter.kill_all()  # whatever escaped the tree: it is still in the cgroup
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass
        end = time.monotonic() + 5
        while any(plumbing.alive(p) for p in targets) and time.monotonic() < end:
            plumbing.reap(targets)
            time.sleep(0.002)

    def _end_sandbox(self, proc: subprocess.Popen[bytes], grace_s: float) -> None:
        """End a sandboxed bot: the end of its ``bwrap`` process ends the whole sandbox (the init
        dies with it, and the PID namespace with the init), so ``bwrap`` alone is waited for, then
        killed after ``grace_s``. Its child, then ours (the init, or a copy of ``bwrap`` still
        making the sandbox, which only SIGKILL reaches from out here), is killed and reaped."""
        targets = plumbing.tree_of(proc.pid, self._mark)
        plumbing.signal_all(proc.pid, targets, signal.SIGTERM)
        plumbing.wait_for_exit(proc, grace_s)
        if proc.poll() is None:
            plumbing.signal_all(proc.pid, [], signal.SIGKILL)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
                pass
        left = self._left_to_us(targets)
        plumbing.send(left)
        for pid in left:
            plumbing.reap_when_gone(pid, 5)  # the init reaped: its namespace is empty
        if self._limiter is not None:
            self._limiter.kill_all()  # nothing of the bot is left in its cgroups, unless it escaped

    def _close(self, proc: subprocess.Popen[bytes]) -> None:
        """Close the pipes, the stderr reader and the limits of an ended bot."""
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        if self._pipes is not None:
            self._pipes.close()  # closed: their numbers may be another file's now
        self._stderr.join(1)
        self._stderr.stop()
        if proc.stderr:
            try:
                proc.stderr.close()
            except OSError:
                pass
        if self._limiter is not None:
            self._limiter.close()

    def _left_to_us(self, targets: list[int]) -> list[int]:
        """Of the sandbox's init (as ``bwrap`` told it, see :class:`sandboxinit.InitPid`) and
        ``targets``, those re-parented to us once ``bwrap`` has ended."""
        info, self._init_pid = self._init_pid, None
        init = info.pid() if info is not None else None
        if info is not None:
            info.close()
        candidates = dict.fromkeys(targets if init is None else [init, *targets])
        return [pid for pid in candidates if (st := proctree.stat(pid)) is not None and st.ppid == os.getpid()]

    def terminate(self) -> None:
        """Ask the bot and its descendants to stop (SIGTERM) without waiting: :meth:`kill_tree`
        then waits for several bots at once instead of one after the other."""
        if self._proc is not None and not self._killed and self._proc.poll() is None:
            plumbing.signal_all(self._proc.pid, plumbing.tree_of(self._proc.pid, self._mark), signal.SIGTERM)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill_tree()
