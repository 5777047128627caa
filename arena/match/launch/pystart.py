"""A Python bot's fast start: this interpreter, without running the import hooks of ``.pth`` files.

A Python bot runs as ``python -u FILE ...`` or ``python -u -m MODULE ...`` with the arena's own
interpreter (:func:`arena.match.launch.botspec.python_command`). At such a start ``site`` executes
the ``import`` lines of site-packages' ``.pth`` files (setuptools' finders of editable installs,
the toolkit's own among them), which cost about as much as the rest of the start, twice a game.
So :func:`launch_argv` rewrites those two forms when the process is launched (a bot's ``argv``
stays as shown and stored) into ``python -u -S -c STUB CODE FILE ...`` (or ``... CODE -m MODULE
...``), where ``CODE`` is the bootstrap (:mod:`arena.match.launch._pyboot`) compiled by the arena:
it makes the ``sys.path`` ``site`` would make, in the same order (known from a probe run once per
arena process and environment, which runs the import lines and records the folders they add),
defines ``exit``, ``quit`` and ``help``, imports ``sitecustomize`` where there is one, then runs
the bot with the same ``sys.argv``, ``sys.path[0]``, ``__file__``, ``__name__``, ``__spec__`` and
tracebacks as the normal start.

No bot loses a module for the import lines left out: a bot one of whose own modules imports a
top-level module this start cannot find, or one that a hook's finder takes over, starts the normal
way; a module imported out of sight of this check (computed names, a library's own imports) that
the hooks' finders may provide makes the bootstrap run the import lines at its first import. The
finders are known by kind (setuptools' editable finders and ``distutils`` shim, virtualenv's
``distutils`` patch): one of an unknown kind put before the path's makes that environment start
every bot the normal way. What a bot can see of the difference: ``sys.flags.no_site`` is 1,
``site`` is not imported, ``sys.orig_argv`` is the rewritten command; ``copyright``, ``credits``
and ``license`` are not defined; a ``-m`` bot's traceback lacks the two ``<frozen runpy>`` frames.

Anything else runs unchanged (other interpreters, other options, a file that is not ``.py``).
``CGARENA_PYTHON_FAST_START=0`` in the arena's environment turns the rewrite off; :func:`start_plan`
tells which start a bot gets and why (:class:`Reason`).
"""

from __future__ import annotations

import _imp
import ast
import enum
import functools
import importlib.machinery
import json
import marshal
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "admitting",
    "ENV_SWITCH",
    "Reason",
    "SiteLayout",
    "StartPlan",
    "launch_argv",
    "probe_site",
    "start_plan",
]

ENV_SWITCH = "CGARENA_PYTHON_FAST_START"
"""``0`` (or ``off``, ``no``, ``false``) in the arena's environment: Python bots start the normal way."""

_SITE_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "HOME")
"""The environment ``site``'s result depends on (``HOME`` only through the user site directory)."""

_MAX_LOCAL_FILES = 2000
"""A bot whose own modules (the files its imports reach in its folder) are more starts normally."""

_PROBE_TIMEOUT_S = 60
"""The longest the probe of ``site`` may take (it runs the ``.pth`` import lines once)."""

_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

# Run with ``python -S -c``: ``site.main()`` as at a normal start, each ``import`` line of a ``.pth``
# file recorded and run where ``site`` runs it, the customize modules recorded instead of imported;
# then which finders these lines installed and which top-level modules these may provide. Prints
# one JSON object; "why" says, when not null, why the layout of a normal start cannot be told.
_PROBE_MARK = "cgarena-site-probe"
"""Starts the probe's line of output (an import line may print too)."""

