"""Elementwise loops: one C inner loop per (operation, loop dtype), and the
dispatch tables csrc/py/elementwise_dispatch.c reads (ma_ew_ops).

Each operation is declared once below as C expression templates per dtype
kind; `source()` expands them over the dtype table of codegen.py.  In a
template `{x}`, `{y}` are the loaded operands (float16 and bfloat16 load as
float, so they compute in float32 and round once on store), `{T}` is the
value type, `{U}` an unsigned type wide enough for wrap-around arithmetic,
`{F}` the libm suffix ("f" for float, "" for double), `{R}` the real type of
a complex value and `{BITS}` the integer width.

Loop types and result types follow NumPy 2 (which agrees with the Array API
standard 2024.12 wherever the standard specifies them).  Which loop runs for
given operand dtypes (and Python scalars) is resolved here too, at build
time, into the tables csrc/py/elementwise_dispatch.c dispatches by (see _resolve).
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen import ROWS, TYPES, CType, table_rows

BY_NAME = {t.name: t for t in TYPES}
_WIDTH = {r.name: r.bits for r in ROWS}

# The kernel types by kind, in table order.
B, SI, UI, F, C = ([t.name for t in TYPES if t.kind == k] for k in "biufc")
I = SI + UI
R = I + F
N = I + F + C
ALL = B + N

Template = str | Callable[[CType], str | None] | None


@dataclass
class Op:
    name: str
    nin: int
    # template per kind letter ("b", "i" (signed), "u", "f", "c"); a kind
    # absent here is not supported
    t: dict[str, Template]
    out: str = "same"  # "same", "bool" or "real" (complex -> its real type)
    types: list[str] = field(default_factory=list)  # filled from t
    # names of element types to skip even though the kind is supported
    skip: tuple[str, ...] = ()
    # the loop vectorises: compile AVX2 clones for it (x86-64)
    simd: bool = True
    # dispatch rules beyond "the promoted dtype's loop, else NumPy's order"
    # (see _resolve): NumPy's message refusing bool operands instead of
    # computing in int8; the loop integer and bool operands take (true
    # division: float64); look for float loops first (round: NumPy lists
    # them first, so round(bool) is float16)
    no_bool: str | None = None
    int_loop: str | None = None
    floats_first: bool = False
    # report FE_INVALID (errstate's "invalid")?  Not for operations that
    # only compare: an ordered comparison with a quiet NaN raises the flag
    # in hardware, but NumPy warns of no invalid value there
    reports_invalid: bool = True


def _fs(t: CType) -> str:
    """libm suffix for the value type."""
    if t.kind == "c":
        return "f" if t.name == "complex64" else ""
    return "" if t.vtype == "double" else "f"


def _real(t: CType) -> str:
    return "float" if t.name == "complex64" else "double"


def _wide_u(t: CType) -> str:
    return "uint64_t" if t.ctype in ("int64_t", "uint64_t") else "uint32_t"


def _bits(t: CType) -> int:
    return {"int8_t": 8, "uint8_t": 8, "int16_t": 16, "uint16_t": 16, "int32_t": 32,
            "uint32_t": 32, "int64_t": 64, "uint64_t": 64}[t.ctype]


def _fmt(tpl: str, t: CType) -> str:
    return (tpl.replace("{T}", t.vtype).replace("{U}", _wide_u(t) if t.kind in "iu" else "")
            .replace("{F}", _fs(t)).replace("{R}", _real(t) if t.kind == "c" else t.vtype)
            .replace("{BITS}", str(_bits(t)) if t.kind in "iu" else "0")
            .replace("{C}", t.ctype))


# ---- the operations ----------------------------------------------------------

WRAP = "({C})(({U}){x} {op} ({U}){y})"  # integer arithmetic wraps (no signed overflow UB)


def arith(op: str, bool_expr: str | None) -> dict[str, Template]:
    d: dict[str, Template] = {
        "i": WRAP.replace("{op}", op), "u": WRAP.replace("{op}", op),
        "f": "{x} " + op + " {y}",
    }
    d["c"] = "ma_cmul{F}({x}, {y})" if op == "*" else "{x} " + op + " {y}"
    if bool_expr:
        d["b"] = bool_expr
    return d


def fmath(fn: str, cfn: str | None = None) -> dict[str, Template]:
    """A libm function on floats and its complex counterpart."""
    return {"f": fn + "{F}({x})", "c": (cfn or ("c" + fn)) + "{F}({x})"}


def nextafter(t: CType) -> str:
    if t.name == "float16":
        return "ma_nextafter_f16({x}, {y})"
    if t.name == "bfloat16":
        return "ma_nextafter_bf16({x}, {y})"
    return "nextafter{F}({x}, {y})"


def spacing(t: CType) -> str:
    if t.name in ("float16", "bfloat16"):
        return "ma_spacing_" + ("f16" if t.name == "float16" else "bf16") + "({x})"
    return "ma_spacing{F}({x})"


def cmp(op: str, cfn: str | None) -> dict[str, Template]:
    d: dict[str, Template] = {k: "{x} " + op + " {y}" for k in "biuf"}
    if cfn is None:
        d["c"] = "{x} " + op + " {y}"
    else:
        d["c"] = cfn
    return d


LN2_INV = "1.442695040888963407359924681001892137"
LN10_INV = "0.434294481903251827651128918916605082"

OPS: list[Op] = [
    # -- arithmetic
    Op("add", 2, arith("+", "{x} | {y}")),
    Op("subtract", 2, arith("-", None),
       no_bool="boolean subtract is not supported; use bitwise_xor or logical_xor instead"),
    Op("multiply", 2, arith("*", "{x} & {y}")),
    Op("divide", 2, {"f": "{x} / {y}", "c": "ma_cdiv{F}({x}, {y})"}, int_loop="float64"),
    Op("floor_divide", 2, {
        # x // 0 is 0 and raises the divide flag; MIN // -1 wraps to MIN and
        # raises the overflow flag (NumPy)
        "i": "({y} == 0 ? ({C})ma_int_divide_by_zero() : (({y} == -1) ? "
             "({C})(({x} == ({C})(({U})1 << ({BITS} - 1)) ? ma_int_overflow() : 0) + (0u - ({U}){x})) : "
             "({C})({x} / {y} - (({x} % {y} != 0) & (({x} < 0) != ({y} < 0))))))",
        "u": "({y} == 0 ? ({C})ma_int_divide_by_zero() : {x} / {y})",
        "f": "ma_floordiv{F}({x}, {y})",
    }, simd=False),
    Op("remainder", 2, {
        "i": "({y} == 0 ? ({C})ma_int_divide_by_zero() : {y} == -1 ? 0 : ({C})({x} % {y} + "
             "((({x} % {y}) != 0 && ((({x} % {y}) < 0) != ({y} < 0))) ? {y} : 0)))",
        "u": "({y} == 0 ? ({C})ma_int_divide_by_zero() : {x} % {y})",
        "f": "ma_remainder{F}({x}, {y})",
    }, simd=False),
    Op("pow", 2, {
        # a negative integer exponent sets the error flag (ValueError, as NumPy)
        "i": "(({y} < 0 ? ma_set_error(aux) : 0), ({C})ma_upow((uint64_t){x}, (uint64_t){y}))",
        "u": "({C})ma_upow((uint64_t){x}, (uint64_t){y})",
        "f": "pow{F}({x}, {y})",
        "c": "ma_cpow{F}({x}, {y})",
    }, simd=False),
    Op("atan2", 2, {"f": "atan2{F}({x}, {y})"}),
    Op("copysign", 2, {"f": "copysign{F}({x}, {y})"}),
    Op("hypot", 2, {"f": "hypot{F}({x}, {y})"}),
    Op("logaddexp", 2, {"f": "ma_logaddexp{F}({x}, {y})"}, simd=False),
    Op("nextafter", 2, {"f": nextafter}, simd=False),
    Op("spacing", 1, {"f": spacing}, simd=False),
    # NaN-propagating; on equal values the second operand (NumPy's SIMD loops)
    Op("maximum", 2, {"b": "{x} | {y}", "i": "({x} > {y} ? {x} : {y})", "u": "({x} > {y} ? {x} : {y})",
                      "f": "(({x} > {y} || {x} != {x}) ? {x} : {y})", "c": "ma_cmax{F}({x}, {y})"},
       reports_invalid=False),
    Op("minimum", 2, {"b": "{x} & {y}", "i": "({x} < {y} ? {x} : {y})", "u": "({x} < {y} ? {x} : {y})",
                      "f": "(({x} < {y} || {x} != {x}) ? {x} : {y})", "c": "ma_cmin{F}({x}, {y})"},
       reports_invalid=False),
    # -- comparisons (complex: lexicographic, as NumPy)
    Op("equal", 2, cmp("==", None), out="bool", reports_invalid=False),
    Op("not_equal", 2, cmp("!=", None), out="bool", reports_invalid=False),
    Op("less", 2, cmp("<", "ma_clt{F}({x}, {y})"), out="bool", reports_invalid=False),
    Op("less_equal", 2, cmp("<=", "ma_cle{F}({x}, {y})"), out="bool", reports_invalid=False),
    Op("greater", 2, cmp(">", "ma_clt{F}({y}, {x})"), out="bool", reports_invalid=False),
    Op("greater_equal", 2, cmp(">=", "ma_cle{F}({y}, {x})"), out="bool", reports_invalid=False),
    # -- logic and bits
    Op("logical_and", 2, {"b": "{x} & {y}"}),
    Op("logical_or", 2, {"b": "{x} | {y}"}),
    Op("logical_xor", 2, {"b": "{x} ^ {y}"}),
    Op("bitwise_and", 2, {"b": "{x} & {y}", "i": "{x} & {y}", "u": "{x} & {y}"}),
    Op("bitwise_or", 2, {"b": "{x} | {y}", "i": "{x} | {y}", "u": "{x} | {y}"}),
    Op("bitwise_xor", 2, {"b": "{x} ^ {y}", "i": "{x} ^ {y}", "u": "{x} ^ {y}"}),
    # shifts by a negative or too large amount give 0 (or -1 for negative
    # x >> n), as NumPy
    Op("bitwise_left_shift", 2, {
        "i": "((uint64_t){y} < {BITS} ? ({C})(({U}){x} << {y}) : 0)",
        "u": "((uint64_t){y} < {BITS} ? ({C})(({U}){x} << {y}) : 0)"}),
    Op("bitwise_right_shift", 2, {
        "i": "((uint64_t){y} < {BITS} ? ({C})({x} >> {y}) : ({x} < 0 ? -1 : 0))",
        "u": "((uint64_t){y} < {BITS} ? ({C})({x} >> {y}) : 0)"}),
    # -- unary
    Op("abs", 1, {"b": "{x}", "i": "({x} < 0 ? ({C})(0u - ({U}){x}) : {x})", "u": "{x}",
                  "f": "fabs{F}({x})", "c": "cabs{F}({x})"}, out="real"),
    Op("negative", 1, {"i": "({C})(0u - ({U}){x})", "u": "({C})(0u - ({U}){x})", "f": "-{x}", "c": "-{x}"},
       no_bool="boolean negative is not supported; use bitwise_invert or logical_not instead"),
    Op("positive", 1, {"i": "{x}", "u": "{x}", "f": "{x}", "c": "{x}"},
       no_bool="positive is not defined for booleans"),
    Op("bitwise_invert", 1, {"b": "!{x}", "i": "({C})~{x}", "u": "({C})~{x}"}),
    Op("logical_not", 1, {"b": "!{x}"}),
    Op("conj", 1, {"i": "{x}", "u": "{x}", "f": "{x}", "c": "conj{F}({x})"}),
    Op("real", 1, {"b": "{x}", "i": "{x}", "u": "{x}", "f": "{x}", "c": "creal{F}({x})"}, out="real"),
    Op("imag", 1, {"b": "0", "i": "0", "u": "0", "f": "0", "c": "cimag{F}({x})"}, out="real"),
    Op("ceil", 1, {"b": "{x}", "i": "{x}", "u": "{x}", "f": "ceil{F}({x})"}),
    Op("floor", 1, {"b": "{x}", "i": "{x}", "u": "{x}", "f": "floor{F}({x})"}),
    Op("trunc", 1, {"b": "{x}", "i": "{x}", "u": "{x}", "f": "trunc{F}({x})"}),
    # half to even (the default rounding mode), as the standard requires
    Op("round", 1, {"i": "{x}", "u": "{x}", "f": "nearbyint{F}({x})", "c": "ma_cround{F}({x})"},
       floats_first=True),
    Op("sign", 1, {"i": "({x} > 0) - ({x} < 0)", "u": "({x} > 0)", "f": "ma_sign{F}({x})",
                   "c": "ma_csign{F}({x})"}, no_bool="sign is not defined for booleans",
       reports_invalid=False),
    # on the bits: gcc 12 crashes compiling signbit() of a loaded bfloat16
    Op("signbit", 1, {"f": "ma_signbit{F}({x})"}, out="bool"),
    Op("isfinite", 1, {"b": "1", "i": "1", "u": "1", "f": "isfinite({x})",
                       "c": "isfinite(creal{F}({x})) && isfinite(cimag{F}({x}))"}, out="bool",
       reports_invalid=False),
    Op("isinf", 1, {"b": "0", "i": "0", "u": "0", "f": "isinf({x})",
                    "c": "isinf(creal{F}({x})) || isinf(cimag{F}({x}))"}, out="bool",
       reports_invalid=False),
    Op("isnan", 1, {"b": "0", "i": "0", "u": "0", "f": "isnan({x})",
                    "c": "isnan(creal{F}({x})) || isnan(cimag{F}({x}))"}, out="bool",
       reports_invalid=False),
    Op("square", 1, {"i": "({C})(({U}){x} * ({U}){x})", "u": "({C})(({U}){x} * ({U}){x})",
                     "f": "{x} * {x}", "c": "ma_cmul{F}({x}, {x})"}),
    # integer 1/x truncates; 1/0 gives 0 instead of trapping
    Op("reciprocal", 1, {"i": "({x} == 0 ? 0 : 1 / {x})", "u": "({x} == 0 ? 0 : 1 / {x})",
                         "f": "1 / {x}", "c": "ma_crecip{F}({x})"}, simd=False),
    Op("sqrt", 1, fmath("sqrt")),
    Op("exp", 1, fmath("exp")),
    Op("expm1", 1, fmath("expm1", "ma_cexpm1")),
    Op("log", 1, fmath("log")),
    Op("log1p", 1, fmath("log1p", "ma_clog1p")),
    Op("log2", 1, {"f": "log2{F}({x})", "c": "ma_cscale{F}(clog{F}({x}), " + LN2_INV + ")"}),
    Op("log10", 1, {"f": "log10{F}({x})", "c": "ma_cscale{F}(clog{F}({x}), " + LN10_INV + ")"}),
    Op("sin", 1, fmath("sin")),
    Op("cos", 1, fmath("cos")),
    Op("tan", 1, fmath("tan")),
    Op("asin", 1, fmath("asin")),
    Op("acos", 1, fmath("acos")),
    Op("atan", 1, fmath("atan")),
    Op("sinh", 1, fmath("sinh")),
    Op("cosh", 1, fmath("cosh")),
    Op("tanh", 1, fmath("tanh", "ma_ctanh")),
    Op("asinh", 1, fmath("asinh")),
    Op("acosh", 1, fmath("acosh")),
    Op("atanh", 1, fmath("atanh")),
]

# Vectorised libm (glibc's libmvec, reached through csrc/core/vecmath.c) for
# these functions on contiguous float32/float64 data.
VECMATH = ["exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


# The same for binary functions (pow, atan2, hypot: libmvec's "vv" variants).
VECMATH2 = ["pow", "atan2", "hypot"]


# Operations costing about a nanosecond per element or more: the
# iterator splits them over threads from fewer elements (measured on the
# reference 2-core machine, docs/performance.md).
HEAVY = set(VECMATH) | {"pow", "atan2", "hypot", "logaddexp"}


def _template(op: Op, t: CType) -> str | None:
    tpl = op.t.get(t.kind)
    if tpl is None or t.name in op.skip:
        return None
    if callable(tpl):
        tpl = tpl(t)
        if tpl is None:
            return None
    return _fmt(tpl, t)


def _out_type(op: Op, t: CType) -> CType:
    if op.out == "bool":
        return BY_NAME["bool"]
    if op.out == "real" and t.kind == "c":
        return BY_NAME["float32" if t.name == "complex64" else "float64"]
    return t


CLONES = "MA_HOT"  # iterate.h: an AVX2 clone chosen at load time


def _loop(op: Op, t: CType, expr: str) -> str:
    o = _out_type(op, t)
    fname = f"ew_{op.name}_{t.name}"
    # the result expression of the value expression `e`
    if op.out == "bool":
        def store(e: str) -> str:
            return f"(uint8_t)({e})"
    else:
        def store(e: str) -> str:
            return o.store.format(f"({o.vtype})({e})")
    attr = f"{CLONES} " if op.simd else ""
    src, vt = t.ctype, t.vtype
    ld = t.load

    def sub(e: str, x: str, y: str = "") -> str:
        return e.replace("{x}", f"({x})").replace("{y}", f"({y})")

    if op.nin == 1:
        body_c = store(sub(expr, ld.format("s[i]")))
        body_s = store(sub(expr, ld.format(f"*(const {src} *)ps")))
        vec = svec = ""
        if op.name in VECMATH and t.name in ("float32", "float64"):
            vm = f"ma_vecmath_{t.name}"
            fn = f"MA_VM_{op.name.upper()}"
            vec = f"    if ({vm}({fn}, d, s, n, MA_EW_EXACT(aux))) return;\n"
            # Strided data goes through a stack buffer to the same vector
            # function, so an element's result does not depend on the
            # layout it sits in (and x[::2] runs at vector speed too).
            # A contiguous result (x[::2] into a fresh array) is written
            # straight from the vector function, without a scatter pass.
            svec = f"""  {src} buf[256];
  {o.ctype} obuf[256];
  if ({vm}({fn}, NULL, NULL, 0, 1)) {{  /* available? (n = 0 touches nothing) */
    for (int64_t i = 0; i < n; i += 256) {{
      int64_t m = n - i < 256 ? n - i : 256;
      const char *ps = p[1] + i * st[1];
      char *pd = p[0] + i * st[0];
      GATHER({src}, buf, ps, st[1], m);
      if (st[0] == (int64_t)sizeof({o.ctype})) {{
        {vm}({fn}, ({o.ctype} *)pd, buf, m, MA_EW_EXACT(aux));
        continue;
      }}
      {vm}({fn}, obuf, buf, m, MA_EW_EXACT(aux));
      for (int64_t k = 0; k < m; k++) *({o.ctype} *)(pd + k * st[0]) = obuf[k];
    }}
    return;
  }}
