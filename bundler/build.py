"""One bundle: graph, then flat (or modules) body, header, checks."""

from __future__ import annotations

import ast
import hashlib
import subprocess
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from arena.match.launch.pymodule import PythonEntry

from . import __version__
from .embed import HEADER_START, embed
from .errors import FlattenRefused, InternalError
from .flat.flatten import flatten
from .graph import Graph, Transform, build_graph
from .size import SizeReport
from .source import GRAMMAR
from .strip import strip_comments, strip_docstrings

__all__ = ["BuildOptions", "Bundle", "build", "MODES"]

MODES = ("flat", "modules")


@dataclass(frozen=True)
class BuildOptions:
    """What ``bundle`` was asked to do (everything but where the result goes)."""

    entry: Path
    libs: tuple[Path, ...] = ()
    mode: str | None = None
    """``"flat"`` (forced: refuse rather than fall back), ``"modules"``, or ``None``: flat when it
    can be proved safe, else modules."""
    strip_comments: bool = False
    strip_docstrings: bool = False


@dataclass(frozen=True)
class Bundle:
    """A finished bundle."""

    text: str
    mode: str
    entry_point: PythonEntry
    size: SizeReport
    inputs: tuple[Path, ...]
    fallback_reasons: tuple[str, ...] = ()
    """Why flat mode was not possible (empty when flat, or when modules mode was asked for)."""
    renamed: dict[str, dict[str, str]] = field(default_factory=dict)


def _transform(options: BuildOptions) -> Transform | None:
    if not (options.strip_comments or options.strip_docstrings):
        return None

    def transform(source: str, tree: ast.Module) -> str:
        if options.strip_docstrings:
            source = strip_docstrings(source, tree)
        if options.strip_comments:
            source = strip_comments(source)
        return source

    return transform


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _source_line(graph: Graph, inputs: list[Path]) -> tuple[str, str]:
    """(entry as shown in the header, the source commit line or "")."""
    entry = graph.entry_point.path
    top = _git(["rev-parse", "--show-toplevel"], entry.parent)
    if top is None:
        return graph.display(graph.entry), ""
    shown = (
        entry.relative_to(Path(top).resolve()).as_posix()
        if entry.is_relative_to(Path(top).resolve())
        else graph.display(graph.entry)
    )
    commit = _git(["rev-parse", "HEAD"], entry.parent)
    if commit is None:
        return shown, ""
    dirty = _git(["status", "--porcelain", "--", *[str(p) for p in inputs]], Path(top))
    note = " (with uncommitted changes)" if dirty else ""
    return shown, f"# source commit {commit[:12]}{note}\n"


def _describe_bug(exc: Exception) -> str:
    """One line for an unexpected exception of flat mode: what and where in the bundler."""
    if isinstance(exc, SyntaxError):
        return f"the flat bundle does not parse (line {exc.lineno}: {exc.msg})"
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {Path(frame.filename).name}:{frame.lineno} ({frame.name})" if frame else ""
    return f"flat mode failed with {type(exc).__name__}: {exc}{at}"


def _check_parses(text: str) -> None:
    ast.parse(text, feature_version=GRAMMAR)
    compile(text, "<bundle>", "exec", dont_inherit=True)


def build(options: BuildOptions, inputs: list[Path] | None = None) -> Bundle:
    """Make the bundle, or raise a :class:`BundleError` subclass. ``inputs`` (when given)
    receives every file read, even on failure (for ``--watch``)."""
    files: list[Path] = [] if inputs is None else inputs
    graph = build_graph(options.entry, list(options.libs), files=files, transform=_transform(options))
    reasons: tuple[str, ...] = ()
    mode = options.mode or "flat"
    renamed: dict[str, dict[str, str]] = {}
    body = ""
    parts: dict[str, str] = {}
    if mode == "flat":
        try:
            flat = flatten(graph)
            body = flat.text()
            _check_parses(body)
            parts = flat.sizes()
            renamed = flat.renamed
        except FlattenRefused as exc:
            if options.mode == "flat":
                raise
            reasons, mode = tuple(exc.reasons), "modules"
        except Exception as exc:  # a bundler bug: never ship it; modules mode does not share the code
            internal = exc if isinstance(exc, InternalError) else InternalError(_describe_bug(exc))
            if options.mode == "flat":
                raise internal from exc
            reasons, mode = (str(internal),), "modules"
    if mode == "modules":
        embedded = embed(graph)
        body, parts = embedded.body, embedded.parts
        try:
            _check_parses(body)
        except SyntaxError as exc:
            raise InternalError(f"the modules-mode bundle does not parse (line {exc.lineno}: {exc.msg})") from None
    unique_inputs = tuple(dict.fromkeys(p.resolve() for p in files if p.is_file()))
    shown, commit_line = _source_line(graph, list(unique_inputs))
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
    count = len(set(parts))
    header = (
        f"{HEADER_START}{shown}: cgarena bundle {__version__}, {mode} mode, "
        f"{count} module{'s' if count != 1 else ''}\n"
        f"{commit_line}"
        f"# content sha256 {digest}\n"
    )
    text = header + body
    return Bundle(text, mode, graph.entry_point, SizeReport.of(text, parts), unique_inputs, reasons, renamed)
