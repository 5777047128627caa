"""Tests of the documentation (issue #37): the generated blocks, the walkthrough, the site."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.helpers.paths import REPO_ROOT


def load_regen() -> ModuleType:
    """docs/gen/regen.py, the generator of the docs' outputs (not a package of the project)."""
    if "cgarena_docs_regen" not in sys.modules:
        spec = importlib.util.spec_from_file_location("cgarena_docs_regen", REPO_ROOT / "docs" / "gen" / "regen.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["cgarena_docs_regen"] = module
        spec.loader.exec_module(module)
    return sys.modules["cgarena_docs_regen"]
