"""Acceptance 1: every fixture package, bundled, behaves as the package run normally.

Each fixture runs the way its author would run it (``python main.py`` or ``python -m pkg`` from the
fixture directory, ``--lib`` directories on ``PYTHONPATH``); its bundle runs with ``python -I``
from an empty directory. Return code, stdout and stderr must be identical, in flat mode where
flattening is possible and in modules mode always.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

import pytest

from bundler.build import BuildOptions, build
from bundler.errors import FlattenRefused
from tests.helpers.bundling import FIXTURES, Run, run_bundle, run_python


@dataclass(frozen=True)
class Case:
    name: str
    """Fixture directory."""
    entry: str
    """ENTRY, relative to the fixture directory."""
    run: tuple[str, ...]
    """How the original runs, from the fixture directory (``python -B`` + these)."""
    libs: tuple[str, ...] = ()
    refused: str | None = None
    """When flattening must be refused: a fragment of the reason."""
    cwd: str = ""
    """Where the original runs, under the fixture directory."""


CASES = [
    Case("relative_entry", "rel", ("-m", "rel")),
    Case("relative_file", "game/main.py", ("-m", "game.main")),
    Case("future_annotations", "main.py", ("main.py",)),
    Case("triple_quoted", "main.py", ("main.py",)),
    Case("stdlib_name", "main.py", ("main.py",)),
    Case("name_clash", "main.py", ("main.py",)),
    Case("import_as", "main.py", ("main.py",)),
    Case("star_all", "main.py", ("main.py",)),
    Case("star_no_all", "main.py", ("main.py",), refused="has no literal __all__"),
    Case("registry", "main.py", ("main.py",)),
    Case("function_import", "main.py", ("main.py",)),
    Case("cycle", "main.py", ("main.py",), refused="import cycle"),
    Case("dataclasses_decorators", "main.py", ("main.py",)),
    Case("nested_packages", "main.py", ("main.py",)),
    Case("non_ascii", "main.py", ("main.py",)),
    Case("shared_lib", "bot_a/main.py", ("main.py",), libs=("lib",), cwd="bot_a"),
    Case("shared_lib", "bot_b/main.py", ("main.py",), libs=("lib",), cwd="bot_b"),
    Case("main_block", "main.py", ("main.py",)),
    Case("scoping", "main.py", ("main.py",)),
    Case("lazy_cycle", "main.py", ("main.py",)),
    Case("value_pattern", "main.py", ("main.py",), refused="main.py:8: a value pattern (case module.NAME:)"),
    Case("fstring_debug", "main.py", ("main.py",), refused="main.py:7: the f-string debug form {settings.DEPTH=}"),
    Case("fstring_debug_untouched", "main.py", ("main.py",)),
    Case("form_feed", "main.py", ("main.py",)),
    Case("deleted_global", "main.py", ("main.py",), refused="main.py:5: reads 'TEMP', which module tools deletes"),
    Case("stdlib_shadow", "main.py", ("main.py",)),
    Case("star_copy", "main.py", ("main.py",)),
    Case("definition_names", "main.py", ("main.py",)),
    Case("local_clash", "main.py", ("main.py",)),
    Case("star_reexport", "main.py", ("main.py",)),
    Case("empty_init_two_names", "src/main.py", ("main.py",), libs=("src/engine",), cwd="src"),
    Case(
        "submodule_replaces",
        "main.py",
        ("main.py",),
        refused="pkg/__init__.py:1: binds 'sub' before the submodule pkg.sub first runs",
    ),
    Case("submodule_same_name", "main.py", ("main.py",)),
    Case("string_annotations", "main.py", ("main.py",)),
    Case("pickle_objects", "main.py", ("main.py",), refused="main.py:3: imports pickle, which pickles objects"),
    Case("class_repr", "main.py", ("main.py",)),
    Case(
        "class_in_function",
        "main.py",
        ("main.py",),
        refused="factory.py:2: makes class Unit inside a function: its __module__ would not be factory",
    ),
    Case("future_mixed", "main.py", ("main.py",)),
    Case(
        "future_mixed_reader",
        "main.py",
        ("main.py",),
        refused="model.py:7: has annotations evaluated at definition time, another module uses 'from __future__ "
        "import annotations', and main.py:9 reads annotations (dataclasses.fields)",
    ),
    Case("entry_rebinds_builtins", "main.py", ("main.py",)),
    Case(
        "lazy_import_state",
        "main.py",
        ("main.py",),
        refused="main.py:7: imports derived inside a function; running it earlier than Python would is not safe: "
        "derived.py:3: reads config.settings, whose value the program may change",
    ),
    Case(
        "lazy_import_plugin",
        "main.py",
        ("main.py",),
        refused="plugins.py:4: class Rush derives from Strategy, whose creation may run the bot's code",
    ),
    Case("lazy_import_pure", "main.py", ("main.py",)),
    Case("star_copy_moved", "main.py", ("main.py",)),
    Case("function_module_alias", "main.py", ("main.py",)),
    Case(
        "builtin_rebound",
        "main.py",
        ("main.py",),
        refused="tools.py:5: reads the builtin 'print' before this module binds its own 'print'",
    ),
]


def _id(case: Case) -> str:
    return case.name + ("" if case.name != "shared_lib" else "-" + case.entry.split("/")[0])


def _original(case: Case) -> Run:
    base = FIXTURES / case.name
    libs = tuple(base / lib for lib in case.libs)
    result = run_python(list(case.run), cwd=base / case.cwd, libs=libs)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result


def _options(case: Case, mode: str | None) -> BuildOptions:
    base = FIXTURES / case.name
    return BuildOptions(base / case.entry, tuple(base / lib for lib in case.libs), mode)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_flat_bundle_behaves_like_the_package(case: Case, tmp_path):
    if case.refused:
        with pytest.raises(FlattenRefused) as info:
            build(_options(case, "flat"))
        assert case.refused in str(info.value)
        # Left to choose, the bundler falls back to modules mode and says why.
        bundle = build(_options(case, None))
        assert bundle.mode == "modules"
        assert any(case.refused in r for r in bundle.fallback_reasons)
        return
    bundle = build(_options(case, "flat"))
    assert bundle.mode == "flat"
    tree = ast.parse(bundle.text, feature_version=(3, 11))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level
    }
    local = {p.stem for p in (FIXTURES / case.name).rglob("*.py")} | {
        p.name for p in (FIXTURES / case.name).rglob("*") if p.is_dir()
    }
    assert not (imported & local) - {"main"}, "a local import survived flattening"
    assert not any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))
    assert run_bundle(bundle.text, tmp_path) == _original(case)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_modules_bundle_behaves_like_the_package(case: Case, tmp_path):
    bundle = build(_options(case, "modules"))
    assert bundle.mode == "modules"
    assert run_bundle(bundle.text, tmp_path) == _original(case)


@pytest.mark.parametrize("case", [c for c in CASES if not c.refused], ids=_id)
def test_flat_keeps_comments_docstrings_and_strings_byte_for_byte(case: Case):
    bundle = build(_options(case, "flat"))
    base = FIXTURES / case.name
    used = [
        p
        for p in base.rglob("*.py")
        if p.read_text(encoding="utf-8").strip()
        and not (
            case.name == "shared_lib" and p.parts[-2] in ("bot_a", "bot_b") and p.parts[-2] != case.entry.split("/")[0]
        )
    ]
    for path in used:
        source = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                assert tok.string in bundle.text, (path, tok.string)
            if tok.type == tokenize.STRING and "\n" in tok.string:  # multi-line strings, verbatim
                assert tok.string in bundle.text, (path, tok.string)
