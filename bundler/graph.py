"""The module graph of a bot: which local modules it imports, found with ``ast``, resolved as
Python's import system would resolve them.

The search path is the one Python builds when the bot is run normally: the entry's directory for a
script (``python bot.py``), or the directory above its top package when the entry belongs to a
package (``python -m pkg.main``), then the ``--lib`` directories (as ``PYTHONPATH`` would add
them). Local modules win over standard-library modules of the same name, except those Python has
already loaded (or finds built in or frozen) before it looks at the path.
"""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import io
import subprocess
import sys
import tempfile
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.match.pyentry import NoMainError, PythonEntry, locate

from .errors import (
    EntryNotFoundError,
    SourceSyntaxError,
    ThirdPartyImportError,
    UnresolvedImportError,
)
from .scopes import ModuleScopes, analyze

__all__ = [
    "ALLOWED_THIRD_PARTY",
    "Module",
    "ImportSite",
    "Binding",
    "Graph",
    "locate_entry",
    "build_graph",
    "read_source",
    "parse_source",
]

ALLOWED_THIRD_PARTY = frozenset({"numpy"})
"""Non-standard-library packages CodinGame's Python provides."""

GRAMMAR = (3, 11)

Transform = Callable[[str, ast.Module], str]


# -- reading -----------------------------------------------------------------------------------


def read_source(path: Path) -> str:
    """The text of a Python file, decoded as Python decodes it, with ``\\n`` line ends."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EntryNotFoundError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        raise SourceSyntaxError(path, None, f"cannot decode: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def parse_source(text: str, filename: str) -> ast.Module:
    """Parse under Python 3.11's grammar, or raise :class:`SourceSyntaxError` (file and line)."""
    try:
        return ast.parse(text, filename=filename, feature_version=GRAMMAR)
    except SyntaxError as exc:
        raise SourceSyntaxError(filename, exc.lineno, exc.msg) from None
    except ValueError as exc:  # null bytes
        raise SourceSyntaxError(filename, None, str(exc)) from None


# -- which names Python never looks up on the path ----------------------------------------------


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
    return top in sys.stdlib_module_names or top in sys.builtin_module_names


# -- the entry ---------------------------------------------------------------------------------


def locate_entry(entry: Path | str) -> PythonEntry:
    """Work out how ENTRY runs (:mod:`arena.match.pyentry`): a script, a package (``python -m
    pkg``) or a module of one; raise :class:`EntryNotFoundError` when it names no bot."""
    path = Path(entry)
    if not path.exists():
        raise EntryNotFoundError(f"{entry}: no such file or directory")
    resolved = path.resolve()
    if not resolved.is_dir() and resolved.suffix != ".py":
        raise EntryNotFoundError(f"{entry}: not a Python file (.py) or a package directory")
    try:
        # A file of a package is read as every module is: what cannot be read or decoded is
        # reported as such.
        return locate(resolved, read=read_source)
    except NoMainError:
        raise EntryNotFoundError(f"{entry}: a directory entry needs a __main__.py") from None


# -- modules -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleFile:
    """Where a module's code lives."""

    name: str
    path: Path | None
    """``None`` for a namespace package (no code)."""
    is_package: bool
    search: tuple[Path, ...] = ()
    """``__path__`` of a package."""


@dataclass(frozen=True)
class Binding:
    """What one name bound by an import statement refers to."""

    name: str
    """The name bound in the importing scope."""
    module: str | None
    """The local module it refers to (``None`` for a non-local module)."""
    attr: str | None = None
    """A name in ``module``; ``None`` when the name is the module itself."""
    external: str | None = None
    """For a non-local import: ``"module"`` or ``"module:attr"``."""
    alias: ast.alias | None = None
    """The ``import`` clause that binds it (``None`` for names a star import binds)."""


@dataclass
class ImportSite:
    """One import statement in a module, resolved."""

    node: ast.Import | ast.ImportFrom
    top_index: int
    """Index of the module-body statement that contains it."""
    top_level: bool
    """Directly a statement of the module body."""
    in_function: bool
    type_checking: bool
    """Never executed: inside ``if TYPE_CHECKING:``, or inside the ``if __name__ == "__main__":``
    block of a module that is not the entry."""
    guarded: bool
    """Inside a ``try`` that catches ``ImportError``."""
    executes: list[str] = field(default_factory=list)
    """Local modules the statement imports, in the order Python runs them."""
    bindings: list[Binding] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    star_from: str | None = None
    """``from X import *`` of a local X: its name."""
    problems: list[str] = field(default_factory=list)
    """Why this import cannot be flattened (it still works in modules mode)."""

    @property
    def is_local(self) -> bool:
        return bool(self.executes) or self.star_from is not None


