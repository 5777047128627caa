"""How the path of a Python bot runs (``arena.match.launch.pymodule``): the rule botspec and the bundler share."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.match.launch.pymodule import NoMainError, locate, module_path, package_chain, uses_relative_imports


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_script_runs_from_its_own_directory(tmp_path):
    write(tmp_path, {"bot.py": "print('WAIT')\n"})
    entry = locate(tmp_path / "bot.py")
    assert (entry.path, entry.module, entry.package, entry.root) == (tmp_path / "bot.py", "__main__", None, tmp_path)
    assert entry.is_script
    assert entry.run_args() == [str(tmp_path / "bot.py")]


def test_a_package_runs_its_main_as_the_package_from_above_its_outermost_package(tmp_path):
    write(tmp_path, {"outer/__init__.py": "", "outer/inner/__init__.py": "", "outer/inner/__main__.py": ""})
    entry = locate(tmp_path / "outer" / "inner")
    assert entry.path == tmp_path / "outer" / "inner" / "__main__.py"
    assert (entry.module, entry.package, entry.root) == ("outer.inner.__main__", "outer.inner", tmp_path)
    assert not entry.is_script
    assert entry.run_args() == ["-m", "outer.inner"]


def test_a_directory_without_init_runs_its_main_as_a_script(tmp_path):
    write(tmp_path, {"loose/__main__.py": ""})
    entry = locate(tmp_path / "loose")
    assert (entry.path, entry.module, entry.package, entry.root) == (
        tmp_path / "loose" / "__main__.py",
        "__main__",
        None,
        tmp_path / "loose",
    )


def test_a_module_of_a_package_runs_as_a_module_only_when_it_uses_relative_imports(tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/rel.py": "from . import x\n", "pkg/plain.py": "import os\n"})
    relative = locate(tmp_path / "pkg" / "rel.py")
    assert (relative.module, relative.package, relative.root) == ("pkg.rel", "pkg", tmp_path)
    assert relative.run_args() == ["-m", "pkg.rel"]
    plain = locate(tmp_path / "pkg" / "plain.py")
    assert (plain.module, plain.package, plain.root) == ("__main__", None, tmp_path / "pkg")


def test_a_directory_without_main_names_no_bot(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoMainError) as caught:
        locate(tmp_path / "empty")
    assert caught.value.path == tmp_path / "empty"


def test_package_chain_and_module_path(tmp_path):
    write(tmp_path, {"a/__init__.py": "", "a/b/__init__.py": "", "a/b/c.py": ""})
    assert package_chain(tmp_path / "a" / "b") == (["a", "b"], tmp_path)
    assert package_chain(tmp_path) == ([], tmp_path)
    assert module_path(tmp_path, "a.b") == tmp_path / "a" / "b"
    assert module_path(tmp_path, "a.b.c") == tmp_path / "a" / "b" / "c.py"
    assert module_path(tmp_path, "a.d") is None


def test_relative_imports_of_a_file_that_cannot_be_read_or_parsed(tmp_path):
    write(tmp_path, {"broken.py": "from . import (\n"})
    assert not uses_relative_imports(tmp_path / "broken.py")
    assert not uses_relative_imports(tmp_path / "missing.py")

    class Unreadable(Exception):
        pass

    def read(path: Path) -> str:
        raise Unreadable(str(path))

    with pytest.raises(Unreadable):  # the reader's own errors reach the caller (the bundler's do)
        uses_relative_imports(tmp_path / "broken.py", read)
