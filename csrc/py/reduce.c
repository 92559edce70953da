/* The reduction driver: see reduce.h for the walks. */
#include "reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "pyapi.h"
#include "scalar.h"

/* ---- plan ---------------------------------------------------------------- */

typedef struct {
  const ma_red_kernel *k;
  int64_t isz, asz;        /* input and accumulator item sizes */
  int nk, nr;              /* kept and reduced dims of size > 1 */
  int64_t kn[MA_MAXDIMS];  /* kept sizes, in the output's C order */
  int64_t ks[MA_MAXDIMS];  /* kept input strides (elements) */
  int64_t ko[MA_MAXDIMS];  /* kept output strides (elements, C order) */
  int64_t rn[MA_MAXDIMS];  /* reduced sizes, outermost first */
  int64_t rs[MA_MAXDIMS];  /* reduced input strides (elements) */
  const char *in;
  char *out;
  const char *extra;
} red_plan;

static int64_t iabs64(int64_t x) { return x < 0 ? -x : x; }

/* Reduced dims: drop size 1, order by decreasing |stride| so the innermost
 * run is the densest, and merge dims that step through memory as one. */
static void plan_reduced(red_plan *P, const ma_array *x, int first) {
  int n = 0;
  for (int d = first; d < x->t.ndim; d++) {
    if (x->t.shape[d] == 1) continue;
    int64_t sz = x->t.shape[d], st = x->t.strides[d];
    int j = n - 1;
    while (j >= 0 && iabs64(P->rs[j]) < iabs64(st)) {
      P->rn[j + 1] = P->rn[j];
      P->rs[j + 1] = P->rs[j];
      j--;
    }
    P->rn[j + 1] = sz;
    P->rs[j + 1] = st;
    n++;
  }
  int m = 0;
  for (int i = 1; i < n; i++) {
    if (P->rs[m] == P->rs[i] * P->rn[i]) {
      P->rn[m] *= P->rn[i];
      P->rs[m] = P->rs[i];
    } else {
      m++;
      P->rn[m] = P->rn[i];
      P->rs[m] = P->rs[i];
    }
  }
  P->nr = n ? m + 1 : 0;
}

static void plan_kept(red_plan *P, const ma_array *x, int nkept) {
  int n = 0;
  for (int d = 0; d < nkept; d++) {
    if (x->t.shape[d] == 1) continue;
    P->kn[n] = x->t.shape[d];
    P->ks[n] = x->t.strides[d];
    n++;
  }
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--) {
    P->ko[d] = s;
    s *= P->kn[d];
  }
  P->nk = n;
}

/* ---- walks --------------------------------------------------------------- */

