"""The bundler's exceptions: one class per kind of failure, each with a one-line message."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BundleError",
    "EntryNotFoundError",
    "SourceSyntaxError",
    "UnresolvedImportError",
    "ThirdPartyImportError",
    "FlattenRefused",
    "OutputError",
    "SizeLimitError",
    "VerifyError",
    "InternalError",
]


class BundleError(Exception):
    """Base class: a bundle could not be made; ``str(exc)`` is the one line to show."""


class EntryNotFoundError(BundleError):
    """The ENTRY argument names no bot (missing, or a directory without ``__main__.py``)."""


class SourceSyntaxError(BundleError):
    """An input file does not parse under Python 3.11's grammar."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: syntax error: {message}")


class UnresolvedImportError(BundleError):
    """A relative import, or a submodule of a local package, that names no file."""


class ThirdPartyImportError(BundleError):
    """An import of a module that is neither local, nor standard library, nor numpy."""


class FlattenRefused(BundleError):
    """Flattening cannot be proved safe; ``reasons`` says why (each one line)."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = list(reasons)
        super().__init__("cannot flatten: " + "; ".join(self.reasons))


class OutputError(BundleError):
    """The output path cannot be written."""


class SizeLimitError(BundleError):
    """The bundle is over CodinGame's 100,000 character limit."""


class VerifyError(BundleError):
    """``--verify`` found a difference between the source bot and the bundle, or could not play."""


class InternalError(BundleError):
    """A bug in the bundler, not a problem of the bot: the message says what failed and where."""

    def __init__(self, what: str) -> None:
        super().__init__(f"internal error (a bug in the bundler, not in your bot; please report it): {what}")
