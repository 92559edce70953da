#include "iterate.h"

#include <stdlib.h>
#include <string.h>

int ma_broadcast_shape(int n, const int *ndims, const int64_t *const *shapes, int *nd, int64_t *out) {
  int m = 0;
  for (int k = 0; k < n; k++)
    if (ndims[k] > m) m = ndims[k];
  if (m > MA_MAXDIMS) return -1;
  for (int i = 0; i < m; i++) out[i] = 1;
  for (int k = 0; k < n; k++) {
    int off = m - ndims[k];
    for (int i = 0; i < ndims[k]; i++) {
      int64_t s = shapes[k][i];
      if (s == out[off + i] || s == 1) continue;
      if (out[off + i] != 1) return -1;
      out[off + i] = s;
    }
  }
  *nd = m;
  return 0;
}

int ma_broadcast_strides(const ma_array *a, int ndim, const int64_t *shape,
                         int64_t *bstrides) {
  int nd = a->t.ndim;
  int64_t itemsize = ma_elsize(a->t.dtype);
  if (nd > ndim) return -1;
  for (int i = 0; i < ndim; i++) {
    int j = i - (ndim - nd);
    if (j < 0) { bstrides[i] = 0; continue; }
    int64_t n = a->t.shape[j];
    if (n == shape[i]) bstrides[i] = a->t.strides[j] * itemsize;
    else if (n == 1) bstrides[i] = 0;
    else return -1;
  }
  return 0;
}

static int64_t iabs64(int64_t x) { return x < 0 ? -x : x; }

static int64_t parallel_min = MA_PARALLEL_MIN; /* __atomic only */

int64_t ma_get_parallel_min(void) { return __atomic_load_n(&parallel_min, __ATOMIC_RELAXED); }

static int64_t n_split, n_tiled; /* __atomic only */

void ma_iterate_counts(int64_t *out) {
  out[0] = __atomic_load_n(&n_split, __ATOMIC_RELAXED);
  out[1] = __atomic_load_n(&n_tiled, __ATOMIC_RELAXED);
}

void ma_set_parallel_min(int64_t n) {
  __atomic_store_n(&parallel_min, n <= 0 ? (int64_t)MA_PARALLEL_MIN : n, __ATOMIC_RELAXED);
}

/* Chunks hold a multiple of this many elements (flat walk), so chunk
 * boundaries keep the alignment a contiguous operand had at element 0. */
#define CHUNK_ALIGN 64
/* Tiles: TILE_ROWS steps of the strided operand's preferred dim times
 * TILE_BYTES of the output's inner dim.  A 32 x 64 tile of doubles touches
 * 64 columns x 256 contiguous bytes = 16 KiB of the strided operand: half
 * of a 32 KiB L1, so its lines survive from one row of the tile to the
 * next. */
#define TILE_ROWS 32
#define TILE_BYTES 512
/* Only tile when the strided operand jumps at least a cache line per step,
 * and when one row of the plain walk spans more than tile_min_span bytes of
 * it.  Below that the plain walk is as fast: the lines and pages one row
 * touches stay in L2 and the TLB until the next row reuses them.  Measured
 * on a Zen 4 (1 MiB L2): A.T + B in doubles walked plainly costs ~3x a
 * contiguous add at 1000^2 and 2000^2, tiled or not, but 5.6x at 4000^2
 * (one row spans 128 MB), 1.7-1.9x tiled. */
#define TILE_MIN_STRIDE 64
#define TILE_MIN_SPAN ((int64_t)32 << 20)

static int64_t tile_min_span = TILE_MIN_SPAN; /* __atomic only */

int64_t ma_get_tile_min_span(void) { return __atomic_load_n(&tile_min_span, __ATOMIC_RELAXED); }

void ma_set_tile_min_span(int64_t n) {
  __atomic_store_n(&tile_min_span, n <= 0 ? TILE_MIN_SPAN : n, __ATOMIC_RELAXED);
}

