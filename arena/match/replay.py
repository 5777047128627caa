"""The replay file: everything needed to replay and debug one match, as one JSON document.

Layout (``format: cgarena-replay-v1``)::

    {format, game, seed, params, bots: [{name, command}], result: {...as --json...},
     initial: <snapshot before the first turn>,
     frames: [{turn, phase, summary, errors, messages, deactivations,
               executions: [{player, input, expected_lines, time_limit_ms, output, time_ms,
                             status, stderr}],   # output: the expected lines joined by "\n"
               snapshot}],
     stderr_tail: [<last bytes of each bot's stderr>]}

Written atomically: a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .loop import MatchResult
from .paths import unusable

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
        "bots": [{"name": p.name, "command": p.command} for p in result.players],
        "result": result.to_dict(),
        "initial": result.initial_snapshot,
        "frames": frames,
        "stderr_tail": [p.stderr_tail for p in result.players],
    }


class ReplayPathError(ValueError):
    """A replay path that cannot be written (the message says why)."""


def check_replay_path(path: Path) -> None:
    """Raise :class:`ReplayPathError` unless a replay can be written at ``path``: checked before
    the match, so a typo does not cost the game."""
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
    if path.exists() and not os.access(path, os.W_OK):
        raise ReplayPathError(f"{path}: no permission to overwrite this file")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (temporary file in the same folder, then
    rename), with the permissions of any new file (0666 less the umask): the replay file, and the
    viewer page made from it."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
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
