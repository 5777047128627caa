"""Random small packages for the bundler's property test (``test_random_packages.py``).

``generate(seed)`` writes, deterministically from the seed, a bot of two to six modules: ``main.py``
and plain modules, sometimes a package (``__init__.py`` and submodules, relative imports). The
modules are numbered with ``main`` first and a module imports only modules numbered after it (a
submodule imported from outside its package also needs the package's ``__init__`` numbered after
the importer), so no module ever reads a module that has not finished running (except a package
``__init__`` that imports its own submodules, whose names those submodules never read). The modules
are written last to first, so each one knows exactly what the modules it imports bind.

Every module draws its top-level names from the same small pools (``value``, ``helper``, ``Node``,
``LIMIT``, ``count``, ``run``... and now and then a builtin's name: ``max``, ``id``, ``input``),
so the same name means different things in different modules; function parameters, locals,
comprehension variables, methods and keyword arguments are drawn from the same names. Expressions
are built only from names bound at that point (tracking each name's kind: int, function and its
arity, class, module and what it binds, list, decorator), so the package runs without error by
construction. Every module prints values computed through these names, at its top level, inside
functions, and in ``main`` (``__name__``, ``__qualname__``, copies made by from-imports next to the
global a function rebound with ``global``, instances whose repr shows their class's name...).

What a module may contain: constants, counters with a function that rebinds them (``global``),
setters, a global first bound inside a function, functions with default arguments (sometimes
annotated, sometimes decorated by a registering decorator of this or another module), closures
(``nonlocal`` too), lambdas, classes with class attributes and methods (subclassing a class of
another module, calling ``super()``), dataclasses, a base class whose ``__init_subclass__``
registers subclasses, loops and walruses binding globals, a temporary deleted with ``del``,
imports in every form (``import m``, ``import m as a``, ``from m import x as y``, ``from . import
sub``, ``from .sub import x``, ``import pkg.sub``, ``from m import *`` where ``m`` has a literal
``__all__``) at the top, further down, under ``if FLAG:`` or inside a function. ``RARE_FEATURES``
lists the constructs flat mode is expected to refuse (a module attribute written from outside,
``case m.X:``, ``f"{x=}"``...): each appears in a few packages only, so that most packages can be
flattened.

Generate one by hand: ``python -m tests.helpers.package_gen SEED DIR`` writes the package of
SEED into DIR (run it with ``python -B main.py`` from DIR).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Package", "generate", "STDIN"]

STDIN = "7\n3\n"
"""What the package reads (``main`` reads a line of it when its ``input`` is the builtin)."""

INT_NAMES = ("LIMIT", "SIZE", "DEPTH", "count", "value", "total", "scale", "speed", "hits", "data")
FUNC_NAMES = (
    "helper",
    "run",
    "compute",
    "value",
    "score",
    "evaluate",
    "step",
    "make",
    "update",
    "count",
    "total",
    "node",
)
SHADOWED_BUILTINS = ("max", "min", "sum", "abs", "len", "id", "input")
BUILTIN_CALLS = ("max", "min", "sum", "abs", "len")
"""Builtins the expressions call (deterministic, with int arguments)."""
CLASS_NAMES = ("Node", "Base", "State", "Unit", "Action", "Helper", "Value")
LOCAL_NAMES = (
    "value",
    "count",
    "total",
    "node",
    "LIMIT",
    "helper",
    "run",
    "result",
    "scale",
    "speed",
    "x",
    "k",
    "step",
    "util",
    "model",
    "Node",
)
INNER_NAMES = ("inner", "helper", "run", "step", "apply", "tick")
MODULE_NAMES = ("util", "model", "engine", "state", "config", "tools", "helper", "value", "search", "node")
STDLIB_LIKE = ("heapq", "bisect", "statistics", "random")
"""Standard-library names a bot's own module may have (it wins over the standard one)."""
PACKAGE_NAMES = ("pkg", "game", "core", "lib")
ALIAS_NAMES = ("m", "mod", "helper", "value", "tools", "node", "run", "util", "model", "count", "h", "Node")
LIST_NAMES = ("REG", "registry", "seen", "names")
DECO_NAMES = ("register", "track", "mark")
FLAG_NAMES = ("USE_FAST", "DEBUG", "VERBOSE")
CLASS_BODY_NAMES = ("scale", "get", "registry", "v", "w")

RARE_FEATURES = {
    # feature: probability per package. Each gives a construct that flat mode may refuse (or get
    # wrong); the rest of the generator sticks to what flat mode is meant to handle.
    "module_write": 0.2,  # m.count = 5 from another module
    "match_value": 0.04,  # case m.LIMIT:
    "fstring_debug": 0.06,  # f"{LIMIT=}"
    "class_body_read": 0.04,  # class C: scale = scale + 1 (reads the global)
    "builtin_before": 0.05,  # print(max(1, 2)) before def max(...) in the same module
    "print_rebind": 0.04,  # print = functools.partial(print, "[m]")
    "rebind_imported": 0.05,  # from m import count; count = count + 1 / global count
    "star_in_block": 0.03,  # if FLAG: from m import *
    "class_objects": 0.06,  # classes themselves printed (their repr names their module), in a list or a registry
    "except_as": 0.12,  # try: ... except KeyError as value: (deletes the global 'value' after the handler)
}


@dataclass(eq=False)
class B:
    """What a name is bound to (compared by identity: a from-import shares its source's)."""

    kind: str
    """int, func, factory, class, mod, list, deco, flag or ext."""
    nreq: int = 0
    nopt: int = 0
    cost: int = 1
    """Roughly how many calls using it makes (bounds the running time)."""
    kw: str | None = None
    """func: the name of its optional parameter (passed by keyword now and then)."""
    rebinds: B | None = None
    """func: the global it rebinds with ``global``."""
    methods: tuple[str, ...] = ()
    """class: methods besides ``get`` (each takes one int)."""
    registry: bool = False
    """class: has a ``registry`` list attribute."""
    target: GenModule | None = None
    subs: tuple[str, ...] = ()
    """mod: submodules (short names) known to be attributes."""
    own: bool = True
    """mod: the target's own names can be read (False while a package ``__init__`` may still run)."""


