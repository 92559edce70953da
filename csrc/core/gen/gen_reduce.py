"""Reduction, scan and arg-reduction kernels for every dtype (see reduce.h).

Each reduction is three small functions per (operation, input dtype):
`init` fills an accumulator array with the identity, `inner` folds one
strided run into a single accumulator, `outer` folds a run elementwise into
a run of accumulators (the "reduce along a non-contiguous axis" case, which
vectorises across the kept axis).  csrc/core/reduce.c drives them over any set of
axes.

Floating sums use NumPy's pairwise scheme (8 accumulators over blocks of
128, halved recursively above that): the rounding error grows like
O(log n) instead of O(n), and the order of additions is NumPy's, so a
contiguous float sum gives NumPy's bits.
"""

from __future__ import annotations

from codegen import TYPES, CType

# Accumulator C types and the ma_type of the array holding them.
_ACC_ENUM = {
    "uint64_t": None,  # int64 or uint64: decided by the input kind
    "double": "MA_FLOAT64",
    "float": "MA_FLOAT32",
    "ma_c64": "MA_COMPLEX64",
    "ma_c128": "MA_COMPLEX128",
    "uint8_t": "MA_BOOL",
}

OPS = ["SUM", "FSUM", "PROD", "MIN", "MAX", "ALL", "ANY", "COUNT", "SSD"]


def _float_acc(t: CType) -> str:
    """The accumulator of a floating sum of `t` (NumPy: half sums in float)."""
    if t.kind == "c":
        return t.ctype
    if t.kind == "f":
        return "double" if t.name == "float64" else "float"
    return "double"


def acc_type(op: str, t: CType) -> tuple[str, str] | None:
    """(C type, ma_type enumerator) of the accumulator, or None when the
    operation does not apply to `t`."""
    if op in ("SUM", "PROD"):
        if t.kind in "bi":
            return "uint64_t", "MA_INT64"  # wrapping arithmetic, stored as int64
        if t.kind == "u":
            return "uint64_t", "MA_UINT64"
        c = _float_acc(t)
        return c, _ACC_ENUM[c] or ""
    if op == "FSUM":
        c = _float_acc(t)
        return c, _ACC_ENUM[c] or ""
    if op == "SSD":
        if t.kind == "c":
            return None
        c = _float_acc(t)
        return c, _ACC_ENUM[c] or ""
    if op in ("MIN", "MAX"):
        if t.kind == "c":
            return None
        if t.name in ("float16", "bfloat16"):
            return "float", "MA_FLOAT32"
        return t.ctype, t.enum
    if op in ("ALL", "ANY"):
        return "uint8_t", "MA_BOOL"
    if op == "COUNT":
        return "uint64_t", "MA_INT64"
    raise ValueError(op)


def _truth(t: CType, x: str) -> str:
    if t.kind == "c":
        return f"(creal({x}) != 0 || cimag({x}) != 0)"
    return f"({t.load.format(x)} != 0)"


def _term(op: str, t: CType, acc: str, x: str) -> str:
    """The value an element contributes, in the accumulator type."""
    v = t.load.format(x)
    if op in ("SUM", "PROD") and acc == "uint64_t":
        return f"(uint64_t)(int64_t)({v})" if t.kind != "u" else f"(uint64_t)({v})"
    if op == "SSD":
        return f"(({acc})({v}) - m) * (({acc})({v}) - m)"
    return f"({acc})({v})"


def _identity(op: str, t: CType, acc: str) -> str:
    if op in ("SUM", "FSUM", "SSD", "COUNT", "ANY"):
        return "0"
    if op in ("PROD", "ALL"):
        return "1"
    big = {"int8": "INT8_MAX", "int16": "INT16_MAX", "int32": "INT32_MAX", "int64": "INT64_MAX",
           "uint8": "UINT8_MAX", "uint16": "UINT16_MAX", "uint32": "UINT32_MAX", "uint64": "UINT64_MAX",
           "bool": "1"}
    small = {"int8": "INT8_MIN", "int16": "INT16_MIN", "int32": "INT32_MIN", "int64": "INT64_MIN",
             "bool": "0"}
    if t.kind == "f":
        return "INFINITY" if op == "MIN" else "-INFINITY"
    if op == "MIN":
        return big[t.name]
    return small.get(t.name, "0")


