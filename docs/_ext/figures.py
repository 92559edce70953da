"""The documentation's figures, drawn at build time from the running library.

Every number in these figures is printed by minarray while the docs build:
the strides and byte addresses of live arrays, the struct offsets the C
compiler chose (read back through cffi from the compiled module), the
capsule names and deleter calls of a real export and import, and the
benchmark results recorded in docs/_data/benchmarks.json.  A figure cannot
go stale: when the code changes, the next build draws what it now does.

The drawing is matplotlib's.  It is already the project's plotting library
(the benchmark harness plots with it), it writes SVG without any external
program (no graphviz binary, no browser), and with a fixed hash salt and no
date its output is byte-for-byte deterministic.  Text stays text in the SVG
(``svg.fonttype = "none"``): the files are small, the browser renders the
labels in the page's own fonts, and the tests can find the numbers in them.

Used two ways: as a Sphinx extension (``generate`` runs on
``builder-inited`` and writes into docs/_generated/, which is not
committed), and from the tests, which call ``generate`` on a temporary
folder.
"""

from __future__ import annotations

import ctypes
import gc
import io
import json
import textwrap
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent.parent
OUT = DOCS / "_generated"
BENCHMARKS = DOCS / "_data" / "benchmarks.json"

# One palette for all figures: a library keeps its colour from figure to figure.
INK = "#1a1a1a"
MUTED = "#5f6b73"
LINE = "#8a949b"
MINARRAY = "#1f5fa8"
NUMPY = "#4dabcf"
TORCH = "#ee4c2c"
PALE = ("#dbe8f6", "#fde3c8", "#d9f0d3", "#eadcf2")  # row tints (strides), group tints (structs)
LIB_FILL = {"minarray": "#dbe8f6", "NumPy": "#d8eff7", "PyTorch": "#fcdcd4"}
LIB_EDGE = {"minarray": MINARRAY, "NumPy": "#2a86a8", "PyTorch": TORCH}

WIDTH = 6.4  # inches: about the article column of the theme at 1280 px, so text keeps its set size


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({
        "svg.fonttype": "none",
        "svg.hashsalt": "minarray-docs",  # stable ids: the same figure gives the same file
        "font.family": "sans-serif",
        "font.size": 9,
        "axes.edgecolor": LINE,
        "axes.labelcolor": INK,
        "text.color": INK,
        "xtick.color": MUTED,
        "ytick.color": MUTED,
    })
    return plt


