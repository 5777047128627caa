"""The replay file: everything needed to replay and debug one match, as one JSON document.

Layout (``format: cgarena-replay-v1``)::

    {format, game, seed, params, time_scale, time_margin_ms,
     bots: [{name, command}], result: {...as --json...},
     initial: <snapshot before the first turn>,
     frames: [{turn, phase, summary, errors, messages, deactivations,
               executions: [{player, input, expected_lines, time_limit_ms, output, time_ms,
                             status, stderr}],   # output: the expected lines joined by "\n"
               snapshot}],
     stderr_tail: [<last bytes of each bot's stderr>]}

``time_limit_ms`` is the limit applied to the execution: the game's limit times ``time_scale``
(the match's ``--time-scale``: ``time_limit_ms: 100`` at ``time_scale: 2`` for a 50 ms turn).
Replays written before ``time_scale`` was stored hold the game's limit and no scale (scale 1).

Written atomically: a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..errors import ArenaError
from ..paths import umask, unusable
from .result import MatchResult

__all__ = [
    "FORMAT",
    "ReplayPathError",
    "check_replay_path",
    "replay_document",
    "write_replay",
    "replay_text",
    "read_replay",
    "write_text_atomic",
]

FORMAT = "cgarena-replay-v1"


def replay_document(result: MatchResult, params: Mapping[str, str] | None = None) -> dict[str, Any]:
    frames = []
    for f in result.frames:
        r = f.report
        frames.append(
            {
                "turn": f.turn,
                "phase": r.phase,
                "summary": list(r.summary),
                "errors": [{"player": p, "message": m} for p, m in r.errors],
                "messages": [{"player": p, "message": m} for p, m in r.messages],
                "deactivations": [
                    {"player": d.player, "cause": d.cause.value, "reason": d.reason} for d in r.deactivations
                ],
                "executions": [
                    {**asdict(e), "input": list(e.input), "output": None if e.output is None else "\n".join(e.output)}
                    for e in f.executions
                ],
                "snapshot": f.snapshot,
            }
        )
    return {
        "format": FORMAT,
        "game": result.game,
        "seed": str(result.seed),
        "params": dict(params or {}),
        "time_scale": _whole(result.time_scale),
        "time_margin_ms": _whole(result.time_margin_ms),
        "bots": [{"name": p.name, "command": p.command} for p in result.players],
        "result": result.to_dict(),
        "initial": result.initial_snapshot,
        "frames": frames,
        "stderr_tail": [p.stderr_tail for p in result.players],
    }


def _whole(value: float) -> float:
    """``value``, as an ``int`` when it is whole (``time_scale: 2``, not ``2.0``)."""
    return int(value) if float(value).is_integer() else value


class ReplayPathError(ArenaError, ValueError):
    """A replay path that cannot be written (the message says why)."""


_SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database (a results file)."""


def check_replay_path(path: Path, force: bool = False, keep: Sequence[Path] = ()) -> None:
    """Raise :class:`ReplayPathError` unless a replay can be written at ``path``: checked before
    the match, so a typo does not cost the game.

    What may be overwritten: a replay file (a document :func:`read_replay` accepts); any other
    file only with ``force``; never a SQLite database nor a file of ``keep`` (the bots' own files,
    or files under one of its folders), even with ``force``. A new file may be written anywhere
    writable."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    reason = unusable(path)
    if reason is not None:
        raise ReplayPathError(f"{path}: {reason}")
    if path.is_dir():
        raise ReplayPathError(f"{path}: is a directory; give a file name, e.g. {path / 'replay.json'}")
    if not folder.is_dir():
        raise ReplayPathError(f"{folder}: no such directory (create it first)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReplayPathError(f"{folder}: no permission to write in this directory")
    if path.exists():
        _check_overwrite(path, force, keep)


def _check_overwrite(path: Path, force: bool, keep: Sequence[Path]) -> None:
    """Refuse to replace the existing file ``path`` unless it may be (see :func:`check_replay_path`)."""
    if any(_same_or_under(path, kept) for kept in keep):
        raise ReplayPathError(f"{path}: is a bot's own file; a replay never replaces one: choose another file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise ReplayPathError(f"{path}: cannot be read to see what it is ({exc.strerror or exc})") from None
    if head == _SQLITE_HEADER:
        raise ReplayPathError(f"{path}: is a SQLite database; a replay never replaces one: choose another file")
    if not force and not _is_replay(path, head):
        raise ReplayPathError(f"{path}: exists and is not a replay file; choose another file, or give --force")
    if not os.access(path, os.W_OK):
        raise ReplayPathError(f"{path}: no permission to overwrite this file")


def _same_or_under(path: Path, kept: Path) -> bool:
    """Whether ``path`` is the file ``kept`` (by a link too) or lies under the folder ``kept``."""
    try:
        if kept.is_dir():
            return path.resolve().is_relative_to(kept.resolve())
        return os.path.samefile(path, kept)
    except OSError:
        return False


def _is_replay(path: Path, head: bytes) -> bool:
    """Whether the file at ``path``, which begins with ``head``, is a replay file (only a file
    that may be one, a JSON object, is read whole)."""
    if head.lstrip()[:1] not in (b"{", b""):
        return False
    try:
        read_replay(path)
    except (ValueError, OSError):
        return False
    return True


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (temporary file in the same folder, then
    rename), with the permissions of any new file (0666 less the umask): the replay file, and the
    viewer page made from it."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        os.fchmod(fd, 0o666 & ~umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def replay_text(document: Mapping[str, Any]) -> str:
    """The text of the replay file of ``document`` (compact JSON, UTF-8 characters as they are)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def write_replay(path: Path, document: Mapping[str, Any]) -> None:
    """Write ``document`` to ``path`` with :func:`write_text_atomic`."""
    write_text_atomic(path, replay_text(document))


def read_replay(path: Path) -> dict[str, Any]:
    """The replay document in the file at ``path``: ``ValueError`` (saying why) when the file is
    not a replay, ``OSError`` when it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a replay file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not a replay file (invalid JSON at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} replay file")
    return data
