"""The source tree keeps its promise: csrc/core is plain C (no Python.h,
directly or through a binding header), so a C programmer can reuse it and
its code runs on any thread without the GIL; and the Python layer is one
module per Array API chapter over a coercion floor, without import cycles
other than the ones an import inside a function names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

CSRC = Path(__file__).resolve().parent.parent / "csrc"
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def test_core_includes_no_python() -> None:
    bindings = {p.name for p in (CSRC / "py").glob("*.h")}
    offenders = {}
    for path in sorted((CSRC / "core").rglob("*.[ch]")):
        bad = [h for h in INCLUDE.findall(path.read_text()) if h == "Python.h" or h in bindings]
        if bad:
            offenders[str(path.relative_to(CSRC))] = bad
    assert not offenders, offenders
    assert any((CSRC / "core").glob("*.c")), "csrc/core holds no C file: the test would check nothing"


DEFINED = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(ma_\w+)\s*\(", re.M)


def test_pyapi_calls_no_other_binding() -> None:
    """csrc/py/pyapi.c is the bindings' floor: every other binding file calls
    it, and it calls none of them (a call upward would make a circle)."""
    pyapi = (CSRC / "py" / "pyapi.c").read_text()
    others = {}
    for path in sorted((CSRC / "py").glob("*.c")):
        if path.name != "pyapi.c":
            for name in DEFINED.findall(path.read_text()):
                others[name] = path.name
    assert len(others) > 20, "found too few binding functions: the pattern is stale"
    calls = {name: where for name, where in others.items() if re.search(rf"\b{name}\s*\(", pyapi)}
    assert not calls, f"pyapi.c calls up into other bindings: {calls}"


# ---- the Python layer: one module per chapter over a coercion floor -------------

PACKAGE = Path(__file__).resolve().parent.parent / "minarray"
# The modules of the Array API's chapters (NumPy's routines beside them).
CHAPTERS = {"_constants", "_creation", "_data_type_functions", "_elementwise", "_histograms", "_indexing",
            "_inspection", "_joining", "_linear_algebra", "_manipulation", "_reduction", "_searching", "_set",
            "_sorting", "_statistical", "_utility"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement loads (``from minarray import x`` loads minarray.x)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.module == "minarray":
        return [f"minarray.{a.name}" for a in node.names]
    return [node.module or ""]


def _function_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found[node.lineno] = node
    return [found[k] for k in sorted(found)]


def test_imports_inside_functions_give_their_reason() -> None:
    """An import inside a function is there to break a cycle of minarray's
    modules (``# cycle: ...``) or to reach a library minarray does not
    depend on (``# optional: ...``), on its line or the line above; any
    other import belongs at the top of its module."""
    offenders = []
    checked = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text().splitlines()
        for node in _function_imports(ast.parse("\n".join(lines))):
            checked += 1
            near = lines[node.lineno - 1] + "\n" + (lines[node.lineno - 2] if node.lineno >= 2 else "")
            # (minarray.dask is minarray's, but importing it imports Dask)
            internal = any(m == "minarray" or (m.startswith("minarray.") and m != "minarray.dask")
                           for m in _imported(node))
            tags = ("# cycle: ",) if internal else ("# cycle: ", "# optional: ")
            if not any(tag in near for tag in tags):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert checked > 10, "found too few imports inside functions: the walk is stale"
    assert not offenders, f"imports inside functions without a '# cycle:'/'# optional:' reason: {offenders}"


def _top_level_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        graph[_module_name(path)] = {m for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
                                     for m in _imported(node) if m.startswith("minarray.")}
    return graph


def test_coercion_and_dtypes_import_no_chapter() -> None:
    """minarray/_coerce.py and minarray/_dtypes.py are the floor every
    chapter stands on: neither imports a chapter module (at top level)."""
    graph = _top_level_graph()
    assert {f"minarray.{c}" for c in CHAPTERS} <= set(graph), "a chapter module is missing: CHAPTERS is stale"
    for floor in ("minarray._coerce", "minarray._dtypes"):
        chapters = sorted(m for m in graph[floor] if m.removeprefix("minarray.") in CHAPTERS)
        assert not chapters, f"{floor} imports chapter modules {chapters}"
    # the dtype table is loaded at build time as a plain module: it may import nothing of minarray's but
    # the compiled core its rows come from (which the build stands in for: csrc/core/gen/gen_elementwise.py)
    assert graph["minarray._dtypes"] <= {"minarray._native"}, graph["minarray._dtypes"]


def test_private_modules_import_each_other_without_a_cycle() -> None:
    """The top-level imports between minarray's private modules form no
    cycle (a cycle is what an import inside a function, with its reason, is for)."""
    graph = {m: {t for t in ts if t.split(".")[1].startswith("_")} for m, ts in _top_level_graph().items()
             if m.count(".") == 1 and m.split(".")[1].startswith("_") and m != "minarray.__main__"}
    state: dict[str, int] = {}

    def visit(m: str, trail: tuple[str, ...]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            assert state.get(t) != 1, f"import cycle: {' -> '.join((*trail, m, t))}"
            if t not in state:
                visit(t, (*trail, m))
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, ())
    assert len(state) > 20


# ---- the tests mirror the modules -----------------------------------------------

TESTS = Path(__file__).resolve().parent


def test_every_chapter_module_has_its_test_file() -> None:
    """A reader finds a function's tests by its chapter: minarray/_X.py has
    tests/test_X.py.  (The reduction driver is tested through the chapters
    that reduce: test_statistical.py, test_utility.py, test_searching.py.)"""
    mirrored = sorted(CHAPTERS - {"_reduction"})
    assert len(mirrored) > 10, "too few chapters: CHAPTERS is stale"
    missing = [f"tests/test_{c.removeprefix('_')}.py for minarray/{c}.py" for c in mirrored
               if not (TESTS / f"test_{c.removeprefix('_')}.py").is_file()]
    assert not missing, missing


def test_dlpack_tests_live_together() -> None:
    """The DLPack tests are one folder, tests/dlpack, not files scattered
    among the chapters'."""
    assert sorted(p.name for p in (TESTS / "dlpack").glob("test_*.py")), "tests/dlpack holds no test"
    scattered = sorted(p.name for p in TESTS.glob("test_*dlpack*.py"))
    assert not scattered, f"DLPack tests outside tests/dlpack: {scattered}"
