"""The architecture page's figure: the layers of minarray, read from its source.

The Python layer's rows are computed from the modules' own import statements
(parsed with ``ast``, not imported): a module sits one row above the highest
module it imports at load time, so every arrow of the import graph points
down, and a module that imported upwards would have to move up.  Imports
inside functions are the documented cycle breakers and are not drawn.  The two
C floors list the files of ``csrc/py`` and ``csrc/core`` as they are.

Used as a Sphinx extension (the figure is drawn into docs/_generated/ at every
build, like docs/_ext/figures.py's) and by the tests, which check the rules the
page states against ``python_layers()``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "minarray"
CSRC = ROOT / "csrc"
OUT = Path(__file__).resolve().parent.parent / "_generated"

# The sub-packages are drawn as one box each: they are namespaces of the
# public face, and their insides are not the layering's concern.
NAMESPACES = ("linalg", "fft", "random", "testing")


def _node(dotted: str) -> str | None:
    """The figure's box for a module `minarray.x.y`, or None outside minarray."""
    parts = dotted.split(".")
    if parts[0] != "minarray":
        return None
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def _module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _load_time_imports(tree: ast.Module, module: str, modules: set[str]) -> set[str]:
    """The modules `module` imports while it loads (`modules`: the dotted
    names of minarray's modules, to tell a submodule from a name): top-level
    statements (and their if/try blocks), not function bodies, not
    ``if TYPE_CHECKING:`` blocks."""
    found: set[str] = set()
    package = module if module.count(".") == 0 or module.endswith("__init__") else module.rsplit(".", 1)[0]

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Import):
                found.update(a.name for a in stmt.names)
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.level:
                    base = package.split(".")[: len(package.split(".")) - stmt.level + 1]
                    name = ".".join([*base, stmt.module] if stmt.module else base)
                else:
                    name = stmt.module or ""
                # `from minarray import linalg` imports the module minarray.linalg,
                # `from minarray import asarray` the package's face
                for a in stmt.names:
                    full = f"{name}.{a.name}"
                    found.add(full if full in modules else name)
            elif isinstance(stmt, ast.If) and not _is_type_checking(stmt.test):
                visit(stmt.body)
                visit(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                visit(stmt.body)
                for h in stmt.handlers:
                    visit(h.body)
                visit(stmt.orelse)
                visit(stmt.finalbody)

    visit(tree.body)
    return found


def python_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Box -> the boxes it imports at load time (itself excluded)."""
    modules = {p.stem if p.parent == package else p.relative_to(package).parts[0]
               for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    paths = {_module_of(p): p for p in package.rglob("*.py")}
    imports = {m: _load_time_imports(ast.parse(p.read_text(), str(p)), m, set(paths)) for m, p in paths.items()}
    # A sub-package's box is what importing it loads: its __init__ and the
    # modules of the package that reaches, not every file in the folder (a
    # checker run as `python -m minarray.testing.dlpack` is a program of its
    # own, loaded by no module).
    loaded: set[str] = set()
    for ns in NAMESPACES:
        todo = [f"minarray.{ns}"]
        while todo:
            m = todo.pop()
            if m in paths and m not in loaded:
                loaded.add(m)
                todo.extend(n for n in imports[m] if n.startswith(f"minarray.{ns}."))
    for module in sorted(paths):
        box = _node(module)
        assert box is not None
        if box in NAMESPACES and module not in loaded:
            continue
        for name in imports[module]:
            target = _node(name)
            if target is not None and target != box and target in graph:
                graph[box].add(target)
    graph.pop("__main__", None)  # the tour: run as a program, imported by no module
    for deps in graph.values():
        deps.discard("__main__")
    return graph


def python_layers(package: Path = PACKAGE) -> list[list[str]]:
    """The Python layer's rows, bottom first: row k holds the modules whose
    longest chain of load-time imports down to a module importing nothing of
    minarray has k steps.  Raises ValueError on an import cycle."""
    graph = python_graph(package)
    depth: dict[str, int] = {}
    visiting: set[str] = set()

    def level(m: str) -> int:
        if m in depth:
            return depth[m]
        if m in visiting:
            raise ValueError(f"import cycle through minarray.{m}")
        visiting.add(m)
        d = 1 + max((level(t) for t in graph[m]), default=-1)
        visiting.discard(m)
        depth[m] = d
        return d

    for m in graph:
        level(m)
    rows: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    for m, d in depth.items():
        rows[d].append(m)
    return [sorted(r) for r in rows]


def c_floors(csrc: Path = CSRC) -> dict[str, list[str]]:
    """The file stems of the two C floors."""
    return {floor: sorted({p.stem for p in (csrc / floor).glob("*.[ch]")}) for floor in ("py", "core")}


# ---- the drawing ------------------------------------------------------------------


def _label(m: str) -> str:
    return "minarray/__init__" if m == "__init__" else (f"{m}/" if m in NAMESPACES else m)


def _kind(m: str) -> str:
    if m == "__init__":
        return "face"
    if m in NAMESPACES or not m.startswith("_"):
        return "namespace"
    return "private"


def draw_layers(path: Path) -> None:
    from figures import INK, LINE, MINARRAY, MUTED, PALE, WIDTH, _box, _canvas, _save

    rows = python_layers()
    floors = c_floors()
    fills = {"face": "#c9def3", "namespace": PALE[2], "private": PALE[0]}
    char_w, box_h, gap, pad = 0.062, 0.26, 0.07, 0.1

    def wrap_boxes(names: list[str], width: float) -> list[list[str]]:
        lines: list[list[str]] = [[]]
        used = 0.0
        for n in names:
            w = len(_label(n)) * char_w + 0.14
            if lines[-1] and used + w > width:
                lines.append([])
                used = 0.0
            lines[-1].append(n)
            used += w + gap
        return lines

    avail = WIDTH - 1.25
    py_lines = [(k, line) for k, row in reversed(list(enumerate(rows))) for line in wrap_boxes(row, avail)]
    c_lines = {f: wrap_boxes(stems, avail) for f, stems in floors.items()}
    n_lines = len(py_lines) + sum(len(v) for v in c_lines.values())
    height = n_lines * (box_h + gap) + 3 * 0.45 + 0.2
    fig, ax = _canvas(WIDTH, height, (0, WIDTH), (0, height))

    y = height - 0.15

    def band(title: str, note: str) -> None:
        nonlocal y
        y -= 0.3
        ax.text(pad, y, title, fontsize=8.5, fontweight="bold", color=MINARRAY, va="baseline")
        ax.text(pad + len(title) * 0.072 + 0.1, y, note, fontsize=7.3, color=MUTED, va="baseline")
        y -= 0.12

    band("Python: minarray/", "each module imports only modules on rows below it (computed from its imports)")
    last_row = None
    for k, line in py_lines:
        y -= box_h + gap
        if k != last_row:
            ax.text(pad, y + box_h / 2, f"row {k}", fontsize=7, color=MUTED, va="center")
            last_row = k
        x = 1.05
        for m in line:
            w = len(_label(m)) * char_w + 0.14
            _box(ax, x, y, w, box_h, fills[_kind(m)], LINE, lw=0.6)
            ax.text(x + w / 2, y + box_h / 2, _label(m), ha="center", va="center", fontsize=7.3, color=INK,
                    family="monospace")
            x += w + gap
    for floor, title, note in (("py", "C bindings: csrc/py/", "arguments in, objects out, one call into the core"),
                               ("core", "C core: csrc/core/", "plain C: no Python.h, no call upwards")):
        band(title, note)
        for line in c_lines[floor]:
            y -= box_h + gap
            x = 1.05
            for stem in line:
                w = len(stem) * char_w + 0.14
                _box(ax, x, y, w, box_h, "#f3f4f5" if floor == "core" else PALE[1], LINE, lw=0.6)
                ax.text(x + w / 2, y + box_h / 2, stem, ha="center", va="center", fontsize=7.3, color=INK,
                        family="monospace")
                x += w + gap
    _save(fig, path)


def generate(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    path = out / "layers.svg"
    draw_layers(path)
    return [path]


def _on_builder_inited(app: Any) -> None:
    generate(OUT)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
