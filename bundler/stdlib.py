"""The modules that are not the bot's own: the standard library, numpy (the one other package
CodinGame's Python has), and the names Python never looks up on the path (built in, frozen, or
already loaded when a script starts), which a local file of the same name cannot shadow."""

from __future__ import annotations

import functools
import importlib.machinery
import subprocess
import sys
import tempfile

__all__ = ["ALLOWED_THIRD_PARTY", "unshadowable", "is_stdlib"]

ALLOWED_THIRD_PARTY = frozenset({"numpy"})
"""Non-standard-library packages CodinGame's Python provides."""


@functools.cache
def _startup_modules() -> frozenset[str]:
    """Modules already loaded when a script starts (site, encodings, ...): a local file of the same
    name never shadows them."""
    code = "import sys; print(' '.join(sys.modules))"
    try:
        with tempfile.TemporaryDirectory() as empty:
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, cwd=empty, timeout=30, check=True
            ).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    names = {n.split(".")[0] for n in out.split()}
    names.discard("__main__")
    return frozenset(names)


def unshadowable(top: str) -> bool:
    """True when ``import top`` never reaches the path: built in, frozen, or loaded at start-up."""
    if top in sys.builtin_module_names or top in _startup_modules():
        return True
    return importlib.machinery.FrozenImporter.find_spec(top) is not None


def is_stdlib(top: str) -> bool:
    """True for a top-level module of the standard library (built in or not)."""
    return top in sys.stdlib_module_names or top in sys.builtin_module_names