"""
        elif t.name in ("float32", "float64") and op.simd:
            # The same for loops the compiler vectorises (sqrt, ...): gather
            # strided data into a buffer, run the vector body on it, scatter.
            # A contiguous result (x[::2] into a fresh array) is computed
            # straight into place: the scatter of a stack buffer to it ran
            # at a few cycles per element (stores and reloads of the same
            # stack lines), slower than NumPy's plain strided loop.
            bbody = store(sub(expr, ld.format("buf[k]")))
            svec = f"""  {{
    {src} buf[256];
    {o.ctype} obuf[256];
    (void)buf; /* imag() of a real array never reads it */
    for (int64_t i = 0; i < n; i += 256) {{
      int64_t m = n - i < 256 ? n - i : 256;
      const char *ps = p[1] + i * st[1];
      char *pd = p[0] + i * st[0];
      GATHER({src}, buf, ps, st[1], m);
      if (st[0] == (int64_t)sizeof({o.ctype})) {{
        {o.ctype} *restrict d = ({o.ctype} *)pd;
        for (int64_t k = 0; k < m; k++) d[k] = {bbody};
        continue;
      }}
      for (int64_t k = 0; k < m; k++) obuf[k] = {bbody};
      for (int64_t k = 0; k < m; k++) *({o.ctype} *)(pd + k * st[0]) = obuf[k];
    }}
    return;
  }}