/* A simplified layout, ready to walk.  dims are outermost first; the last
 * is the inner loop.  When `tiled`, dims ndim-2 and ndim-1 are walked in
 * tiles of trows x tcols and a "unit" of work is one band of trows rows
 * (for one index of the dims outside them); otherwise a unit is one
 * element of the flattened index range. */
typedef struct {
  ma_nest n;
  ma_loop loop;
  const void *aux;
  int tiled;
  int64_t trows, tcols, nbands;
  int64_t units;    /* elements, or bands when tiled */
  int64_t chunk;    /* units per chunk */
  int64_t nchunks;
} plan_t;

/* Pointers at the flat index decomposed into idx[] over dims [0, nd). */
static void locate(const ma_nest *n, int nd, int64_t flat, int64_t *idx, char **ptrs) {
  for (int d = nd - 1; d >= 0; d--) {
    idx[d] = flat % n->shape[d];
    flat /= n->shape[d];
  }
  for (int k = 0; k < n->nops; k++) {
    char *ptr = n->base[k];
    for (int d = 0; d < nd; d++) ptr += idx[d] * n->st[d][k];
    ptrs[k] = ptr;
  }
}

/* ptrs[0..nops) = row[...], one by one: written as a loop, gcc makes it a
 * call to memmove, whose start costs more than the copy. */
static inline void copy_ptrs(char **ptrs, char *const *row, int nops) {
  switch (nops) {
    case 4: ptrs[3] = row[3]; /* fall through */
    case 3: ptrs[2] = row[2]; /* fall through */
    case 2: ptrs[1] = row[1]; /* fall through */
    default: ptrs[0] = row[0];
  }
}

void ma_nest_walk(const ma_nest *n, int64_t begin, int64_t end, ma_loop run, const void *ctx) {
  const int last = n->ndim - 1, nops = n->nops;
  int64_t idx[MA_MAXDIMS];
  /* row[]: where the current row starts, carried from row to row; ptrs[]:
   * what the loop gets, copied from it.  Carrying in ptrs[] itself (back
   * to the row's start, then on) mixed 8-byte stores with the compiler's
   * 16-byte vector loads of the same slots, which cannot be forwarded from
   * the stores: a stall of over ten cycles per row, which made a (10^4,
   * 100) + (100,) add 1.7x PyTorch's time (AMD Zen 4). */
  char *ptrs[MA_MAXOPS], *row[MA_MAXOPS];
  int64_t inner[MA_MAXOPS];
  if (begin >= end) return;
  int64_t col = begin % n->shape[last];
  locate(n, last, begin / n->shape[last], idx, row);
  for (int k = 0; k < nops; k++) {
    inner[k] = n->st[last][k];
    ptrs[k] = row[k] + col * inner[k];
  }
  int64_t left = end - begin, len = n->shape[last] - col;
  for (;;) {
    if (len > left) len = left;
    run(ptrs, inner, len, ctx);
    left -= len;
    if (left == 0) return;
    /* The next row: carry outwards. */
    for (int d = last - 1; d >= 0; d--) {
      for (int k = 0; k < nops; k++) row[k] += n->st[d][k];
      if (++idx[d] < n->shape[d]) break;
      for (int k = 0; k < nops; k++) row[k] -= n->st[d][k] * n->shape[d];
      idx[d] = 0;
    }
    copy_ptrs(ptrs, row, nops);
    len = n->shape[last];
  }
}