@dataclass(eq=False)
class Module:
    """A local module of the bot."""

    name: str
    path: Path | None
    source: str
    tree: ast.Module
    is_package: bool
    search: tuple[Path, ...]
    is_entry: bool = False
    imports: list[ImportSite] = field(default_factory=list)
    _scopes: ModuleScopes | None = None

    @property
    def scopes(self) -> ModuleScopes:
        if self._scopes is None:
            self._scopes = analyze(self.tree)
        return self._scopes

    @property
    def package(self) -> str:
        """``__package__``."""
        if self.is_package:
            return self.name
        return self.name.rpartition(".")[0]

    def display(self, roots: list[Path]) -> str:
        """The file's path relative to its search root (a stable, readable name)."""
        if self.path is None:
            return self.name.replace(".", "/") + "/"
        for root in roots:
            try:
                return self.path.relative_to(root).as_posix()
            except ValueError:
                continue
        return self.path.name


@dataclass
class Graph:
    """Every local module reachable from the entry, with its imports resolved."""

    entry_point: PythonEntry
    entry: Module
    modules: dict[str, Module]
    """By dotted name; the entry is under ``"__main__"`` when it is a script."""
    roots: list[Path]
    files: list[Path]
    """Every file read (for ``--watch``)."""

    def display(self, module: Module) -> str:
        return module.display(self.roots)