"""
        return f"""
{attr}static void {fname}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  if (st[0] == (int64_t)sizeof({o.ctype}) && st[1] == (int64_t)sizeof({src})) {{
    {o.ctype} *restrict d = ({o.ctype} *)p[0];
    const {src} *restrict s = (const {src} *)p[1];
    (void)s;
{vec}    for (int64_t i = 0; i < n; i++) d[i] = {body_c};
    return;
  }}
{svec}  char *pd = p[0];
  const char *ps = p[1];
  (void)ps;
  for (int64_t i = 0; i < n; i++, pd += st[0], ps += st[1])
    *({o.ctype} *)pd = {body_s};
}}
"""
    la = ld.format("a[i]")
    lb = ld.format("b[i]")
    # vectorised libm for contiguous float32/float64 operands (either one
    # may be a broadcast scalar: stride 0)
    vec = {"cc": "", "cs": "", "sc": ""}
    if op.name in VECMATH2 and t.name in ("float32", "float64"):
        vm, fn = f"ma_vecmath2_{t.name}", f"MA_VM2_{op.name.upper()}"
        vec = {k: f"      if ({vm}({fn}, d, a, {sa}, b, {sb}, n, MA_EW_EXACT(aux))) return;\n"
               for k, sa, sb in (("cc", 1, 1), ("cs", 1, 0), ("sc", 0, 1))}
    # x ** 2 is x * x, exactly (both are correctly rounded; NumPy does the
    # same): a multiply instead of a call to pow per element
    square = ""
    if op.name == "pow" and t.kind in "fiu":
        sq = "{x} * {x}" if t.kind == "f" else WRAP.replace("{op}", "*").replace("{y}", "{x}")
        square = (f"      if (y == 2) {{\n        for (int64_t i = 0; i < n; i++) d[i] = "
                  f"{store(_fmt(sq, t).replace('{x}', f'({la})'))};\n        return;\n      }}\n")
    if op.name == "pow" and t.kind == "f":
        # x ** 0.5 is sqrt(x) except where the standard's pow special cases
        # differ: pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf
        rt = _fmt("({x} == 0 ? 0 : (isinf({x}) ? INFINITY : sqrt{F}({x})))", t)
        square += (f"      if (y == 0.5) {{\n        for (int64_t i = 0; i < n; i++) d[i] = "
                   f"{store(rt.replace('{x}', f'({la})'))};\n        return;\n      }}\n")
    # Strided float operands into a contiguous result (x[::2] + y[::2]):
    # gathered 256 at a time, then the vector body (or the vector libm
    # function, as for contiguous data, so the layout never changes a bit:
    # vector-math operations gather too, simd or not; strided pow once took
    # libm's scalar pow, 1 ULP from what the same values gave contiguous)
    gathered = ""
    if t.name in ("float32", "float64") and (op.simd or op.name in VECMATH2):
        vm2 = ""
        if op.name in VECMATH2:
            vm2 = (f"      if (ma_vecmath2_{t.name}(MA_VM2_{op.name.upper()}, d + i, xa, 1, xb, 1, m, "
                   "MA_EW_EXACT(aux))) continue;\n")
        # One operand contiguous, the other strided (A.T + B: A.T's inner
        # stride is one element, B's a row): both are read in place.
        # Gathering the strided one into a buffer first cost a store and a
        # load per element, more than the vector arithmetic saved (A.T + B
        # of 1000^2 doubles, one thread: 2.3 ms, 1.3 ms in place; AMD Zen
        # 4).  Every other element (x[::2]) beside a contiguous operand still
        # gathers: GATHER loads it with vector shuffles.  Both operands
        # every other element (x[::2] + y[::2]) are read in place in one
        # pass, which the compiler vectorises with the same shuffles: the
        # two gathers and the pass over their buffers kept two threads at
        # one thread's speed (10^6 doubles: 0.81-1.08 ms, PyTorch 0.57-0.69;
        # in place 0.69-0.84 ms).  Operations with vector math must gather,
        # to give the bits contiguous data gets.
        direct = ""
        if not vm2:
            size = f"(int64_t)sizeof({src})"

            def one_strided(k: int, o_k: int) -> str:
                """Operand k (1: a, 2: b) strided, operand o_k contiguous."""
                pk = "p" + "ab"[k - 1]
                args = [ld.format("a[i]"), ld.format("b[i]")]
                args[k - 1] = ld.format(f"*(const {src} *){pk}")
                return f"""    if (st[{o_k}] == {size} && st[{k}] != 0 && st[{k}] != 2 * {size}) {{
      const char *{pk} = p[{k}];
      for (int64_t i = 0; i < n; i++, {pk} += st[{k}]) d[i] = {store(sub(expr, *args))};
      return;
    }}