/* Bands [begin, end) of a tiled walk. */
static void walk_tiled(const plan_t *p, int64_t begin, int64_t end) {
  const int nd = p->n.ndim, ra = nd - 2, cb = nd - 1, nops = p->n.nops;
  int64_t idx[MA_MAXDIMS];
  char *outer[MA_MAXOPS], *ptrs[MA_MAXOPS];
  int64_t inner[MA_MAXOPS];
  for (int k = 0; k < nops; k++) inner[k] = p->n.st[cb][k];
  for (int64_t u = begin; u < end; u++) {
    int64_t o = u / p->nbands, band = u % p->nbands;
    locate(&p->n, nd - 2, o, idx, outer);
    int64_t r0 = band * p->trows, r1 = r0 + p->trows;
    if (r1 > p->n.shape[ra]) r1 = p->n.shape[ra];
    for (int64_t c0 = 0; c0 < p->n.shape[cb]; c0 += p->tcols) {
      int64_t len = p->n.shape[cb] - c0;
      if (len > p->tcols) len = p->tcols;
      for (int64_t r = r0; r < r1; r++) {
        for (int k = 0; k < nops; k++) ptrs[k] = outer[k] + r * p->n.st[ra][k] + c0 * p->n.st[cb][k];
        p->loop(ptrs, inner, len, p->aux);
      }
    }
  }
}

static void walk(const plan_t *p, int64_t begin, int64_t end) {
  if (p->tiled) walk_tiled(p, begin, end);
  else ma_nest_walk(&p->n, begin, end, p->loop, p->aux);
}

static void run_chunk(void *ctx, int64_t c) {
  const plan_t *p = (const plan_t *)ctx;
  int64_t begin = c * p->chunk, end = begin + p->chunk;
  if (end > p->units) end = p->units;
  walk(p, begin, end);
}

/* Byte range [lo, hi) operand k can touch. */
static void extent(const plan_t *p, int k, int64_t item, char **lo, char **hi) {
  char *l = p->n.base[k], *h = p->n.base[k] + item;
  for (int d = 0; d < p->n.ndim; d++) {
    int64_t span = (p->n.shape[d] - 1) * p->n.st[d][k];
    if (span < 0) l += span; else h += span;
  }
  *lo = l;
  *hi = h;
}

/* Whether chunks of this layout may run concurrently: every output element
 * written exactly once, and no input that overlaps the output other than
 * element for element (an in-place `a += b`). */
static int splittable(const plan_t *p, const ma_array *const *ops) {
  for (int d = 0; d < p->n.ndim; d++)
    if (p->n.st[d][0] == 0) return 0;
  int64_t item0 = ma_elsize(ops[0]->t.dtype);
  char *olo, *ohi;
  extent(p, 0, item0, &olo, &ohi);
  for (int k = 1; k < p->n.nops; k++) {
    int64_t item = ma_elsize(ops[k]->t.dtype);
    char *lo, *hi;
    extent(p, k, item, &lo, &hi);
    if (!(lo < ohi && olo < hi)) continue;
    if (p->n.base[k] != p->n.base[0] || item != item0) return 0;
    for (int d = 0; d < p->n.ndim; d++)
      if (p->n.st[d][k] != p->n.st[d][0]) return 0;
  }
  return 1;
}

/* Choose a tiled walk when an input's inner stride conflicts with the
 * output's: move that input's preferred dim next to the inner one. */
static void plan_tiles(plan_t *p, const ma_array *const *ops) {
  const int last = p->n.ndim - 1;
  if (p->n.ndim < 2) return;
  int64_t item0 = ma_elsize(ops[0]->t.dtype);
  if (item0 == 0) return;
  int best = -1;
  int64_t span = 0;
  for (int k = 1; k < p->n.nops && best < 0; k++) {
    int64_t s_in = iabs64(p->n.st[last][k]);
    if (s_in < TILE_MIN_STRIDE) continue;
    int64_t smallest = s_in;
    for (int d = 0; d < last; d++) {
      int64_t s = iabs64(p->n.st[d][k]);
      if (s != 0 && s < smallest) { smallest = s; best = d; }
    }
    span = s_in * p->n.shape[last];
  }
  if (best < 0 || span <= ma_get_tile_min_span()) return;
  int64_t tcols = TILE_BYTES / item0;
  if (tcols < 8) tcols = 8;
  if (p->n.shape[last] <= tcols || p->n.shape[best] < 8) return;
  /* Move dim `best` to position last-1; the outer order does not matter. */
  int64_t sh = p->n.shape[best];
  int64_t s[MA_MAXOPS];
  memcpy(s, p->n.st[best], sizeof(s));
  for (int d = best; d < last - 1; d++) {
    p->n.shape[d] = p->n.shape[d + 1];
    memcpy(p->n.st[d], p->n.st[d + 1], sizeof(s));
  }
  p->n.shape[last - 1] = sh;
  memcpy(p->n.st[last - 1], s, sizeof(s));
  p->tiled = 1;
  p->trows = TILE_ROWS;
  p->tcols = tcols;
  p->nbands = (sh + TILE_ROWS - 1) / TILE_ROWS;
}

