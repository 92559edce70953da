/*
 * The reduction drivers: plans and walks around the generated kernels
 * (gen_reduce.py).  Every N-d walk here is the iterator's (ma_nest_walk);
 * what this file adds is the choice of walk and how it is cut over threads
 * (see reduce.h and the threads section below).  Plain C, run without the
 * GIL by csrc/py/reduce_entry.c.
 */
#include "reduce.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* Kept dims of size > 1 of x's first `nkept`, with the strides of the
 * C-contiguous output they map to. */
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

/* ---- nests: the walks, described for ma_nest_walk -------------------------- */

/* An empty nest of `nops` operands; dims are appended, then nest_finish. */
static void nest_init(ma_nest *n, int nops) {
  memset(n, 0, sizeof *n);
  n->nops = nops;
}

/* Append a dim of `size` with byte strides s[0..nops). */
static void nest_dim(ma_nest *n, int64_t size, const int64_t *s) {
  int d = n->ndim++;
  n->shape[d] = size;
  for (int k = 0; k < n->nops; k++) n->st[d][k] = s[k];
}

/* Ready to walk (no dims: one position); the number of positions. */
static int64_t nest_finish(ma_nest *n) {
  if (n->ndim == 0) {
    n->ndim = 1;
    n->shape[0] = 1;
  }
  int64_t t = 1;
  for (int d = 0; d < n->ndim; d++) t *= n->shape[d];
  return t;
}

/* ---- walks --------------------------------------------------------------- */

typedef struct {
  const red_plan *P;
  char *acc;
  const char *ext;
} block_ctx;

static void block_rows(char **p, const int64_t *st, int64_t n, const void *vc) {
  const block_ctx *c = (const block_ctx *)vc;
  c->P->k->inner(p[0], n, st[0] / c->P->isz, c->acc, c->ext);
}

/* Fold the reduced block at `base` into one accumulator: its innermost
 * reduced dim is each call's run. */
static void inner_block(const red_plan *P, const char *base, char *acc, const char *ext) {
  if (P->nr == 0) {
    P->k->inner(base, 1, 1, acc, ext);
    return;
  }
  if (P->nr == 1) {
    P->k->inner(base, P->rn[0], P->rs[0], acc, ext);
    return;
  }
  ma_nest n;
  nest_init(&n, 1);
  for (int d = 0; d < P->nr; d++) {
    int64_t s = P->rs[d] * P->isz;
    nest_dim(&n, P->rn[d], &s);
  }
  n.base[0] = (char *)base;
  block_ctx c = {P, acc, ext};
  ma_nest_walk(&n, 0, nest_finish(&n), block_rows, &c);
}

/* The kept dims as a nest over (input, output, extra), `skip` left out. */
static void kept_nest(const red_plan *P, ma_nest *n, int skip) {
  nest_init(n, 3);
  for (int d = 0; d < P->nk; d++) {
    if (d == skip) continue;
    int64_t s[3] = {P->ks[d] * P->isz, P->ko[d] * P->asz, P->ko[d] * P->asz};
    nest_dim(n, P->kn[d], s);
  }
  n->base[0] = (char *)P->in;
  n->base[1] = P->out;
  n->base[2] = (char *)(P->extra ? P->extra : P->out);
}

static void each_output(char **p, const int64_t *st, int64_t n, const void *vP) {
  const red_plan *P = (const red_plan *)vP;
  for (int64_t i = 0; i < n; i++)
    inner_block(P, p[0] + i * st[0], p[1] + i * st[1], P->extra ? p[2] + i * st[2] : NULL);
}

/* Inner walk over output elements [o0, o1). */
static void run_inner(const red_plan *P, int64_t o0, int64_t o1) {
  ma_nest n;
  kept_nest(P, &n, -1);
  nest_finish(&n);
  ma_nest_walk(&n, o0, o1, each_output, P);
}

typedef struct {
  const red_plan *P;
  int64_t n, s, os; /* the kept dim the rows run along: length, strides */
  char *acc;
  const char *ext;
} outer_ctx;

static void outer_rows(char **p, const int64_t *st, int64_t cnt, const void *vc) {
  const outer_ctx *c = (const outer_ctx *)vc;
  const red_plan *P = c->P;
  int last = P->nr - 1;
  for (int64_t i = 0; i < cnt; i++)
    P->k->outer(p[0] + i * st[0], c->n, c->s, P->rs[last], P->rn[last], c->acc, c->os, c->ext);
}

static void outer_each(char **p, const int64_t *st, int64_t cnt, const void *vc) {
  outer_ctx c = *(const outer_ctx *)vc;
  const red_plan *P = c.P;
  ma_nest rows;
  nest_init(&rows, 1);
  for (int d = 0; d < P->nr - 1; d++) {
    int64_t s = P->rs[d] * P->isz;
    nest_dim(&rows, P->rn[d], &s);
  }
  int64_t nrows = nest_finish(&rows);
  for (int64_t i = 0; i < cnt; i++) {
    c.acc = p[1] + i * st[1];
    c.ext = P->extra ? p[2] + i * st[2] : NULL;
    rows.base[0] = p[0] + i * st[0];
    ma_nest_walk(&rows, 0, nrows, outer_rows, &c);
  }
}