@dataclass(eq=False)
class GenModule:
    dotted: str
    index: int = 0
    package: str | None = None
    is_init: bool = False
    exports: dict[str, B] = field(default_factory=dict)
    all_names: list[str] | None = None
    text: str = ""

    @property
    def short(self) -> str:
        return self.dotted.rsplit(".", 1)[-1]

    @property
    def path(self) -> str:
        if self.dotted == "__main__":
            return "main.py"
        if self.is_init:
            return f"{self.dotted.replace('.', '/')}/__init__.py"
        return self.dotted.replace(".", "/") + ".py"


@dataclass(frozen=True)
class Package:
    seed: int
    files: dict[str, str]
    """Relative path -> source, in module order (main first)."""
    exit_code: int
    features: tuple[str, ...]

    def write(self, root: Path) -> Path:
        """Write the files under ``root``; return the entry (``root/main.py``)."""
        for rel, text in self.files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root / "main.py"

    def listing(self) -> str:
        """Every file, for a failure message."""
        return "\n".join(f"----- {rel} -----\n{text}" for rel, text in self.files.items())


@dataclass
class ImportPlan:
    target: GenModule
    line: str
    binds: dict[str, B]
    star: bool = False


class Ctx:
    """What an expression may use: references (``name`` or ``mod.name``...) and their bindings."""

    def __init__(self, refs: list[tuple[str, B]], builtins: list[str], budget: int) -> None:
        self.refs = refs
        self.builtins = builtins
        self.budget = budget

    def add_int(self, name: str) -> None:
        self.refs.append((name, B("int")))

    def of(self, *kinds: str) -> list[tuple[str, B]]:
        return [(t, b) for t, b in self.refs if b.kind in kinds]


def _indent(lines: list[str], by: str = "    ") -> list[str]:
    return [by + line if line else line for line in lines]


def _expand(prefix: str, b: B, depth: int) -> list[tuple[str, B]]:
    """References reachable through module binding ``b`` named ``prefix``."""
    out: list[tuple[str, B]] = []
    assert b.target is not None
    if b.own:
        for name, eb in b.target.exports.items():
            out.append((f"{prefix}.{name}", eb))
            if eb.kind == "mod" and depth > 0:
                out.extend(_expand(f"{prefix}.{name}", eb, depth - 1))
    return out


class _Generator:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.modules: list[GenModule] = []
        self.by_name: dict[str, GenModule] = {}
        self.imported: set[str] = set()
        self.features: dict[str, None] = {}
        self.rare = {f for f, p in RARE_FEATURES.items() if self.rng.random() < p}
        self.tags = 0
        self.stdlib_like = False
        self.exit_code = 0

    def note(self, feature: str) -> None:
        self.features[feature] = None

    def tag(self) -> str:
        self.tags += 1
        return f"t{self.tags}"

    def layout(self) -> None:
        r = self.rng
        k = r.randint(1, 5)
        use_pkg = k >= 2 and r.random() < 0.45
        n_sub = r.randint(1, min(3, k - 1)) if use_pkg else 0
        n_plain = k - (1 + n_sub if use_pkg else 0)
        pool = list(MODULE_NAMES)
        plain = r.sample(pool, n_plain)
        if plain and r.random() < 0.08:
            plain[0] = r.choice(STDLIB_LIKE)
            self.stdlib_like = True
            self.note("stdlib_named_module")
        mods = [GenModule(n) for n in plain]
        if use_pkg:
            pname = r.choice(PACKAGE_NAMES)
            mods.append(GenModule(pname, package=pname, is_init=True))
            mods.extend(GenModule(f"{pname}.{s}", package=pname) for s in r.sample(MODULE_NAMES, n_sub))
            self.note("package")
        r.shuffle(mods)
        self.modules = [GenModule("__main__"), *mods]
        for i, m in enumerate(self.modules):
            m.index = i
            self.by_name[m.dotted] = m

    def importable(self, m: GenModule, t: GenModule) -> bool:
        if t.index <= m.index:
            return False
        if t.package is not None and t.package != m.package:
            return self.by_name[t.package].index > m.index
        return True

    def run(self) -> Package:
        self.layout()
        for m in reversed(self.modules):
            _Writer(self, m).write()
        files = {m.path: m.text for m in self.modules}
        return Package(self.seed, files, self.exit_code, tuple(self.features))


