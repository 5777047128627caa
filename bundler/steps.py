"""What ``bundle`` does with a bot, step by step: :func:`make` builds the bundle and, as asked,
writes it, puts it on the clipboard and verifies it against the source bot; :func:`watch` does it
again whenever an input file changes. Both yield what happened (:class:`Built`, :class:`Written`,
:class:`ToStdout`, :class:`Copied`, :class:`Verified`; when watching also :class:`Failed`,
:class:`Watching`, :class:`Changed`) and never print: the command line renders each step.

A step that cannot be done raises :class:`bundler.errors.BundleError` with its one-line reason,
before anything is written where that matters: a bundle over the size limit is not written, a
bundle is never written over one of the bot's own source files.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .build import BuildOptions, Bundle, build
from .errors import BundleError, OutputError, SizeLimitError
from .output import CLIPBOARD_TOOLS, copy_to_clipboard, write_atomic
from .size import LIMIT
from .verify import DEFAULT_TIME_SCALE, VerifiedGame, bundle_bot, source_bot, verify

__all__ = [
    "Outputs",
    "Built",
    "Written",
    "ToStdout",
    "Copied",
    "Verified",
    "Failed",
    "Watching",
    "Changed",
    "Event",
    "NO_CLIPBOARD",
    "POLL_SECONDS",
    "make",
    "watch",
    "snapshot",
    "watched_paths",
    "changed_names",
]

POLL_SECONDS = 0.3
"""How often :func:`watch` looks at the input files."""
NO_CLIPBOARD = (
    f"--copy: no clipboard tool found (install one of {', '.join(c[0] for c in CLIPBOARD_TOOLS)}), "
    "or write the bundle to a file with -o"
)


@dataclass(frozen=True)
class Outputs:
    """What to do with each bundle made: write it to ``output`` (else to standard output, unless
    it is only checked, copied or verified), put it on the clipboard, verify it on ``verify_game``
    (``seeds``, against ``opponent``, both bots given ``bot_args``)."""

    output: Path | None = None
    check: bool = False
    copy: bool = False
    verify_game: str | None = None
    seeds: Sequence[int] = (1, 2)
    opponent: str | None = None
    time_scale: float = DEFAULT_TIME_SCALE
    bot_args: tuple[str, ...] = ()
    sandbox: str = "auto"
    """Where ``--verify`` plays the bots: in the sandbox (``on``), not (``off``), or where it works."""
    env: Mapping[str, str] = field(default_factory=dict)
    """``--env``: variables for the source bot and the bundle during ``--verify``."""

    cg_local: bool = False
    """``--cg-local``: the bundle goes to the CodinGame IDE (through the CG Local extension)."""

    @property
    def to_stdout(self) -> bool:
        return self.output is None and not (self.check or self.copy or self.verify_game or self.cg_local)


@dataclass(frozen=True)
class Built:
    """The bundle is made (and within the size limit, or the next step raises)."""

    bundle: Bundle


@dataclass(frozen=True)
class Written:
    bundle: Bundle
    path: Path


@dataclass(frozen=True)
class ToStdout:
    """The bundle goes to standard output (no other output was asked for)."""

    bundle: Bundle


@dataclass(frozen=True)
class Copied:
    bundle: Bundle
    tool: str


@dataclass(frozen=True)
class Verified:
    game: str
    games: tuple[VerifiedGame, ...]


@dataclass(frozen=True)
class Failed:
    """A rebuild failed while watching (the watch goes on)."""

    error: BundleError


@dataclass(frozen=True)
class Watching:
    files: int


@dataclass(frozen=True)
class Changed:
    names: tuple[str, ...] = field(default=())


Event = Built | Written | ToStdout | Copied | Verified | Failed | Watching | Changed


def make(options: BuildOptions, outputs: Outputs, inputs: list[Path] | None = None) -> Iterator[Event]:
    """Build the bundle and do what ``outputs`` asks with it, yielding each step. ``inputs``, when
    given, receives the files the bundle was made from (even when a later step fails)."""
    bundle = build(options, inputs if inputs is not None else [])
    yield Built(bundle)
    if bundle.size.over_limit:
        raise SizeLimitError(
            f"{bundle.size.total:,} characters, over CodinGame's {LIMIT:,} limit "
            f"(nothing written; --check shows each module's share)"
        )
    if outputs.output is not None:
        if outputs.output.resolve() in {p.resolve() for p in bundle.inputs}:
            raise OutputError(f"{outputs.output}: is one of the bot's own source files; not overwriting it")
        write_atomic(outputs.output, bundle.text)
        yield Written(bundle, outputs.output)
    elif outputs.to_stdout:
        yield ToStdout(bundle)
    if outputs.copy:
        tool = copy_to_clipboard(bundle.text)
        if tool is None:
            raise OutputError(NO_CLIPBOARD)
        yield Copied(bundle, tool)
    if outputs.verify_game:
        yield Verified(outputs.verify_game, _verify(bundle, options, outputs, outputs.verify_game))


def _verify(bundle: Bundle, options: BuildOptions, outputs: Outputs, game: str) -> tuple[VerifiedGame, ...]:
    """Play the source bot and the bundle (written where asked, else to a temporary file)."""
    source = source_bot(bundle.entry_point, options.libs, outputs.bot_args, outputs.env)
    with tempfile.TemporaryDirectory(prefix="bundle-verify-") as tmp:
        path = outputs.output
        if path is None:
            path = Path(tmp) / "bundle.py"
            write_atomic(path, bundle.text)
        bundled = bundle_bot(path, outputs.bot_args, outputs.env)
        found = verify(game, source, bundled, outputs.opponent, outputs.seeds, outputs.time_scale, outputs.sandbox)
        return tuple(found)


_State = dict[Path, tuple[int, int] | None]


def snapshot(paths: list[Path]) -> _State:
    """Each path's modification time and size (``None``: it is gone)."""
    state: _State = {}
    for p in paths:
        try:
            st = p.stat()
            state[p] = (st.st_mtime_ns, st.st_size)
        except OSError:
            state[p] = None
    return state


def watched_paths(options: BuildOptions, inputs: list[Path]) -> list[Path]:
    """The files a bundle was made from (and the entry), resolved, once each; :func:`watch` also
    looks at the folders holding them."""
    return list(dict.fromkeys(p.resolve() for p in [*inputs, Path(options.entry)]))


def changed_names(before: _State, after: _State) -> tuple[str, ...]:
    """The names of the paths seen in both states whose state differs."""
    return tuple(p.name for p in after if p in before and after[p] != before[p])


def watch(options: BuildOptions, outputs: Outputs, poll_s: float = POLL_SECONDS) -> Iterator[Event]:
    """:func:`make` now and again whenever a file it was made from (or a folder holding one: a
    module added or removed) changes, until interrupted; a failed build is :class:`Failed`. A
    file saved while the bundle was being made is a change too (the bundle may hold its old text)."""
    files = watched_paths(options, [])
    while True:
        before = snapshot(files)
        inputs: list[Path] = []
        try:
            yield from make(options, outputs, inputs)
        except BundleError as exc:
            yield Failed(exc)
        files = watched_paths(options, inputs)
        state = snapshot(files + list(dict.fromkeys(p.parent for p in files)))
        yield Watching(len(files))
        names = changed_names(before, state)  # files only: writing the output changes its folder
        while not names:
            time.sleep(poll_s)
            names = changed_names(state, snapshot(list(state)))
        yield Changed(names)
