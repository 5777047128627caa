"""Bots in a sandbox: bubblewrap (``bwrap``) around each bot, as CodinGame treats a bot as untrusted
(what a sandboxed bot can and cannot do, for users: docs/how-to/sandbox.md).

:func:`confine` builds the ``bwrap`` command: its own PID, network, IPC, UTS and user namespaces,
a new session, no capabilities, ``--die-with-parent``; the sandbox's init (:mod:`.init`) as its
first process, which gives the bot a cleared environment (``PATH``, ``LANG``, ``HOME``,
``TMPDIR``, the variables given with the bot, ``PWD``); the whole filesystem read-only but a
private in-memory ``/tmp`` (at most the memory limit) whose ``/tmp/home`` is the bot's ``HOME``;
``/run``, ``/home``, ``/root``, the user's home and ``/var/tmp`` hidden (those that hold
anything), then shown again where the bot needs them (its own files, :func:`bot_files`; the
folders of its ``PYTHONPATH``; the interpreter's installation); its opponents' files and the
paths the caller hides (results, replays) replaced by an empty file or directory. Shipped bots
(the toolkit's ``bots`` package) are public and never hidden from each other.

:func:`decide` turns ``--sandbox auto|on|off`` into a yes or no, with the one-line reason when
``auto`` cannot sandbox and an error when ``on`` cannot.
"""

from __future__ import annotations

import atexit
import enum
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import ArenaError
from ..launch.pymodule import module_path
from ..process import owners
from .init import environment_of, has_init, init_words, scratch_bytes

__all__ = [
    "SandboxMode",
    "SandboxUnavailable",
    "Support",
    "BotFiles",
    "support",
    "decide",
    "bot_files",
    "confine",
    "environment_of",
    "has_init",
    "scratch_bytes",
    "SCRATCH",
]

