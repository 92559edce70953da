"""Shared pieces of the C loop generators (csrc/core/gen/gen_*.py).

The build script (csrc/build_ffi.py) imports every gen_*.py module beside
this one and writes the text of its `source()` to a C file of its own,
compiled as its own unit, so the hundreds of small per-dtype loops are
written once, as templates, instead of by hand.  This module holds what they
share: the element types, read from the rows of csrc/core/dtypes.def (the
one table of them) with what only a generator needs added: the C storage
type and the load/store expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DTYPES_DEF = Path(__file__).resolve().parents[1] / "dtypes.def"


@dataclass(frozen=True)
class Row:
    """One row of dtypes.def."""

    enum: str
    name: str
    code: str  # the DLPack type code's enumerator (kDLInt...)
    bits: int
    kind: str  # b, i, u, f, c
    typestr: str
    format: str
    kernel: bool


_ROW = re.compile(r"""^MA_(KERNEL|STORAGE)_TYPE\((\w+), (\w+), (\w+), (\d+), '([biufc])', "([^"]*)", "([^"]*)"\)""",
                  re.M)


def read_rows(path: Path = DTYPES_DEF) -> list[Row]:
    """dtypes.def's rows, in type-id order."""
    rows = [Row(m[2], m[3], m[4], int(m[5]), m[6], m[7], m[8], m[1] == "KERNEL") for m in _ROW.finditer(
        path.read_text())]
    if not rows or sum(1 for line in path.read_text().splitlines() if line.startswith("MA_")) != len(rows):
        raise RuntimeError(f"{path.name}: a row does not parse")
    return rows


ROWS: list[Row] = read_rows()


def table_rows() -> tuple[tuple[str, str, int, int, int, str, str, bool], ...]:
    """The rows as the compiled core's ``dtype_table()`` reports them, for
    the generators that load minarray/_dtypes.py before the core exists."""
    codes = {m[1]: int(m[2]) for m in re.finditer(r"\b(kDL\w+) = (\d+)", (DTYPES_DEF.parents[1] / "dlpack.h")
                                                  .read_text())}
    return tuple((r.name, r.kind, codes[r.code], r.bits, (r.bits + 7) // 8, r.typestr, r.format, r.kernel)
                 for r in ROWS)


@dataclass(frozen=True)
class CType:
    name: str  # suffix used in C identifiers, e.g. "float32"
    enum: str  # the ma_type enumerator
    ctype: str  # storage type
    kind: str  # b, i, u, f, c
    load: str = "{}"  # storage -> value expression
    store: str = "{}"  # value -> storage expression
    value: str = ""  # C type of a loaded value ("" = ctype)

    @property
    def vtype(self) -> str:
        return self.value or self.ctype


# What the loops need beyond the table, by type name: (C storage type, load
# expression, store expression, C type of a loaded value).
_PLAIN = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t", "uint8": "uint8_t",
          "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "float32": "float",
          "float64": "double", "complex64": "ma_c64", "complex128": "ma_c128"}
C_SIDE: dict[str, tuple[str, str, str, str]] = {
    # A bool is true when its byte is non-zero; every loop reads it as 0 or 1,
    # so bytes other than 0 and 1 (imported memory may hold them) count as
    # one, as in NumPy's casts and sums.
    "bool": ("uint8_t", "(uint8_t)({} != 0)", "{}", ""),
    **{n: (c, "{}", "{}", "") for n, c in _PLAIN.items()},
    # float16 rounds through ma_f16_from_float, which raises the overflow and
    # underflow flags the rounding calls for (scalar.h)
    "float16": ("ma_f16", "(float){}", "ma_f16_from_float({})", "float"),
    "bfloat16": ("ma_bf16", "ma_bf16_load({})", "ma_bf16_store({})", "float"),
    "complex32": ("ma_c32", "ma_c32_load({})", "ma_c32_store({})", "ma_c64"),
}


def _narrow_float(row: Row) -> tuple[str, str, str, str]:
    k = f"{row.enum} - MA_FLOAT8_E3M4"  # its row in minifloat.h's table
    return ("uint8_t", f"ma_mf_load({k}, {{}})", f"ma_mf_store({k}, {{}})", "float")


def _subbyte(row: Row) -> tuple[str, str, str, str]:
    signed = row.kind == "i"
    load = f"ma_sub_{'int' if signed else 'uint'}_load({{}}, {row.bits})"
    return ("uint8_t", load, f"ma_sub_store({{}}, {row.bits})", "int8_t" if signed else "uint8_t")


for _r in ROWS:
    if _r.name not in C_SIDE and _r.kind == "f" and not _r.kernel:
        C_SIDE[_r.name] = _narrow_float(_r)
    elif _r.name not in C_SIDE and _r.kind in "iu" and _r.bits < 8:
        C_SIDE[_r.name] = _subbyte(_r)

if set(C_SIDE) != {r.name for r in ROWS}:
    raise RuntimeError(f"codegen.C_SIDE and {DTYPES_DEF.name} disagree: "
                       f"{sorted(set(C_SIDE).symmetric_difference(r.name for r in ROWS))}")


def _ctype(row: Row) -> CType:
    ctype, load, store, value = C_SIDE[row.name]
    return CType(row.name, row.enum, ctype, row.kind, load, store, value)


# The kernel types, in the order of the ma_type enum (csrc/core/array.h).
TYPES: list[CType] = [_ctype(r) for r in ROWS if r.kernel]


# The storage types: casts only, in the ma_type order after TYPES.  Every
# value they hold is exact in the loaded C type, so a cast from one is a
# cast from that type.
STORAGE: list[CType] = [_ctype(r) for r in ROWS if not r.kernel]

if [r.kernel for r in ROWS] != sorted((r.kernel for r in ROWS), reverse=True):
    raise RuntimeError(f"{DTYPES_DEF.name} must list the kernel types before the storage types")


def unary_loop(fname: str, src: CType, dst: CType, expr: str, invalid: bool = False) -> str:
    """A strided loop dst[i] = store(expr) where `{x}` in expr is the loaded
    src[i], with a contiguous
    fast path the compiler vectorises.  With `invalid`, expr may OR 1 into
    `bad` (float -> integer conversions, scalar.h), and the loop raises the
    invalid flag once at its end when it did."""
    body = dst.store.format(expr.replace("{x}", src.load.format("s[i]")))
    body0 = dst.store.format(expr.replace("{x}", src.load.format("s[0]")))
    sbody = dst.store.format(expr.replace("{x}", src.load.format(f"*({src.ctype} *)ps")))
    decl = "unsigned bad = 0;" if invalid else ""
    end = "if (bad) ma_fpe_raise(MA_FPE_INVALID);" if invalid else ""
    return f"""
static void {fname}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  {decl}
  if (st[0] == (int64_t)sizeof({dst.ctype}) && st[1] == (int64_t)sizeof({src.ctype})) {{
    {dst.ctype} *restrict d = ({dst.ctype} *)p[0];
    const {src.ctype} *restrict s = (const {src.ctype} *)p[1];
    for (int64_t i = 0; i < n; i++) d[i] = {body};
  }} else if (st[0] == (int64_t)sizeof({dst.ctype}) && st[1] == 0) {{
    /* one value broadcast (fill, ones, x[...] = scalar): convert it once;
     * the store loop vectorises */
    {dst.ctype} *restrict d = ({dst.ctype} *)p[0];
    const {src.ctype} *restrict s = (const {src.ctype} *)p[1];
    const {dst.ctype} v = {body0};
    for (int64_t i = 0; i < n; i++) d[i] = v;
  }} else {{
    char *pd = p[0];
    const char *ps = p[1];
    for (int64_t i = 0; i < n; i++, pd += st[0], ps += st[1])
      *({dst.ctype} *)pd = {sbody};
  }}
  {end}
}}
"""