int ma_iterate(int nops, const ma_array *const *ops, ma_loop loop,
               const void *aux) {
  return ma_iterate_ex(nops, ops, loop, aux, 0, 0);
}

/* The walk a small call of C-contiguous operands comes to, without the
 * plan: every operand C-contiguous with the output's shape, or a single
 * element (stride 0); the output not too large to split over threads.
 * Building the plan cost about as much as the loop on 100 elements.  The
 * plan would merge such operands into one dim and call `loop` once, with
 * these very pointers and strides: the results are the same.  0 when the
 * operands are not all such. */
static int flat_call(int nops, const ma_array *const *ops, ma_loop loop, const void *aux, int64_t pmin) {
  const ma_array *out = ops[0];
  int64_t total = ma_array_size(out);
  int64_t global_min = ma_get_parallel_min();
  if (pmin <= 0 || pmin > global_min) pmin = global_min;
  if (total <= 0 || total >= pmin || !ma_array_is_contiguous(out, 0)) return 0;
  char *ptrs[MA_MAXOPS];
  int64_t st[MA_MAXOPS];
  const size_t dims = (size_t)out->t.ndim * sizeof(int64_t);
  for (int k = 0; k < nops; k++) {
    const ma_array *a = ops[k];
    int64_t item = ma_elsize(a->t.dtype);
    if (k > 0 && ma_array_size(a) == 1 && a->t.ndim <= out->t.ndim) {
      st[k] = 0;
    } else if (a->t.ndim == out->t.ndim && (dims == 0 || memcmp(a->t.shape, out->t.shape, dims) == 0) &&
               ma_array_is_contiguous(a, 0)) {
      st[k] = total == 1 ? 0 : item;
    } else {
      return 0;
    }
    ptrs[k] = (char *)a->t.data;
  }
  loop(ptrs, st, total, aux);
  return 1;
}