"""
            # both operands every other element
            both = f"""    if (st[1] == 2 * {size} && st[2] == 2 * {size}) {{
      for (int64_t i = 0; i < n; i++) d[i] = {store(sub(expr, ld.format("a[2 * i]"), ld.format("b[2 * i]")))};
      return;
    }}
"""
            direct = one_strided(2, 1) + one_strided(1, 2) + both
        gathered = f"""    {src} ba[256], bb[256];
    for (int64_t i = 0; i < n; i += 256) {{
      int64_t m = n - i < 256 ? n - i : 256;
      const {src} *xa = a + i, *xb = b + i;
      if (st[1] != (int64_t)sizeof({src})) {{
        GATHER({src}, ba, p[1] + i * st[1], st[1], m);
        xa = ba;
      }}
      if (st[2] != (int64_t)sizeof({src})) {{
        GATHER({src}, bb, p[2] + i * st[2], st[2], m);
        xb = bb;
      }}
{vm2}      for (int64_t k = 0; k < m; k++) d[i + k] = {store(sub(expr, ld.format("xa[k]"), ld.format("xb[k]")))};
    }}
    return;
"""
        if op.name == "pow":
            # a scalar exponent keeps the scalar loop: contiguous data takes
            # the exact shortcuts (x * x, sqrt) before vector math
            gathered = "    if (st[2] != 0) {\n" + textwrap.indent(gathered, "  ") + "    }\n"
        gathered = direct + gathered
    return f"""
{attr}static void {fname}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  {o.ctype} *restrict d = ({o.ctype} *)p[0];
  const {src} *restrict a = (const {src} *)p[1];
  const {src} *restrict b = (const {src} *)p[2];
  if (st[0] == (int64_t)sizeof({o.ctype})) {{
    if (st[1] == (int64_t)sizeof({src}) && st[2] == (int64_t)sizeof({src})) {{
{vec["cc"]}      for (int64_t i = 0; i < n; i++) d[i] = {store(sub(expr, la, lb))};
      return;
    }}
    if (st[1] == (int64_t)sizeof({src}) && st[2] == 0) {{
      const {vt} y = {ld.format("b[0]")};
{square}{vec["cs"]}      for (int64_t i = 0; i < n; i++) d[i] = {store(sub(expr, la, "y"))};
      return;
    }}
    if (st[1] == 0 && st[2] == (int64_t)sizeof({src})) {{
      const {vt} x = {ld.format("a[0]")};
{vec["sc"]}      for (int64_t i = 0; i < n; i++) d[i] = {store(sub(expr, "x", lb))};
      return;
    }}
{gathered}  }}
  char *pd = p[0];
  const char *pa = p[1], *pb = p[2];
  for (int64_t i = 0; i < n; i++, pd += st[0], pa += st[1], pb += st[2])
    *({o.ctype} *)pd = {store(sub(expr, ld.format(f"*(const {src} *)pa"), ld.format(f"*(const {src} *)pb")))};
}}
"""


def _where_loop(t: CType) -> str:
    c = t.ctype
    return f"""