SCRATCH = "/tmp/home"
"""The bot's ``HOME`` inside the sandbox: its writable scratch directory."""
_HIDDEN = ("/run", "/var/tmp", "/home", "/root")
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc", "/dev", "/sys")
_SHIPPED_BOTS = Path(__file__).resolve().parents[2] / "bots"
_ROOT = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc")
"""The filesystem every sandbox starts from, the probe's too: the whole of it read-only, its own
``/dev`` and ``/proc``."""
_NAMESPACES = ("--unshare-user-try", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net")


class SandboxMode(str, enum.Enum):
    """``--sandbox``: ``auto`` sandboxes where bubblewrap works, ``on`` insists, ``off`` never."""

    AUTO = "auto"
    ON = "on"
    OFF = "off"


class SandboxUnavailable(ArenaError):
    """``--sandbox on`` on a machine where bots cannot be sandboxed (the message says why)."""


@dataclass(frozen=True)
class Support:
    """Whether bubblewrap can sandbox a process here."""

    works: bool
    reason: str
    """Why not (empty when it works)."""
    bwrap: str | None


def _probe(bwrap: str | None) -> Support:
    if bwrap is None:
        return Support(False, "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)", None)
    true = shutil.which("true") or "/bin/true"
    argv = [bwrap, *_ROOT, "--tmpfs", "/tmp", *_isolation(), *init_words({}, true), true]
    try:
        done = subprocess.run(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Support(False, f"{bwrap} does not run: {exc}", bwrap)
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = why[-1] if why else f"exit code {done.returncode}"
        return Support(
            False, f"bubblewrap cannot make namespaces here ({detail}; are user namespaces disabled?)", bwrap
        )
    return Support(True, "", bwrap)


@functools.cache
def support() -> Support:
    """Whether bots can be sandboxed on this machine (probed once per process: one ``bwrap``
    start of ``true``). ``ARENA_BWRAP`` names another ``bwrap`` (an empty value: none)."""
    override = os.environ.get("ARENA_BWRAP")
    bwrap = (override or None) if override is not None else shutil.which("bwrap")
    return _probe(bwrap)


def decide(mode: SandboxMode | str) -> tuple[bool, str | None]:
    """Whether to sandbox under ``mode``, and for ``auto`` without a sandbox the one line to show.

    Raises :class:`SandboxUnavailable` for ``on`` where bots cannot be sandboxed.
    """
    mode = SandboxMode(mode)
    if mode is SandboxMode.OFF:
        return False, None
    found = support()
    if found.works:
        return True, None
    if mode is SandboxMode.ON:
        raise SandboxUnavailable(
            f"--sandbox on: cannot sandbox bots here: {found.reason}; or run them unsandboxed with --sandbox off"
        )
    return False, (
        f"bots run without a sandbox: {found.reason} (--sandbox off hides this line; see docs/how-to/sandbox.md)"
    )


# -- what belongs to a bot --------------------------------------------------------------------------


@dataclass(frozen=True)
class BotFiles:
    """What belongs to one bot on the filesystem."""

    entries: tuple[Path, ...]
    """What its command names (script, package, executable, data): hidden from its opponents."""
    roots: tuple[Path, ...]
    """What it may read where the sandbox hides things: the entries' directories, its working
    directory, its declared data."""


def _inside(path: Path, places: Iterable[str | Path]) -> bool:
    """``path`` is one of ``places`` or lies under one, lexically (``Path.is_relative_to``, on
    strings: this runs for every file of every bot of every game)."""
    text = str(path)
    if text.startswith("//"):  # POSIX's other root, which pathlib keeps apart from "/"
        return any(path == Path(p) or path.is_relative_to(p) for p in places)
    for place in places:
        prefix = _as_prefix(place)
        if text.startswith(prefix) or text == prefix[:-1]:
            return True
    return False


@functools.cache
def _as_prefix(place: str | Path) -> str:
    """``place`` as the start of the paths under it: ``/usr/`` (``/`` for the root)."""
    text = str(Path(place))
    return text if text.endswith("/") else text + "/"


def _python_places() -> tuple[str, ...]:
    return tuple(dict.fromkeys([sys.prefix, sys.base_prefix, sys.exec_prefix, _installation(sys.executable)]))


@functools.cache
def _installation(executable: str) -> str:
    """The folder the interpreter ``executable`` is installed in (that of its real ``bin``)."""
    return os.path.dirname(os.path.dirname(os.path.realpath(executable)))


def _broad() -> frozenset[Path]:
    """Directories too wide to show as a bot's root: showing them would show everything."""
    return _broad_for(os.path.expanduser("~"))


@functools.cache
def _broad_for(home: str) -> frozenset[Path]:
    places = {Path("/"), Path(home), Path("/tmp"), *(Path(p) for p in _HIDDEN)}
    return frozenset(places | {Path(os.path.realpath(p)) for p in places})


def _is_python(program: str) -> bool:
    name = os.path.basename(program)
    return program == sys.executable or name.startswith(("python", "pypy"))


def bot_files(argv: Sequence[str], cwd: str | None, data: Sequence[str] = ()) -> BotFiles:
    """The files of a bot run as ``argv`` from ``cwd`` (``None``: the current directory)."""
    where = Path(cwd) if cwd is not None else Path.cwd()
    system = (*_SYSTEM, *_python_places())
    broad = _broad()
    entries: list[Path] = []

    def add(path: Path) -> None:
        path = Path(os.path.abspath(path))
        if path.exists() and not _inside(path, system) and path not in broad:
            entries.append(path)

    words = list(argv)
    if words:
        program = shutil.which(words[0]) if "/" not in words[0] else words[0]
        if program is not None:
            add(where / program)
    for i, word in enumerate(words[1:], start=1):
        if word == "-m" and i + 1 < len(words) and words and _is_python(words[0]):
            found = module_path(where, words[i + 1])
            if found is not None:
                add(found)
            continue
        if word.startswith("-") or not word:
            continue
        try:
            add(where / word)
        except (OSError, ValueError):
            continue  # a word no path can be (too long, NUL...): not a file
    for item in data:
        add(where / item)
    roots: list[Path] = []
    if where.resolve() not in broad and where not in broad:
        roots.append(Path(os.path.abspath(where)))
    for entry in entries:
        parent = entry if entry.is_dir() else entry.parent
        roots.append(entry if parent in broad else parent)
    return BotFiles(tuple(dict.fromkeys(entries)), tuple(dict.fromkeys(roots)))


# -- the bwrap command ------------------------------------------------------------------------------


def _shown_again(own: BotFiles, program: str | None) -> list[Path]:
    """What the bot may read inside the hidden places: its roots, the interpreter, its program."""
    places = [*own.roots, *own.entries, *(Path(p) for p in _python_places())]
    if program is not None:
        real = os.path.realpath(program)
        places.append(Path(os.path.dirname(real)))
        home = _as_prefix(os.path.expanduser("~"))
        if real.startswith(home):  # ~/.pyenv/shims/python: all of ~/.pyenv
            places.append(Path(home + real[len(home) :].split("/", 1)[0]))
    return places


_FOLDER = re.compile(r"arena-sandbox-(\d+)-(\d+)-[a-z0-9_]+")
"""The folder of :func:`_empty_file`: ``arena-sandbox-NS-PID-RANDOM`` (see :mod:`arena.match.process.owners`)."""


@functools.cache
def _empty_file() -> str:
    """An empty read-only file of this process, bound over the files a bot must not read. Not
    ``/dev/null``: on some machines it is a plain file that whatever writes to it fills.

    Its folder in the temporary directory is removed at exit; those of arenas killed outright
    (SIGKILL) are removed by the next arena, here, once their owner is gone."""
    where = Path(tempfile.gettempdir())
    for stale in owners.stale(where, _FOLDER):
        try:
            mine = stale.lstat().st_uid == os.getuid() and stale.is_dir() and not stale.is_symlink()
        except OSError:  # another arena removed it
            continue
        if mine:
            shutil.rmtree(stale, ignore_errors=True)
    folder = tempfile.mkdtemp(prefix=f"arena-sandbox-{owners.tag()}-", dir=where)
    path = os.path.join(folder, "empty")
    with open(path, "wb"):
        pass
    os.chmod(path, 0o444)
    atexit.register(shutil.rmtree, folder, True)
    return path


def _empty(directory: Path) -> bool:
    """Whether ``directory`` holds nothing to hide (False when it cannot be listed)."""
    try:
        with os.scandir(directory) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def _visible(path: Path, hidden: Sequence[Path], shown: Sequence[Path]) -> bool:
    return not _inside(path, hidden) or _inside(path, shown)


def confine(
    argv: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str],
    *,
    own: BotFiles,
    others: Sequence[BotFiles] = (),
    hide: Sequence[str | Path] = (),
    tmp_mb: int | None = None,
    bwrap: str | None = None,
) -> list[str]:
    """The command prefix that runs ``argv`` in a sandbox when put before it (see the module's
    docstring; :class:`arena.match.process.botprocess.BotProcess` takes it as ``wrapper``): ``bwrap``, its
    options, then the sandbox's init (:mod:`arena.match.sandbox.init`) up to the bot's command.

    ``env`` is the bot's explicit environment (added to ``PATH``, ``LANG``, ``HOME`` and
    ``TMPDIR``, before ``PWD``); ``others`` are its opponents' files; ``hide`` more paths to hide (results,
    replays); ``tmp_mb`` the size of its private ``/tmp``.
    """
    bwrap = bwrap or support().bwrap or "bwrap"
    where = os.path.abspath(cwd) if cwd is not None else os.getcwd()
    program = shutil.which(argv[0]) if argv and "/" not in argv[0] else (argv[0] if argv else None)
    cmd = [bwrap, *_mounts(tmp_mb)]
    hidden = _hidden_places()
    for path in hidden[1:]:
        cmd += ["--tmpfs", str(path)]
    again = [*_shown_again(own, program), *_search_path(env, where)]
    shown = [p for p in again if _inside(p, hidden) and p.exists()]
    cmd += _binds_again(shown)
    for path in hidden[1:]:  # /tmp stays writable
        cmd += ["--remount-ro", str(path)]
    cmd += _masks(own, others, hide, hidden, shown)
    cmd += _isolation()
    cmd += ["--chdir", where, *init_words(_variables(env, where), argv[0] if argv else None)]
    return cmd


def _binds_again(shown: Sequence[Path]) -> list[str]:
    """The read-only binds of the places ``shown`` again, shallowest first, but those under
    another (bound with it)."""
    texts = dict.fromkeys(map(str, shown))
    binds: list[str] = []
    for text in sorted(texts, key=lambda t: t.count("/")):
        up, above = text, os.path.dirname(text)
        while above != up and above not in texts:
            up, above = above, os.path.dirname(above)
        if above == up:  # the root reached: no place shown above this one
            binds += ["--ro-bind", text, text]
    return binds


def _search_path(env: Mapping[str, str], where: str) -> list[Path]:
    """The folders of the bot's ``PYTHONPATH`` (``--lib``, or given with its environment; a
    relative one from its working directory ``where``), but those too wide to show."""
    broad = _broad()
    found = []
    for entry in env.get("PYTHONPATH", "").split(os.pathsep):
        if entry:
            path = Path(os.path.abspath(os.path.join(where, entry)))
            if path not in broad:
                found.append(path)
    return found


def _mounts(tmp_mb: int | None) -> list[str]:
    """The filesystem the sandbox starts from: everything read-only, its own ``/dev`` and
    ``/proc``, a private ``/tmp`` (with the bot's ``HOME``) and ``/dev/shm`` of ``tmp_mb`` each."""
    size = ["--size", str(tmp_mb * 1024 * 1024)] if tmp_mb else []
    shm = [*size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    return [*_ROOT, *size, "--tmpfs", "/tmp", "--dir", SCRATCH, *shm]


def _hidden_places() -> list[Path]:
    """``/tmp`` (private), then the places hidden behind an empty directory: ``/run``, ``/home``,
    ``/root``, ``/var/tmp`` and the user's home, those that hold anything (and not already under
    another)."""
    home = os.path.expanduser("~")
    hidden: list[Path] = [Path("/tmp")]
    for place in dict.fromkeys([*_HIDDEN, home]):
        path = Path(place)
        if (
            path.is_dir()
            and not path.is_symlink()
            and path != Path("/")
            and not _inside(path, hidden)
            and not _empty(path)
        ):  # each hidden place costs the bot's start a third of a millisecond
            hidden.append(path)
    return hidden


def _masks(
    own: BotFiles, others: Sequence[BotFiles], hide: Sequence[str | Path], hidden: list[Path], shown: list[Path]
) -> list[str]:
    """What hides the opponents' files (but public code and the bot's own) and the paths in
    ``hide`` (with a database's side files) where the bot would see them: an empty directory
    or an empty file over each."""
    ours = [*own.entries, *own.roots]
    masks: list[Path] = []
    for other in others:
        for entry in other.entries:
            if entry.is_relative_to(_SHIPPED_BOTS) or any(o == entry or o.is_relative_to(entry) for o in ours):
                continue  # public code, or the same files as ours
            masks.append(entry)
    for extra in hide:
        path = Path(os.path.abspath(extra))
        masks += [path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))]
    cmd: list[str] = []
    for path in dict.fromkeys(masks):
        for target in dict.fromkeys([path, Path(os.path.realpath(path))]):
            if target.exists() and _visible(target, hidden, shown):
                cmd += ["--tmpfs", str(target)] if target.is_dir() else ["--ro-bind", _empty_file(), str(target)]
                if target.is_dir():
                    cmd += ["--remount-ro", str(target)]
    return cmd


def _isolation() -> list[str]:
    """The namespaces, the session, no capabilities, death with the parent, and a cleared
    environment (the init's: the bot's own is set by the init, see :mod:`.init`)."""
    return [
        *_NAMESPACES,
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        "arena",
        "--clearenv",
    ]


def _variables(env: Mapping[str, str], where: str) -> dict[str, str]:
    """The bot's environment: ``PATH`` and ``LANG`` (ours), ``HOME``, ``TMPDIR``, then ``env``,
    then ``PWD``, its working directory ``where`` (which ``bwrap --chdir`` sets)."""
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "HOME": SCRATCH,
        "TMPDIR": "/tmp",
        **env,
        "PWD": where,
    }