_PROBE = r"""
import json, os, site, sys
_MARK = "@MARK@"
from importlib.machinery import PathFinder
hooks, files, custom, space = [], [], [], {}
def record(line, *rest):
    caller = sys._getframe(1).f_locals
    sitedir = caller["sitedir"]  # read by some lines (*-nspkg.pth) as the caller's local
    hooks.append([sitedir, caller["name"], line])
    n = caller.get("n", 0)  # the line's number: a file read again (a venv's site-packages) starts over
    if files and files[-1][:2] == [sitedir, caller["name"]] and files[-1][2] < n:
        files[-1][2] = n
    else:
        files.append([sitedir, caller["name"], n])
    exec(line, space)  # an error is site's to report, as at a normal start
site.exec = record
site.execsitecustomize = lambda: custom.append("sitecustomize")
site.execusercustomize = lambda: custom.append("usercustomize")
if not sys.flags.safe_path and sys.path[:1] == [""]:
    del sys.path[0]
site.removeduppaths()
base, finders = list(sys.path), list(sys.meta_path)
site.main()
why, path, size = None, sys.path, len(base)
at = next((i for i in range(len(path) - size + 1) if path[i:i + size] == base), None)
if at is None:
    why, at = "a .pth import line removes or reorders the interpreter's own sys.path entries", 0
front, dirs = path[:at], path[at + size:]
custom = [m for m in custom if PathFinder.find_spec(m, path) is not None]
last = sys.meta_path.index(PathFinder) if PathFinder in sys.meta_path else -1
claims, ahead, unknown = set(), set(), False
for index, finder in enumerate(sys.meta_path):
    if finder in finders:
        continue
    kind = finder if isinstance(finder, type) else type(finder)
    module = sys.modules.get(getattr(kind, "__module__", None) or "")
    mapping, patched = getattr(module, "MAPPING", None), getattr(module, "_DISTUTILS_PATCH", None)
    if isinstance(mapping, dict):  # setuptools' editable installs
        names = [*mapping, *(getattr(module, "NAMESPACES", None) or {})]
    elif isinstance(patched, (tuple, list)):  # virtualenv's (and uv's) distutils patch, _virtualenv.pth
        names = list(patched)
    else:  # setuptools' distutils shim, distutils-precedence.pth
        names = [n[len("spec_for_"):] for n in dir(finder) if n.startswith("spec_for_")]
    tops = {str(n).split(".")[0] for n in names}
    if not names:
        unknown = True
        if index < last and why is None:
            what = f"{kind.__module__}.{kind.__qualname__}"
            why = f"a .pth import line puts a finder of an unknown kind ({what}) ahead of the path's"
    claims |= tops
    if index < last:
        ahead |= tops
if last < 0 and why is None:
    why = "a .pth import line removes the path's finder"
print(_MARK, json.dumps({"why": why, "base": base, "front": front, "dirs": dirs, "hooks": hooks,
                  "files": [f[:2] for f in files], "user_site": bool(site.ENABLE_USER_SITE), "custom": custom,
                  "claims": None if unknown else sorted(claims), "ahead": sorted(ahead)}))
sys.stdout.flush()
os._exit(0)  # no exit handlers of what the import lines started
"""


@dataclass(frozen=True)
class SiteLayout:
    """What ``site`` does at a normal start of this interpreter, in a given environment."""

    base: tuple[str, ...]
    """``sys.path`` before ``site`` adds to it, without the script's folder."""
    dirs: tuple[str, ...]
    """What ``site`` appends: site-packages directories, the directory lines of their ``.pth``
    files and the folders their import lines append, in a normal start's order."""
    hooks: tuple[tuple[str, str, str], ...]
    """The ``import`` lines of the ``.pth`` files, in order: (site dir, file name, line)."""
    user_site: bool
    """Whether the user's site directory is enabled (it depends on ``HOME``)."""
    custom: tuple[str, ...]
    """``sitecustomize`` and ``usercustomize``, those that exist (``site`` imports them)."""
    claims: tuple[str, ...] | None
    """The top-level modules the finders installed by the import lines may provide (``None``:
    any, a finder of an unknown kind; known: setuptools' editable finders, setuptools' distutils
    shim, virtualenv's distutils patch)."""
    ahead: tuple[str, ...]
    """Those of them whose finder comes before the path's: the import lines change what they are."""
    front: tuple[str, ...] = ()
    """The folders the import lines put before ``base`` (``easy-install.pth`` moves eggs there)."""
    files: tuple[tuple[str, str], ...] = ()
    """The ``.pth`` files of ``hooks`` as ``site`` reads them: (site dir, file name), a file once
    each time it is read (``site`` reads a venv's site-packages twice)."""