def _pairwise(name: str, op: str, t: CType, acc: str, contig: bool) -> str:
    """NumPy's pairwise sum of TERM(a[i]) (loops_utils.h.src)."""
    s = "1" if contig else "s"
    sig = f"const {t.ctype} *restrict a, int64_t n, int64_t s, {acc} m"
    term = lambda idx: _term(op, t, acc, f"a[({idx}) * {s}]")  # noqa: E731
    return f"""
static {acc} {name}({sig}) {{
  (void)s; (void)m;
  if (n < 8) {{
    {acc} res = 0;
    for (int64_t i = 0; i < n; i++) res += {term("i")};
    return res;
  }}
  if (n <= 128) {{
    {acc} r[8];
    for (int j = 0; j < 8; j++) r[j] = {term("j")};
    int64_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; j++) r[j] += {term("i + j")};
    {acc} res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += {term("i")};
    return res;
  }}
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return {name}(a, n2, s, m) + {name}(a + n2 * {s}, n - n2, s, m);
}}
"""


# Contiguous sums with SIMD leaf kernels (csrc/core/pairwise.c): the same
# order of additions as _pairwise, so the same bits.
_SIMD_SUMS = {"float32": "ma_pairwise_sum_f32", "float64": "ma_pairwise_sum_f64"}


def _simd_pairwise(name: str, t: CType, acc: str) -> str:
    """The contiguous pairwise sum of a float32/float64 run, handed to
    pairwise.c's kernels (picked for the CPU at run time)."""
    return f"""
static {acc} {name}(const {t.ctype} *restrict a, int64_t n, int64_t s, {acc} m) {{
  (void)s; (void)m;
  return {_SIMD_SUMS[t.name]}(a, n);
}}
"""


def _complex_pairwise(name: str, t: CType, contig: bool) -> str:
    """Pairwise sum of complex values, real and imaginary parts in separate
    accumulators so the compiler vectorises it like the real case."""
    real = "float" if t.name == "complex64" else "double"
    s = "1" if contig else "s"
    return f"""
MA_HOT static {t.ctype} {name}(const {t.ctype} *restrict a, int64_t n, int64_t s, {t.ctype} m) {{
  (void)s; (void)m;
  const {real} *f = (const {real} *)a;
  if (n < 4) {{
    {real} re = 0, im = 0;
    for (int64_t i = 0; i < n; i++) {{ re += f[2 * i * {s}]; im += f[2 * i * {s} + 1]; }}
    return CMPLX{"F" if real == "float" else ""}(re, im);
  }}
  if (n <= 64) {{
    {real} r[8];
    for (int j = 0; j < 4; j++) {{ r[2 * j] = f[2 * j * {s}]; r[2 * j + 1] = f[2 * j * {s} + 1]; }}
    int64_t i;
    for (i = 4; i < n - (n % 4); i += 4)
      for (int j = 0; j < 4; j++) {{
        r[2 * j] += f[2 * (i + j) * {s}];
        r[2 * j + 1] += f[2 * (i + j) * {s} + 1];
      }}
    {real} re = (r[0] + r[2]) + (r[4] + r[6]), im = (r[1] + r[3]) + (r[5] + r[7]);
    for (; i < n; i++) {{ re += f[2 * i * {s}]; im += f[2 * i * {s} + 1]; }}
    return CMPLX{"F" if real == "float" else ""}(re, im);
  }}
  int64_t n2 = n / 2;
  n2 -= n2 % 4;
  return {name}(a, n2, s, m) + {name}(a + n2 * {s}, n - n2, s, m);
}}
"""