def _save(fig: Any, path: Path) -> bool:
    """Write the figure as SVG unless the file already holds the same bytes
    (an unchanged file keeps its time stamp, so Sphinx does not re-read the
    pages that show it: an incremental build stays incremental)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, facecolor="white")
    _pyplot().close(fig)
    data = buf.getvalue()
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def _canvas(width: float, height: float, xlim: tuple[float, float], ylim: tuple[float, float]) -> tuple[Any, Any]:
    """A figure with one frameless axes in data units (y grows upwards)."""
    plt = _pyplot()
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.axis("off")
    return fig, ax


def _box(ax: Any, x: float, y: float, w: float, h: float, fill: str, edge: str = LINE, lw: float = 0.8,
         **kw: Any) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=edge, linewidth=lw, **kw))


def _arrow(ax: Any, x0: float, y0: float, x1: float, y1: float, color: str = INK, style: str = "-|>",
           ls: str = "-", lw: float = 0.9) -> None:
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                arrowprops={"arrowstyle": style, "color": color, "lw": lw, "linestyle": ls,
                            "shrinkA": 0, "shrinkB": 0, "mutation_scale": 9})


# ---- strides ----------------------------------------------------------------------


@dataclass
class Layout:
    """One view over a buffer, as minarray reports it."""

    title: str
    expr: str
    shape: tuple[int, ...]
    values: list[list[float]]
    offsets: list[list[int]]  # byte offset of each element from the buffer's start
    byte_strides: tuple[int, ...]  # NumPy's: .strides
    element_strides: tuple[int, ...]  # DLPack's: the exported DLTensor's
    data_offset: int  # where element 0 is, from the buffer's start
    buffer_values: list[float]
    itemsize: int


def stride_layouts() -> list[Layout]:
    """The five layouts of the strides page, measured on live arrays."""
    import minarray as ma
    from minarray._native import core

    base = ma.arange(12.0).reshape(3, 4)
    row = ma.arange(4.0)
    cases: list[tuple[str, str, Any, Any]] = [
        ("contiguous", "a = ma.arange(12.0).reshape(3, 4)", base, base),
        ("a slice with a step", "a[:, ::2]", base[:, ::2], base),
        ("a transpose", "a.T", base.T, base),
        ("a negative stride", "a[::-1]", base[::-1], base),
        ("a broadcast: stride 0", "ma.broadcast_to(ma.arange(4.0), (3, 4))", ma.broadcast_to(row, (3, 4)), row),
    ]
    out = []
    for title, expr, view, owner in cases:
        start = core.buffer_info(owner._h)[1]
        item = view.itemsize
        dl = ma.dlpack.describe(view).tensor.dl_tensor
        rows, cols = view.shape
        offsets = []
        for i in range(rows):
            offsets.append([view.data_ptr - start + i * view.strides[0] + j * view.strides[1] for j in range(cols)])
            # The same address from DLPack's description: element strides
            # times the itemsize.  The figure draws what both agree on.
            for j in range(cols):
                by_dl = dl.data + dl.byte_offset - start + (i * dl.strides[0] + j * dl.strides[1]) * item
                assert by_dl == offsets[i][j], (title, i, j)
        out.append(Layout(title, expr, view.shape, view.tolist(), offsets, view.strides, tuple(dl.strides),
                          view.data_ptr - start, owner.reshape(-1).tolist(), item))
    return out


def _num(v: float) -> str:
    return f"{v:g}"


def draw_layout(lay: Layout, path: Path) -> None:
    rows, cols = lay.shape
    n = len(lay.buffer_values)
    cw, ch = 1.05, 0.62  # a view cell
    bw = min(1.05, 10.6 / n)  # a buffer cell
    grid_h = rows * ch
    top = grid_h + 0.85
    buf_y = -1.55
    height_units = top - buf_y + 0.6
    fig, ax = _canvas(WIDTH, (height_units + 0.1) * WIDTH / 12.0, (-0.1, 11.9), (buf_y - 0.6, top))
    ax.text(0, top - 0.3, f"{lay.title}:  {lay.expr}", fontsize=10, weight="bold", va="center")
    # The view, one tint per row.
    for i in range(rows):
        for j in range(cols):
            x, y = j * cw, grid_h - (i + 1) * ch
            _box(ax, x, y, cw, ch, PALE[i % len(PALE)])
            ax.text(x + cw / 2, y + ch * 0.62, _num(lay.values[i][j]), ha="center", va="center", fontsize=9,
                    weight="bold")
            ax.text(x + cw / 2, y + ch * 0.25, f"+{lay.offsets[i][j]}", ha="center", va="center", fontsize=7,
                    color=MUTED)
    ax.text(0, grid_h + 0.12, f"the view: shape {lay.shape}, each element's byte address", fontsize=7.5,
            color=MUTED)
    # What the two conventions say.
    tx = cols * cw + 0.5
    lines = [
        ("NumPy .strides (bytes)", str(lay.byte_strides)),
        ("DLPack strides (elements)", str(lay.element_strides)),
        ("element 0 (data) at", f"buffer + {lay.data_offset} B"),
        ("itemsize", f"{lay.itemsize} B"),
    ]
    for k, (label, value) in enumerate(lines):
        y = grid_h - 0.25 - k * 0.42
        ax.text(tx, y, label, fontsize=8.5, color=MUTED, va="center")
        ax.text(tx + 3.3, y, value, fontsize=9, va="center", family="monospace", weight="bold")
    # The buffer, each cell tinted by the view row that reads it.
    readers: dict[int, list[int]] = {}
    for i in range(rows):
        for j in range(cols):
            readers.setdefault(lay.offsets[i][j] // lay.itemsize, []).append(i)
    ax.text(0, buf_y + 1.0, f"the 1-d buffer: {n} elements, {n * lay.itemsize} bytes", fontsize=7.5,
            color=MUTED)
    for k, v in enumerate(lay.buffer_values):
        x = k * bw
        who = sorted(set(readers.get(k, [])))
        fill = PALE[who[0] % len(PALE)] if len(who) == 1 else ("#eeeeee" if who else "white")
        _box(ax, x, buf_y, bw, 0.62, fill, hatch=None if who else "////")
        ax.text(x + bw / 2, buf_y + 0.4, _num(v), ha="center", va="center", fontsize=8.5, weight="bold")
        ax.text(x + bw / 2, buf_y + 0.14, f"+{k * lay.itemsize}", ha="center", va="center", fontsize=6.5,
                color=MUTED)
        times = len(readers.get(k, []))
        if times > 1:
            ax.text(x + bw / 2, buf_y + 0.76, f"read {times}x", ha="center", va="center", fontsize=7,
                    color=MINARRAY)
    # Element 0: where `data` points.
    k0 = lay.data_offset // lay.itemsize
    _arrow(ax, k0 * bw + bw / 2, buf_y - 0.42, k0 * bw + bw / 2, buf_y - 0.02, color=MINARRAY)
    ax.text(k0 * bw + bw / 2 + 0.1, buf_y - 0.3, "data: element 0", fontsize=7.5, color=MINARRAY, va="center")
    _save(fig, path)


# ---- struct layouts ------------------------------------------------------------


@dataclass
class Field:
    path: tuple[str, ...]  # ("dl_tensor", "dtype", "code")
    offset: int
    size: int


@dataclass
class Group:
    path: tuple[str, ...]
    type_name: str
    offset: int
    size: int


def struct_layout(name: str) -> tuple[int, int, list[Field], list[Group]]:
    """(sizeof, alignof, leaf fields, nested structs) of a struct, as the
    compiled module reports them: offsets by ``ffi.offsetof``, sizes by
    ``ffi.sizeof``."""
    from minarray._native import ffi

    fields: list[Field] = []
    groups: list[Group] = []

    def walk(ctype: Any, prefix: tuple[str, ...]) -> None:
        for fname, f in ctype.fields:
            path = (*prefix, fname)
            off = ffi.offsetof(name, *path)
            size = ffi.sizeof(f.type)
            if f.type.kind == "struct":
                groups.append(Group(path, f.type.cname, off, size))
                walk(f.type, path)
            else:
                fields.append(Field(path, off, size))

    t = ffi.typeof(name)
    walk(t, ())
    return ffi.sizeof(t), ffi.alignof(t), fields, groups


def draw_struct(name: str, path: Path) -> None:
    size, align, fields, groups = struct_layout(name)
    word = 8
    nrows = -(-size // word)
    cw, rh = 0.9, 0.62  # a byte column, a row
    left = 1.1
    depth = max((len(g.path) for g in groups), default=0)
    top = nrows * rh
    xrange = left + word * cw + 0.25 + 1.4 * max(depth, 1)
    fig, ax = _canvas(WIDTH, (top + 1.1) * WIDTH / xrange, (0, xrange), (-0.2, top + 0.9))
    ax.text(0, top + 0.62, f"{name}: {size} bytes, aligned to {align}", fontsize=10, weight="bold", va="center")
    for b in range(word):  # the byte ruler
        ax.text(left + (b + 0.5) * cw, top + 0.15, f"+{b}", ha="center", fontsize=7, color=MUTED)
    for r in range(nrows):
        ax.text(left - 0.12, top - (r + 0.5) * rh, f"offset {r * word}", ha="right", va="center", fontsize=7.5,
                color=MUTED)
    covered = [False] * size
    tints = {g.path: PALE[k % len(PALE)] for k, g in enumerate(g for g in groups if len(g.path) == 1)}
    for f in fields:
        fill = tints.get(f.path[:1], "white")
        off, left_bytes, first = f.offset, f.size, True
        while left_bytes > 0:  # a field that crosses a row boundary is drawn in pieces
            r, c = divmod(off, word)
            take = min(left_bytes, word - c)
            x, y = left + c * cw, top - (r + 1) * rh
            _box(ax, x, y, take * cw, rh, fill, edge=INK, lw=0.9)
            if first:
                small = take * cw < 1.6
                ax.text(x + take * cw / 2, y + rh * 0.64, f.path[-1], ha="center", va="center",
                        fontsize=7 if small else 8.5, weight="bold")
                label = f"@{f.offset} · {f.size} B" if small else f"offset {f.offset} · {f.size} B"
                ax.text(x + take * cw / 2, y + rh * 0.26, label, ha="center", va="center", fontsize=6 if small else 6.5,
                        color=MUTED)
            for b in range(off, off + take):
                covered[b] = True
            off, left_bytes, first = off + take, left_bytes - take, False
    for b, used in enumerate(covered):  # padding, if the compiler put any
        if not used:
            r, c = divmod(b, word)
            _box(ax, left + c * cw, top - (r + 1) * rh, cw, rh, "white", hatch="////")
    # Nested structs: a bracket over their rows, deeper ones further out.
    for g in groups:
        x = left + word * cw + 0.15 + 1.4 * (len(g.path) - 1)
        y0 = top - (g.offset // word) * rh - 0.05
        y1 = top - (-(-(g.offset + g.size) // word)) * rh + 0.05
        ax.plot([x, x + 0.1, x + 0.1, x], [y0, y0, y1, y1], color=MUTED, lw=0.9)
        # The label goes beside a row no nested struct labels, so the two
        # never overlap however long the type's name.
        rows = range(g.offset // word, -(-(g.offset + g.size) // word))
        inner = {r for h in groups if h.path[:-1] == g.path
                 for r in range(h.offset // word, -(-(h.offset + h.size) // word))}
        free = [r for r in rows if r not in inner]
        ym = top - (free[len(free) // 2] + 0.5) * rh if free else (y0 + y1) / 2
        ax.text(x + 0.18, ym + 0.1, g.path[-1], fontsize=7.5, va="center", weight="bold")
        ax.text(x + 0.18, ym - 0.14, f"{g.type_name.removeprefix('struct ')}, {g.size} B", fontsize=6.5,
                va="center", color=MUTED)
    _save(fig, path)


# ---- a capsule's life ----------------------------------------------------------


_GetName = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))
_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
_SetContext = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(
    ("PyCapsule_SetContext", ctypes.pythonapi))
_VERSIONED = b"dltensor_versioned"  # a capsule keeps a pointer to its name: a constant that lives on


def _name(cap: Any) -> str:
    raw = _GetName(cap)
    return raw.decode() if raw is not None else "(none)"


def capsule_facts() -> dict[str, Any]:
    """A real export, import, refusal and unconsumed capsule, with what was
    seen at each step: names, live buffers, deleter calls, the error."""
    import minarray as ma
    from minarray._native import ffi, lib

    def live() -> int:
        return int(ma.allocator_stats()["live_buffers"])

    gc.collect()
    start = live()
    facts: dict[str, Any] = {}
    # Export and import.
    a = ma.arange(4.0)
    cap = a.__dlpack__(max_version=(1, 3))
    info = ma.dlpack.describe(cap)
    facts["export_name"] = _name(cap)
    facts["version"] = f"{info.tensor.version.major}.{info.tensor.version.minor}"
    facts["export_live"] = live() - start
    b = ma.from_dlpack(cap)
    facts["import_name"] = _name(cap)
    facts["import_live"] = live() - start
    facts["same_data"] = b.data_ptr == a.data_ptr
    del a, cap
    gc.collect()
    facts["capsule_dead_live"] = live() - start
    del b
    gc.collect()
    facts["consumer_done_live"] = live() - start
    # Refused: a producer (the tests' C fake, whose deleter counts its calls)
    # sends a major version this consumer does not know.
    counter = ffi.new("ma_test_counter *")
    shape = ffi.new("int64_t[]", [4])
    strides = ffi.new("int64_t[]", [1])
    memory = ffi.new("double[]", 4)
    m = ffi.new("DLManagedTensorVersioned *")
    m.version.major, m.version.minor = 2, 0
    m.manager_ctx = counter
    m.deleter = ffi.addressof(lib, "ma_test_deleter_versioned")
    t = m.dl_tensor
    t.data = memory
    t.device.device_type, t.device.device_id = 1, 0
    t.ndim = 1
    t.dtype.code, t.dtype.bits, t.dtype.lanes = 2, 64, 1
    t.shape, t.strides = shape, strides
    rcap = _New(int(ffi.cast("uintptr_t", m)), _VERSIONED, int(ffi.cast("uintptr_t", lib.ma_test_capsule_destructor())))
    _SetContext(rcap, int(ffi.cast("uintptr_t", lib.ma_test_context(1))))
    try:
        ma.from_dlpack(rcap)
        facts["refused_error"] = "(accepted)"
    except BufferError as exc:
        facts["refused_error"] = f"{type(exc).__name__}: {exc}"
    facts["refused_name"] = _name(rcap)
    facts["refused_calls_before"] = int(lib.ma_test_calls(counter))
    del rcap
    gc.collect()
    facts["refused_calls_after"] = int(lib.ma_test_calls(counter))
    # Unconsumed.
    c = ma.arange(3.0)
    ucap = c.__dlpack__(max_version=(1, 3))
    del c
    gc.collect()
    facts["unconsumed_name"] = _name(ucap)
    facts["unconsumed_live_before"] = live() - start
    del ucap
    gc.collect()
    facts["unconsumed_live_after"] = live() - start
    return facts


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters, never splitting a word or a name."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def _chars(span: float, xrange: float, fontsize: float = 7.3) -> int:
    """How many characters of a label fit across `span` data units of a
    figure WIDTH inches wide showing `xrange` units (an average glyph is
    about half the font size wide)."""
    return max(12, int(span * WIDTH / xrange * 72 / (0.5 * fontsize)))


def draw_capsules(path: Path) -> None:
    f = capsule_facts()
    lanes = ["producer\n(a.__dlpack__)", "capsule", "consumer\n(ma.from_dlpack)", "deleter\n(the producer's C)"]
    xs = [1.25, 4.1, 7.0, 9.85]
    P, C, K, D = range(4)
    steps: list[tuple[Any, ...]] = [
        ("section", "1. export"),
        ("self", P, "malloc one block: DLManagedTensorVersioned + shape + strides;\n"
                    f"retain the array's buffer (live buffers: {f['export_live']})"),
        ("msg", P, C, f"PyCapsule_New(name=\"{f['export_name']}\")"),
        ("section", "2. import"),
        ("msg", K, C, f"read the name; version {f['version']}, dtype, device, shape, strides"),
        ("msg", K, C, f"rename: \"{f['import_name']}\""),
        ("self", K, f"an array over the same data (same pointer: {f['same_data']}); live buffers: "
                    f"{f['import_live']}"),
        ("msg", C, C, f"capsule dies: destructor sees used_*, does nothing (live buffers: "
                      f"{f['capsule_dead_live']})"),
        ("msg", K, D, "its last array dies: deleter(managed), exactly once"),
        ("msg", D, P, f"release the buffer, free the block (live buffers: {f['consumer_done_live']})"),
        ("section", "3. refused (a producer sending DLPack major version 2)"),
        ("msg", K, C, "checks version.major: not 1, so read nothing else"),
        ("self", K, f["refused_error"]),
        ("self", C, f"name unchanged: \"{f['refused_name']}\"; deleter calls: {f['refused_calls_before']}"),
        ("msg", C, D, f"capsule dies: destructor calls deleter (calls: {f['refused_calls_after']})"),
        ("section", "4. never consumed"),
        ("self", C, f"\"{f['unconsumed_name']}\" dropped unread (live buffers: {f['unconsumed_live_before']})"),
        ("msg", C, D, "destructor: name not used_*, so call deleter"),
        ("msg", D, P, f"release the buffer, free the block (live buffers: {f['unconsumed_live_after']})"),
    ]
    step_h = 0.5
    extra = 0.0
    for s in steps:
        if s[0] == "msg" and s[1] != s[2]:
            extra += 0.2 * (len(_wrap(s[3], _chars(abs(xs[s[2]] - xs[s[1]]) - 0.2, 11.1))) - 1)
        elif s[0] == "self":
            extra += 0.16 * sum(len(_wrap(part, 56)) for part in s[2].split("\n"))
    height_units = 1.1 + sum(0.5 if s[0] == "section" else step_h for s in steps) + 0.3 + extra
    top = height_units
    fig, ax = _canvas(WIDTH, height_units * WIDTH / 11.1, (0, 11.1), (0, top))
    y = top - 0.45
    for x, label in zip(xs, lanes, strict=True):
        _box(ax, x - 1.15, y - 0.32, 2.3, 0.66, "#dbe8f6" if label != "capsule" else "#fde3c8", edge=INK)
        ax.text(x, y, label, ha="center", va="center", fontsize=8, weight="bold", linespacing=1.1)
    y -= 0.7
    bottom = 0.15
    for x in xs:
        ax.plot([x, x], [y + 0.35, bottom], color=LINE, lw=0.8, ls=(0, (3, 3)), zorder=0)
    for s in steps:
        if s[0] == "section":
            y -= 0.12
            ax.plot([0.05, 11.05], [y - 0.08, y - 0.08], color=MUTED, lw=0.5)
            ax.text(0.08, y + 0.08, s[1], fontsize=8.5, weight="bold", color=MINARRAY,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
            y -= 0.38
        elif s[0] == "self":
            x = xs[s[1]]
            text = "\n".join(line for part in s[2].split("\n") for line in _wrap(part, 56))
            right = s[1] >= K  # notes on the right-hand lanes open to the left, inside the figure
            ax.text(x - 0.12 if right else x + 0.12, y, text, fontsize=7.3, va="center", linespacing=1.1,
                    ha="right" if right else "left",
                    bbox={"facecolor": "#fffbe6", "edgecolor": "#e0c96a", "pad": 2, "lw": 0.6})
            ax.plot([x], [y], marker="o", color=INK, ms=3)
            y -= step_h + 0.16 * (text.count("\n") + 1)
        else:
            _, a, b, label = s
            if a == b:  # the capsule's own destruction
                ax.plot([xs[a]], [y], marker="x", color=TORCH, ms=6, mew=1.5)
                ax.text(xs[a] + 0.18, y, label, fontsize=7.3, va="center")
            else:
                lines = _wrap(label, _chars(abs(xs[b] - xs[a]) - 0.2, 11.1))
                y -= 0.2 * (len(lines) - 1)
                _arrow(ax, xs[a], y - 0.1, xs[b], y - 0.1)
                lo = min(xs[a], xs[b])
                ax.text(lo + 0.1, y + 0.04, "\n".join(lines), fontsize=7.3, va="bottom", linespacing=1.15)
            y -= step_h
    _save(fig, path)


# ---- one block, four owners ------------------------------------------------------


def ownership_facts() -> dict[str, Any]:
    """The worked example's chain, run for real; None values where NumPy or
    PyTorch is not installed."""
    facts: dict[str, Any] = {"ran": False}
    try:
        import numpy as np
        import torch
    except ImportError:
        return facts
    import minarray as ma
    from minarray._native import core

    def live() -> tuple[int, int]:
        s = ma.allocator_stats()
        return int(s["live_buffers"]), int(s["live_foreign"])

    gc.collect()
    start = live()
    a = ma.arange(6, dtype=ma.float32).reshape(2, 3)
    ptr = a.data_ptr
    n = np.from_dlpack(a)
    t = torch.from_dlpack(n)
    b = ma.from_dlpack(t)
    facts["ran"] = True
    facts["nbytes"] = int(core.buffer_info(a._h)[2])
    facts["same"] = n.ctypes.data == ptr and t.data_ptr() == ptr and b.data_ptr == ptr
    facts["numpy_base"] = _name(n.base) if type(n.base).__name__ == "PyCapsule" else type(n.base).__name__
    facts["owned_b"] = bool(core.buffer_info(b._h)[3])
    n_alive = weakref.ref(n)
    del a, n, t
    gc.collect()
    lv = live()
    facts["after_names"] = (lv[0] - start[0], lv[1] - start[1])
    facts["n_alive_after_names"] = n_alive() is not None
    del b
    gc.collect()
    facts["n_alive_after_b"] = n_alive() is not None
    lv = live()
    facts["after_b"] = (lv[0] - start[0], lv[1] - start[1])
    return facts


def draw_ownership(path: Path) -> None:
    f = ownership_facts()
    nbytes = f.get("nbytes", 24)
    chain = [  # (object, library, what it does for the one below)
        ("b: a minarray NDArray", "minarray", "holds one reference to its buffer"),
        ("foreign ma_buffer", "minarray", "its release callback calls PyTorch's deleter"),
        ("PyTorch's managed tensor", "PyTorch", "holds a reference to t's storage"),
        ("t's storage", "PyTorch", "its deleter calls NumPy's DLPack deleter"),
        ("n: numpy.ndarray", "NumPy", "the manager_ctx of NumPy's export: one reference"),
        ("n.base: NumPy's capsule", "NumPy",
         f"named \"{f.get('numpy_base', 'numpy_dltensor_versioned')}\""),
        ("minarray's managed tensor", "minarray", "manager_ctx = the owned buffer (+1 reference)"),
        (f"owned ma_buffer: the {nbytes} bytes", "minarray", "one malloc'd block: header, then data, 64-byte aligned"),
    ]
    names = {"a": 7, "n": 4, "t": 3, "b": 0}  # the user's names, and the object each one holds
    rh, gap = 0.55, 0.32
    top = len(chain) * (rh + gap) + 0.9
    fig, ax = _canvas(WIDTH, (top + 2.5) * WIDTH / 11.2, (0, 11.2), (-2.5, top))
    ax.text(0.05, top - 0.3, "Who holds whom (arrows point at what is kept alive), and the order of release",
            fontsize=10, weight="bold", va="center")
    bx, bw = 1.4, 4.6
    ys = []
    for k, (label, lib, note) in enumerate(chain):
        y = top - 0.9 - k * (rh + gap) - rh
        ys.append(y)
        _box(ax, bx, y, bw, rh, LIB_FILL[lib], edge=LIB_EDGE[lib], lw=1.2)
        ax.text(bx + 0.12, y + rh / 2, label, fontsize=8.2, va="center", weight="bold")
        ax.text(bx + bw - 0.1, y + rh / 2, lib, fontsize=7, va="center", ha="right", color=LIB_EDGE[lib])
        # Notes wrap to the space right of the boxes, at a size a phone can read.
        ax.text(bx + bw + 0.2, y + rh / 2, "\n".join(_wrap(note, _chars(11.1 - bx - bw - 0.2, 11.2, 9.8))),
                fontsize=8.2, va="center", color=MUTED, linespacing=1.1)
        if k:
            _arrow(ax, bx + 0.5, ys[k - 1], bx + 0.5, y + rh, color=INK)
        # The release order when b, the last name, goes.
        ax.text(bx - 0.25, y + rh / 2, str(k + 1), fontsize=8, ha="center", va="center", color="white",
                weight="bold", bbox={"boxstyle": "circle,pad=0.25", "facecolor": MINARRAY, "edgecolor": "none"})
    for nm, k in names.items():
        y = ys[k] + rh / 2
        lib = chain[k][1] if nm != "a" else "minarray"
        ax.text(0.25, y, nm, fontsize=10, family="monospace", weight="bold", va="center", ha="center",
                color=LIB_EDGE[lib])
    foot = []
    if f["ran"]:
        foot.append(f"Measured while these docs were built: all four arrays share one data pointer: {f['same']}; "
                    f"b's buffer is foreign: {not f['owned_b']}.")
        foot.append(f"del a, n, t: nothing freed (buffers, foreign: {f['after_names']} more than before; "
                    f"n still alive: {f['n_alive_after_names']}).")
        foot.append(f"del b: releases 1 to 8 in order (numbers on the left); n alive: {f['n_alive_after_b']}; "
                    f"buffers, foreign: {f['after_b']} more than before.")
    else:
        foot.append("(Not measured in this build: NumPy or PyTorch is not installed. The chain is the worked "
                    "example's.)")
    foot.append("Names at the left: the user's variables. Dropping a, n or t only removes a name; b's chain "
                "keeps the memory.")
    wrapped = [(k, part) for k, line in enumerate(foot) for part in _wrap(line, _chars(11.0, 11.2, 9.8))]
    for row, (k, part) in enumerate(wrapped):
        ax.text(0.05, -0.3 - row * 0.3, part, fontsize=8.2, va="center", color=INK if k < 3 else MUTED)
    _save(fig, path)


# ---- streams ---------------------------------------------------------------------


def stream_facts() -> dict[str, Any]:
    """What minarray does with `stream`, seen while the docs build: a CPU
    array refuses a stream, a device array passes the consumer's on to its
    producer, and its C exchange table reports no stream for the CPU."""
    import minarray as ma
    from minarray._native import ffi
    from minarray.dlpack import DLDeviceType, from_pointer

    facts: dict[str, Any] = {}
    x = ma.arange(3.0)
    facts["cpu_none"] = _name(x.__dlpack__(stream=None, max_version=(1, 3)))
    try:
        x.__dlpack__(stream=1)
        facts["cpu_one"] = "(accepted)"
    except (ValueError, BufferError, TypeError) as exc:
        facts["cpu_one"] = type(exc).__name__

    memory = ma.arange(4.0)
    calls: list[Any] = []

    class Producer:
        """A stand-in for a CUDA library: it records the stream it is asked for."""

        def __init__(self) -> None:
            self.t = from_pointer(memory.data_ptr, (4,), ma.float64, device=(DLDeviceType.CUDA, 0), owner=memory)

        def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                       copy: Any = None) -> Any:
            calls.append(stream)
            return self.t.__dlpack__(stream=stream, max_version=max_version)

        def __dlpack_device__(self) -> tuple[int, int]:
            return (int(DLDeviceType.CUDA), 0)

    d = ma.from_dlpack(Producer())
    d.__dlpack__(stream=7, max_version=(1, 3))
    facts["forwarded"] = calls[-1]
    cap = ma.NDArray.__dlpack_c_exchange_api__  # type: ignore[attr-defined]
    api = ffi.cast("DLPackExchangeAPI *", _GetPointer(cap, b"dlpack_exchange_api"))
    out = ffi.new("void **", ffi.cast("void *", 1))
    rc = api.current_work_stream(1, 0, out)
    facts["work_stream"] = "NULL" if rc == 0 and out[0] == ffi.NULL else "not NULL"
    return facts


_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


def draw_streams(path: Path) -> None:
    f = stream_facts()
    lanes = ["producer's\nstream P", "producer\n(x.__dlpack__)", "consumer\n(from_dlpack)", "consumer's\nstream C"]
    xs = [1.25, 4.1, 7.0, 9.85]
    P, R, K, C = range(4)
    steps: list[tuple[Any, ...]] = [
        ("self", P, "queued earlier: a kernel that writes x (may still be running)"),
        ("msg", K, R, "x.__dlpack__(stream=C): the stream I will read on"),
        ("msg", R, P, "record event E on P, after the queued write"),
        ("msg", R, C, "make C wait for E (cudaStreamWaitEvent): no host wait"),
        ("msg", R, K, "return the capsule at once"),
        ("msg", K, C, "launch the kernel that reads x on C"),
        ("self", C, "C runs it only after E: the write is visible"),
    ]
    notes = [
        "stream=None: the producer assumes the legacy default stream.  -1: the consumer asks for no "
        "synchronisation.  CUDA: 1 legacy default, 2 per-thread default, any other value a cudaStream_t, "
        "0 not allowed.  ROCm: 0 the default stream, other values a hipStream_t, 1 and 2 not allowed.  "
        "CPU: only None.",
        f"minarray, seen while these docs were built: a CPU array's __dlpack__(stream=None) gives a "
        f"\"{f['cpu_none']}\" capsule, stream=1 raises {f['cpu_one']}; a device array passes the consumer's "
        f"stream to its producer (stream=7 arrived as {f['forwarded']}); its C exchange table's "
        f"current_work_stream gives {f['work_stream']} for the CPU.",
    ]
    wrapped = [line for note in notes for line in [*_wrap(note, _chars(9.4, 11.1)), ""]][:-1]
    step_h = 0.62
    height_units = 1.3 + len(steps) * step_h + 0.4 + 0.27 * len(wrapped) + 0.2
    fig, ax = _canvas(WIDTH, height_units * WIDTH / 11.1, (0, 11.1), (0, height_units))
    y = height_units - 0.5
    for x, label in zip(xs, lanes, strict=True):
        stream_lane = label.endswith("P") or label.endswith("C")
        _box(ax, x - 1.15, y - 0.34, 2.3, 0.7, "#fde3c8" if stream_lane else "#dbe8f6", edge=INK)
        ax.text(x, y, label, ha="center", va="center", fontsize=8, weight="bold", linespacing=1.1)
    y -= 0.85
    bottom = 0.27 * len(wrapped) + 0.45
    for x in xs:
        ax.plot([x, x], [y + 0.3, bottom], color=LINE, lw=0.8, ls=(0, (3, 3)), zorder=0)
    for s in steps:
        if s[0] == "self":
            x = xs[s[1]]
            right = s[1] >= K
            ax.text(x - 0.12 if right else x + 0.12, y, "\n".join(_wrap(s[2], 34)), fontsize=7.3, va="center",
                    ha="right" if right else "left", linespacing=1.1,
                    bbox={"facecolor": "#fffbe6", "edgecolor": "#e0c96a", "pad": 2, "lw": 0.6})
            ax.plot([x], [y], marker="o", color=INK, ms=3)
        else:
            _, a, b, label = s
            _arrow(ax, xs[a], y - 0.1, xs[b], y - 0.1, color=MINARRAY if b == C or a == C else INK)
            lo, hi = min(xs[a], xs[b]), max(xs[a], xs[b])
            lines = _wrap(label, _chars(hi - lo - 0.15, 11.1))
            ax.text(lo + 0.1, y - 0.02, "\n".join(lines), fontsize=7.3, va="bottom", linespacing=1.1,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
        y -= step_h
    for row, line in enumerate(wrapped):
        ax.text(0.1, bottom - 0.3 - row * 0.27, line, fontsize=7.3, va="center", color=INK if row < 4 else MUTED)
    _save(fig, path)


# ---- sub-byte packing -----------------------------------------------------------------


def subbyte_facts() -> dict[str, Any]:
    """int4 values as minarray stores them (padded, read from its memory),
    and as DLPack packs them (the header's rule: element i is
    (D >> (i * bits)) & mask, little bit-endian)."""
    import minarray as ma

    values = [1, -2, 7, -8]
    a = ma.asarray(values, dtype=ma.int4)
    padded = list(a.tobytes())
    info = ma.dlpack.describe(a.__dlpack__(max_version=(1, 3)))
    packed = []
    for k in range(0, len(values), 2):
        lo, hi = values[k] & 0xF, values[k + 1] & 0xF
        packed.append(lo | (hi << 4))
    return {"values": values, "padded": padded, "packed": packed, "flags": int(info.tensor.flags),
            "bits": int(info.tensor.dl_tensor.dtype.bits)}


def draw_subbyte(path: Path) -> None:
    f = subbyte_facts()
    vals = f["values"]
    cw, rh = 0.32, 0.55  # a bit, a row
    fig, ax = _canvas(WIDTH, 4.3 * WIDTH / 11.2, (0, 11.2), (0, 4.3))
    ax.text(0.05, 4.05, f"int4 values {vals}: two layouts DLPack allows", fontsize=10, weight="bold", va="center")
    colors = PALE

    def byte(x: float, y: float, value: int, owners: list[int | None], label: str) -> None:
        for b in range(8):  # bit 7 on the left, as a byte is written
            bit = 7 - b
            owner = owners[bit]
            fill = colors[owner % len(colors)] if owner is not None else "white"
            _box(ax, x + b * cw, y, cw, rh, fill, edge=INK if owner is not None else LINE, lw=0.7,
                 hatch=None if owner is not None else "////")
            ax.text(x + (b + 0.5) * cw, y + rh * 0.5, str((value >> bit) & 1), ha="center", va="center",
                    fontsize=8, family="monospace", weight="bold")
            ax.text(x + (b + 0.5) * cw, y - 0.15, str(bit), ha="center", va="center", fontsize=6, color=MUTED)
        ax.text(x + 4 * cw, y + rh + 0.17, label, ha="center", va="center", fontsize=7.3)

    # Packed: two elements a byte, element 2k in bits 0-3, 2k + 1 in bits 4-7.
    y = 2.55
    ax.text(0.05, y + 1.0, f"packed (the default): flags without IS_SUBBYTE_TYPE_PADDED, "
            f"{len(f['packed'])} bytes", fontsize=8.5, weight="bold", va="center", color=MINARRAY)
    for k, value in enumerate(f["packed"]):
        owners: list[int | None] = [2 * k] * 4 + [2 * k + 1] * 4
        pair = f"e{2 * k} = {vals[2 * k]}, e{2 * k + 1} = {vals[2 * k + 1]}"
        byte(0.3 + k * 3.1, y, value, owners, f"0x{value:02x}: {pair}")
    # Padded: one element a byte, in its low bits (minarray's own layout).
    y = 0.55
    ax.text(0.05, y + 1.0, f"padded: flags = {f['flags']} (IS_SUBBYTE_TYPE_PADDED), {len(f['padded'])} bytes, "
            "as minarray stores and exports them", fontsize=8.5, weight="bold", va="center", color=MINARRAY)
    for k, value in enumerate(f["padded"]):
        owners = [k] * 4 + [None] * 4
        byte(0.3 + k * 2.75, y, value, owners, f"0x{value:02x}: e{k} = {vals[k]}")
    ax.text(6.3, 3.05, "element i of a packed tensor D:\n(D >> (i * bits)) & mask\n(bit 0 first: little bit-endian)",
            fontsize=7.3, va="center", color=MUTED, linespacing=1.2)
    _save(fig, path)


# ---- performance ---------------------------------------------------------------


PERF_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("allocation", "allocation", "bytes"),
    ("elementwise", "elementwise", "elements"),
    ("reduction", "reductions over all elements", "elements"),
    ("dlpack", "exchange (DLPack)", "elements"),
)


def _reference_library(vs: str) -> str:
    if "torch" in vs:
        return "PyTorch"
    if "pydlpack" in vs:
        return "pydlpack"
    return "NumPy"


# The sides a result can time, in drawing order: minarray, the case's own
# reference (NumPy's function, or an exchange's peer) and PyTorch's CPU kernel.
SIDES = ("minarray", "reference", "torch")


@dataclass
class Series:
    case: str  # what was timed, e.g. "add float32"
    side: str  # one of SIDES
    label: str
    library: str  # the library on this side
    points: list[tuple[int, float]]  # (size, seconds per element)


def perf_series(group: str, results: list[dict[str, Any]]) -> list[Series]:
    """Every side of every case of a group, time per element against size."""
    found: dict[tuple[str, str], Series] = {}
    for r in results:
        if r["group"] != group or r.get("status") not in ("ok", "missing"):
            continue
        case = r["name"].removeprefix(f"{group}: ").removesuffix(" all").removesuffix(" contiguous")
        for side in SIDES:
            s = r.get(side)
            if not s:
                continue
            lib = {"minarray": "minarray", "torch": "PyTorch"}.get(side) or _reference_library(r["vs"])
            # Each exchange has its own reference; the other groups' is NumPy's own function.
            label = (case if side == "minarray" else r["vs"]) if group == "dlpack" else f"{case} ({lib})"
            ser = found.setdefault((case, side), Series(case, side, label, lib, []))
            ser.points.append((int(r["size"]), float(s["median"]) / int(r["size"])))
    out = sorted(found.values(), key=lambda x: (x.case, SIDES.index(x.side)))
    for ser in out:
        ser.points.sort()
    return out


def _run_line(meta: dict[str, Any]) -> str:
    """The run a figure's numbers come from: CPU, versions, date, load."""
    cpu = meta.get("cpu_model") or meta.get("machine") or "an unnamed CPU"
    loads = [x for x in (meta.get("loadavg_before"), (meta.get("loadavg") or [None])[0]) if x is not None]
    load = f", load average {max(loads):.1f}" if loads else ""
    versions = ", ".join(f"{name} {meta[key]}" for name, key in
                         (("Python", "python"), ("NumPy", "numpy"), ("PyTorch", "torch")) if meta.get(key))
    return (f"run of {str(meta.get('date', '?'))[:16].replace('T', ' ')}: {cpu}, {meta.get('cpu_count', '?')} CPUs"
            f"{load}\n{versions}")