class Reason(enum.Enum):
    """Why a bot starts the way it does (:func:`start_plan`)."""

    FAST = "the fast start"
    NOT_PYTHON_FORM = "not `python -u FILE.py ...` or `python -u -m MODULE ...` with the arena's interpreter"
    SWITCHED_OFF = f"{ENV_SWITCH} is off"
    SITE_UNKNOWN = "what site does at a normal start cannot be told"
    NO_SUCH_FILE = "the bot's file does not exist"
    IMPORT_NEEDS_HOOK = "the bot imports a module that a .pth import hook provides or changes"
    IMPORT_NOT_FOUND = "the bot imports a module found nowhere on the path (an import hook may provide it)"
    UNREADABLE = "one of the bot's files cannot be read or parsed"
    TOO_MANY_FILES = f"the bot has more than {_MAX_LOCAL_FILES} files of its own"
    FAILED = "planning the fast start failed"


@dataclass(frozen=True)
class StartPlan:
    """How a bot's command is started: ``argv``, the fast start's command or the bot's own."""

    argv: tuple[str, ...]
    reason: Reason
    detail: str = ""
    """What the reason is about: the module, the probe's explanation, the error."""

    @property
    def fast(self) -> bool:
        """Whether this is the fast start."""
        return self.reason is Reason.FAST