def _minmax_run(name: str, op: str, t: CType, acc: str, contig: bool) -> str:
    """Min or max of a run; for floats the compare-select vectorises and a
    separate flag remembers whether a NaN was seen (NaN propagates)."""
    s = "1" if contig else "s"
    cmp = "<" if op == "MIN" else ">"
    v = lambda idx: f"({acc})({t.load.format(f'a[({idx}) * {s}]')})"  # noqa: E731
    if t.kind != "f":
        return f"""
MA_HOT static {acc} {name}(const {t.ctype} *restrict a, int64_t n, int64_t s, {acc} r) {{
  (void)s;
  for (int64_t i = 0; i < n; i++) {{ {acc} x = {v("i")}; r = x {cmp} r ? x : r; }}
  return r;
}}
"""
    return f"""
MA_HOT static {acc} {name}(const {t.ctype} *restrict a, int64_t n, int64_t s, {acc} init) {{
  (void)s;
  {acc} r[8];
  int nan[8];
  for (int j = 0; j < 8; j++) {{ r[j] = init; nan[j] = 0; }}
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; j++) {{
      {acc} x = {v("i + j")};
      r[j] = x {cmp} r[j] ? x : r[j];
      nan[j] |= x != x;
    }}
  {acc} res = init;
  int anynan = init != init;
  for (int j = 0; j < 8; j++) {{ res = r[j] {cmp} res ? r[j] : res; anynan |= nan[j]; }}
  for (; i < n; i++) {{ {acc} x = {v("i")}; res = x {cmp} res ? x : res; anynan |= x != x; }}
  return anynan ? NAN : res;
}}
"""


def _fold(op: str, t: CType, acc: str, var: str, elem: str) -> str:
    """A C statement folding element `elem` (storage lvalue) into the
    accumulator variable `var` (`m` holds the mean for SSD)."""
    if op in ("SUM", "FSUM", "SSD"):
        return f"{var} += {_term(op, t, acc, elem)};"
    if op == "PROD":
        return f"{var} *= {_term(op, t, acc, elem)};"
    if op in ("MIN", "MAX"):
        cmp = "<" if op == "MIN" else ">"
        nan = " || x != x" if t.kind == "f" else ""
        return f"{{ {acc} x = ({acc})({t.load.format(elem)}); {var} = (x {cmp} {var}{nan}) ? x : {var}; }}"
    if op == "ALL":
        return f"{var} &= {_truth(t, elem)};"
    if op in ("ANY",):
        return f"{var} |= {_truth(t, elem)};"
    if op == "COUNT":
        return f"{var} += {_truth(t, elem)};"
    raise ValueError(op)


def _outer(base: str, op: str, t: CType, acc: str) -> str:
    """Fold `nrows` runs (row stride rs) elementwise into the accumulators.
    Four rows go through each accumulator per trip in the contiguous case:
    the same order of operations as one row at a time, a quarter of the
    accumulator traffic."""
    mdecl = f"const {acc} *e = (const {acc} *)extra;" if op == "SSD" else "(void)extra;"
    mc = f"{acc} m = e[i];" if op == "SSD" else ""
    ms = f"{acc} m = e[i * as];" if op == "SSD" else ""
    f4 = " ".join(_fold(op, t, acc, "v", f"a{k}[i]") for k in range(4))
    return f"""
MA_HOT static void {base}_outer(const void *p, int64_t n, int64_t s, int64_t rs, int64_t nrows, void *acc,
                                int64_t as, const void *extra) {{
  const {t.ctype} *a = (const {t.ctype} *)p;
  {acc} *restrict o = ({acc} *)acc;
  {mdecl}
  int64_t r = 0;
  if (s == 1 && as == 1) {{
    for (; r + 4 <= nrows; r += 4) {{
      const {t.ctype} *a0 = a + r * rs, *a1 = a0 + rs, *a2 = a1 + rs, *a3 = a2 + rs;
      for (int64_t i = 0; i < n; i++) {{ {mc} {acc} v = o[i]; {f4} o[i] = v; }}
    }}
    for (; r < nrows; r++) {{
      const {t.ctype} *a0 = a + r * rs;
      for (int64_t i = 0; i < n; i++) {{ {mc} {acc} v = o[i]; {_fold(op, t, acc, "v", "a0[i]")} o[i] = v; }}
    }}
    return;
  }}
  for (; r < nrows; r++) {{
    const {t.ctype} *a0 = a + r * rs;
    for (int64_t i = 0; i < n; i++) {{ {ms} {acc} v = o[i * as]; {_fold(op, t, acc, "v", "a0[i * s]")} o[i * as] = v; }}
  }}
}}
"""


_EXTREMA = {("MAX", "float64"): "ma_max_f64", ("MIN", "float64"): "ma_min_f64",
            ("MAX", "float32"): "ma_max_f32", ("MIN", "float32"): "ma_min_f32"}


