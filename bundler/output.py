"""Where a bundle goes: a file (atomically) or the clipboard."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import OutputError

__all__ = ["write_atomic", "copy_to_clipboard", "clipboard_tool", "CLIPBOARD_TOOLS"]

CLIPBOARD_TOOLS: tuple[tuple[str, ...], ...] = (
    ("wl-copy",),
    ("xclip", "-selection", "clipboard"),
    ("xsel", "--clipboard", "--input"),
    ("pbcopy",),
)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same directory, so the
    path holds either its old content or the whole new one."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        mask = os.umask(0o022)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # a new file's usual permissions, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def clipboard_tool() -> tuple[str, ...] | None:
    """The first clipboard command installed, or ``None``."""
    return next((c for c in CLIPBOARD_TOOLS if shutil.which(c[0]) is not None), None)


def copy_to_clipboard(text: str) -> str | None:
    """Put ``text`` on the clipboard with the first tool found; its name, or ``None`` if none is
    installed."""
    command = clipboard_tool()
    if command is not None:
        try:
            subprocess.run(
                command,
                input=text.encode("utf-8"),
                check=True,
                timeout=10,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise OutputError(f"{command[0]} failed to copy ({exc})") from None
        return command[0]
    return None
