"""The flattening passes one at a time, on hand-written inputs with the results worked out by hand
(the whole pipeline is tested on the fixtures by test_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bundler.flat.checks import DYNAMIC_ATTRS, check
from bundler.flat.classify import ModuleNames, classify
from bundler.flat.collect import collect
from bundler.flat.emit import FlatBundle, Piece, emit
from bundler.flat.naming import NamePlan, Target, assign_names, plan_names
from bundler.flat.order import Unorderable, order
from bundler.flat.refusals import merge
from bundler.flat.rewrite import ModuleEdits, rewrite
from bundler.graph import Graph, build_graph
from bundler.import_sites import Binding
from bundler.textedit import Edit, apply_edits


def package(root: Path, files: dict[str, str]) -> Graph:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return build_graph(root / "main.py", [])


CLASH = {
    "main.py": "import util\nSIZE = 1\nprint(SIZE, util.SIZE)\n",
    "util.py": "SIZE = 2\n",
}


# -- naming -------------------------------------------------------------------------------------


def test_a_clash_renames_the_later_module_and_skips_names_in_use():
    owned = [
        ("__main__", {"SIZE": ("module", "__main__", "SIZE"), "run": ("module", "__main__", "run")}),
        ("game.util", {"SIZE": ("module", "game.util", "SIZE"), "helper": ("module", "game.util", "helper")}),
    ]
    claimed = {"print": ("free",)}
    forbidden = frozenset({"SIZE", "run", "helper", "print", "SIZE_util"})
    final = assign_names(owned, claimed, forbidden)
    # SIZE_util is spelled somewhere already, so the first free candidate is SIZE_util2.
    assert final == {
        "__main__": {"SIZE": "SIZE", "run": "run"},
        "game.util": {"SIZE": "SIZE_util2", "helper": "helper"},
    }
    assert claimed == {"print": ("free",)}  # the inputs are left as they were


def test_a_forced_name_gives_its_spelling_to_the_next_module():
    owned = [
        ("__main__", {"W": ("module", "__main__", "W")}),
        ("io", {"W": ("module", "io", "W"), "R": ("module", "io", "R")}),
    ]
    final = assign_names(owned, {}, frozenset({"W", "R"}), force={("__main__", "W"), ("io", "R")})
    assert final == {"__main__": {"W": "W_main"}, "io": {"W": "W", "R": "R_io"}}


def test_shared_standard_library_names_builtins_dunders_and_main_tags():
    owned = [
        (
            "pkg.__main__",
            {"math": ("stdlib", "math"), "json": ("stdlib", "json"), "__all__": ("module", "pkg.__main__", "__all__")},
        ),
        (
            "pkg.a",
            {
                "math": ("stdlib", "math"),
                "json": ("stdlib", "os.path"),
                "len": ("module", "pkg.a", "len"),
                "__all__": ("module", "pkg.a", "__all__"),
            },
        ),
        ("_b_", {"json": ("module", "_b_", "json")}),
        ("tools.__main__", {"json": ("module", "tools.__main__", "json")}),
    ]
    final = assign_names(owned, {"len": ("free",)}, frozenset())
    assert final == {
        "pkg.__main__": {"math": "math", "json": "json", "__all__": "__all__"},
        # the same standard-library module under the same name is one global; another object is not
        "pkg.a": {"math": "math", "json": "json_a", "len": "len_a", "__all__": "__all_a__"},
        "_b_": {"json": "json_b"},
        "tools.__main__": {"json": "json_tools"},  # a package's __main__ is named after the package
    }


def test_the_name_plan_follows_aliases_to_the_defining_module():
    key = ("module", "b", "h")
    names = {
        "a": ModuleNames(
            aliases={"g": Binding("g", "b", "h"), "loop": Binding("loop", "a", "loop")},
            own={"f": ("module", "a", "f")},
            type_checking={},
        ),
        "b": ModuleNames(aliases={}, own={"h": key}, type_checking={}),
    }
    plan = NamePlan(
        final={"a": {"f": "f_a"}, "b": {"h": "h"}},
        duplicates=frozenset(),
        names=names,
        modules=frozenset({"a", "b", "a.sub"}),
    )
    assert plan.target("a", "f") == Target(final="f_a", owner=("a", "f"))
    assert plan.target("a", "g") == Target(final="h", owner=("b", "h"))
    assert plan.target("a", None) == Target(module="a")
    assert plan.target("a", "sub") == Target(module="a.sub")
    assert plan.target("a", "nope") is None
    assert plan.target("a", "loop") is None
    assert plan.renamed() == {"a": {"f": "f_a"}}


def test_plan_names_renames_the_imported_module_not_the_entry(tmp_path):
    graph = package(tmp_path, CLASH)
    collected = collect(graph)
    plan = order(graph)
    naming = plan_names(graph, collected, classify(graph, collected).names, plan)
    assert naming.final == {"__main__": {"SIZE": "SIZE"}, "util": {"SIZE": "SIZE_util"}}


# -- the other passes ---------------------------------------------------------------------------


def test_order_runs_an_imported_module_at_its_import(tmp_path):
    graph = package(tmp_path, CLASH)
    assert order(graph) == (
        ("__main__", None),
        ("__main__", -1),  # the text above the import comes first
        ("util", None),
        ("util", 0),
        ("__main__", 0),
        ("__main__", 1),
        ("__main__", 2),
    )


def test_order_refuses_a_cycle(tmp_path):
    graph = package(
        tmp_path, {"main.py": "import ping\n", "ping.py": "import pong\n", "pong.py": "import ping\nX = ping.Y\n"}
    )
    with pytest.raises(Unorderable) as info:
        order(graph)
    assert info.value.reason == "pong.py:1: import cycle ping -> pong -> ping"


def test_classify_sorts_aliases_own_names_and_sharing_keys(tmp_path):
    graph = package(
        tmp_path,
        {"main.py": "import math\nfrom util import f\nx = f(math.pi)\n", "util.py": "def f(v):\n    return v\n"},
    )
    classified = classify(graph, collect(graph))
    main = classified.names["__main__"]
    assert list(main.aliases) == ["f"]
    f = main.aliases["f"]
    assert (f.name, f.module, f.attr, f.external) == ("f", "util", "f", None)
    assert dict(main.own) == {"math": ("stdlib", "math"), "x": ("module", "__main__", "x")}
    assert dict(classified.names["util"].own) == {"f": ("module", "util", "f")}
    assert classified.reasons == ()
    only = classified.only(["util"])
    assert dict(only.names["__main__"].own) == {} and dict(only.names["util"].own) == {"f": ("module", "util", "f")}


def test_check_takes_the_table_of_dynamic_attributes(tmp_path):
    graph = package(
        tmp_path, {"main.py": "import sys\nfrom sys import modules\nprint(len(sys.modules))\nprint(eval('1'))\n"}
    )
    collected = collect(graph)
    assert check(graph, collected, DYNAMIC_ATTRS) == (
        "main.py:4: uses eval() (code that names globals as text)",
        "main.py:2: uses sys.modules",  # the import, then the attribute
        "main.py:3: uses sys.modules",
    )
    assert check(graph, collected, {}) == ("main.py:4: uses eval() (code that names globals as text)",)


def test_rewrite_renames_definitions_and_qualified_uses(tmp_path):
    graph = package(tmp_path, CLASH)
    collected = collect(graph)
    plan = order(graph)
    naming = plan_names(graph, collected, classify(graph, collected).names, plan)
    util = rewrite(graph, collected.facts["util"], naming)
    main = rewrite(graph, collected.facts["__main__"], naming)
    assert apply_edits(graph.modules["util"].source, list(util.edits)) == "SIZE_util = 2\n"
    assert util.top_replacements == {} and util.reasons == ()
    assert apply_edits(graph.modules["__main__"].source, list(main.edits)) == (
        "import util\nSIZE = 1\nprint(SIZE, SIZE_util)\n"
    )
    assert main.top_replacements == {0: ""}  # the import statement goes


def test_emit_cuts_the_importer_at_the_import(tmp_path):
    graph = package(tmp_path, CLASH)
    main_text = CLASH["main.py"]
    at = main_text.index("util.SIZE")
    edits = {
        "__main__": ModuleEdits((Edit(at, at + len("util.SIZE"), "SIZE_util"),), {0: ""}, ()),
        "util": ModuleEdits((Edit(0, 4, "SIZE_util"),), {}, ()),
    }
    emitted = emit(graph, collect(graph), order(graph), edits)
    assert emitted.pieces == (
        Piece("__main__", "main.py", "", False),
        Piece("util", "util.py", "SIZE_util = 2\n", False),
        Piece("__main__", "main.py", "SIZE = 1\nprint(SIZE, SIZE_util)\n", True),
    )
    assert emitted.reasons == ()


def test_emit_refuses_an_import_sharing_its_line(tmp_path):
    graph = package(tmp_path, {"main.py": "import util; x = 1\n", "util.py": "X = 1\n"})
    edits = {"__main__": ModuleEdits((), {0: ""}, ())}
    emitted = emit(graph, collect(graph), order(graph), edits)
    assert emitted.reasons == ("main.py:1: an import that must be removed shares its line with another statement",)


def test_flat_bundle_text_labels_pieces_and_skips_empty_ones():
    bundle = FlatBundle(
        ["annotations"],
        [
            Piece("__main__", "main.py", "", False),
            Piece("util", "util.py", "X = 1", False),
            Piece("__main__", "main.py", "print(X)\n", True),
        ],
    )
    assert bundle.text() == (
        "from __future__ import annotations\n\n"
        "# ---- util.py ----\n__name__ = 'util'\nX = 1\n\n"
        "# ---- main.py (continued) ----\n__name__ = '__main__'\nprint(X)\n"
    )


def test_flat_bundle_text_registers_the_module_names_first():
    bundle = FlatBundle(
        [],
        [
            Piece("pkg.__main__", "pkg/__main__.py", "run()\n", False),
            Piece("pkg.util", "pkg/util.py", "class A: pass\n", False),
        ],
        entry="pkg.__main__",
        registered=("pkg", "pkg.util"),
    )
    assert bundle.text() == (
        "__import__(\"sys\").modules.update(dict.fromkeys(['pkg', 'pkg.util'], "
        '__import__("sys").modules["__main__"]))\n\n'
        "# ---- pkg/__main__.py ----\nrun()\n\n"
        "# ---- pkg/util.py ----\n__name__ = 'pkg.util'\nclass A: pass\n"
    )


def test_merge_keeps_the_first_occurrence_of_each_reason():
    assert merge(("a", "b"), ("b", "c", "a", "d")) == ("a", "b", "c", "d")
