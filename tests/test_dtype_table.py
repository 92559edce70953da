"""The dtype table has one source, csrc/core/dtypes.def: the compiled core's
arrays (through ``_core.dtype_table``), the Python DType objects, the loop
generators' type list and NumPy's own view of each type agree, and no other
module writes the table again.

Cross-cutting, not a chapter's file: the table is read by every chapter,
and this checks its single source across the C core, the generators and
the Python layer."""

from __future__ import annotations

import ast
import importlib.util
import re
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

import minarray as ma
from minarray import _dtypes as _dt
from minarray._native import core, lib

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT / "csrc" / "core" / "gen"
DEF = ROOT / "csrc" / "core" / "dtypes.def"
ROWS = core.dtype_table()
NAMES = [r[0] for r in ROWS]


def _codegen() -> Any:
    """csrc/core/gen/codegen.py, loaded as the build loads it."""
    sys.path.insert(0, str(GEN))
    try:
        spec = importlib.util.spec_from_file_location("_codegen_under_test", GEN / "codegen.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # dataclasses look their module up
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.modules.pop("_codegen_under_test", None)
        sys.path.remove(str(GEN))


def test_python_table_is_the_core_table() -> None:
    assert len(ROWS) == len(_dt.ALL) == 33
    long_is_64 = struct.calcsize("l") == 8
    for (name, kind, code, bits, itemsize, typestr, fmt, kernel), d in zip(ROWS, _dt.ALL, strict=True):
        assert (d.name, d.kind, int(d.code), d.bits, d.itemsize, d.typestr) == (name, kind, code, bits, itemsize,
                                                                               typestr)
        assert d is getattr(ma, name)
        assert d.format == ({"q": "l", "Q": "L"}.get(fmt, fmt) if long_is_64 else fmt)
        assert (d in _dt.KERNEL) is kernel and (d in _dt.STORAGE) is not kernel
        assert itemsize == (bits + 7) // 8  # sub-byte types take a whole byte
        assert (d.wide is None) is kernel


def test_kernel_types_come_first() -> None:
    kernel = [r[7] for r in ROWS]
    assert kernel == sorted(kernel, reverse=True)
    assert _dt.ALL == _dt.KERNEL + _dt.STORAGE


@pytest.mark.parametrize("tid", range(len(ROWS)), ids=NAMES)
def test_core_arrays_round_trip(tid: int) -> None:
    """ma_dltypes and ma_type_of are inverses, and ma_type_size is what an
    array of the type takes per element (through an export's DLTensor)."""
    _name, kind, code, bits, itemsize, *_ = ROWS[tid]
    d = _dt.ALL[tid]
    assert _dt.from_dlpack_code(code, bits) is d
    assert _dt.from_dlpack_code(code, bits, 2) is None
    align = int(lib.ma_type_alignment(tid))
    assert align == (itemsize // 2 if kind == "c" else itemsize)
    a = ma.zeros(3, dtype=d)
    t = ma.dlpack.describe(a).tensor
    assert t is not None
    dl = t.dl_tensor
    assert (int(dl.dtype.code), dl.dtype.bits, dl.dtype.lanes) == (code, bits, 1)
    assert a.itemsize == itemsize and a.nbytes == 3 * itemsize


def test_unknown_dlpack_types_have_no_type() -> None:
    known = {(r[2], r[3]) for r in ROWS}
    for code in range(0, 20):
        for bits in (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 96, 128, 255):
            found = _dt.from_dlpack_code(code, bits)
            assert (found is not None) == ((code, bits) in known), (code, bits)


def test_generators_read_the_same_rows() -> None:
    """The loop generators' types are dtypes.def's rows, in order, and
    codegen's own column (C storage types, load/store) covers every row."""
    cg = _codegen()
    assert [(t.name, t.kind) for t in cg.TYPES] == [(d.name, d.kind) for d in _dt.KERNEL]
    assert [(t.name, t.kind) for t in cg.STORAGE] == [(d.name, d.kind) for d in _dt.STORAGE]
    assert [t.enum for t in (*cg.TYPES, *cg.STORAGE)] == ["MA_" + n.upper() for n in NAMES]
    assert cg.table_rows() == ROWS  # what the build hands minarray/_dtypes.py before the core exists


def test_codegen_fails_on_a_malformed_row(tmp_path: Path) -> None:
    cg = _codegen()
    bad = tmp_path / "dtypes.def"
    bad.write_text(DEF.read_text().replace("MA_KERNEL_TYPE(MA_INT8, int8, kDLInt, 8, 'i',",
                                           "MA_KERNEL_TYPE(MA_INT8, int8, kDLInt, 8, i,"))
    with pytest.raises(RuntimeError, match="does not parse"):
        cg.read_rows(bad)


def test_numpy_agrees() -> None:
    """Typestrs, buffer formats and character codes are NumPy's."""
    np = pytest.importorskip("numpy")
    for d in _dt.ALL:
        if not d.typestr:
            continue
        nd = np.dtype(d.name)
        assert nd.str == d.typestr.replace("|", "<") or nd.str == d.typestr
        assert (nd.kind, nd.itemsize) == (d.kind, d.itemsize)
        assert memoryview(np.zeros(1, nd)).format == d.format
        assert ma.asarray(np.zeros(2, nd)).dtype is d
        assert _dt.as_dtype(nd.char) is d
        assert _dt.as_dtype(d.typestr) is d


def test_buffer_formats_derived() -> None:
    import array

    for code in "bBhHiIlLqQfd":
        a = array.array(code, [1, 2])
        got = ma.asarray(a)
        assert got.itemsize == a.itemsize
        assert got.dtype.kind == ("u" if code.isupper() else ("f" if code in "fd" else "i"))


# ---- nobody writes the table again ------------------------------------------

def _sources(*exts: str) -> list[Path]:
    out = [p for ext in exts for p in (ROOT / "minarray").rglob(f"*{ext}")]
    out += [p for ext in exts for p in (ROOT / "csrc").rglob(f"*{ext}")]
    return sorted(p for p in out if p != DEF)


def _runs(seq: list[str], size: int = 3) -> set[tuple[str, ...]]:
    return {tuple(seq[i:i + size]) for i in range(len(seq) - size + 1)}


TABLE_RUNS = _runs(NAMES)


def test_no_python_module_lists_the_types_again() -> None:
    """No literal in minarray/ (other than an ``__all__``, which lists public
    names) holds three type names in table order, nor a typestr or a
    complex buffer format of the table."""
    typestrs = {d.typestr for d in _dt.ALL if d.typestr} | {"Zf", "Zd"}
    for path in _sources(".py"):
        if "testing" in path.relative_to(ROOT).parts:
            continue  # test producers carry typestrs as data, not as a table
        tree = ast.parse(path.read_text())
        exported: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                    exported.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and id(node) not in exported:
                names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                assert not (_runs(names) & TABLE_RUNS), f"{path.name}:{node.lineno} lists the dtype table again"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and path.name != "_dtypes.py":
                assert node.value not in typestrs, f"{path.name}:{node.lineno} spells {node.value!r} again"


def test_no_c_file_lists_the_types_again() -> None:
    """No C file other than dtypes.def spells three type names, or three
    ma_type enumerators, in table order (they expand dtypes.def instead)."""
    sep = r"\s*,\s*"
    quoted = [re.compile(sep.join(f'"{n}"' for n in run)) for run in TABLE_RUNS]
    enums = [re.compile(r"\b" + sep.join("MA_" + n.upper() for n in run) + r"\b") for run in TABLE_RUNS]
    for path in _sources(".c", ".h"):
        text = path.read_text()
        for pat in (*quoted, *enums):
            assert not pat.search(text), f"{path.relative_to(ROOT)} lists the dtype table again ({pat.pattern})"
