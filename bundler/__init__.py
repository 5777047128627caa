"""The bundler: turns a multi-module Python bot into the one file CodinGame accepts.

``bundler.build.build`` makes a bundle (flat when that can be proved safe, else modules mode),
``bundler.verify.verify`` plays it against the source bot, the ``bundle`` command line is :mod:`cli.bundle`.
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("cgarena")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"