static void ew_where_{t.name}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  if (st[0] == (int64_t)sizeof({c}) && st[1] == 1 && st[2] == (int64_t)sizeof({c}) &&
      st[3] == (int64_t)sizeof({c})) {{
    {c} *restrict d = ({c} *)p[0];
    const uint8_t *restrict m = (const uint8_t *)p[1];
    const {c} *restrict a = (const {c} *)p[2], *restrict b = (const {c} *)p[3];
    for (int64_t i = 0; i < n; i++) d[i] = m[i] ? a[i] : b[i];
    return;
  }}
  char *pd = p[0];
  const char *pm = p[1], *pa = p[2], *pb = p[3];
  for (int64_t i = 0; i < n; i++, pd += st[0], pm += st[1], pa += st[2], pb += st[3])
    *({c} *)pd = *pm ? *(const {c} *)pa : *(const {c} *)pb;
}}
"""


# int64 and uint64 promote to float64, which would compare 2**63 - 1 and
# 2**63 as equal; comparisons between them get exact loops instead (as NumPy
# 2), selected by the loop types MIXED_INT_U (int64 op uint64) and
# MIXED_U_INT (uint64 op int64), numbered after the element types.
MIXED_INT_U, MIXED_U_INT = len(TYPES), len(TYPES) + 1
_MIXED = {  # x: int64, y: uint64
    "equal": "{x} >= 0 && (uint64_t){x} == {y}",
    "not_equal": "{x} < 0 || (uint64_t){x} != {y}",
    "less": "{x} < 0 || (uint64_t){x} < {y}",
    "less_equal": "{x} < 0 || (uint64_t){x} <= {y}",
    "greater": "{x} >= 0 && (uint64_t){x} > {y}",
    "greater_equal": "{x} >= 0 && (uint64_t){x} >= {y}",
}
_SWAPPED = {"equal": "equal", "not_equal": "not_equal", "less": "greater", "less_equal": "greater_equal",
            "greater": "less", "greater_equal": "less_equal"}


def _mixed_loop(name: str, signed_first: bool) -> str:
    a, b = ("int64_t", "uint64_t") if signed_first else ("uint64_t", "int64_t")
    expr = _MIXED[name if signed_first else _SWAPPED[name]]
    expr = expr.replace("{x}", "x" if signed_first else "y").replace("{y}", "y" if signed_first else "x")
    fname = f"ew_{name}_{'i64_u64' if signed_first else 'u64_i64'}"
    return f"""
