"""A Python file as Python reads it: its text (decoded as the interpreter decodes it) and its
syntax tree under the grammar CodinGame's Python accepts."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from arena.match.launch.pymodule import NotRegular, read_python

from .errors import EntryNotFoundError, SourceSyntaxError

__all__ = ["GRAMMAR", "read_source", "parse_source"]

GRAMMAR = (3, 11)
"""The Python version whose grammar every input file and bundle must parse under."""


def read_source(path: Path) -> str:
    """The text of a Python file, decoded as Python decodes it, with ``\\n`` line ends. Only a
    regular file is read, up to a size limit (:func:`arena.match.launch.pymodule.read_python`): a FIFO, a
    device or a larger file is refused (:class:`EntryNotFoundError`) before anything is read."""
    try:
        data = read_python(path)
    except NotRegular as exc:
        raise EntryNotFoundError(f"{path}: cannot read it as Python source: {exc}") from None
    except OSError as exc:
        raise EntryNotFoundError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        raise SourceSyntaxError(path, None, f"cannot decode: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def parse_source(text: str, filename: str) -> ast.Module:
    """Parse under Python 3.11's grammar, or raise :class:`SourceSyntaxError` (file and line)."""
    try:
        return ast.parse(text, filename=filename, feature_version=GRAMMAR)
    except SyntaxError as exc:
        raise SourceSyntaxError(filename, exc.lineno, exc.msg) from None
    except ValueError as exc:  # null bytes
        raise SourceSyntaxError(filename, None, str(exc)) from None