def _vector_minmax(name: str, op: str, t: CType) -> str:
    """Min/max of a contiguous float32/float64 run, handed to extrema.c's
    kernels (MAXPD/MINPD where the CPU has AVX2, picked at run time)."""
    return f"""
static {t.ctype} {name}(const {t.ctype} *restrict a, int64_t n, int64_t s, {t.ctype} init) {{
  (void)s;
  return {_EXTREMA[(op, t.name)]}(a, n, init);
}}
"""


def _kernels(op: str, t: CType) -> str | None:
    at = acc_type(op, t)
    if at is None:
        return None
    acc, _ = at
    base = f"red_{op.lower()}_{t.name}"
    out = []
    ident = _identity(op, t, acc)
    out.append(f"""
static void {base}_init(void *acc, int64_t n) {{
  {acc} *o = ({acc} *)acc;
  for (int64_t i = 0; i < n; i++) o[i] = ({acc})({ident});
}}
""")
    a = f"const {t.ctype} *a = (const {t.ctype} *)p;"
    floating_sum = op in ("SUM", "FSUM", "SSD") and acc != "uint64_t"
    if floating_sum:
        if t.kind == "c":
            out.append(_complex_pairwise(f"{base}_pw_c", t, True))
            out.append(_complex_pairwise(f"{base}_pw_s", t, False))
        else:
            if op in ("SUM", "FSUM") and t.name in _SIMD_SUMS:
                out.append(_simd_pairwise(f"{base}_pw_c", t, acc))
            else:
                out.append(_pairwise(f"{base}_pw_c", op, t, acc, True))
            out.append(_pairwise(f"{base}_pw_s", op, t, acc, False))
        m = f"*(const {acc} *)extra" if op == "SSD" else "0"
        inner_body = f"""  {acc} m = {m};
  *({acc} *)acc += s == 1 ? {base}_pw_c(a, n, 1, m) : {base}_pw_s(a, n, s, m);"""
    elif op in ("SUM", "PROD"):
        sym = "+" if op == "SUM" else "*"
        inner_body = f"""  {acc} r = *({acc} *)acc;
  if (s == 1) for (int64_t i = 0; i < n; i++) r {sym}= {_term(op, t, acc, "a[i]")};
  else for (int64_t i = 0; i < n; i++) r {sym}= {_term(op, t, acc, "a[i * s]")};
  *({acc} *)acc = r;"""
    elif op in ("MIN", "MAX"):
        if t.name in ("float32", "float64"):
            out.append(_vector_minmax(f"{base}_run_c", op, t))
        else:
            out.append(_minmax_run(f"{base}_run_c", op, t, acc, True))
        out.append(_minmax_run(f"{base}_run_s", op, t, acc, False))
        cmp = "<" if op == "MIN" else ">"
        nanck = " || r != r" if t.kind == "f" else ""
        inner_body = f"""  {acc} cur = *({acc} *)acc;
  {acc} r = s == 1 ? {base}_run_c(a, n, 1, cur) : {base}_run_s(a, n, s, cur);
  if (r {cmp} cur{nanck}) *({acc} *)acc = r;"""
    elif op in ("ALL", "ANY"):
        # Blocks of 256 folded branch-free (vectorised), stopping at the
        # first block that decides the answer.
        want = "0" if op == "ALL" else "1"
        fold = "&=" if op == "ALL" else "|="
        inner_body = f"""  if (*(uint8_t *)acc == {want}) return;
  for (int64_t b = 0; b < n; b += 256) {{
    int64_t e = n - b < 256 ? n : b + 256;
    uint8_t r = {1 - int(want)};
    if (s == 1) for (int64_t i = b; i < e; i++) r {fold} {_truth(t, "a[i]")};
    else for (int64_t i = b; i < e; i++) r {fold} {_truth(t, "a[i * s]")};
    if (r == {want}) {{ *(uint8_t *)acc = {want}; return; }}
  }}"""
    elif op == "COUNT":
        inner_body = f"""  uint64_t r = 0;
  if (s == 1) for (int64_t i = 0; i < n; i++) r += {_truth(t, "a[i]")};
  else for (int64_t i = 0; i < n; i++) r += {_truth(t, "a[i * s]")};
  *(uint64_t *)acc += r;"""
    else:
        raise ValueError(op)
    out.append(f"""
MA_HOT static void {base}_inner(const void *p, int64_t n, int64_t s, void *acc, const void *extra) {{
  (void)extra;
  {a}
{inner_body}
}}
""")
    out.append(_outer(base, op, t, acc))
    return "".join(out)


