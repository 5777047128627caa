"""Paths as users type them, probed without exceptions: a name too long for the file system, a
NUL byte or a loop of links is an answer in words (for a one-line error), not a traceback.

``Path.exists()`` and friends raise on such names (``OSError: File name too long``,
``ValueError: embedded null byte``); :func:`missing` says why a path names no file instead.
Names that are not valid UTF-8 (bytes given on the command line, kept by Python as surrogate
escapes) are ordinary names here: they exist or not like any other.

A file read as code or data (hashed, bundled) must be a regular file of bounded size:
:func:`regular_chunks` refuses a FIFO (it would wait for a writer forever), a device
(``/dev/urandom`` never ends) or a socket before reading anything, and stops past a size limit.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from .errors import ArenaError

__all__ = [
    "missing",
    "unusable",
    "exists",
    "is_file",
    "is_dir",
    "expanded",
    "located",
    "data_paths",
    "NotRegular",
    "not_regular",
    "regular_chunks",
    "read_regular",
    "size_text",
    "readable",
    "umask",
]

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


def located(text: str, base: str | os.PathLike[str] | None = None) -> Path:
    """``text`` as a path (:func:`expanded`), a relative one taken from ``base`` when given."""
    path = expanded(text)
    return path if base is None or path.is_absolute() else Path(base) / path


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


# -- regular files only -----------------------------------------------------------------------------


class NotRegular(ArenaError):
    """A path that is not read: not a regular file, or over the size limit (``str()``: why, in words:
    "a named pipe (FIFO), not a regular file", "over 16 MiB")."""


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str | None:
    """``None`` for a regular file; else what the mode says it is, in words."""
    if stat.S_ISREG(mode):
        return None
    what = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"{what}, not a regular file"


def size_text(size: int) -> str:
    """``16 MiB``, ``2.15 GiB``: a size in bytes, in the largest binary unit it reaches."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.3g} {unit}"
    return f"{size} bytes"


def not_regular(path: str | os.PathLike[str], limit: int | None = None) -> str | None:
    """``None`` when ``path`` names a regular file (symbolic links followed) of at most ``limit``
    bytes; otherwise why not, in words. Nothing is opened: a FIFO or a device is only looked at."""
    try:
        info = os.stat(path)
    except ValueError:
        return _NUL
    except OSError as exc:
        return _REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    what = _kind(info.st_mode)
    if what is None and limit is not None and info.st_size > limit:
        return f"{size_text(info.st_size)}, over the {size_text(limit)} limit"
    return what


def regular_chunks(path: str | os.PathLike[str], limit: int, size: int = 1 << 20) -> Iterator[bytes]:
    """The contents of the regular file ``path``, in pieces. Raises :class:`NotRegular` before
    anything is read when ``path`` is not a regular file (it is opened without waiting, so a FIFO
    never blocks, and checked again once open), and as soon as more than ``limit`` bytes were
    read; :class:`OSError` when it cannot be opened or read."""
    try:
        what = _kind(os.stat(path).st_mode)
    except ValueError:
        raise NotRegular(_NUL) from None
    if what is not None:
        raise NotRegular(what)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        what = _kind(os.fstat(fd).st_mode)  # it may have been replaced since the stat above
        if what is not None:
            raise NotRegular(what)
        total = 0
        while piece := os.read(fd, size):
            total += len(piece)
            if total > limit:
                raise NotRegular(f"over the {size_text(limit)} limit")
            yield piece
    finally:
        os.close(fd)


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`regular_chunks`: :class:`NotRegular`
    for anything else, or for more than ``limit`` bytes; :class:`OSError`)."""
    return b"".join(regular_chunks(path, limit))


def readable(text: str) -> str:
    """``text`` with the bytes of a file name that is not UTF-8 (kept by Python as surrogate
    escapes, which no text column or terminal takes) shown as U+FFFD."""
    try:
        raw = text.encode("utf-8", "surrogateescape")  # a file name's own bytes
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate written in YAML ("\\udc00")
    return raw.decode("utf-8", "replace")


def umask() -> int:
    """This process's umask (read by setting it, then setting it back): what a new file's
    permissions lose."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