def perf_ratios(group: str, results: list[dict[str, Any]]) -> dict[tuple[str, str], list[tuple[int, float]]]:
    """(case, library) -> [(size, minarray's time over the library's)]."""
    out: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for ser in perf_series(group, results):
        if ser.side == "minarray":
            continue
        mine = dict(next(s for s in perf_series(group, results) if s.case == ser.case and s.side == "minarray").points)
        pts = [(n, mine[n] / per) for n, per in ser.points if n in mine and per > 0]
        out[(ser.case, ser.library)] = pts
    return out


def draw_performance(group: str, title: str, unit: str, meta: dict[str, Any], results: list[dict[str, Any]],
                     path: Path) -> None:
    """minarray's time over NumPy's and over PyTorch's, against size: one
    colour per library compared, one marker and dash per case."""
    plt = _pyplot()
    ratios = perf_ratios(group, results)
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6), constrained_layout=True)
    lib_color = {"NumPy": NUMPY, "PyTorch": TORCH}
    cases = sorted({case for case, _ in ratios})
    markers = ["o", "s", "^", "D", "v", "P", "X", "*"]
    dashes = ["-", "--", ":", "-."]
    for (case, lib), pts in sorted(ratios.items()):
        if not pts:
            continue
        k = cases.index(case)
        xs, ys = zip(*pts, strict=True)
        ax.plot(xs, ys, linestyle=dashes[k % len(dashes)], marker=markers[k % len(markers)],
                color=lib_color.get(lib, MUTED), markersize=4, lw=1.3, label=f"{case} / {lib}")
    ax.axhline(1.0, color=INK, lw=0.8)
    ax.text(0.01, 1.0, "same time", transform=ax.get_yaxis_transform(), ha="left", va="bottom", fontsize=7,
            color=MUTED)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(unit)
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    # Ratios read as ratios: 0.2x, 0.5x, 1x, 2x, not powers of ten.
    ax.yaxis.set_major_locator(FixedLocator([0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10, 20, 50]))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.set_ylabel("minarray's time / the other's\n(below 1: minarray faster)")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(f"{title}: minarray's time over NumPy's (blue) and PyTorch's (orange)\n{_run_line(meta)}",
                 fontsize=8.5)
    libs = {lib for _, lib in ratios}
    missing = [lib for lib in ("NumPy", "PyTorch") if lib not in libs]
    if missing:
        ax.text(0.01, 0.02, f"these results have no {' or '.join(missing)} timings for this group",
                transform=ax.transAxes, ha="left", va="bottom", fontsize=7.5, color=MUTED)
    if ratios:
        ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    else:
        ax.text(0.5, 0.5, "no results for this group", ha="center", va="center", transform=ax.transAxes)
    _save(fig, path)


