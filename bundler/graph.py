"""The module graph of a bot: which local modules it imports, found with ``ast``, resolved as
Python's import system would resolve them.

The search path is the one Python builds when the bot is run normally: the entry's directory for a
script (``python bot.py``), or the directory above its top package when the entry belongs to a
package (``python -m pkg.main``), then the ``--lib`` directories (as ``PYTHONPATH`` would add
them). Local modules win over standard-library modules of the same name, except those Python has
already loaded (or finds built in or frozen) before it looks at the path.

How the entry runs is :mod:`arena.match.launch.pymodule`'s rule, the one the arena runs bots by. The graph
is built from :mod:`bundler.source` (reading a file), :mod:`bundler.finder` (the module search),
:mod:`bundler.import_sites` (a module's import statements) and :mod:`bundler.stdlib` (what is not
local).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.match.launch.pymodule import NoMainError, PythonEntry, locate

from .errors import EntryNotFoundError, ThirdPartyImportError, UnresolvedImportError
from .finder import Finder, ModuleFile, prefixes
from .import_sites import Binding, ImportSite, find_import_sites
from .scopes import ModuleScopes, analyze
from .source import parse_source, read_source
from .stdlib import ALLOWED_THIRD_PARTY, is_stdlib

__all__ = ["Module", "Graph", "Transform", "locate_entry", "build_graph"]

Transform = Callable[[str, ast.Module], str]


# -- the entry ---------------------------------------------------------------------------------


def locate_entry(entry: Path | str) -> PythonEntry:
    """Work out how ENTRY runs (:mod:`arena.match.launch.pymodule`): a script, a package (``python -m
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
        self.finder = Finder(self.roots)
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
            for prefix in prefixes(ep.package):
                mf = self.finder.find(prefix)
                if mf is None:
                    raise EntryNotFoundError(f"{ep.path}: cannot find its package {prefix}")
                self.load(mf)
        self.modules[entry.name] = entry
        self.queue.append(entry)
        while self.queue:
            module = self.queue.pop(0)
            module.imports = find_import_sites(module.tree, module.is_entry)
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
            if mf is None or any(self.finder.find(p) is None for p in prefixes(base)):
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
        for prefix in prefixes(name):
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
