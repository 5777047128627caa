"""Bundles for other tools: the one-file form of a bot, to run it where its source is not.

``arena tournament --executor dask`` sends each Python bot to the Dask workers as its bundle. The
arena sits below the bundler (the bundler's ``--verify`` plays matches through the arena), so it
does not import this module: the command line (:mod:`cli.tournament`) hands :func:`bundle_source`
to the Dask executor.
"""

from __future__ import annotations

from pathlib import Path

from .build import BuildOptions, build
from .errors import BundleError

__all__ = ["bundle_source"]


def bundle_source(entry: str) -> str:
    """The bundle of the bot at ``entry`` (a script or a package directory, as ``bundle ENTRY``
    takes it): flat when that can be proved safe, else modules mode, never over any size limit
    (the file is run, not pasted into CodinGame). Raises :class:`ValueError` with the bundler's
    one-line reason when no bundle can be made."""
    try:
        return build(BuildOptions(entry=Path(entry))).text
    except BundleError as exc:
        raise ValueError(str(exc)) from None