/* Fold the reduced block at `base` into one accumulator. */
static void inner_block(const red_plan *P, const char *base, char *acc, const char *ext) {
  if (P->nr == 0) {
    P->k->inner(base, 1, 1, acc, ext);
    return;
  }
  int last = P->nr - 1;
  int64_t n = P->rn[last], s = P->rs[last];
  if (last == 0) {
    P->k->inner(base, n, s, acc, ext);
    return;
  }
  int64_t idx[MA_MAXDIMS] = {0};
  const char *p = base;
  for (;;) {
    P->k->inner(p, n, s, acc, ext);
    int d = last - 1;
    for (; d >= 0; d--) {
      p += P->rs[d] * P->isz;
      if (++idx[d] < P->rn[d]) break;
      p -= P->rs[d] * P->rn[d] * P->isz;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

/* Inner walk over output elements [o0, o1). */
static void run_inner(const red_plan *P, int64_t o0, int64_t o1) {
  int64_t idx[MA_MAXDIMS];
  int64_t rem = o0;
  const char *p = P->in;
  for (int d = P->nk - 1; d >= 0; d--) {
    idx[d] = rem % P->kn[d];
    rem /= P->kn[d];
    p += idx[d] * P->ks[d] * P->isz;
  }
  for (int64_t o = o0; o < o1; o++) {
    inner_block(P, p, P->out + o * P->asz, P->extra ? P->extra + o * P->asz : NULL);
    for (int d = P->nk - 1; d >= 0; d--) {
      p += P->ks[d] * P->isz;
      if (++idx[d] < P->kn[d]) break;
      p -= P->ks[d] * P->kn[d] * P->isz;
      idx[d] = 0;
    }
  }
}

/* Outer walk: runs along kept dim j, elements [j0, j1) of it; the
 * innermost reduced dim is handed to the kernel as its rows. */
static void run_outer(const red_plan *P, int j, int64_t j0, int64_t j1) {
  int64_t kidx[MA_MAXDIMS] = {0}, ridx[MA_MAXDIMS] = {0};
  int64_t n = j1 - j0, s = P->ks[j], os = P->ko[j];
  int last = P->nr - 1;
  int64_t rows = P->rn[last], rstride = P->rs[last];
  const char *pk = P->in + j0 * s * P->isz;
  int64_t ok = j0 * os;
  for (;;) {
    char *acc = P->out + ok * P->asz;
    const char *ext = P->extra ? P->extra + ok * P->asz : NULL;
    const char *p = pk;
    for (;;) {
      P->k->outer(p, n, s, rstride, rows, acc, os, ext);
      int d = last - 1;
      for (; d >= 0; d--) {
        p += P->rs[d] * P->isz;
        if (++ridx[d] < P->rn[d]) break;
        p -= P->rs[d] * P->rn[d] * P->isz;
        ridx[d] = 0;
      }
      if (d < 0) break;
    }
    int d = P->nk - 1;
    for (; d >= 0; d--) {
      if (d == j) continue;
      pk += P->ks[d] * P->isz;
      ok += P->ko[d];
      if (++kidx[d] < P->kn[d]) break;
      pk -= P->ks[d] * P->kn[d] * P->isz;
      ok -= P->ko[d] * P->kn[d];
      kidx[d] = 0;
    }
    if (d < 0) return;
  }
}

static void finalize(int acc, char *out, int64_t n, double divisor, int take_sqrt) {
  switch (acc) {
    case MA_FLOAT32: {
      float *o = (float *)out;
      for (int64_t i = 0; i < n; i++) o[i] = take_sqrt ? sqrtf((float)(o[i] / divisor)) : (float)(o[i] / divisor);
      break;
    }
    case MA_FLOAT64: {
      double *o = (double *)out;
      for (int64_t i = 0; i < n; i++) o[i] = take_sqrt ? sqrt(o[i] / divisor) : o[i] / divisor;
      break;
    }
    case MA_COMPLEX64: {
      ma_c64 *o = (ma_c64 *)out;
      for (int64_t i = 0; i < n; i++) o[i] = CMPLXF((float)(crealf(o[i]) / divisor), (float)(cimagf(o[i]) / divisor));
      break;
    }
    case MA_COMPLEX128: {
      ma_c128 *o = (ma_c128 *)out;
      for (int64_t i = 0; i < n; i++) o[i] = CMPLX(creal(o[i]) / divisor, cimag(o[i]) / divisor);
      break;
    }
  }
}

/* ---- threads ------------------------------------------------------------- */

/* Large reductions run on the thread pool (csrc/core/threads.h), and their
 * result does not depend on the thread count:
 *   - many outputs: chunks of outputs (inner walk) or of the kept dim the
 *     outer walk runs along; each output folds the same elements in the
 *     same order as in a serial run, so the bits are the serial ones;
 *   - one output over one run (sum of a contiguous array): the run is cut
 *     into leaves along the pairwise-sum tree the kernels use (halves
 *     rounded down to a multiple of 8, of 4 for complex), and the leaves'
 *     sums are added back up that tree: NumPy's pairwise bits again.  Min,
 *     max and integer sums, products and all/any fold leaves of the same
 *     tree with the kernel itself: which leaves depends on the length only.
 * Floating products and blocks of several runs stay serial: their order of
 * operations is their result. */

#define RED_MAX_LEAVES 32
#define RED_MIN_LEAF 32768

typedef struct {
  const red_plan *P;
  int j;          /* outer walk along kept dim j; -1: inner walk */
  int64_t total;  /* outputs (inner) or length of dim j (outer) */
  int64_t chunk;
} red_split;

static void red_split_chunk(void *ctx, int64_t c) {
  const red_split *S = (const red_split *)ctx;
  int64_t b = c * S->chunk, e = b + S->chunk;
  if (e > S->total) e = S->total;
  if (S->j >= 0) run_outer(S->P, S->j, b, e);
  else run_inner(S->P, b, e);
}

typedef union {
  float f;
  double d;
  ma_c64 c64;
  ma_c128 c128;
  char bytes[16];
} red_val;

typedef struct {
  const red_plan *P;
  int floating;   /* pairwise sum: leaves start at -0.0 and are added */
  int mult, leaf; /* the kernel's split rule: multiple, largest leaf */
  int nleaves;
  int64_t off[RED_MAX_LEAVES], len[RED_MAX_LEAVES];
  red_val part[RED_MAX_LEAVES];
} red_tree;

/* Cut [off, off + n) like the pairwise kernel until pieces are small
 * enough or the depth is used up; leaves in order. */
static void tree_cut(red_tree *T, int64_t off, int64_t n, int depth) {
  if (depth == 0 || n <= T->leaf || n / 2 < RED_MIN_LEAF) {
    T->off[T->nleaves] = off;
    T->len[T->nleaves] = n;
    T->nleaves++;
    return;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % T->mult;
  tree_cut(T, off, n2, depth - 1);
  tree_cut(T, off + n2, n - n2, depth - 1);
}

static void add_val(int acc, red_val *a, const red_val *b) {
  switch (acc) {
    case MA_FLOAT32: a->f = a->f + b->f; break;
    case MA_FLOAT64: a->d = a->d + b->d; break;
    case MA_COMPLEX64: a->c64 = a->c64 + b->c64; break;
    case MA_COMPLEX128: a->c128 = a->c128 + b->c128; break;
  }
}

/* The sum of leaves [*i, ...) covering [off, off + n), walking the same
 * tree as tree_cut. */
static red_val tree_sum(const red_tree *T, int acc, int64_t off, int64_t n, int depth, int *i) {
  if (T->off[*i] == off && T->len[*i] == n) return T->part[(*i)++];
  int64_t n2 = n / 2;
  n2 -= n2 % T->mult;
  red_val a = tree_sum(T, acc, off, n2, depth - 1, i);
  red_val b = tree_sum(T, acc, off + n2, n - n2, depth - 1, i);
  add_val(acc, &a, &b);
  return a;
}

static void red_leaf(void *ctx, int64_t c) {
  red_tree *T = (red_tree *)ctx;
  const red_plan *P = T->P;
  red_val *v = &T->part[c];
  if (T->floating) {
    /* -0.0 is the exact identity of IEEE addition: -0.0 + x == x for
     * every x, signed zeros and NaNs included. */
    switch (P->k->acc) {
      case MA_FLOAT32: v->f = -0.0f; break;
      case MA_FLOAT64: v->d = -0.0; break;
      case MA_COMPLEX64: v->c64 = CMPLXF(-0.0f, -0.0f); break;
      case MA_COMPLEX128: v->c128 = CMPLX(-0.0, -0.0); break;
    }
  } else {
    P->k->init(v->bytes, 1);
  }
  int64_t s = P->rs[0];
  P->k->inner(P->in + T->off[c] * s * P->isz, T->len[c], s, v->bytes, P->extra);
}

static int is_float_acc(int acc) {
  return acc == MA_FLOAT32 || acc == MA_FLOAT64 || acc == MA_COMPLEX64 || acc == MA_COMPLEX128;
}

/* One output folding one long run: split it when the op allows. */
static int red_single(const red_plan *P, int op, int tid, int64_t n) {
  int acc = P->k->acc;
  red_tree T;
  T.P = P;
  T.floating = (op == MA_R_SUM || op == MA_R_FSUM || op == MA_R_SSD) && is_float_acc(acc);
  int foldable = acc == tid && (op == MA_R_MIN || op == MA_R_MAX || op == MA_R_ALL || op == MA_R_ANY ||
                                ((op == MA_R_SUM || op == MA_R_PROD) && !is_float_acc(acc)));
  if (!T.floating && !foldable) return 0;
  int complex_acc = acc == MA_COMPLEX64 || acc == MA_COMPLEX128;
  T.mult = complex_acc ? 4 : 8;
  T.leaf = complex_acc ? 64 : 128;
  T.nleaves = 0;
  tree_cut(&T, 0, n, 5); /* at most 2^5 = RED_MAX_LEAVES leaves */
  if (T.nleaves < 2) return 0;
  ma_parallel_for(T.nleaves, red_leaf, &T);
  if (T.floating) {
    int i = 0;
    red_val total = tree_sum(&T, acc, 0, n, 5, &i);
    /* The serial kernel does *acc += pairwise(run): the same addition. */
    add_val(acc, (red_val *)P->out, &total);
  } else {
    P->k->inner(T.part[0].bytes, T.nleaves, (int64_t)(sizeof(red_val) / ma_type_size[acc]), P->out, NULL);
  }
  return 1;
}

/* The reduction's walk, on several threads when it is large enough. */
static void red_walk(const red_plan *P, int op, int tid, int64_t nout, int64_t nin) {
  /* Outer walk when a kept dim is denser than every reduced dim. */
  int j = -1;
  int64_t rmin = P->nr ? iabs64(P->rs[P->nr - 1]) : INT64_MAX;
  for (int d = 0; d < P->nk; d++)
    if (iabs64(P->ks[d]) < rmin && (j < 0 || iabs64(P->ks[d]) < iabs64(P->ks[j]))) j = d;
  int outer = j >= 0 && P->nr > 0 && P->kn[j] >= 8;
  int threaded = nin >= ma_get_parallel_min() && ma_get_num_threads() > 1;
  if (nout == 1 && P->nr == 1 && nin >= 2 * RED_MIN_LEAF && red_single(P, op, tid, P->rn[0])) return;
  red_split S = {P, outer ? j : -1, outer ? P->kn[j] : nout, 0};
  if (threaded && S.total >= 2) {
    int64_t nt = ma_get_num_threads();
    int64_t chunk = (S.total + 4 * nt - 1) / (4 * nt);
    /* outer: keep the accumulator rows whole vectors */
    if (outer) chunk = (chunk + 63) / 64 * 64;
    S.chunk = chunk;
    ma_parallel_for((S.total + chunk - 1) / chunk, red_split_chunk, &S);
    return;
  }
  if (outer) run_outer(P, j, 0, P->kn[j]);
  else run_inner(P, 0, nout);
}

/* ---- Python entry points ------------------------------------------------- */

/* Does `out` hold `x`'s first `nkept` dims, C-contiguous, of type `tid`? */
static int check_out(const ma_array *out, const ma_array *x, int nkept, int tid, const char *what) {
  int ok = out->t.ndim == nkept && ma_type_of(out->t.dtype) == tid && ma_array_is_contiguous(out, 0) &&
           !(out->flags & MA_READONLY);
  for (int d = 0; ok && d < nkept; d++) ok = out->t.shape[d] == x->t.shape[d];
  if (!ok) PyErr_Format(PyExc_ValueError, "reduce: %s does not match the reduction", what);
  return ok;
}

/* reduce(op, x, out, nred, extra, divisor, sqrt): out[...] = op over the
 * last nred axes of x.  out: C-contiguous, the kept shape, the kernel's
 * accumulator dtype; or None: then a new one is allocated and its handle
 * returned.  extra: None or the mean (out's dtype and shape) for
 * SSD.  divisor >= 0: divide every result by it (mean, var), then sqrt if
 * asked (std). */
MA_FASTCALL(py_reduce) {
  (void)self;
  MA_NARGS(7, "reduce");
  int op = (int)PyLong_AsLong(args[0]);
  int nred = (int)PyLong_AsLong(args[3]);
  double divisor = PyFloat_AsDouble(args[5]);
  int take_sqrt = PyObject_IsTrue(args[6]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]);
  if (!x) return NULL;
  ma_array *out = NULL, *extra = NULL;
  if (args[2] != Py_None && !(out = ma_handle_get(args[2]))) return NULL;
  if (args[4] != Py_None && !(extra = ma_handle_get(args[4]))) return NULL;
  int tid = ma_type_of(x->t.dtype);
  if (op < 0 || op >= MA_R_NOPS || tid < 0 || nred < 0 || nred > x->t.ndim)
    return PyErr_Format(PyExc_ValueError, "reduce: bad operation %d or axis count %d", op, nred);
  const ma_red_kernel *k = &ma_red_kernels[op][tid];
  if (!k->init) return PyErr_Format(PyExc_TypeError, "reduce: operation %d does not support this dtype", op);
  int nkept = x->t.ndim - nred;
  if (out && !check_out(out, x, nkept, k->acc, "the output")) return NULL;
  if ((op == MA_R_SSD) != (extra != NULL) || (extra && !check_out(extra, x, nkept, k->acc, "the mean")))
    return extra ? NULL : PyErr_Format(PyExc_ValueError, "reduce: the mean is required for SSD only");
  PyObject *result = NULL; /* the new output's handle when we allocate it */
  if (!out) {
    int err = 0;
    DLDataType adt = {0, (uint8_t)(ma_type_size[k->acc] * 8), 1};
    static const uint8_t codes[MA_NTYPES] = {kDLBool, kDLInt, kDLInt, kDLInt, kDLInt, kDLUInt, kDLUInt, kDLUInt,
                                             kDLUInt, kDLFloat, kDLBfloat, kDLFloat, kDLFloat, kDLComplex,
                                             kDLComplex};
    adt.code = codes[k->acc];
    out = ma_array_empty(adt, nkept, x->t.shape, 0, &err);
    if (!out)
      return err == 1 ? PyErr_Format(PyExc_ValueError, "reduce: output too large") : PyErr_NoMemory();
    if (!(result = ma_handle_new(out))) return NULL;
  }

  red_plan P;
  P.k = k;
  P.isz = ma_type_size[tid];
  P.asz = ma_type_size[k->acc];
  P.in = (const char *)x->t.data;
  P.out = (char *)out->t.data;
  P.extra = extra ? (const char *)extra->t.data : NULL;
  plan_kept(&P, x, nkept);
  plan_reduced(&P, x, nkept);
  int64_t nout = ma_array_size(out), nin = ma_array_size(x);

  Py_BEGIN_ALLOW_THREADS
  k->init(P.out, nout);
  if (nin > 0) red_walk(&P, op, tid, nout, nin);
  if (divisor >= 0) finalize(k->acc, P.out, nout, divisor, take_sqrt);
  Py_END_ALLOW_THREADS
  if (result) return result;
  Py_RETURN_NONE;
}

/* argreduce(op, x, out): out[...] = index of the first min (op 0) / max
 * (op 1) along x's last axis (length >= 1); out int64, shape x.shape[:-1]. */
MA_FASTCALL(py_argreduce) {
  (void)self;
  MA_NARGS(3, "argreduce");
  int op = (int)PyLong_AsLong(args[0]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]), *out = x ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int tid = ma_type_of(x->t.dtype);
  if (op < 0 || op > 1 || tid < 0 || x->t.ndim < 1 || x->t.shape[x->t.ndim - 1] < 1)
    return PyErr_Format(PyExc_ValueError, "argreduce: bad operation or empty axis");
  ma_arg_kernel kern = ma_arg_kernels[op][tid];
  if (!kern) return PyErr_Format(PyExc_TypeError, "argreduce: unsupported dtype");
  int nkept = x->t.ndim - 1;
  if (!check_out(out, x, nkept, MA_INT64, "the output")) return NULL;
  red_plan P;
  plan_kept(&P, x, nkept);
  int64_t n = x->t.shape[nkept], s = x->t.strides[nkept], isz = ma_type_size[tid];
  int64_t nout = ma_array_size(out);
  int64_t *o = (int64_t *)out->t.data;
  Py_BEGIN_ALLOW_THREADS
  int64_t idx[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  for (int64_t i = 0; i < nout; i++) {
    o[i] = kern(p, n, s);
    for (int d = P.nk - 1; d >= 0; d--) {
      p += P.ks[d] * isz;
      if (++idx[d] < P.kn[d]) break;
      p -= P.ks[d] * P.kn[d] * isz;
      idx[d] = 0;
    }
  }
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* The scans along x's last axis, stepped side by side along dim j. */
static void scan_across(const ma_array *x, ma_array *out, int j, ma_scan_step step, int incl, int64_t isz,
                        int64_t osz) {
  int nd = x->t.ndim;
  int64_t n = x->t.shape[nd - 1], s = x->t.strides[nd - 1], os = out->t.strides[nd - 1];
  int64_t m = x->t.shape[j], xs = x->t.strides[j], ojs = out->t.strides[j];
  Py_BEGIN_ALLOW_THREADS
  int64_t idx[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  char *q = (char *)out->t.data;
  for (;;) {
    if (incl) step(NULL, m, xs, NULL, ojs, q, ojs);
    for (int64_t k = 0; k < n; k++) {
      char *o = q + (k + incl) * os * osz;
      const char *prev = (k + incl) ? o - os * osz : NULL;
      step(p + k * s * isz, m, xs, prev, ojs, o, ojs);
    }
    int d = nd - 2;
    for (; d >= 0; d--) {
      if (d == j) continue;
      p += x->t.strides[d] * isz;
      q += out->t.strides[d] * osz;
      if (++idx[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      q -= out->t.strides[d] * x->t.shape[d] * osz;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  Py_END_ALLOW_THREADS
}

/* scan(op, x, out, include_initial): cumulative sum (op 0) / product (1)
 * along the last axis.  out: any strides, shape x.shape[:-1] + (n + incl,),
 * dtype the scan kernel's result type. */
MA_FASTCALL(py_scan) {
  (void)self;
  MA_NARGS(4, "scan");
  int op = (int)PyLong_AsLong(args[0]);
  int incl = PyObject_IsTrue(args[3]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]), *out = x ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int tid = ma_type_of(x->t.dtype);
  int nd = x->t.ndim;
  if (op < 0 || op > 1 || tid < 0 || nd < 1 || out->t.ndim != nd)
    return PyErr_Format(PyExc_ValueError, "scan: bad operation or shapes");
  for (int d = 0; d < nd; d++)
    if (out->t.shape[d] != x->t.shape[d] + (d == nd - 1 ? incl : 0))
      return PyErr_Format(PyExc_ValueError, "scan: output shape does not match");
  int otid = ma_red_kernels[MA_R_SUM][tid].acc;
  if (tid >= MA_FLOAT16) otid = tid; /* floats keep their type */
  if (ma_type_of(out->t.dtype) != otid || (out->flags & MA_READONLY))
    return PyErr_Format(PyExc_ValueError, "scan: wrong output dtype");
  ma_scan_kernel kern = ma_scan_kernels[op][tid];
  int64_t n = x->t.shape[nd - 1], s = x->t.strides[nd - 1], os = out->t.strides[nd - 1];
  int64_t isz = ma_type_size[tid], osz = ma_type_size[otid];
  int64_t rows = 1;
  for (int d = 0; d < nd - 1; d++) rows *= x->t.shape[d];
  if (ma_array_size(out) == 0) Py_RETURN_NONE;
  /* Scanning along a strided axis: when another axis is denser, step all
   * the scans along that axis at once (vectorised, cache-friendly). */
  int j = -1;
  for (int d = 0; d < nd - 1; d++)
    if (x->t.shape[d] >= 8 && iabs64(x->t.strides[d]) < iabs64(s) &&
        (j < 0 || iabs64(x->t.strides[d]) < iabs64(x->t.strides[j])))
      j = d;
  if (j >= 0) {
    scan_across(x, out, j, ma_scan_steps[op][tid], incl, isz, osz);
    Py_RETURN_NONE;
  }
  Py_BEGIN_ALLOW_THREADS
  int64_t idx[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  char *q = (char *)out->t.data;
  for (int64_t r = 0; r < rows; r++) {
    kern(p, n, s, q, os, incl);
    for (int d = nd - 2; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      q += out->t.strides[d] * osz;
      if (++idx[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      q -= out->t.strides[d] * x->t.shape[d] * osz;
      idx[d] = 0;
    }
  }
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* subtract(out, a, b): out = a - b, one dtype, a and b broadcast to out. */
MA_FASTCALL(py_subtract) {
  (void)self;
  MA_NARGS(3, "subtract");
  ma_array *o = ma_handle_get(args[0]), *a = o ? ma_handle_get(args[1]) : NULL,
           *b = a ? ma_handle_get(args[2]) : NULL;
  if (!b) return NULL;
  int tid = ma_type_of(o->t.dtype);
  if (tid < 0 || ma_type_of(a->t.dtype) != tid || ma_type_of(b->t.dtype) != tid || (o->flags & MA_READONLY))
    return PyErr_Format(PyExc_TypeError, "subtract: operands must share one dtype");
  const ma_array *ops[3] = {o, a, b};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = ma_iterate(3, ops, ma_sub_loops[tid], NULL);
  Py_END_ALLOW_THREADS
  if (rc != 0) return PyErr_Format(PyExc_ValueError, "subtract: shapes do not broadcast");
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_reduce_methods[] = {
    FC("reduce", py_reduce, "reduce(op, x, out, nred, extra, divisor, sqrt)"),
    FC("argreduce", py_argreduce, "argreduce(op, x, out)"),
    FC("scan", py_scan, "scan(op, x, out, include_initial)"),
    FC("subtract", py_subtract, "subtract(out, a, b)"),
    {NULL, NULL, 0, NULL}};