def _arg(op: str, t: CType) -> str | None:
    """Index of the first minimum/maximum (NaN counts as the extreme, NumPy):
    a vectorised min/max pass, then a search for its first occurrence."""
    at = acc_type(op, t)
    if at is None:
        return None
    acc, _ = at
    base = f"red_{op.lower()}_{t.name}"
    ident = _identity(op, t, acc)
    v = lambda i: f"({acc})({t.load.format(f'a[{i}]')})"  # noqa: E731
    # The search scans blocks of 32 with a branch-free test the compiler
    # vectorises, then finds the hit inside the block.
    if t.kind == "f":
        find = f"""  if (m != m) {{
    for (; i + 32 <= n; i += 32) {{
      int hit = 0;
      for (int j = 0; j < 32; j++) {{ {acc} x = {v("i + j")}; hit |= x != x; }}
      if (hit) break;
    }}
    for (; i < n; i++) {{ {acc} x = {v("i")}; if (x != x) return i; }}
    return 0;
  }}
"""
    else:
        find = ""
    return f"""
MA_HOT static int64_t arg{op.lower()}_{t.name}(const void *p, int64_t n, int64_t s) {{
  const {t.ctype} *a = (const {t.ctype} *)p;
  {acc} m = s == 1 ? {base}_run_c(a, n, 1, ({acc})({ident})) : {base}_run_s(a, n, s, ({acc})({ident}));
  if (s != 1) {{
    for (int64_t i = 0; i < n; i++) {{
      {acc} x = {v("i * s")};
      if (x == m{" || (m != m && x != x)" if t.kind == "f" else ""}) return i;
    }}
    return 0;
  }}
  int64_t i = 0;
{find}  for (; i + 32 <= n; i += 32) {{
    int hit = 0;
    for (int j = 0; j < 32; j++) {{ {acc} x = {v("i + j")}; hit |= x == m; }}
    if (hit) break;
  }}
  for (; i < n; i++) {{ {acc} x = {v("i")}; if (x == m) return i; }}
  return 0;
}}
"""


def _scan(op: str, t: CType) -> str:
    """Cumulative sum/product along a run.  The running value is kept in the
    result type and rounded to it after every step, as NumPy's accumulate."""
    at = acc_type("SUM", t)
    assert at is not None
    racc, _ = at
    # Result storage: integers widen to 64 bits; floats keep their type.
    if racc == "uint64_t":
        rtype, load, store = "uint64_t", "{}", "{}"
        term = _term("SUM", t, racc, "a[i * s]")
        vt = "uint64_t"
    else:
        rtype, load, store = t.ctype, t.load, t.store
        vt = t.vtype
        term = f"({vt})({t.load.format('a[i * s]')})"
    sym = "+" if op == "SUM" else "*"
    ident = "0" if op == "SUM" else "1"
    step_term = term
    return f"""
MA_HOT static void scanstep_{op.lower()}_{t.name}(const void *p, int64_t n, int64_t s, const void *prev, int64_t ps,
                                  void *out, int64_t os) {{
  const {t.ctype} *a = (const {t.ctype} *)p;
  const {rtype} *q = (const {rtype} *)prev;
  {rtype} *restrict o = ({rtype} *)out;
  if (!a) {{
    for (int64_t i = 0; i < n; i++) o[i * os] = {store.format(f"({vt})({ident})")};
    return;
  }}
  if (!q) {{
    for (int64_t i = 0; i < n; i++) {{
      {vt} r = ({vt})({ident});
      r = r {sym} {step_term};
      o[i * os] = {store.format("r")};
    }}
    return;
  }}
  if (s == 1 && ps == 1 && os == 1) {{
    for (int64_t i = 0; i < n; i++) {{
      {vt} r = {load.format("q[i]")}; r = r {sym} {step_term.replace("a[i * s]", "a[i]")}; o[i] = {store.format("r")};
    }}
    return;
  }}
  for (int64_t i = 0; i < n; i++) {{
    {vt} r = {load.format("q[i * ps]")};
    r = r {sym} {step_term};
    o[i * os] = {store.format("r")};
  }}
}}

static void scan_{op.lower()}_{t.name}(const void *p, int64_t n, int64_t s, void *out, int64_t os, int incl) {{
  const {t.ctype} *a = (const {t.ctype} *)p;
  {rtype} *o = ({rtype} *)out;
  {vt} r = ({vt})({ident});
  if (incl) {{ o[0] = {store.format("r")}; o += os; }}
  for (int64_t i = 0; i < n; i++) {{
    r = r {sym} {term};
    {rtype} st = {store.format("r")};
    o[i * os] = st;
    r = {load.format("st")};
  }}
}}
"""