/* Outer walk: runs along kept dim j, elements [j0, j1) of it; the
 * innermost reduced dim is handed to the kernel as its rows. */
static void run_outer(const red_plan *P, int j, int64_t j0, int64_t j1) {
  ma_nest n;
  kept_nest(P, &n, j);
  n.base[0] += j0 * P->ks[j] * P->isz;
  n.base[1] += j0 * P->ko[j] * P->asz;
  n.base[2] += j0 * P->ko[j] * P->asz;
  outer_ctx c = {P, j1 - j0, P->ks[j], P->ko[j], NULL, NULL};
  ma_nest_walk(&n, 0, nest_finish(&n), outer_each, &c);
}

/* NumPy divides a complex total by the count as a complex number, count
 * + 0j, in complex128 (complex64 / intp promotes), by Smith's algorithm:
 * with a zero imaginary part its ratio is 0 and its scale 1 / count, so
 * the quotient is (re + im*0) * (1/count), (im - re*0) * (1/count): a
 * multiplication by the reciprocal, which rounds differently from a
 * division. */
static ma_c128 complex_by_count(double re, double im, double count) {
  double scale = 1.0 / count;
  return CMPLX((re + im * 0.0) * scale, (im - re * 0.0) * scale);
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
      for (int64_t i = 0; i < n; i++) {
        ma_c128 q = complex_by_count(crealf(o[i]), cimagf(o[i]), divisor);
        o[i] = CMPLXF((float)creal(q), (float)cimag(q));
      }
      break;
    }
    case MA_COMPLEX128: {
      ma_c128 *o = (ma_c128 *)out;
      for (int64_t i = 0; i < n; i++) o[i] = complex_by_count(creal(o[i]), cimag(o[i]), divisor);
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
  int outer = j >= 0 && P->nr > 0 && P->kn[j] >= 2;
  int threaded = nin >= ma_get_parallel_min() && ma_get_num_threads() > 1;
  if (nout == 1 && P->nr == 1 && nin >= 2 * RED_MIN_LEAF && red_single(P, op, tid, P->rn[0])) return;
  red_split S = {P, outer ? j : -1, outer ? P->kn[j] : nout, 0};
  if (threaded && S.total >= 2) {
    int64_t nt = ma_get_num_threads();
    /* inner: chunks of outputs, taken by whichever thread is free.  As
     * many as the one-run split makes leaves (a leaf's worth of input
     * each, at most RED_MAX_LEAVES) and at least MA_CHUNKS_PER_THREAD per
     * thread.  The vCPUs of a VM seldom run at one speed, and the last of
     * four large chunks per thread kept the other thread waiting:
     * sum(axis=1) of 10^6 elements mostly took 5-40% longer than the sum
     * of all of them on two threads, which splits into 32 leaves (AMD Zen
     * 4).
     * outer: one run of columns per thread, in whole vectors of the
     * accumulator row.  Each chunk reads a piece of every row; four chunks
     * per thread made those pieces too short for the prefetchers (512
     * bytes of a row of 500 doubles): sum(axis=0) of (2000, 500) doubles
     * took as long on two threads as on one (AMD Zen 4). */
    int64_t pieces = nin / RED_MIN_LEAF < RED_MAX_LEAVES ? nin / RED_MIN_LEAF : RED_MAX_LEAVES;
    if (pieces < MA_CHUNKS_PER_THREAD * nt) pieces = MA_CHUNKS_PER_THREAD * nt;
    int64_t chunk = (S.total + pieces - 1) / pieces;
    if (outer) chunk = ((S.total + nt - 1) / nt + 63) / 64 * 64;
    S.chunk = chunk;
    ma_parallel_for((S.total + chunk - 1) / chunk, red_split_chunk, &S);
    return;
  }
  if (outer) run_outer(P, j, 0, P->kn[j]);
  else run_inner(P, 0, nout);
}

/* ---- the drivers ----------------------------------------------------------- */

void ma_reduce_run(int op, const ma_array *x, int nkept, ma_array *out, const ma_array *extra, double divisor,
                   int take_sqrt) {
  int tid = ma_type_of(x->t.dtype);
  red_plan P;
  P.k = &ma_red_kernels[op][tid];
  P.isz = ma_type_size[tid];
  P.asz = ma_type_size[P.k->acc];
  P.in = (const char *)x->t.data;
  P.out = (char *)out->t.data;
  P.extra = extra ? (const char *)extra->t.data : NULL;
  plan_kept(&P, x, nkept);
  plan_reduced(&P, x, nkept);
  int64_t nout = ma_array_size(out), nin = ma_array_size(x);
  P.k->init(P.out, nout);
  if (nin > 0) red_walk(&P, op, tid, nout, nin);
  if (divisor >= 0) finalize(P.k->acc, P.out, nout, divisor, take_sqrt);
}

