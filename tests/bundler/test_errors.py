"""Acceptance 3: bad input gives one clear line on stderr, a non-zero exit, no traceback, and
nothing (half-)written at the output path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def bundle(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real console entry point, as a user runs it."""
    code = "import sys; from cli.bundle import main; sys.argv[0] = 'bundle'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def assert_one_line_error(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert done.stdout == ""
    return lines[0]


def test_missing_entry(tmp_path):
    done = bundle("no_such_bot.py", "-o", "out.py", cwd=tmp_path)
    assert_one_line_error(done, "no_such_bot.py", "no such file")
    assert not (tmp_path / "out.py").exists()


def test_directory_without_main(tmp_path):
    (tmp_path / "pkg").mkdir()
    assert_one_line_error(bundle("pkg", cwd=tmp_path), "pkg", "__main__.py")


def test_syntax_error_names_file_and_line(tmp_path):
    (tmp_path / "main.py").write_text("import helper\nprint(helper.x)\n")
    (tmp_path / "helper.py").write_text("x = 1\n\ndef broken(:\n    pass\n")
    out = tmp_path / "out.py"
    out.write_text("previous bundle\n")
    line = assert_one_line_error(bundle("main.py", "-o", "out.py", cwd=tmp_path), "syntax error")
    assert f"{tmp_path / 'helper.py'}:3" in line
    assert out.read_text() == "previous bundle\n"  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["helper.py", "main.py", "out.py"]


def test_unknown_third_party_import(tmp_path):
    (tmp_path / "main.py").write_text("import os\nimport numpy\nfrom requests_not_here import get\n")
    line = assert_one_line_error(bundle("main.py", "-o", "out.py", cwd=tmp_path), "requests_not_here")
    assert "main.py:3" in line and "standard library" in line
    assert not (tmp_path / "out.py").exists()


def test_guarded_third_party_import_is_allowed(tmp_path):
    (tmp_path / "main.py").write_text(
        "try:\n    import numba\nexcept ImportError:\n    numba = None\nprint(numba is None)\n"
    )
    done = bundle("main.py", "-o", "out.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_missing_local_submodule(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "main.py").write_text("import pkg.missing\n")
    assert_one_line_error(bundle("main.py", cwd=tmp_path), "main.py:1", "pkg.missing")


def test_relative_import_above_the_top_package(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "__main__.py").write_text("from ... import x\n")
    assert_one_line_error(bundle("pkg", cwd=tmp_path), "relative import")


@pytest.mark.parametrize("where", ["parent_is_a_file", "is_a_directory", "missing_directory"])
def test_output_that_cannot_be_written(tmp_path, where):
    (tmp_path / "main.py").write_text("print('hi')\n")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    target = {"parent_is_a_file": "afile/out.py", "is_a_directory": "adir", "missing_directory": "nowhere/out.py"}[
        where
    ]
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    assert_one_line_error(bundle("main.py", "-o", target, cwd=tmp_path), target.split("/")[0])
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before  # no temporary file left


def test_over_the_size_limit_writes_nothing(tmp_path):
    (tmp_path / "main.py").write_text("TABLE = '" + "é" * 100_500 + "'\nprint(len(TABLE))\n")
    assert_one_line_error(bundle("main.py", "-o", "out.py", cwd=tmp_path), "100,000")
    assert not (tmp_path / "out.py").exists()


def test_forced_flat_mode_that_is_not_safe(tmp_path):
    (tmp_path / "main.py").write_text("import a\n")
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text("import a\n")
    assert_one_line_error(
        bundle("main.py", "--mode", "flat", "-o", "out.py", cwd=tmp_path), "import cycle", "a -> b -> a"
    )
    assert not (tmp_path / "out.py").exists()


def test_not_a_python_file(tmp_path):
    (tmp_path / "bot.txt").write_text("print(1)\n")
    assert_one_line_error(bundle("bot.txt", cwd=tmp_path), "not a Python file")


def test_output_over_a_source_file_is_refused(tmp_path):
    (tmp_path / "main.py").write_text("import helper\n")
    (tmp_path / "helper.py").write_text("X = 1\n")
    assert_one_line_error(bundle("main.py", "-o", "helper.py", cwd=tmp_path), "helper.py", "source")
    assert (tmp_path / "helper.py").read_text() == "X = 1\n"


def _two_module_bot(tmp_path: Path) -> Path:
    (tmp_path / "tools.py").write_text("def f():\n    return 'tool'\n")
    entry = tmp_path / "main.py"
    entry.write_text("import tools\nprint(tools.f())\n")
    return entry


def test_a_bug_of_flat_mode_is_reported_as_internal_and_the_default_uses_modules_mode(tmp_path, monkeypatch):
    from bundler import build as build_module
    from bundler.build import BuildOptions
    from bundler.errors import InternalError

    def broken(graph):
        raise KeyError("no such module 'x'")

    monkeypatch.setattr(build_module, "flatten", broken)
    entry = _two_module_bot(tmp_path)
    bundle = build_module.build(BuildOptions(entry))
    assert bundle.mode == "modules"
    assert len(bundle.fallback_reasons) == 1
    reason = bundle.fallback_reasons[0]
    assert reason.startswith("internal error (a bug in the bundler, not in your bot")
    assert "KeyError" in reason and "no such module 'x'" in reason and "test_errors.py" in reason
    with pytest.raises(InternalError, match=r"internal error .* flat mode failed with KeyError"):
        build_module.build(BuildOptions(entry, mode="flat"))


def test_a_crash_of_the_command_is_reported_as_internal_with_its_traceback(tmp_path):
    entry = _two_module_bot(tmp_path)
    code = (
        "import sys; import cli.bundle as cli; from bundler import build as b\n"
        "def broken(*a, **k):\n    raise RuntimeError('boom')\n"
        "b.embed = broken; sys.argv[0] = 'bundle'; cli.main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(entry), "--mode", "modules", "-o", "out.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    first = done.stderr.splitlines()[0]
    assert first == (
        "bundle: error: internal error (a bug in the bundler, not in your bot; please report it): RuntimeError: boom"
    )
    assert "Traceback" in done.stderr
    assert not (tmp_path / "out.py").exists()