@functools.lru_cache(maxsize=16)
def probe_site(variables: tuple[tuple[str, str | None], ...] = (), cwd: str | None = None) -> SiteLayout | str:
    """The layout of a normal start with these values of the variables ``site`` reads (the others
    from our environment), from ``cwd`` (``None``: ours; it matters only to a relative
    ``PYTHONPATH`` entry), found by one probe process; or why it cannot be known (the probe failed;
    the import lines of ``.pth`` files reorder ``sys.path``, or put a finder of an unknown kind
    before the path's)."""
    env = {k: v for k, v in os.environ.items() if k not in _SITE_VARIABLES}
    given = dict(variables)
    env.update({k: v for k, v in given.items() if v is not None})
    env.update({k: v for k, v in os.environ.items() if k in _SITE_VARIABLES and k not in given})
    try:
        done = subprocess.run(
            [sys.executable, "-S", "-c", _PROBE.replace("@MARK@", _PROBE_MARK)],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"the probe of site took more than {_PROBE_TIMEOUT_S} s"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the probe of site could not run: {exc}"
    try:
        lines = done.stdout.decode("utf-8").splitlines()
        found = json.loads([x for x in lines if x.startswith(_PROBE_MARK + " ")][-1][len(_PROBE_MARK) :])
        if done.returncode != 0 or not isinstance(found, dict):
            raise ValueError
    except (ValueError, IndexError, UnicodeDecodeError):
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"the probe of site failed (status {done.returncode}{': ' + tail[0] if tail else ''})"
    if found["why"]:
        return str(found["why"])
    return SiteLayout(
        base=tuple(found["base"]),
        dirs=tuple(found["dirs"]),
        hooks=tuple((str(d), str(f), str(line)) for d, f, line in found["hooks"]),
        user_site=bool(found["user_site"]),
        custom=tuple(found["custom"]),
        claims=None if found["claims"] is None else tuple(found["claims"]),
        ahead=tuple(found["ahead"]),
        front=tuple(found["front"]),
        files=tuple((str(d), str(f)) for d, f in found["files"]),
    )


BOOT_NAME = "<cgarena-boot>"
"""The file name of the bootstrap's code (its frames are left out of the bot's tracebacks)."""

_STUB = "exec(__import__('marshal').loads(bytes.fromhex(__import__('sys').argv.pop(1))))"
"""The ``-c`` command: the bootstrap comes compiled (compiling its text would cost 3 ms a start),
as the next argument, which it removes from ``sys.argv``."""
_ADMISSION_AT = 6
"""Where the fast start's command has the admission the bootstrap does before anything else
(empty: none; see :func:`admitting`), which it removes from ``sys.argv`` too."""


def admitting(argv: Sequence[str], admission: str) -> list[str] | None:
    """The fast start's command ``argv`` with the bootstrap doing ``admission`` itself before the
    bot runs (:func:`arena.match.process.plumbing.admission_text`: the parent's check, the address-space
    limit, the cgroups to join), so that no shell runs before the bot to do it; ``None`` when
    ``argv`` is not the fast start's command."""
    if len(argv) <= _ADMISSION_AT or argv[0] != sys.executable or argv[3:5] != ["-c", _STUB] or argv[_ADMISSION_AT]:
        return None
    return [*argv[:_ADMISSION_AT], admission, *argv[_ADMISSION_AT + 1 :]]


@functools.cache
def _boot_text() -> str:
    return (Path(__file__).with_name("_pyboot.py")).read_text(encoding="utf-8")


def launch_argv(argv: Sequence[str], cwd: str | None, env: Mapping[str, str] | None) -> list[str]:
    """The command that starts a bot run as ``argv`` from ``cwd`` (``None``: ours): the fast start
    for ``python -u FILE ...`` and ``python -u -m MODULE ...`` with this interpreter, else ``argv``
    (:func:`start_plan` says which, and why)."""
    return list(start_plan(argv, cwd, env).argv)


def start_plan(argv: Sequence[str], cwd: str | None, env: Mapping[str, str] | None) -> StartPlan:
    """How the bot run as ``argv`` from ``cwd`` starts, and why.

    ``env`` is the bot's whole environment, ``None`` when it is not known (it is then checked
    by the bootstrap, which starts the bot the normal way when it differs from ours where it
    matters)."""
    words = tuple(argv)
    if len(words) < 3 or words[0] != sys.executable or words[1] != "-u":
        return StartPlan(words, Reason.NOT_PYTHON_FORM)
    if os.environ.get(ENV_SWITCH, "1").strip().lower() in ("0", "off", "no", "false"):
        return StartPlan(words, Reason.SWITCHED_OFF, f"{ENV_SWITCH}={os.environ.get(ENV_SWITCH, '')}")
    values = env if env is not None else os.environ
    variables = tuple((k, values.get(k)) for k in _SITE_VARIABLES)
    where = os.path.abspath(cwd or os.getcwd())
    try:
        plan = _plan(words, where, variables)
    except Exception as exc:  # an optimisation: whatever goes wrong, the normal start is right
        return StartPlan(words, Reason.FAILED, f"{type(exc).__name__}: {exc}")
    if plan.fast and words[2] != "-m" and not os.path.isfile(os.path.join(where, words[2])):
        return StartPlan(words, Reason.NO_SUCH_FILE, words[2])  # gone since it was planned: let Python say so
    return plan


@functools.lru_cache(maxsize=512)
def _plan(words: tuple[str, ...], cwd: str, variables: tuple[tuple[str, str | None], ...]) -> StartPlan:
    if words[2] == "-m":
        if len(words) < 4 or not _MODULE_NAME.fullmatch(words[3]):
            return StartPlan(words, Reason.NOT_PYTHON_FORM)
        module, target, path0 = True, words[3], os.path.realpath(cwd)
        entries: list[Path] = []
        names = {words[3].split(".")[0]}
    else:
        if words[2].startswith("-") or not words[2].endswith(".py"):
            return StartPlan(words, Reason.NOT_PYTHON_FORM)
        script = os.path.join(cwd, words[2])
        if not os.path.isfile(script):
            return StartPlan(words, Reason.NO_SUCH_FILE, words[2])
        module, target, path0 = False, os.path.abspath(script), os.path.dirname(os.path.realpath(script))
        entries, names = [Path(target)], set()
    pythonpath = dict(variables).get("PYTHONPATH") or ""
    relative = any(not entry.startswith("/") for entry in pythonpath.split(os.pathsep)) if pythonpath else False
    layout = probe_site(variables, cwd if relative else None)  # "." or "": the bot's folder, not ours
    if isinstance(layout, str):
        return StartPlan(words, Reason.SITE_UNKNOWN, layout)
    search = [*layout.front, *layout.base, *layout.dirs]
    refused = _imports_found(path0, entries, names, search, set(layout.ahead))
    if refused is not None:
        return StartPlan(words, *refused)
    checked = [(k, v) for k, v in variables if k != "HOME" or layout.user_site]
    env = tuple((os.fsencode(k), None if v is None else os.fsencode(v)) for k, v in checked)
    call = (
        f"\n_cgarena_boot({sys.executable!r}, {module!r}, {target!r}, {path0!r}, {layout.front!r}, "
        f"{layout.dirs!r}, {layout.files!r}, {layout.claims!r}, {env!r}, {layout.custom!r})\n"
    )
    code = compile(_boot_text() + call, BOOT_NAME, "exec", dont_inherit=True)
    boot = (sys.executable, "-u", "-S", "-c", _STUB, marshal.dumps(code).hex(), "")
    return StartPlan((*boot, *words[2:]), Reason.FAST)


# -- what a bot imports ---------------------------------------------------------------------------


def _imports_found(
    path0: str, entries: Iterable[Path], names: Iterable[str], rest: Sequence[str], ahead: set[str]
) -> tuple[Reason, str] | None:
    """Why not every top-level module imported by ``entries`` and by the modules of ``path0``
    (the bot's folder, first on its path) that they import, transitively, and ``names``, can be
    found on ``[path0, *rest]`` (or is built in or frozen), or one of them is one that an import
    hook would provide instead (``ahead``); ``None`` when they all can."""
    search = [path0, *rest]
    todo = list(entries)
    seen: set[Path] = set()
    wanted = set(names)
    checked: set[str] = set()
    while todo or wanted - checked:
        for name in sorted(wanted - checked):
            checked.add(name)
            if name in ahead:
                return Reason.IMPORT_NEEDS_HOOK, name
            if name == "__main__" or name in sys.builtin_module_names or _imp.is_frozen(name):
                continue
            spec = importlib.machinery.PathFinder.find_spec(name, search)
            if spec is None:
                return Reason.IMPORT_NOT_FOUND, name
            places = list(spec.submodule_search_locations or ([spec.origin] if spec.origin else []))
            for place in places:
                if os.path.dirname(place) == path0:  # the bot's own module: what does it import?
                    todo.extend(_python_files(Path(place)))
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            if len(seen) > _MAX_LOCAL_FILES:
                return Reason.TOO_MANY_FILES, ""
            found = _top_level_imports(path)
            if found is None:
                return Reason.UNREADABLE, str(path)
            wanted |= found
    return None


def _python_files(place: Path) -> list[Path]:
    if place.is_dir():
        return [p for p in place.rglob("*.py") if "__pycache__" not in p.parts]
    return [place] if place.suffix == ".py" else []


def _top_level_imports(path: Path) -> frozenset[str] | None:
    """The top-level modules ``path`` imports by absolute name (statements, and ``__import__`` or
    ``import_module`` of a literal name); ``None`` when it cannot be read or parsed."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return _parsed_imports(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4096)
def _parsed_imports(path: Path, mtime_ns: int, size: int) -> frozenset[str] | None:
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module and not node.level:
                names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func, first = node.func, node.args[0].value
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if (
                called in ("__import__", "import_module")
                and isinstance(first, str)
                and first
                and not first.startswith(".")
            ):
                names.add(first.split(".")[0])
    return frozenset(names)
