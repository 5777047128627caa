"""Tests of the documentation (issue #37): the generated blocks, the walkthrough, the site."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from tests.helpers.paths import REPO_ROOT


def load_module(name: str) -> ModuleType:
    """The generator docs/gen/NAME.py (docs/gen is not a package of the project)."""
    key = f"cgarena_docs_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, REPO_ROOT / "docs" / "gen" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def load_regen() -> ModuleType:
    """docs/gen/regen.py, the generator of the docs' outputs."""
    return load_module("regen")


def changed(a: Path, b: Path) -> float:
    """The share of pixels of two pictures of one size that differ visibly."""
    from matplotlib.image import imread

    first, second = imread(a)[..., :3], imread(b)[..., :3]
    assert first.shape == second.shape, (a.name, first.shape, second.shape)
    return float((np.abs(first - second).max(axis=-1) > 0.02).mean())