typedef struct {
  ma_arg_kernel kern;
  int64_t n, s;
} arg_ctx;

static void arg_each(char **p, const int64_t *st, int64_t cnt, const void *vc) {
  const arg_ctx *c = (const arg_ctx *)vc;
  for (int64_t i = 0; i < cnt; i++) *(int64_t *)(p[1] + i * st[1]) = c->kern(p[0] + i * st[0], c->n, c->s);
}

void ma_argreduce_run(ma_arg_kernel kern, const ma_array *x, ma_array *out) {
  int nd = x->t.ndim;
  int64_t isz = ma_type_size[ma_type_of(x->t.dtype)];
  ma_nest n;
  nest_init(&n, 2);
  int64_t os = 1;
  int64_t ostr[MA_MAXDIMS];
  for (int d = nd - 2; d >= 0; d--) {
    ostr[d] = os;
    os *= x->t.shape[d];
  }
  for (int d = 0; d < nd - 1; d++) {
    int64_t s[2] = {x->t.strides[d] * isz, ostr[d] * (int64_t)sizeof(int64_t)};
    nest_dim(&n, x->t.shape[d], s);
  }
  n.base[0] = (char *)x->t.data;
  n.base[1] = (char *)out->t.data;
  arg_ctx c = {kern, x->t.shape[nd - 1], x->t.strides[nd - 1]};
  ma_nest_walk(&n, 0, nest_finish(&n), arg_each, &c);
}

/* Scans: x's dims but the last (and `skip`) as a nest over (x, out). */
static void scan_nest(const ma_array *x, const ma_array *out, int skip, int64_t isz, int64_t osz, ma_nest *n) {
  nest_init(n, 2);
  for (int d = 0; d < x->t.ndim - 1; d++) {
    if (d == skip) continue;
    int64_t s[2] = {x->t.strides[d] * isz, out->t.strides[d] * osz};
    nest_dim(n, x->t.shape[d], s);
  }
  n->base[0] = (char *)x->t.data;
  n->base[1] = (char *)out->t.data;
}

typedef struct {
  ma_scan_kernel kern;
  ma_scan_step step;
  int64_t n, s, os, m, xs, ojs, osz, isz;
  int incl;
} scan_ctx;

static void scan_each(char **p, const int64_t *st, int64_t cnt, const void *vc) {
  const scan_ctx *c = (const scan_ctx *)vc;
  for (int64_t i = 0; i < cnt; i++) c->kern(p[0] + i * st[0], c->n, c->s, p[1] + i * st[1], c->os, c->incl);
}

/* The scans along the last axis stepped side by side along dim j. */
static void across_each(char **p, const int64_t *st, int64_t cnt, const void *vc) {
  const scan_ctx *c = (const scan_ctx *)vc;
  for (int64_t i = 0; i < cnt; i++) {
    const char *x = p[0] + i * st[0];
    char *q = p[1] + i * st[1];
    if (c->incl) c->step(NULL, c->m, c->xs, NULL, c->ojs, q, c->ojs);
    for (int64_t k = 0; k < c->n; k++) {
      char *o = q + (k + c->incl) * c->os * c->osz;
      const char *prev = (k + c->incl) ? o - c->os * c->osz : NULL;
      c->step(x + k * c->s * c->isz, c->m, c->xs, prev, c->ojs, o, c->ojs);
    }
  }
}

void ma_scan_run(int op, const ma_array *x, ma_array *out, int incl) {
  int nd = x->t.ndim, tid = ma_type_of(x->t.dtype), otid = ma_type_of(out->t.dtype);
  int64_t isz = ma_type_size[tid], osz = ma_type_size[otid];
  scan_ctx c = {ma_scan_kernels[op][tid], ma_scan_steps[op][tid], x->t.shape[nd - 1], x->t.strides[nd - 1],
                out->t.strides[nd - 1], 0, 0, 0, osz, isz, incl};
  /* Scanning along a strided axis: when another axis is denser, step all
   * the scans along that axis at once (vectorised, cache-friendly). */
  int j = -1;
  for (int d = 0; d < nd - 1; d++)
    if (x->t.shape[d] >= 8 && iabs64(x->t.strides[d]) < iabs64(c.s) &&
        (j < 0 || iabs64(x->t.strides[d]) < iabs64(x->t.strides[j])))
      j = d;
  ma_nest n;
  scan_nest(x, out, j, isz, osz, &n);
  int64_t rows = nest_finish(&n);
  if (j >= 0) {
    c.m = x->t.shape[j];
    c.xs = x->t.strides[j];
    c.ojs = out->t.strides[j];
    ma_nest_walk(&n, 0, rows, across_each, &c);
  } else {
    ma_nest_walk(&n, 0, rows, scan_each, &c);
  }
}