int ma_iterate_ex(int nops, const ma_array *const *ops, ma_loop loop,
                  const void *aux, unsigned flags, int64_t pmin) {
  if (flat_call(nops, ops, loop, aux, pmin)) return 0;
  const ma_array *out = ops[0];
  int ndim = out->t.ndim;
  plan_t p;
  int64_t st[MA_MAXDIMS][MA_MAXOPS];
  int64_t bs[MA_MAXDIMS];

  p.n.nops = nops;
  p.loop = loop;
  p.aux = aux;
  p.tiled = 0;
  for (int k = 0; k < nops; k++) {
    if (ma_broadcast_strides(ops[k], ndim, out->t.shape, bs) != 0) return -1;
    for (int i = 0; i < ndim; i++) st[i][k] = bs[i];
    p.n.base[k] = (char *)ops[k]->t.data;
  }
  /* Drop size-1 dims; an empty output means nothing to do. */
  int n = 0;
  for (int i = 0; i < ndim; i++) {
    if (out->t.shape[i] == 0) return 0;
    if (out->t.shape[i] == 1) continue;
    p.n.shape[n] = out->t.shape[i];
    memcpy(p.n.st[n], st[i], sizeof(st[0]));
    n++;
  }
  if (n == 0) { /* a single element */
    p.n.shape[0] = 1;
    for (int k = 0; k < nops; k++) p.n.st[0][k] = 0;
    n = 1;
  }
  /* Order dims by decreasing |output stride| (ties: first input), so the
   * inner loop walks memory in order.  Insertion sort: n is small. */
  for (int i = 1; i < n; i++) {
    int64_t sh = p.n.shape[i];
    int64_t s[MA_MAXOPS];
    memcpy(s, p.n.st[i], sizeof(s));
    int j = i - 1;
    while (j >= 0) {
      int64_t a0 = iabs64(p.n.st[j][0]), b0 = iabs64(s[0]);
      int64_t a1 = nops > 1 ? iabs64(p.n.st[j][1]) : 0, b1 = nops > 1 ? iabs64(s[1]) : 0;
      if (a0 > b0 || (a0 == b0 && a1 >= b1)) break;
      p.n.shape[j + 1] = p.n.shape[j];
      memcpy(p.n.st[j + 1], p.n.st[j], sizeof(s));
      j--;
    }
    p.n.shape[j + 1] = sh;
    memcpy(p.n.st[j + 1], s, sizeof(s));
  }
  /* Merge dim i into dim i+1 when every operand steps through both as one. */
  int m = 0;
  for (int i = 1; i < n; i++) {
    int ok = 1;
    for (int k = 0; k < nops; k++)
      if (p.n.st[m][k] != p.n.st[i][k] * p.n.shape[i]) { ok = 0; break; }
    if (ok) {
      p.n.shape[m] *= p.n.shape[i];
      for (int k = 0; k < nops; k++) p.n.st[m][k] = p.n.st[i][k];
    } else {
      m++;
      p.n.shape[m] = p.n.shape[i];
      memcpy(p.n.st[m], p.n.st[i], sizeof(p.n.st[0]));
    }
  }
  p.n.ndim = m + 1;

  int64_t total = 1;
  for (int d = 0; d < p.n.ndim; d++) total *= p.n.shape[d];
  /* Tiling reorders the walk, which is harmless only when every output
   * element is written once -- the same condition as for threads. */
  int split = splittable(&p, ops);
  if (split && !(flags & MA_ITER_NOTILE)) plan_tiles(&p, ops);

  p.units = total;
  if (p.tiled) {
    __atomic_add_fetch(&n_tiled, 1, __ATOMIC_RELAXED);
    int64_t outer = total / (p.n.shape[p.n.ndim - 2] * p.n.shape[p.n.ndim - 1]);
    p.units = outer * p.nbands;
  }
  int nt = 1;
  /* The per-call count can only lower the global one (which tests lower
   * to reach the threaded paths on small arrays). */
  int64_t global_min = ma_get_parallel_min();
  if (pmin <= 0 || pmin > global_min) pmin = global_min;
  if (split && !(flags & MA_ITER_SERIAL) && total >= pmin) nt = ma_get_num_threads();
  if (nt <= 1 || p.units < 2) {
    walk(&p, 0, p.units);
    return 0;
  }
  /* Chunks: MA_CHUNKS_PER_THREAD per thread, none below pmin / 2 elements,
   * flat ones a multiple of CHUNK_ALIGN. */
  int64_t per_unit = total / p.units;
  int64_t min_units = (pmin / 2 + per_unit - 1) / per_unit;
  int64_t chunk = (p.units + (int64_t)nt * MA_CHUNKS_PER_THREAD - 1) / ((int64_t)nt * MA_CHUNKS_PER_THREAD);
  if (chunk < min_units) chunk = min_units;
  if (!p.tiled) chunk = (chunk + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
  if (chunk < 1) chunk = 1;
  p.chunk = chunk;
  p.nchunks = (p.units + chunk - 1) / chunk;
  if (p.nchunks > 1) __atomic_add_fetch(&n_split, 1, __ATOMIC_RELAXED);
  ma_parallel_for(p.nchunks, run_chunk, &p);
  return 0;
}
