"""Paths as users type them, probed without exceptions: a name too long for the file system, a
NUL byte or a loop of links is an answer in words (for a one-line error), not a traceback.

``Path.exists()`` and friends raise on such names (``OSError: File name too long``,
``ValueError: embedded null byte``); :func:`missing` says why a path names no file instead.
Names that are not valid UTF-8 (bytes given on the command line, kept by Python as surrogate
escapes) are ordinary names here: they exist or not like any other.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

__all__ = ["missing", "unusable", "exists", "is_file", "is_dir", "expanded", "data_paths"]

_REASONS = {
    errno.ENOENT: "no such file or directory",
    errno.ENOTDIR: "no such file or directory (a part of it is a file)",
    errno.ENAMETOOLONG: "file name too long",
    errno.ELOOP: "too many levels of symbolic links",
    errno.EACCES: "permission denied",
}
_NUL = "not a usable file name (it contains a NUL byte)"
_UNUSABLE = {_NUL, _REASONS[errno.ENAMETOOLONG], _REASONS[errno.ELOOP]}


def missing(path: str | os.PathLike[str]) -> str | None:
    """``None`` when ``path`` names an existing file or folder; otherwise why not, in words."""
    try:
        os.stat(path)
    except ValueError:
        return _NUL
    except OSError as exc:
        return _REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    return None


def unusable(path: str | os.PathLike[str]) -> str | None:
    """Why no file can have the name ``path`` (too long, a NUL byte, a loop of symbolic links), or
    ``None`` when it names a file or could (the file need not exist)."""
    reason = missing(path)
    return reason if reason in _UNUSABLE else None


def expanded(text: str) -> Path:
    """``text`` as a path with ``~`` and ``~user`` expanded (left as written when there is no
    such user, where ``Path.expanduser()`` raises)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        return Path(text)


def exists(path: str | os.PathLike[str]) -> bool:
    """``Path.exists()`` that answers ``False`` for names no file can have."""
    return missing(path) is None


def is_file(path: str | os.PathLike[str]) -> bool:
    """``Path.is_file()`` that answers ``False`` for names no file can have."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: str | os.PathLike[str]) -> bool:
    """``Path.is_dir()`` that answers ``False`` for names no file can have."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def data_paths(data: Sequence[str], base: str | None = None) -> list[Path]:
    """A bot's declared data (``--data``, ``data:`` in a config: files or folders) as absolute
    paths, relative ones taken from ``base`` (default: the current directory)."""
    root = Path(base) if base is not None else Path.cwd()
    return [(path if path.is_absolute() else root / path).resolve() for path in map(expanded, data)]
