"""Shared pieces of the C loop generators (csrc/core/gen/gen_*.py).

The build script (csrc/build_ffi.py) imports every gen_*.py module beside
this one and writes the text of its `source()` to a C file of its own,
compiled as its own unit, so the hundreds of small per-dtype loops are
written once, as templates, instead of by hand.  This module holds what they
share: the table of element types.
"""

from __future__ import annotations

from dataclasses import dataclass


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


# In the order of the ma_type enum (csrc/core/array.h).
TYPES: list[CType] = [
    # A bool is true when its byte is non-zero; every loop reads it as 0 or 1,
    # so bytes other than 0 and 1 (imported memory may hold them) count as
    # one, as in NumPy's casts and sums.
    CType("bool", "MA_BOOL", "uint8_t", "b", "(uint8_t)({} != 0)"),
    CType("int8", "MA_INT8", "int8_t", "i"),
    CType("int16", "MA_INT16", "int16_t", "i"),
    CType("int32", "MA_INT32", "int32_t", "i"),
    CType("int64", "MA_INT64", "int64_t", "i"),
    CType("uint8", "MA_UINT8", "uint8_t", "u"),
    CType("uint16", "MA_UINT16", "uint16_t", "u"),
    CType("uint32", "MA_UINT32", "uint32_t", "u"),
    CType("uint64", "MA_UINT64", "uint64_t", "u"),
    # float16 rounds through ma_f16_from_float, which raises the overflow and
    # underflow flags the rounding calls for (scalar.h)
    CType("float16", "MA_FLOAT16", "ma_f16", "f", "(float){}", "ma_f16_from_float({})", "float"),
    CType("bfloat16", "MA_BFLOAT16", "ma_bf16", "f", "ma_bf16_load({})", "ma_bf16_store({})", "float"),
    CType("float32", "MA_FLOAT32", "float", "f"),
    CType("float64", "MA_FLOAT64", "double", "f"),
    CType("complex64", "MA_COMPLEX64", "ma_c64", "c"),
    CType("complex128", "MA_COMPLEX128", "ma_c128", "c"),
]



def _minifloat(name: str, enum: str) -> CType:
    k = f"{enum} - MA_FLOAT8_E3M4"  # its row in minifloat.h's table
    return CType(name, enum, "uint8_t", "f", f"ma_mf_load({k}, {{}})", f"ma_mf_store({k}, {{}})", "float")


def _subbyte(name: str, enum: str, bits: int) -> CType:
    signed = not name.startswith("u")
    load = f"ma_sub_{'int' if signed else 'uint'}_load({{}}, {bits})"
    return CType(name, enum, "uint8_t", "i" if signed else "u", load, f"ma_sub_store({{}}, {bits})",
                 "int8_t" if signed else "uint8_t")


# The storage types (csrc/core/array.h): casts only, in the ma_type order
# after TYPES.  Every value they hold is exact in the loaded C type, so a
# cast from one is a cast from that type.
STORAGE: list[CType] = [
    *(_minifloat(n, "MA_" + n.upper()) for n in (
        "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
        "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
        "float4_e2m1fn")),
    CType("complex32", "MA_COMPLEX32", "ma_c32", "c", "ma_c32_load({})", "ma_c32_store({})", "ma_c64"),
    *(_subbyte(n, "MA_" + n.upper(), b) for n, b in (
        ("int1", 1), ("int2", 2), ("int4", 4), ("uint1", 1), ("uint2", 2), ("uint4", 4))),
]


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