def dlpack_costs(results: list[dict[str, Any]], size: int) -> list[tuple[str, str, float, float]]:
    """(exchange, the exchange it is compared with, minarray's ns, the other's
    ns) per call, at one array size (an exchange costs the same at any)."""
    out = []
    for r in results:
        if r["group"] == "dlpack" and r.get("status") == "ok" and int(r["size"]) == size:
            out.append((r["name"], r["vs"], float(r["minarray"]["median"]) * 1e9,
                        float(r["reference"]["median"]) * 1e9))
    return out


def draw_dlpack_bars(meta: dict[str, Any], results: list[dict[str, Any]], path: Path) -> None:
    plt = _pyplot()
    sizes = sorted({int(r["size"]) for r in results if r["group"] == "dlpack"})
    size = sizes[0] if sizes else 0
    rows = dlpack_costs(results, size)
    fig, ax = plt.subplots(figsize=(WIDTH, 0.62 * max(len(rows), 1) + 1.5), constrained_layout=True)
    h = 0.38
    for k, (name, vs, mine, other) in enumerate(rows):
        y = len(rows) - 1 - k
        ax.barh(y + h / 2, mine, height=h, color=MINARRAY, label="minarray's side" if k == 0 else None)
        ax.barh(y - h / 2, other, height=h, color=MUTED,
                label="the exchange it is compared with (grey label)" if k == 0 else None)
        ax.text(mine * 1.05, y + h / 2, f"{name}: {mine:,.0f} ns", va="center", fontsize=7)
        ax.text(other * 1.05, y - h / 2, f"{vs}: {other:,.0f} ns", va="center", fontsize=7, color=MUTED)
    ax.set_xscale("log")
    ax.set_yticks([])
    ax.set_xlabel("nanoseconds per call (log scale)")
    if rows:
        ax.set_xlim(min(min(r[2], r[3]) for r in rows) * 0.5, max(max(r[2], r[3]) for r in rows) * 30)
        ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    else:
        ax.text(0.5, 0.5, "no DLPack results", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(f"DLPack exchanges, time per call (arrays of {size:,} elements)\n{_run_line(meta)}", fontsize=8.5)
    _save(fig, path)


# ---- the driver ----------------------------------------------------------------


def _figures(out: Path) -> Iterator[tuple[str, Callable[[], None]]]:
    for k, lay in enumerate(stride_layouts()):
        yield f"strides-{k + 1}.svg", (lambda lay=lay, k=k: draw_layout(lay, out / f"strides-{k + 1}.svg"))
    for name in ("DLTensor", "DLManagedTensorVersioned", "DLPackExchangeAPI"):
        yield f"struct-{name}.svg", (lambda name=name: draw_struct(name, out / f"struct-{name}.svg"))
    yield "capsule-life.svg", lambda: draw_capsules(out / "capsule-life.svg")
    yield "ownership.svg", lambda: draw_ownership(out / "ownership.svg")
    yield "streams.svg", lambda: draw_streams(out / "streams.svg")
    yield "subbyte.svg", lambda: draw_subbyte(out / "subbyte.svg")
    if BENCHMARKS.exists():
        doc = json.loads(BENCHMARKS.read_text())
        for group, title, unit in PERF_GROUPS:
            if group == "dlpack":
                yield "perf-dlpack.svg", (lambda: draw_dlpack_bars(doc["meta"], doc["results"],
                                                                   out / "perf-dlpack.svg"))
                continue
            yield f"perf-{group}.svg", (lambda g=group, ti=title, u=unit:
                                        draw_performance(g, ti, u, doc["meta"], doc["results"],
                                                         out / f"perf-{g}.svg"))


def generate(out: Path = OUT) -> list[Path]:
    """Draw every figure into `out`; the paths written (or already current)."""
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for name, draw in _figures(out):
        draw()
        done.append(out / name)
    return done


def _on_builder_inited(app: Any) -> None:
    generate(OUT)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
