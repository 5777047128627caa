"""Modules mode: every module's source embedded as a string and imported from memory.

A small finder/loader on ``sys.meta_path`` serves the embedded modules under their own names, so
imports (relative, cyclic, dynamic, ``__init__`` code, ``__name__``) behave as they do from files.
Each module is compiled with its original file name (relative to its search root) and its lines
are put in ``linecache``, so a traceback names the original file and line and shows the line.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .errors import BundleError
from .graph import Graph, Module
from .source import parse_source, read_source
from .stdlib import unshadowable

__all__ = ["EmbeddedBundle", "embed", "string_literal", "HEADER_START"]

HEADER_START = "# CodinGame bundle of "
"""How every bundle begins."""


@dataclass(frozen=True)
class EmbeddedBundle:
    """The body of a modules-mode bundle (no header) and each module's embedded text."""

    body: str
    parts: dict[str, str]


def string_literal(text: str) -> str:
    """A Python literal for ``text``, as readable as possible: a raw triple-quoted string when
    that round-trips exactly, else one quoted line per source line."""
    for quote in ("'''", '"""'):
        candidate = f"r{quote}{text}{quote}"
        try:
            if ast.literal_eval(candidate) == text:
                return candidate
        except (SyntaxError, ValueError):
            pass
    lines = text.splitlines(keepends=True)
    if not lines:
        return "''"
    return "(\n" + "".join(f"    {line!r}\n" for line in lines) + ")"


_LOADER = '''def _cgarena_bundle():
    import builtins  # the entry shares these functions' globals: it may bind len, exec...
    import sys
    loaded = set(sys.modules)
    import importlib
    import importlib.machinery
    import linecache

    class EmbeddedModules:
        """Imports the modules in SOURCES from memory."""

        def find_spec(self, name, path=None, target=None):
            if name not in SOURCES:
                return None
            return importlib.machinery.ModuleSpec(name, self, origin=SOURCES[name][0],
                                                  is_package=SOURCES[name][1])

        def create_module(self, spec):
            return None

        def exec_module(self, module):
            filename, is_package, source = SOURCES[module.__spec__.name]
            module.__file__ = filename
            builtins.exec(compile_source(filename, source), module.__dict__)

        def get_source(self, name):
            return SOURCES[name][2]

    def compile_source(filename, source):
        linecache.cache[filename] = (builtins.len(source), None, source.splitlines(True), filename)
        return builtins.compile(source, filename, "exec", dont_inherit=True)

    def print_exception(kind, value, tb):
        # The built-in hook reads source lines from files; traceback reads linecache.
        if "traceback" in SOURCES:  # the bot's own module of that name
            sys.__excepthook__(kind, value, tb)
            return
        import traceback
        traceback.print_exception(kind, value, tb)

'''


_RUN = """
    # A module the bot names like a standard one (random.py) must win, as it does from files:
    # forget the standard modules this loader's own imports brought in under such names.
    for name in set(sys.modules) - loaded:
        if name in SOURCES or name.partition(".")[0] in SOURCES:
            del sys.modules[name]
    sys.meta_path.insert(0, EmbeddedModules())
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = print_exception
    main = sys.modules["__main__"].__dict__
    del main["_cgarena_bundle"]
    if PACKAGE:
        main["__package__"] = PACKAGE
        importlib.import_module(PACKAGE)
    exec(compile_source(ENTRY[0], ENTRY[1]), main)
"""


def _extra_modules(graph: Graph) -> list[Module]:
    """With dynamic imports, more modules may be needed than the imports show: every module of
    the entry's directory, and of the packages the bot uses from ``--lib`` directories (files
    that do not parse are left out)."""
    dynamic = any("__import__" in m.source or "import_module" in m.source for m in graph.modules.values())
    if not dynamic:
        return []
    known = {str(m.path) for m in graph.modules.values() if m.path}
    names = set(graph.modules)
    tops = {n.split(".")[0] for n in names if n != "__main__"}
    extra: list[Module] = []
    for root in graph.roots:
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if root != graph.entry_point.root and parts[0] not in tops:
                continue  # a --lib directory: only the packages the bot already uses
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            if not parts or any(not p.isidentifier() for p in parts) or str(path) in known:
                continue
            packages_ok = all((root.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts)))
            name = ".".join(parts)
            if not packages_ok or name in names or unshadowable(parts[0]):
                continue
            try:
                source = read_source(path)
                tree = parse_source(source, str(path))
            except BundleError:
                continue
            if source.startswith(HEADER_START):
                continue  # an earlier bundle, not a module of the bot
            extra.append(Module(name, path, source, tree, is_package, (path.parent,) if is_package else ()))
            known.add(str(path))
            names.add(name)
    return extra


def embed(graph: Graph) -> EmbeddedBundle:
    """The modules-mode body for the graph."""
    entry = graph.entry
    modules = [m for m in graph.modules.values() if not m.is_entry] + _extra_modules(graph)
    imported_entry = any(entry.name in s.executes for m in modules for s in m.imports)
    parts: dict[str, str] = {}
    rows: list[str] = []
    for m in sorted(modules, key=lambda m: m.name):
        name = graph.display(m)
        literal = string_literal(m.source)
        parts[name] = m.source
        rows.append(f"    {m.name!r}: ({name!r}, {m.is_package!r}, {literal}),\n")
    entry_name = graph.display(entry)
    if imported_entry and not graph.entry_point.is_script:
        rows.append(f"    {entry.name!r}: ({entry_name!r}, False, ENTRY[1]),\n")
    parts[entry_name] = entry.source
    package = graph.entry_point.package
    out = [
        "# Modules mode: each module below is imported from memory by a small import hook, under\n"
        "# its own name; tracebacks name the original files.\n",
        _LOADER,
        f"    PACKAGE = {package!r}\n",
        f"    ENTRY = ({entry_name!r}, {string_literal(entry.source)})\n",
        "    SOURCES = {\n",
        *rows,
        "    }\n",
        _RUN,
        "\n_cgarena_bundle()\n",
    ]
    return EmbeddedBundle("".join(out), parts)