def _sub(t: CType) -> str:
    """out = a - b elementwise (the kernel behind diff); booleans use xor
    (NumPy's diff of booleans is not_equal)."""
    if t.kind == "b":
        expr = f"(uint8_t)({t.load.format('A')} != {t.load.format('B')})"
    elif t.kind in "iu":
        expr = f"({t.ctype})((uint64_t)A - (uint64_t)B)"
    else:
        expr = t.store.format(f"{t.load.format('A')} - {t.load.format('B')}")
    e_c = expr.replace("A", "x[i]").replace("B", "y[i]")
    e_s = expr.replace("A", f"*(const {t.ctype} *)px").replace("B", f"*(const {t.ctype} *)py")
    return f"""
static void sub_{t.name}(char **p, const int64_t *st, int64_t n, const void *aux) {{
  (void)aux;
  int64_t z = (int64_t)sizeof({t.ctype});
  if (st[0] == z && st[1] == z && st[2] == z) {{
    {t.ctype} *restrict o = ({t.ctype} *)p[0];
    const {t.ctype} *x = (const {t.ctype} *)p[1], *y = (const {t.ctype} *)p[2];
    for (int64_t i = 0; i < n; i++) o[i] = {e_c};
    return;
  }}
  char *po = p[0];
  const char *px = p[1], *py = p[2];
  for (int64_t i = 0; i < n; i++, po += st[0], px += st[1], py += st[2])
    *({t.ctype} *)po = {e_s};
}}
"""


def source() -> str:
    out = ['/* Generated by csrc/core/gen/gen_reduce.py: reduction kernels. */', '#include "reduce.h"',
           '#include "pairwise.h"', '#include "extrema.h"']
    table: list[list[str]] = []
    for op in OPS:
        row = []
        for t in TYPES:
            code = _kernels(op, t)
            if code is None:
                row.append("{NULL, NULL, NULL, -1}")
                continue
            out.append(code)
            at = acc_type(op, t)
            assert at is not None
            base = f"red_{op.lower()}_{t.name}"
            row.append(f"{{{base}_init, {base}_inner, {base}_outer, {at[1]}}}")
        table.append(row)
    out.append("const ma_red_kernel ma_red_kernels[MA_R_NOPS][MA_NTYPES] = {")
    for row in table:
        out.append("  {" + ", ".join(row) + "},")
    out.append("};")
    args = []
    for op in ("MIN", "MAX"):
        row = []
        for t in TYPES:
            code = _arg(op, t)
            if code is None:
                row.append("NULL")
            else:
                out.append(code)
                row.append(f"arg{op.lower()}_{t.name}")
        args.append(row)
    out.append("const ma_arg_kernel ma_arg_kernels[2][MA_NTYPES] = {")
    for row in args:
        out.append("  {" + ", ".join(row) + "},")
    out.append("};")
    scans = []
    for op in ("SUM", "PROD"):
        row = []
        for t in TYPES:
            out.append(_scan(op, t))
            row.append(f"scan_{op.lower()}_{t.name}")
        scans.append(row)
    out.append("const ma_scan_kernel ma_scan_kernels[2][MA_NTYPES] = {")
    for row in scans:
        out.append("  {" + ", ".join(row) + "},")
    out.append("};")
    out.append("const ma_scan_step ma_scan_steps[2][MA_NTYPES] = {")
    for row in scans:
        out.append("  {" + ", ".join(r.replace("scan_", "scanstep_") for r in row) + "},")
    out.append("};")
    for t in TYPES:
        out.append(_sub(t))
    out.append("const ma_loop ma_sub_loops[MA_NTYPES] = {" + ", ".join(f"sub_{t.name}" for t in TYPES) + "};")
    return "\n".join(out)