class _Writer:
    """Writes one module's text, tracking what each name is bound to."""

    def __init__(self, gen: _Generator, module: GenModule) -> None:
        self.g = gen
        self.m = module
        self.r = gen.rng
        self.out: list[str] = []
        self.scope: dict[str, B] = {}
        self.reserved: set[str] = {"sys", "functools", "dataclass", "main", "first", "_tmp", "__all__"}
        self.own_ints: list[str] = []
        self.imported_ints: list[str] = []
        self.is_main = module.dotted == "__main__"
        self.sys_bound = False
        self.scope_plan: dict[str, B] = {}
        if module.is_init:  # a submodule, once imported, is an attribute of the package: never a name of it
            self.reserved.update(x.short for x in gen.modules if x.package == module.dotted and not x.is_init)

    # -- names -------------------------------------------------------------------------------------

    def fresh(self, pool: tuple[str, ...]) -> str | None:
        free = [n for n in pool if n not in self.reserved]
        if not free:
            return None
        name = self.r.choice(free)
        self.reserved.add(name)
        return name

    def pick_locals(self, n: int, exclude: Sequence[str] = ()) -> list[str]:
        free = [x for x in LOCAL_NAMES if x not in exclude]
        return self.r.sample(free, n)

    def bind(self, name: str, b: B) -> None:
        old = self.scope.get(name)
        if old is not None and old.kind == "mod" and b.kind == "mod" and old.target is b.target:
            # import pkg.a then import pkg.b: one binding, both submodules
            old.subs = tuple(dict.fromkeys(old.subs + b.subs))
            old.own = old.own and b.own
            return
        self.scope[name] = b

    # -- expressions -------------------------------------------------------------------------------

    def refs(self, scope: dict[str, B], hidden: Sequence[str] = ()) -> list[tuple[str, B]]:
        out: list[tuple[str, B]] = []
        for name, b in scope.items():
            if name in hidden:
                continue
            out.append((name, b))
            if b.kind == "mod":
                out.extend(_expand(name, b, 1))
                assert b.target is not None
                for s in b.subs:
                    sub = self.g.by_name[f"{b.target.dotted}.{s}"]
                    sb = B("mod", target=sub)
                    out.append((f"{name}.{s}", sb))
                    out.extend(_expand(f"{name}.{s}", sb, 0))
        return out

    def ctx(
        self, budget: int, hidden: Sequence[str] = (), ints: Sequence[str] = (), scope: dict[str, B] | None = None
    ) -> Ctx:
        refs = self.refs(self.scope if scope is None else scope, hidden)
        refs.extend((n, B("int")) for n in ints)
        builtins = [n for n in BUILTIN_CALLS if n not in self.reserved and n not in hidden]
        return Ctx(refs, builtins, budget)

    def expr(self, ctx: Ctx, depth: int = 2) -> str:
        r = self.r
        ints = [t for t, _ in ctx.of("int")]
        funcs = [(t, b) for t, b in ctx.of("func") if b.cost <= ctx.budget]
        classes = [(t, b) for t, b in ctx.of("class") if b.cost <= ctx.budget]
        lists = [t for t, _ in ctx.of("list")]
        options = ["lit"]
        if ints:
            options += ["int"] * 5
        if depth > 0:
            options += ["binop"] * 2
            if funcs:
                options += ["call"] * 4
            if classes:
                options += ["cls"] * 2
            if ctx.builtins:
                options.append("builtin")
        if lists:
            options.append("len")
        choice = r.choice(options)
        if choice == "lit":
            return str(r.randint(0, 9))
        if choice == "int":
            return r.choice(ints)
        if choice == "len":
            return f"len({r.choice(lists)})" if "len" not in self.reserved else "1"
        if choice == "binop":
            a, b = self.expr(ctx, depth - 1), self.expr(ctx, depth - 1)
            op = r.choice(["+", "-", "*"])
            return f"({a} * {b} % 97)" if op == "*" else f"({a} {op} {b})"
        if choice == "call":
            t, b = r.choice(funcs)
            ctx.budget -= b.cost
            args = [self.expr(ctx, depth - 1) for _ in range(b.nreq)]
            if b.nopt and r.random() < 0.5:
                opt = self.expr(ctx, depth - 1)
                args.append(f"{b.kw}={opt}" if b.kw and r.random() < 0.5 else opt)
            return f"{t}({', '.join(args)})"
        if choice == "cls":
            t, b = r.choice(classes)
            form = r.choice(
                ["get", "get", "scale", "v"] + (["registry"] if b.registry else []) + (["method"] if b.methods else [])
            )
            if form == "method":
                ctx.budget -= b.cost
                return f"{t}({self.expr(ctx, depth - 1)}).{r.choice(b.methods)}({self.expr(ctx, depth - 1)})"
            if form == "get":
                ctx.budget -= b.cost
                return f"{t}({self.expr(ctx, depth - 1)}).get()"
            if form == "scale":
                return f"{t}.scale"
            if form == "registry":
                return f"len({t}.registry)" if "len" not in self.reserved else f"{t}.scale"
            ctx.budget -= 1
            return f"{t}({self.expr(ctx, depth - 1)}).v"
        name = r.choice(ctx.builtins)
        args = [self.expr(ctx, depth - 1) for _ in range(2)]
        if name in ("max", "min"):
            return f"{name}({args[0]}, {args[1]})"
        if name == "sum":
            return f"sum([{args[0]}, {args[1]}])"
        if name == "abs":
            return f"abs({args[0]} - {args[1]})"
        return f"len(str({args[0]}))"

    def printable(self, ctx: Ctx) -> str:
        """An int, or an object whose repr is deterministic, or a list of names."""
        r = self.r
        classes = [t for t, b in ctx.of("class") if b.cost <= ctx.budget]
        lists = [t for t, _ in ctx.of("list")]
        roll = r.random()
        if roll < 0.15 and classes:
            return f"{r.choice(classes)}({self.expr(ctx, 1)})"
        if roll < 0.22 and lists:
            return r.choice(lists)
        return self.expr(ctx, 2)

    def print_line(self, args: list[str], stderr: bool = False) -> str:
        tail = ", file=sys.stderr" if stderr else ""
        return f"print({', '.join([repr(self.g.tag()), *args])}{tail})"

    # -- imports -----------------------------------------------------------------------------------

    def plan_import(self, t: GenModule, lazy: bool = False) -> ImportPlan | None:
        """One import statement of ``t``, of a random form this module may use."""
        r = self.r
        m = self.m
        inside = m.package is not None and t.package == m.package
        exports = list(t.exports)
        star_ok = bool(t.all_names) and not lazy
        if t.package is None:
            forms = ["import", "import_as", "from", "from", "from_as"] + (["star"] if star_ok else [])
        elif t.is_init:
            forms = (
                ["rel_from", "abs_from"]
                if inside
                else ["import", "import_as", "from", "from_as"] + (["star"] if star_ok else [])
            )
        elif inside:
            forms = ["rel_mod", "rel_from", "rel_from_as", "dotted"] + (["rel_star"] if star_ok else [])
        else:
            forms = ["dotted", "dotted", "dotted_as", "from_pkg_mod", "from", "from_as"] + (["star"] if star_ok else [])
        if m.is_init:  # import pkg.sub inside pkg/__init__.py binds pkg in pkg: legal, but not what people write
            forms = [f for f in forms if f != "dotted"]
        if not exports:
            forms = [f for f in forms if f in ("import", "import_as", "rel_mod", "dotted", "dotted_as", "from_pkg_mod")]
        if not forms:
            return None
        form = r.choice(forms)
        binds: dict[str, B] = {}
        pkg = t.package
        short = t.short

        def alias(b: B) -> str | None:
            free = [a for a in ALIAS_NAMES if (lazy or a not in self.reserved) and a not in binds]
            if not free:
                return None
            name = r.choice(free)
            binds[name] = b
            return name

        def own_or_alias(name: str, b: B) -> str | None:
            if lazy or (name not in self.reserved and name not in binds):
                binds[name] = b
                return name
            return None

        if form in ("import", "import_as", "dotted_as"):
            b = B("mod", target=t)
            if form == "import" and own_or_alias(t.dotted, b):
                return ImportPlan(t, f"import {t.dotted}", binds)
            a = alias(b)
            return ImportPlan(t, f"import {t.dotted} as {a}", binds) if a else None
        if form == "dotted":
            assert pkg is not None
            init = self.g.by_name[pkg]
            b = B("mod", target=init, subs=(short,), own=init.index > m.index)
            if (
                lazy
                or pkg not in self.reserved
                or (
                    pkg in self.scope_plan
                    and self.scope_plan[pkg].kind == "mod"
                    and self.scope_plan[pkg].target is init
                )
            ):
                binds[pkg] = b
                return ImportPlan(t, f"import {t.dotted}", binds)
            return None
        if form in ("rel_mod", "from_pkg_mod"):
            b = B("mod", target=t)
            where = "." if form == "rel_mod" else pkg
            if own_or_alias(short, b):
                return ImportPlan(t, f"from {where} import {short}", binds)
            a = alias(b)
            return ImportPlan(t, f"from {where} import {short} as {a}", binds) if a else None
        if form in ("star", "rel_star"):
            assert t.all_names is not None
            names = t.all_names
            if not lazy and any(n in self.reserved for n in names):
                return None
            for n in names:
                binds[n] = t.exports[n]
            where = f".{short}" if form == "rel_star" else t.dotted
            return ImportPlan(t, f"from {where} import *", binds, star=True)
        # from-imports of names
        if form in ("rel_from", "rel_from_as"):
            where = "." if t.is_init else f".{short}"
        elif form == "abs_from":
            where = t.dotted
        else:
            where = t.dotted
        chosen = r.sample(exports, min(len(exports), r.choice([1, 1, 2, 3])))
        parts = []
        for name in chosen:
            b = t.exports[name]
            if not form.endswith("_as") and own_or_alias(name, b):
                parts.append(name)
                continue
            a = alias(b)
            if a:
                parts.append(f"{name} as {a}")
        if not parts:
            return None
        return ImportPlan(t, f"from {where} import {', '.join(parts)}", binds)

    def choose_imports(self) -> list[tuple[str, ImportPlan]]:
        """(placement, plan): placement is top, deferred, cond or lazy."""
        r = self.r
        g = self.g
        cands = [t for t in g.modules if g.importable(self.m, t)]
        chosen: list[GenModule] = []
        for t in cands:
            orphan = t.dotted not in g.imported
            if (self.is_main and orphan) or r.random() < (0.6 if orphan else 0.3):
                chosen.append(t)
        out: list[tuple[str, ImportPlan]] = []
        for t in chosen:
            for k in range(r.choice([1, 1, 1, 2])):
                must_run = self.is_main and t.dotted not in g.imported
                placement = "top"
                if not must_run or k > 0:
                    placement = r.choices(["top", "deferred", "cond", "lazy"], [70, 12, 9, 9])[0]
                plan = self.plan_import(t, lazy=placement == "lazy")
                if plan is None and must_run:
                    plan = self.plan_import(t) or self.plan_import(t) or self.plan_import(t)
                if plan is None:
                    continue
                if plan.star and placement == "cond" and "star_in_block" not in g.rare:
                    placement = "top"
                if placement != "lazy":
                    for name, b in plan.binds.items():
                        self.reserved.add(name)
                        self.scope_plan[name] = b
                g.imported.add(t.dotted)
                if t.package:
                    g.imported.add(t.package)
                out.append((placement, plan))
        return out

    def emit_import(self, plan: ImportPlan, indent: str = "") -> None:
        self.out.append(indent + plan.line)
        for name, b in plan.binds.items():
            self.bind(name, b)
            if b.kind == "int":
                self.imported_ints.append(name)
        self.g.note("star_import" if plan.star else "import")

    # -- top-level items -----------------------------------------------------------------------------

    def func_def(self, name: str, decorators: bool = True) -> tuple[list[str], B]:
        r = self.r
        shape = r.choice(["0", "1", "1", "2", "2d", "2d"])
        nparams = 0 if shape == "0" else 1 if shape == "1" else 2
        params = self.pick_locals(nparams)
        sig = list(params)
        annotate = r.random() < 0.2
        returns = ""
        if annotate:  # evaluated when the def runs: int, or a class (the names are real references)
            kinds = ["int", "int"] + [t for t, _ in self.ctx(0).of("class")]
            sig = [f"{p}: {r.choice(kinds)}" for p in params]
            returns = f" -> {r.choice(kinds)}"
            self.g.note("annotations")
        nreq, nopt = nparams, 0
        if shape == "2d":
            sig[1] = f"{sig[1]} = {self.expr(self.ctx(4), 1)}" if annotate else f"{sig[1]}={self.expr(self.ctx(4), 1)}"
            nreq, nopt = 1, 1
            self.g.note("default_argument")
        locs = self.pick_locals(r.choice([0, 1, 1, 2]), exclude=params)
        ctx = self.ctx(8, hidden=params + locs, ints=params)
        body = []
        for loc in locs:
            body.append(f"{loc} = {self.expr(ctx, 2)}")
            ctx.add_int(loc)
        if r.random() < 0.2:
            body.append(self.print_line([self.expr(ctx, 1)]))
        body.append(f"return {self.expr(ctx, 2)}")
        lines = []
        decos = [t for t, _ in self.ctx(0).of("deco")]
        if decorators and decos and r.random() < 0.6:
            lines.append(f"@{r.choice(decos)}")
            self.g.note("decorator")
        lines += [f"def {name}({', '.join(sig)}){returns}:", *_indent(body)]
        return lines, B("func", nreq=nreq, nopt=nopt, cost=1 + 8 - ctx.budget, kw=params[1] if shape == "2d" else None)

    def class_def(self, name: str, kind: str) -> tuple[list[str], B]:
        r = self.r
        g = self.g
        base: tuple[str, B] | None = None
        if kind == "plain":
            bases = self.ctx(0).of("class")
            if bases and r.random() < 0.7:
                base = r.choice(bases)
                g.note("subclass")
        hidden = list(CLASS_BODY_NAMES)
        if "class_body_read" in g.rare and "scale" in self.scope and self.scope["scale"].kind == "int":
            scale = "scale + 1"
            g.note("class_body_read")
        else:
            scale = self.expr(self.ctx(4, hidden=hidden), 1)
        lines: list[str] = []
        if kind == "dataclass":
            lines += [
                "@dataclass",
                f"class {name}:",
                "    v: int",
                f"    w: int = {r.randint(0, 5)}",
                f"    scale = {scale}",
                "",
            ]
            mctx = self.ctx(6, hidden=["self", "base"], ints=["base"])
            lines += [
                "    def get(self):",
                "        base = self.v + self.w * self.scale",
                f"        return base + {self.expr(mctx, 2)}",
            ]
            return lines, B("class", cost=2 + 6 - mctx.budget)
        head = f"class {name}({base[0]}):" if base else f"class {name}:"
        lines.append(head)
        if r.random() < 0.3:
            lines.append(f'    """{name} of {self.m.dotted}."""')
        if kind == "regbase":
            lines += [
                "    registry = []",
                f"    scale = {scale}",
                "",
                "    def __init_subclass__(cls, **kwargs):",
                "        super().__init_subclass__(**kwargs)",
                f"        {name}.registry.append({'cls' if 'class_objects' in g.rare else 'cls.__qualname__'})",
                "",
            ]
            g.note("init_subclass")
        else:
            lines += [f"    scale = {scale}", ""]
        if base is None or r.random() < 0.5:
            lines += ["    def __init__(self, v):"]
            if base:
                lines += ["        super().__init__(v)"]
            lines += [f"        self.v = v + {r.randint(0, 3)}", ""]
        loc = r.choice([x for x in LOCAL_NAMES if x != "self"])
        mctx = self.ctx(6, hidden=["self", loc], ints=[loc])
        first = "super().get()" if base else "self.v * self.scale"
        lines += ["    def get(self):", f"        {loc} = {first}", f"        return {loc} + {self.expr(mctx, 2)}"]
        methods = base[1].methods if base else ()
        cost = 2 + 6 - mctx.budget + (base[1].cost if base else 0)
        if r.random() < 0.35:  # a method named like a global (of this module or another)
            meth = r.choice([x for x in FUNC_NAMES if x not in methods])
            p = r.choice(LOCAL_NAMES)
            pctx = self.ctx(4, hidden=["self", p], ints=[p])
            lines += ["", f"    def {meth}(self, {p}):", f"        return self.v + {p} + {self.expr(pctx, 1)}"]
            methods = (*methods, meth)
            cost += 4 - pctx.budget
            g.note("method_named_like_global")
        if base is None:
            attr = r.choice(["__name__", "__qualname__"])
            lines += ["", "    def __repr__(self):", f'        return f"{{type(self).{attr}}}({{self.v}})"']
        return lines, B(
            "class", cost=cost, registry=kind == "regbase" or bool(base and base[1].registry), methods=methods
        )

    def item(self, kind: str, names: list[str], extra: ImportPlan | None = None) -> None:
        """Emit one planned top-level binding."""
        r = self.r
        g = self.g
        out = self.out
        g.note(kind)
        if kind in ("const", "shadow_int"):
            name = names[0]
            out.append(f"{name} = {self.expr(self.ctx(10))}")
            self.bind(name, B("int"))
            self.own_ints.append(name)
        elif kind == "counter":
            c, f = names
            out.append(f"{c} = {self.expr(self.ctx(6))}")
            cb = B("int")
            self.bind(c, cb)
            self.own_ints.append(c)
            if r.random() < 0.5:
                out += ["", "", f"def {f}(n=1):", f"    global {c}", f"    {c} += n", f"    return {c}"]
                self.bind(f, B("func", nreq=0, nopt=1, rebinds=cb, kw="n"))
            else:
                out += [
                    "",
                    "",
                    f"def {f}():",
                    f"    global {c}",
                    f"    {c} = {c} * 2 + {r.randint(1, 5)}",
                    f"    return {c} % 1000",
                ]
                self.bind(f, B("func", rebinds=cb))
            self.g.note("global_rebind")
        elif kind == "setter":
            f = names[0]
            targets = list(self.own_ints)
            if "rebind_imported" in g.rare and self.imported_ints:
                targets = list(self.imported_ints)
                g.note("rebind_imported")
            if not targets:
                lines, b = self.func_def(f)
                out += ["", "", *lines]
                self.bind(f, b)
                return
            c = r.choice(targets)
            p = r.choice([x for x in LOCAL_NAMES if x != c])
            out += [
                "",
                "",
                f"def {f}({p}):",
                f"    global {c}",
                f"    {c} = {p} + {r.randint(0, 9)}",
                f"    return {c}",
            ]
            self.bind(f, B("func", nreq=1, rebinds=self.scope[c]))
        elif kind in ("func", "shadow_func"):
            name = names[0]
            if kind == "shadow_func" and "builtin_before" in g.rare and name in BUILTIN_CALLS:
                args = {"max": "(3, 4)", "min": "(3, 4)", "sum": "([1, 2])", "abs": "(-2)", "len": "('abc')"}
                out.append(self.print_line([f"{name}{args[name]}"]))
                g.note("builtin_before")
            lines, b = self.func_def(name)
            out += ["", "", *lines]
            self.bind(name, b)
        elif kind == "closure":
            factory, result = names
            p = r.choice(LOCAL_NAMES)
            q = r.choice([x for x in LOCAL_NAMES if x != p])
            inner = r.choice([x for x in INNER_NAMES if x not in (p, q)])
            ctx = self.ctx(6, hidden=[p, q, inner], ints=[p, q])
            out += [
                "",
                "",
                f"def {factory}({p}):",
                f"    def {inner}({q}):",
                f"        return {q} + {p} + {self.expr(ctx, 2)}",
                f"    return {inner}",
                "",
                f"{result} = {factory}({self.expr(self.ctx(4), 1)})",
            ]
            self.bind(factory, B("factory"))
            self.bind(result, B("func", nreq=1, cost=1 + 6 - ctx.budget))
        elif kind == "counter_closure":
            factory, result = names
            p = r.choice(LOCAL_NAMES)
            c = r.choice([x for x in LOCAL_NAMES if x != p])
            inner = r.choice([x for x in INNER_NAMES if x not in (p, c)])
            out += [
                "",
                "",
                f"def {factory}({p}):",
                f"    {c} = {p}",
                f"    def {inner}():",
                f"        nonlocal {c}",
                f"        {c} += 1",
                f"        return {c}",
                f"    return {inner}",
                "",
                f"{result} = {factory}({self.expr(self.ctx(4), 1)})",
            ]
            self.bind(factory, B("factory"))
            self.bind(result, B("func"))
        elif kind == "lambda":
            name = names[0]
            p = r.choice(LOCAL_NAMES)
            ctx = self.ctx(4, hidden=[p], ints=[p])
            out.append(f"{name} = lambda {p}: {p} * 2 + {self.expr(ctx, 1)}")
            self.bind(name, B("func", nreq=1, cost=1 + 4 - ctx.budget))
        elif kind in ("class", "dataclass", "regbase"):
            name = names[0]
            lines, b = self.class_def(name, {"class": "plain"}.get(kind, kind))
            out += ["", "", *lines]
            self.bind(name, b)
        elif kind == "decorator":
            lst, deco = names
            attr = r.choice(["__name__", "__qualname__"])
            out += [f"{lst} = []", "", "", f"def {deco}(fn):", f"    {lst}.append(fn.{attr})", "    return fn"]
            self.bind(lst, B("list"))
            self.bind(deco, B("deco"))
        elif kind == "temp":
            name = names[0]
            out += [f"_tmp = {self.expr(self.ctx(6))}", f"{name} = _tmp * 2 + {r.randint(0, 9)}", "del _tmp"]
            self.bind(name, B("int"))
            self.own_ints.append(name)
        elif kind == "loop":
            name = names[0]
            out.append(f"for {name} in range({r.randint(1, 3)}):")
            self.bind(name, B("int"))
            self.own_ints.append(name)
            out.append("    " + self.print_line([name, self.expr(self.ctx(6))]))
        elif kind == "lazy":
            assert extra is not None
            name = names[0]
            p = r.choice([x for x in LOCAL_NAMES if x not in extra.binds])
            hidden = [p, *extra.binds]
            lazy_refs = self.refs(extra.binds)
            use_ctx = Ctx([x for x in lazy_refs if x[1].kind in ("int", "func", "class")] or [(p, B("int"))], [], 6)
            use = self.expr(use_ctx, 1) if use_ctx.refs[0][0] != p else p
            rest = self.ctx(4, hidden=hidden, ints=[p])
            out += ["", "", f"def {name}({p}):", f"    {extra.line}", f"    return {use} + {p} + {self.expr(rest, 1)}"]
            self.bind(name, B("func", nreq=1, cost=4 + 6 - use_ctx.budget + 4 - rest.budget))
            g.note("lazy_import")
            if r.random() < 0.6:
                out.append(self.print_line([f"{name}({r.randint(0, 5)})"]))
        elif kind == "cond":
            assert extra is not None
            flag = names[0]
            value = r.random() < 0.6
            out += [f"{flag} = {value}", f"if {flag}:"]
            self.bind(flag, B("flag"))
            if value:
                self.emit_import(extra, "    ")
            else:
                self.out.append("    " + extra.line)
            if r.random() < 0.5:
                out += ["else:", "    " + self.print_line([repr("no " + extra.target.short)])]
            g.note("conditional_import")
        elif kind == "late_global":
            f, x = names
            out += [
                "",
                "",
                f"def {f}():",
                f"    global {x}",
                f"    {x} = {self.expr(self.ctx(6))}",
                f"    return {x}",
                "",
            ]
            out.append(f"{f}()" if r.random() < 0.5 else self.print_line([f"{f}()"]))
            xb = B("int")
            self.bind(x, xb)
            self.own_ints.append(x)
            self.bind(f, B("func", rebinds=xb))
        elif kind == "walrus":
            name = names[0]
            out.append(self.print_line([f"({name} := {self.expr(self.ctx(6))})"]))
            self.bind(name, B("int"))
            self.own_ints.append(name)
        elif kind == "except_as":
            # 'except E as name' deletes the name at the end of the handler (a global, here)
            name = names[0]
            raiser = r.choice(['{}["key"]', 'int("x")', "[][3]"])
            out += [
                "try:",
                f"    {raiser}",
                f"except (KeyError, ValueError, IndexError) as {name}:",
                "    " + self.print_line([f"type({name}).__name__", f"{name}.args"]),
            ]
        elif kind == "reassign":
            pool = list(self.own_ints)
            if "rebind_imported" in g.rare and self.imported_ints:
                pool = list(self.imported_ints)
                g.note("rebind_imported")
            if pool:
                name = r.choice(pool)
                out.append(f"{name} = {name} + {self.expr(self.ctx(6))}")

    # -- statements that bind nothing ------------------------------------------------------------------

    def action(self, kind: str, where: str) -> list[str]:
        """Lines of one statement that binds no global (usable in ``def main():`` too)."""
        r = self.r
        g = self.g
        ctx = self.ctx(20)
        if kind == "print":
            return [self.print_line([self.printable(ctx) for _ in range(r.randint(1, 3))])]
        if kind == "names":
            things = ctx.of("func", "class", "factory")
            if not things:
                return []
            t, b = r.choice(things)
            args = [f"{t}.__name__", f"{t}.__qualname__"]
            if b.kind == "class" and r.random() < 0.5:
                args.append(f"{t}.get.__qualname__")
            g.note("names")
            return [self.print_line(args)]
        if kind == "bump":
            bumps = [(t, b) for t, b in ctx.of("func") if b.rebinds is not None]
            if not bumps:
                return []
            t, b = r.choice(bumps)
            n = b.nreq + (b.nopt if r.random() < 0.5 else 0)
            call = f"{t}({', '.join(str(r.randint(0, 5)) for _ in range(n))})"
            copies = [ref for ref, rb in ctx.refs if rb is b.rebinds]
            g.note("bump")
            lines = [call if r.random() < 0.5 else self.print_line([call])]
            if copies:
                lines.append(self.print_line(copies))
            return lines
        if kind == "write":
            targets = [(t, b) for t, b in ctx.of("int") if "." in t]
            if "module_write" not in g.rare or not targets:
                return []
            t, b = r.choice(targets)
            copies = [ref for ref, rb in ctx.refs if rb is b]
            g.note("module_write")
            return [f"{t} = {self.expr(ctx, 1)}", self.print_line(copies)]
        if kind == "class_write":
            classes = ctx.of("class")
            if not classes:
                return []
            t, b = r.choice(classes)
            g.note("class_attribute_write")
            return [f"{t}.scale = {self.expr(ctx, 1)}", self.print_line([f"{t}({r.randint(0, 5)}).get()"])]
        if kind == "stderr":
            if not self.sys_bound:
                return []
            g.note("stderr")
            return [self.print_line([self.expr(ctx)], stderr=True)]
        if kind == "comp":
            v = r.choice(LOCAL_NAMES)
            inner = self.ctx(8, hidden=[v], ints=[v])
            g.note("comprehension")
            return [self.print_line([f"[{v} * 2 + {self.expr(inner, 1)} for {v} in range({r.randint(1, 3)})]"])]
        if kind == "registry":
            lists = [t for t, _ in ctx.of("list")] + [f"{t}.registry" for t, b in ctx.of("class") if b.registry]
            if not lists:
                return []
            return [self.print_line([r.choice(lists)])]
        if kind == "class_list":
            classes = [t for t, _ in ctx.of("class")]
            if "class_objects" not in g.rare or not classes:
                return []
            g.note("class_objects")
            picked = r.sample(classes, min(2, len(classes)))
            if r.random() < 0.5:
                return [self.print_line([f"[{', '.join(picked)}]"])]
            return [f"_classes = [{', '.join(picked)}]", self.print_line(["_classes"])]
        if kind == "match":
            dotted = [t for t, _ in ctx.of("int") if "." in t]
            if "match_value" not in g.rare or not dotted:
                return []
            g.note("match_value")
            return [
                f"match {self.expr(ctx, 1)}:",
                f"    case {r.choice(dotted)}:",
                "        " + self.print_line(["'hit'"]),
                "    case _:",
                "        " + self.print_line(["'miss'"]),
            ]
        if kind == "fdebug":
            ints = [t for t, _ in ctx.of("int")]
            if "fstring_debug" not in g.rare or not ints:
                return []
            g.note("fstring_debug")
            return [f'print(f"{{{r.choice(ints)}=}}")']
        raise AssertionError(kind)

    ACTIONS = (
        "print",
        "print",
        "print",
        "names",
        "bump",
        "bump",
        "write",
        "class_write",
        "stderr",
        "comp",
        "registry",
        "match",
        "fdebug",
        "class_list",
    )

    def some_action(self, where: str) -> list[str]:
        for _ in range(6):
            lines = self.action(self.r.choice(self.ACTIONS), where)
            if lines:
                return lines
        return self.action("print", where)

    # -- the module ------------------------------------------------------------------------------------

    def plan_items(self, imports: list[tuple[str, ImportPlan]]) -> list[tuple[str, list[str], ImportPlan | None]]:
        r = self.r
        g = self.g
        weights = {
            "const": 4,
            "counter": 3,
            "setter": 1,
            "func": 4,
            "closure": 1,
            "counter_closure": 1,
            "lambda": 1,
            "class": 3,
            "dataclass": 0 if g.stdlib_like else 1,
            "regbase": 1,
            "decorator": 1,
            "temp": 1,
            "loop": 1,
            "shadow": 1,
            "reassign": 1,
            "late_global": 1,
            "walrus": 1,
            "except_as": 1 if "except_as" in g.rare else 0,
        }
        n = r.randint(0, 3) if self.is_main else r.randint(2, 6)
        kinds = r.choices(list(weights), list(weights.values()), k=n)
        items: list[tuple[str, list[str], ImportPlan | None]] = []
        for kind in kinds:
            names: list[str | None]
            if kind in ("const", "temp", "loop", "walrus"):
                names = [self.fresh(INT_NAMES)]
            elif kind == "except_as":
                names = [self.fresh(INT_NAMES + LOCAL_NAMES)]
            elif kind == "late_global":
                names = [self.fresh(FUNC_NAMES), self.fresh(INT_NAMES)]
            elif kind == "counter":
                names = [self.fresh(INT_NAMES), self.fresh(FUNC_NAMES)]
            elif kind in ("setter", "func", "lambda"):
                names = [self.fresh(FUNC_NAMES)]
            elif kind in ("closure", "counter_closure"):
                names = [self.fresh(FUNC_NAMES), self.fresh(FUNC_NAMES)]
            elif kind in ("class", "dataclass", "regbase"):
                names = [self.fresh(CLASS_NAMES)]
            elif kind == "decorator":
                names = [self.fresh(LIST_NAMES), self.fresh(DECO_NAMES)]
            elif kind == "shadow":
                name = self.fresh(SHADOWED_BUILTINS)
                names = [name]
                kind = "shadow_func" if name in BUILTIN_CALLS or r.random() < 0.5 else "shadow_int"
            else:
                names = []
            if any(x is None for x in names):
                continue
            items.append((kind, [x for x in names if x is not None], None))
        for placement, plan in imports:
            if placement == "lazy":
                name = self.fresh(FUNC_NAMES)
                if name is not None:
                    items.insert(r.randint(0, len(items)), ("lazy", [name], plan))
            elif placement == "cond":
                name = self.fresh(FLAG_NAMES)
                if name is not None:
                    items.insert(r.randint(0, len(items)), ("cond", [name], plan))
        return items

    def write(self) -> None:
        r = self.r
        g = self.g
        m = self.m
        out = self.out
        imports = self.choose_imports()
        use_sys = r.random() < 0.3
        exit_kind = None
        if self.is_main and r.random() < 0.2:
            exit_kind = r.choice(["sys", "raise"])
            use_sys = use_sys or exit_kind == "sys"
        rebind_print = not self.is_main and "print_rebind" in g.rare and r.random() < 0.5
        items = self.plan_items(imports)
        read_input = self.is_main and "input" not in self.reserved and r.random() < 0.3
        has_all = not self.is_main and r.random() < 0.5
        if rebind_print:
            self.reserved.add("print")
        # the text
        out.append(f'"""{m.dotted} (generated by tests/helpers/package_gen.py, seed {g.seed})."""')
        all_at = len(out)
        if use_sys:
            out.append("import sys")
            self.scope["sys"] = B("ext")
            self.sys_bound = True
        if any(k == "dataclass" for k, _, _ in items):
            out.append("from dataclasses import dataclass")
            self.scope["dataclass"] = B("ext")
        if rebind_print:
            out.append("import functools")
            self.scope["functools"] = B("ext")
        deferred = []
        for placement, plan in imports:
            if placement == "top":
                self.emit_import(plan)
            elif placement == "deferred":
                deferred.append(plan)
        if rebind_print:
            out += ["", f"print = functools.partial(print, {'[' + m.short + ']'!r})"]
            self.scope["print"] = B("ext")
            g.note("print_rebind")
        if read_input:
            out.append("first = int(input())")
            self.bind("first", B("int"))
            g.note("input")
        out.append("")
        if not self.is_main and r.random() < 0.3:
            out.append(self.print_line(["__name__"]))
        for kind, names, extra in items:
            if deferred and r.random() < 0.4:
                out.append("")
                self.emit_import(deferred.pop(0))
                g.note("deferred_import")
            self.item(kind, names, extra)
            if r.random() < 0.35:
                out.append("")
                out += self.some_action("top")
        for plan in deferred:
            self.emit_import(plan)
            g.note("deferred_import")
        out.append("")
        if not self.is_main:
            for _ in range(r.randint(1, 2)):
                out += self.some_action("top")
            if r.random() < 0.15:
                out += ["", "", 'if __name__ == "__main__":', "    " + self.print_line(["'not run'"])]
        else:
            self.main_body(exit_kind)
        exports = {n: b for n, b in self.scope.items() if b.kind not in ("ext", "flag") and not n.startswith("_")}
        m.exports = exports
        if has_all and exports:
            names = list(exports)
            chosen = r.sample(names, min(len(names), r.choice([1, 2, 2, 3])))
            m.all_names = [n for n in names if n in chosen]
            out.insert(all_at, f"__all__ = {m.all_names!r}")
        m.text = "\n".join(out).rstrip("\n") + "\n"

    def main_body(self, exit_kind: str | None) -> None:
        r = self.r
        body: list[str] = []
        wanted = ["bump", "names", "write", "registry"]
        for kind in wanted:
            body += self.action(kind, "main")
        for _ in range(r.randint(2, 6)):
            body += self.some_action("main")
        code = r.choice([0, 1, 3])
        if exit_kind == "sys":
            body.append(f"sys.exit({code})")
        elif exit_kind == "raise":
            body.append(f"raise SystemExit({code})")
        if exit_kind:
            self.g.exit_code = code
            self.g.note("exit_code")
        style = r.choice(["plain", "guard", "function"])
        self.g.note(f"main_{style}")
        if style == "plain":
            self.out.extend(body)
        elif style == "guard":
            self.out += ['if __name__ == "__main__":', *_indent(body)]
        else:
            self.out += ["def main():", *_indent(body), "", "", 'if __name__ == "__main__":', "    main()"]


def generate(seed: int) -> Package:
    """The package of ``seed`` (the same on every run and platform)."""
    return _Generator(seed).run()


def _main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tests.helpers.package_gen SEED DIR", file=sys.stderr)
        return 2
    package = generate(int(argv[0]))
    entry = package.write(Path(argv[1]))
    print(f"wrote {entry} ({', '.join(package.features)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
