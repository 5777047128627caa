"""The ``arena`` command line: :func:`main` is the click group; each command is a module."""

from . import matches, play, results, tournament, view  # noqa: F401  (each registers its command on main)
from .main import main

__all__ = ["main"]