class _Finder:
    """Python's path-based module search over a fixed list of directories."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self.cache: dict[str, ModuleFile | None] = {}

    def find(self, name: str) -> ModuleFile | None:
        if name not in self.cache:
            self.cache[name] = self._find(name)
        return self.cache[name]

    def _find(self, name: str) -> ModuleFile | None:
        parent, _, last = name.rpartition(".")
        if parent:
            pkg = self.find(parent)
            if pkg is None or not pkg.is_package:
                return None
            dirs: tuple[Path, ...] = pkg.search
        else:
            if unshadowable(name):
                return None
            dirs = tuple(self.roots)
        portions: list[Path] = []
        for d in dirs:
            pkg_dir = d / last
            if (pkg_dir / "__init__.py").is_file():
                return ModuleFile(name, pkg_dir / "__init__.py", True, (pkg_dir,))
            if (d / f"{last}.py").is_file():
                return ModuleFile(name, d / f"{last}.py", False)
            if pkg_dir.is_dir() and last.isidentifier():
                portions.append(pkg_dir)
        if portions:
            return ModuleFile(name, None, True, tuple(portions))
        return None


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _catches_import_error(node: ast.Try | ast.TryStar) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in types:
            if isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError", "Exception", "BaseException"):
                return True
    return False


def is_main_guard(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` (either way round)."""
    if not isinstance(stmt, ast.If):
        return False
    t = stmt.test
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq)):
        return False
    sides = [t.left, t.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


def _collect_imports(tree: ast.Module, is_entry: bool) -> list[ImportSite]:
    sites: list[ImportSite] = []

    def walk(node: ast.AST, index: int, top: bool, in_function: bool, tc: bool, guarded: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            sites.append(ImportSite(node, index, top, in_function, tc, guarded))
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                walk(child, index, False, in_function, True, guarded)
            for child in node.orelse:
                walk(child, index, False, in_function, tc, guarded)
            return
        if isinstance(node, (ast.Try, ast.TryStar)) and _catches_import_error(node):
            for child in node.body:
                walk(child, index, False, in_function, tc, True)
            for part in (node.handlers, node.orelse, node.finalbody):
                for item in part:
                    walk(item, index, False, in_function, tc, guarded)
            return
        func = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for sub in ast.iter_child_nodes(node):
            walk(sub, index, False, in_function or func, tc, guarded)

    for index, stmt in enumerate(tree.body):
        if not is_entry and is_main_guard(stmt) and isinstance(stmt, ast.If) and not stmt.orelse:
            for child in stmt.body:
                walk(child, index, False, False, True, False)
            continue
        walk(stmt, index, True, False, False, False)
    return sites


def _literal_all(module: Module) -> list[str] | None:
    """The module's ``__all__`` when it is one literal list or tuple of strings."""
    value: list[str] | None = None
    for stmt in module.tree.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            if not isinstance(stmt, ast.Assign) or value is not None:
                return None
            try:
                value = list(ast.literal_eval(stmt.value))
            except (ValueError, TypeError, SyntaxError):
                return None
            if not all(isinstance(v, str) for v in value):
                return None
    return value


class _Builder:
    def __init__(
        self, entry_point: PythonEntry, libs: list[Path], files: list[Path], transform: Transform | None
    ) -> None:
        self.ep = entry_point
        self.transform = transform
        self.roots = [entry_point.root] + [p for p in libs if p != entry_point.root]
        self.finder = _Finder(self.roots)
        self.modules: dict[str, Module] = {}
        self.files = files
        self.queue: list[Module] = []

    def load(self, mf: ModuleFile) -> Module:
        if mf.name in self.modules:
            return self.modules[mf.name]
        if mf.path is None:
            source, tree = "", ast.Module(body=[], type_ignores=[])
        else:
            self.files.append(mf.path)
            source, tree = self.read(mf.path)
        module = Module(mf.name, mf.path, source, tree, mf.is_package, mf.search)
        self.modules[mf.name] = module
        self.queue.append(module)
        return module

    def build(self) -> Graph:
        ep = self.ep
        source, tree = self.read(ep.path)
        entry = Module(ep.module, ep.path, source, tree, False, (), is_entry=True)
        if ep.package:
            for prefix in _prefixes(ep.package):
                mf = self.finder.find(prefix)
                if mf is None:
                    raise EntryNotFoundError(f"{ep.path}: cannot find its package {prefix}")
                self.load(mf)
        self.modules[entry.name] = entry
        self.queue.append(entry)
        while self.queue:
            module = self.queue.pop(0)
            module.imports = _collect_imports(module.tree, module.is_entry)
            for site in module.imports:
                self.resolve(module, site)
        return Graph(ep, entry, self.modules, self.roots, self.files)

    def read(self, path: Path) -> tuple[str, ast.Module]:
        source = read_source(path)
        tree = parse_source(source, str(path))
        if self.transform is not None:
            source = self.transform(source, tree)
            tree = parse_source(source, str(path))
        return source, tree

    def where(self, module: Module, node: ast.AST) -> str:
        return f"{module.path}:{getattr(node, 'lineno', '?')}"

    def resolve(self, module: Module, site: ImportSite) -> None:
        node = site.node
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.resolve_dotted(module, site, alias)
            return
        base = self.absolute(module, node)
        if node.level == 0 and self.finder.find(base.split(".")[0]) is None:
            self.external(module, site, base)
            for alias in node.names:
                if alias.name != "*":
                    site.bindings.append(
                        Binding(alias.asname or alias.name, None, external=f"{base}:{alias.name}", alias=alias)
                    )
            return
        target = self.require(module, site, base)
        if target is None:
            return
        for alias in node.names:
            if alias.name == "*":
                site.star_from = target.name
                names = _literal_all(target)
                if names is None:
                    site.problems.append(
                        f"{self.where(module, node)}: 'from {base} import *' and {base} has no literal __all__"
                    )
                    continue
                for name in names:
                    self.from_name(module, site, target, name, name, None)
            else:
                self.from_name(module, site, target, alias.name, alias.asname or alias.name, alias)

    def star_names(self, module: Module) -> set[str]:
        """The names ``module``'s own top-level ``from <local> import *`` statements bind: the
        literal ``__all__`` of each module they import from (nothing for the others, which are
        refused where they are imported)."""
        out: set[str] = set()
        for node in module.tree.body:
            if not (isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)):
                continue
            try:
                base = self.absolute(module, node)
            except UnresolvedImportError:
                continue  # reported where the module's own imports are resolved
            mf = self.finder.find(base) if base else None
            if mf is None or any(self.finder.find(p) is None for p in _prefixes(base)):
                continue
            source = self.load(mf)
            out.update(_literal_all(source) or ())
        return out

    def from_name(
        self, module: Module, site: ImportSite, target: Module, name: str, bound: str, alias: ast.alias | None
    ) -> None:
        defined = name in target.scopes.module_names() or name in self.star_names(target)
        if defined and target.is_package and self.finder.find(f"{target.name}.{name}") is not None:
            # ``from . import sub`` inside the package itself binds the submodule, as Python does;
            # ``from .sub import sub`` binds what the submodule defines.
            attribute_imports = {
                id(a)
                for node in ast.walk(target.tree)
                if isinstance(node, ast.ImportFrom) and node.module
                for a in node.names
            }
            defined = any(
                r.name == name
                and r.kind in ("store", "del")
                and (not isinstance(r.node, ast.alias) or id(r.node) in attribute_imports)
                for r in target.scopes.global_refs()
            )
        if defined or not target.is_package:
            if not defined:
                site.problems.append(f"{self.where(module, site.node)}: {target.name} does not visibly define {name!r}")
            site.bindings.append(Binding(bound, target.name, name, alias=alias))
            return
        sub = self.require(module, site, f"{target.name}.{name}", quiet=True)
        if sub is None:
            site.problems.append(f"{self.where(module, site.node)}: {target.name} does not visibly define {name!r}")
            site.bindings.append(Binding(bound, target.name, name, alias=alias))
            return
        site.bindings.append(Binding(bound, sub.name, alias=alias))

    def resolve_dotted(self, module: Module, site: ImportSite, alias: ast.alias) -> None:
        name, asname = alias.name, alias.asname
        top = name.split(".")[0]
        if self.finder.find(top) is None:
            self.external(module, site, name)
            site.bindings.append(Binding(asname or top, None, external=name, alias=alias))
            return
        target = self.require(module, site, name)
        if target is None:
            return
        site.bindings.append(Binding(asname or top, target.name if asname else top, alias=alias))

    def require(self, module: Module, site: ImportSite, name: str, quiet: bool = False) -> Module | None:
        """Load ``name`` and its parent packages, recording them as executed by ``site``."""
        loaded: list[Module] = []
        for prefix in _prefixes(name):
            mf = self.finder.find(prefix)
            if mf is None:
                if quiet:
                    return None
                if site.type_checking or site.guarded:
                    site.problems.append(f"{self.where(module, site.node)}: no module named {prefix}")
                    return None
                raise UnresolvedImportError(
                    f"{self.where(module, site.node)}: no module named {prefix!r} "
                    f"(searched {', '.join(str(r) for r in self.roots)})"
                )
            loaded.append(self.load(mf))
        if not site.type_checking:
            for m in loaded:
                if m.name not in site.executes:
                    site.executes.append(m.name)
        return loaded[-1]

    def absolute(self, module: Module, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = self.ep.package if module.is_entry else module.package
        if not package:
            raise UnresolvedImportError(
                f"{self.where(module, node)}: relative import in a module that is not in a package"
            )
        parts = package.split(".")
        if node.level > len(parts):
            raise UnresolvedImportError(
                f"{self.where(module, node)}: relative import goes above the top package {parts[0]}"
            )
        base = ".".join(parts[: len(parts) - node.level + 1])
        return f"{base}.{node.module}" if node.module else base

    def external(self, module: Module, site: ImportSite, name: str) -> None:
        site.external.append(name)
        top = name.split(".")[0]
        if site.type_checking or site.guarded or is_stdlib(top) or top in ALLOWED_THIRD_PARTY:
            return
        raise ThirdPartyImportError(
            f"{self.where(module, site.node)}: imports {name!r}, which is not a local module "
            f"(searched {', '.join(str(r) for r in self.roots)}), not in the standard library and "
            f"not numpy; CodinGame's Python has nothing else"
        )


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def build_graph(
    entry: Path | str,
    libs: list[Path] | None = None,
    *,
    files: list[Path] | None = None,
    transform: Transform | None = None,
) -> Graph:
    """Find and parse every local module the bot at ``entry`` imports.

    ``files`` (when given) receives every file read, even when the graph cannot be built;
    ``transform(source, tree)`` rewrites each module's text before analysis (stripping).
    """
    files = [] if files is None else files
    files.append(Path(entry))
    entry_point = locate_entry(entry)
    lib_dirs: list[Path] = []
    for lib in libs or []:
        lib = Path(lib)
        if not lib.is_dir():
            raise EntryNotFoundError(f"--lib {lib}: not a directory")
        lib_dirs.append(lib.resolve())
    return _Builder(entry_point, lib_dirs, files, transform).build()