static void {fname}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  char *pd = p[0];
  const char *pa = p[1], *pb = p[2];
  for (int64_t i = 0; i < n; i++, pd += st[0], pa += st[1], pb += st[2]) {{
    {a} x = *(const {a} *)pa;
    {b} y = *(const {b} *)pb;
    *(uint8_t *)pd = (uint8_t)({expr});
  }}
}}
"""


# ---- dispatch: which loop runs for which operands ------------------------------
#
# Resolved here, at build time, for every combination of operand keys (an
# array's dtype, or a Python scalar's kind), into tables csrc/py/elementwise_dispatch.c
# indexes: the one place loop selection is decided.  The promotion rules
# come from minarray/_dtypes.py, the one statement of them, loaded as a plain
# module (it needs nothing compiled).


def _load_dtypes() -> Any:
    """minarray/_dtypes.py, whose table comes from the compiled core
    (minarray._native): that does not exist yet, so while the module loads
    a stand-in hands it the rows of the same dtypes.def the core is built
    from."""
    path = Path(__file__).resolve().parents[3] / "minarray" / "_dtypes.py"
    spec = importlib.util.spec_from_file_location("_minarray_dtypes_at_build", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    native = types.ModuleType("minarray._native")
    native.core = types.SimpleNamespace(dtype_table=table_rows)  # type: ignore[attr-defined]
    saved = sys.modules.get(native.__name__)
    sys.modules[native.__name__] = native
    try:
        spec.loader.exec_module(mod)
    finally:
        if saved is None:
            del sys.modules[native.__name__]
        else:
            sys.modules[native.__name__] = saved
    return mod


DT = _load_dtypes()
assert [d.name for d in DT.KERNEL] == [t.name for t in TYPES], "_dtypes.KERNEL must follow the ma_type order"
# Operand keys: the element types in ma_type order, then the Python scalar
# kinds (weak scalars: NEP 50 and the standard's "mixing arrays with Python
# scalars"), numbered as MA_EW_KEY_* in elementwise.h.
SCALARS: list[type] = [bool, int, float, complex]
KEYS: list[Any] = list(DT.KERNEL) + SCALARS
_WEAK: dict[type, Any] = {bool: True, int: 0, float: 0.0, complex: 0j}
# The order NumPy tries loops in when the operands' dtype has none of its own:
# by kind (bool, integers, floats, complex), then width, signed before
# unsigned (bfloat16 after float16, as the table has them).
_ORDER = sorted(TYPES, key=lambda t: ({"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}[t.kind], _WIDTH[t.name],
                                     t.kind == "u"))
NO_LOOP, NO_BOOL = -1, -2  # table entries that are not loops (MA_EW_NO_LOOP, MA_EW_NO_BOOL)
_COMPARE = {"equal": 1, "not_equal": 2, "less": 3, "less_equal": 4, "greater": 5, "greater_equal": 6}


def _tid(d: Any) -> int:
    return [t.name for t in TYPES].index(d.name)


def _promoted(keys: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """The common dtype of operand keys, and the dtypes every operand must
    cast to a loop's type safely: arrays' own, weak scalars' as NEP 50 (the
    array dtype within its kind); without arrays (where's values), the
    scalars' default dtypes."""
    dts = [k for k in keys if isinstance(k, DT.DType)]
    if not dts:
        dts = [DT.as_dtype(k) for k in keys]
        return DT.result_type(*dts), dts
    common = dts[0]
    for d in dts[1:]:
        common = DT.promote(common, d)
    weak = [DT.scalar_dtype(_WEAK[k], common) for k in keys if not isinstance(k, DT.DType)]
    for d in weak:
        common = DT.promote(common, d)
    return common, dts + weak


def _resolve(op: Op, loops: dict[int, int], keys: tuple[Any, ...]) -> int:
    """The loop type (a key of `loops`) for operand keys, NO_LOOP or NO_BOOL."""
    common, dts = _promoted(keys)
    ct = _tid(common)
    if op.name in _COMPARE and keys in ((DT.int64, DT.uint64), (DT.uint64, DT.int64)):
        # exact int64/uint64 comparison loops instead of float64 (NumPy 2)
        return MIXED_INT_U if keys[0] is DT.int64 else MIXED_U_INT
    if set(op.t) == {"b"}:
        return _tid(DT.bool)  # logical_*: any dtype is read as truth values
    if op.int_loop and common.kind in "biu":
        return _tid(getattr(DT, op.int_loop))
    if ct in loops:
        return ct
    if common is DT.bool and op.no_bool:
        return NO_BOOL
    # NumPy's rule: the first loop every operand casts to safely (so
    # atan2(int8, uint8) is float16, though int8 and uint8 promote to int16)
    order = _ORDER[9:] + _ORDER[:9] if op.floats_first else _ORDER
    for t in order:
        lt = TYPES.index(t)
        if lt in loops and all(DT.promote(d, DT.KERNEL[lt]) is DT.KERNEL[lt] for d in dts):
            return lt
    return NO_LOOP


def _resolve_table(name: str, op: Op | None, nin: int, loop_types: list[int]) -> str:
    """C array: the signature index per operand keys ([k1] for unary
    operations, [k1 * MA_EW_NKEYS + k2] for binary ones and where's values),
    NO_LOOP or NO_BOOL; two Python scalars together get NO_LOOP except as
    where's values."""
    loops = {t: i for i, t in enumerate(loop_types)}
    rule = op or Op(name, nin, {k: "" for k in "biufc"})
    cells = []
    combos = [(k,) for k in DT.KERNEL] if nin == 1 else [(a, b) for a in KEYS for b in KEYS]
    for keys in combos:
        if name != "where" and not any(isinstance(k, DT.DType) for k in keys):
            cells.append(NO_LOOP)
            continue
        lt = _resolve(rule, loops, keys)
        cells.append(loops[lt] if lt >= 0 else lt)
    rows = [", ".join(str(c) for c in cells[i:i + len(KEYS)]) for i in range(0, len(cells), len(KEYS))]
    return f"static const int8_t resolve_{name}[] = {{\n  " + ",\n  ".join(rows) + "\n};"


def _common_table() -> str:
    """ma_ew_common: the dtype two operand keys promote to (error messages
    name it); -1 for two Python scalars."""
    rows = []
    for a in KEYS:
        row = []
        for b in KEYS:
            row.append(-1 if not (isinstance(a, DT.DType) or isinstance(b, DT.DType))
                       else _tid(_promoted((a, b))[0]))
        rows.append("{" + ", ".join(map(str, row)) + "}")
    return "const int8_t ma_ew_common[MA_EW_NKEYS][MA_EW_NKEYS] = {\n  " + ",\n  ".join(rows) + "\n};"


def _same_kind_table() -> str:
    """ma_same_kind[from][to]: NumPy's casting="same_kind" (out= and the
    in-place operators)."""
    rows = ["{" + ", ".join(str(int(DT.same_kind(a, b))) for b in DT.KERNEL) + "}" for a in DT.KERNEL]
    return "const uint8_t ma_same_kind[MA_NTYPES][MA_NTYPES] = {\n  " + ",\n  ".join(rows) + "\n};"


def source() -> str:
    out = [
        "/* Generated by csrc/core/gen/gen_elementwise.py: elementwise loops and ma_ew_ops. */",
        '#include "ew_math.h"',
        '#include "elementwise.h"',
        "/* buf[0..m) = the m elements of type T from `src` `stride` bytes apart.",
        " * Every other element (x[::2], the real parts of complex data) gets a",
        " * loop of constant stride, which the compiler vectorises with shuffles;",
        " * other strides load one element at a time. */",
        "#define GATHER(T, buf, src, stride, m)                                 \\",
        "  do {                                                                 \\",
        "    if ((stride) == 2 * (int64_t)sizeof(T)) {                          \\",
        "      const T *restrict s2_ = (const T *)(src);                        \\",
        "      for (int64_t k_ = 0; k_ < (m); k_++) (buf)[k_] = s2_[2 * k_];    \\",
        "    } else {                                                           \\",
        "      for (int64_t k_ = 0; k_ < (m); k_++)                             \\",
        "        (buf)[k_] = *(const T *)((src) + k_ * (stride));               \\",
        "    }                                                                  \\",
        "  } while (0)",
    ]
    entries = []
    for op in OPS:
        sigs = []
        loop_types: list[int] = []
        for t in TYPES:
            expr = _template(op, t)
            if expr is None:
                continue
            out.append(_loop(op, t, expr))
            o = _out_type(op, t)
            ins = ", ".join([t.enum] * op.nin)
            sigs.append(f"{{ew_{op.name}_{t.name}, {t.enum}, {o.enum}, {{{ins}}}}}")
            loop_types.append(TYPES.index(t))
        if op.name in _MIXED:
            for signed_first, code, ins in ((True, MIXED_INT_U, "MA_INT64, MA_UINT64"),
                                            (False, MIXED_U_INT, "MA_UINT64, MA_INT64")):
                out.append(_mixed_loop(op.name, signed_first))
                suffix = "i64_u64" if signed_first else "u64_i64"
                sigs.append(f"{{ew_{op.name}_{suffix}, {code}, MA_BOOL, {{{ins}}}}}")
                loop_types.append(code)
        entries.append((op.name, op.nin, sigs, _resolve_table(op.name, op, op.nin, loop_types), op))
    where_sigs = []
    for t in TYPES:
        out.append(_where_loop(t))
        where_sigs.append(f"{{ew_where_{t.name}, {t.enum}, {t.enum}, {{MA_BOOL, {t.enum}, {t.enum}}}}}")
    where_types = list(range(len(TYPES)))
    entries.append(("where", 3, where_sigs, _resolve_table("where", None, 3, where_types), None))
    for name, _nin, sigs, table, _op in entries:
        out.append(f"static const ma_ew_sig sigs_{name}[] = {{\n  " + ",\n  ".join(sigs) + "\n};")
        out.append(table)
    out.append(_common_table())
    out.append(_same_kind_table())
    out.append("const ma_ew_op ma_ew_ops[] = {")
    for name, nin, sigs, _table, op in entries:
        heavy = int(name in HEAVY)
        no_bool = f'"{op.no_bool}"' if op and op.no_bool else "NULL"
        compare = _COMPARE.get(name, 0)
        # where only moves values: nothing to report
        fpe = "0" if op is None else "MA_FPE_ALL" if op.reports_invalid else "MA_FPE_ALL & ~MA_FPE_INVALID"
        out.append(f'  {{"{name}", {nin}, {len(sigs)}, sigs_{name}, {heavy}, resolve_{name}, {no_bool}, '
                   f'{compare}, {fpe}}},')
    out.append("};")
    out.append(f"const int ma_ew_nops = {len(entries)};")
    return "\n".join(out)


if __name__ == "__main__":
    print(source())
