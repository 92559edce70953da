/*
 * The gather and scatter kernels (see gather.h): blocks picked by int64
 * index arrays, split over the thread pool; mask picks and fills; nonzero.
 * Plain C, run without the GIL by csrc/py/index.c.
 */
#include "gather.h"

#include <string.h>

#include "copy.h"

/* A stack view of the trailing axes of `a` starting at axis `first`. */
static void tail_view(ma_array *view, const ma_array *a, int first, char *data) {
  view->t = a->t;
  view->t.data = data;
  view->t.ndim = a->t.ndim - first;
  view->t.shape = a->t.shape + first;
  view->t.strides = a->t.strides + first;
  view->buf = NULL;
  view->flags = 0;
}

/* Index v on an axis of length dim, made non-negative: 0, or -1 when it is
 * outside [-dim, dim). */
static inline int in_axis(int64_t *v, int64_t dim) {
  if (*v < 0) *v += dim;
  return (uint64_t)*v < (uint64_t)dim ? 0 : -1;
}

/* What ma_take_blocks reads, taken out of the structs once: the index arrays'
 * data and strides (elements), and the source's strides and lengths along
 * the indexed axes. */
typedef struct {
  ma_array *src, *blocks;
  int k, scatter;
  const int64_t *ip[MA_MAXDIMS];
  int64_t is[MA_MAXDIMS], ss[MA_MAXDIMS], dims[MA_MAXDIMS];
} blocks_plan;

/* Element offset of block n in *o, or return from copy_blocks with the
 * first bad index.  Each copy checks its own index even after a scatter's
 * check pass: another thread may write the index arrays while the GIL is
 * released, and a racing write must not turn into an address out of x. */
#define BLOCK_OFFSET(o, n)                                                   \
  do {                                                                       \
    o = 0;                                                                   \
    for (int j = 0; j < k; j++) {                                            \
      int64_t v_ = ip[j][(n) * is[j]];                                       \
      if (in_axis(&v_, dims[j]) < 0) {                                       \
        *bad_value = ip[j][(n) * is[j]];                                     \
        return -1 - j;                                                       \
      }                                                                      \
      o += v_ * ss[j];                                                       \
    }                                                                        \
  } while (0)

/* The blocks are single elements (src has no axes beyond the indexed
 * ones): typed loads and stores, since a memcpy call per element costs
 * more than the copy.  T is an unsigned type of the element's size; the
 * loop reads the index arrays and locals, not the structs (which a store
 * through T could alias, forcing a reload per element).  One and two
 * index arrays (x[idx], X[rows, cols]) get loops of their own: the
 * general one's inner loop over the k arrays makes each element's work
 * long enough that fewer of the (cache-missing) loads are in flight at
 * once, which made X[rows, cols] four times slower per element than
 * x[idx]. */
#define ELEMENT_BLOCKS(T)                                                    \
  do {                                                                       \
    T *s = (T *)P->src->t.data, *b = (T *)P->blocks->t.data;                 \
    if (k == 1) {                                                            \
      const int64_t *i0 = ip[0];                                             \
      int64_t s0 = is[0], d0 = dims[0], t0 = ss[0];                          \
      for (int64_t n = begin; n < end; n++) {                                \
        int64_t v = i0[n * s0];                                              \
        if (in_axis(&v, d0) < 0) {                                           \
          *bad_value = i0[n * s0];                                           \
          return -1;                                                         \
        }                                                                    \
        if (scatter) s[v * t0] = b[n * bs]; else b[n * bs] = s[v * t0];      \
      }                                                                      \
    } else if (k == 2) {                                                     \
      const int64_t *i0 = ip[0], *i1 = ip[1];                                \
      int64_t s0 = is[0], d0 = dims[0], t0 = ss[0];                          \
      int64_t s1 = is[1], d1 = dims[1], t1 = ss[1];                          \
      for (int64_t n = begin; n < end; n++) {                                \
        int64_t v = i0[n * s0], w = i1[n * s1];                              \
        if (in_axis(&v, d0) < 0) {                                           \
          *bad_value = i0[n * s0];                                           \
          return -1;                                                         \
        }                                                                    \
        if (in_axis(&w, d1) < 0) {                                           \
          *bad_value = i1[n * s1];                                           \
          return -2;                                                         \
        }                                                                    \
        int64_t o = v * t0 + w * t1;                                         \
        if (scatter) s[o] = b[n * bs]; else b[n * bs] = s[o];                \
      }                                                                      \
    } else {                                                                 \
      for (int64_t n = begin; n < end; n++) {                                \
        int64_t o;                                                           \
        BLOCK_OFFSET(o, n);                                                  \
        if (scatter) s[o] = b[n * bs]; else b[n * bs] = s[o];                \
      }                                                                      \
    }                                                                        \
  } while (0)

typedef struct {
  uint64_t lo, hi;
} ma_16bytes;

/* Blocks [begin, end): 0, or -1 - j with *bad_value set for the first
 * index out of its axis (j the index array it is in). */
static int64_t copy_blocks(const blocks_plan *P, int64_t begin, int64_t end, int64_t *bad_value) {
  const ma_array *src = P->src, *blocks = P->blocks;
  int k = P->k, scatter = P->scatter;
  const int64_t *const *ip = P->ip, *is = P->is, *ss = P->ss, *dims = P->dims;
  int tid = ma_type_of(src->t.dtype);
  int64_t item = ma_elsize(src->t.dtype);
  if (src->t.ndim == k) {
    int64_t bs = blocks->t.ndim ? blocks->t.strides[0] : 0;
    switch (item) {
      case 1: ELEMENT_BLOCKS(uint8_t); return 0;
      case 2: ELEMENT_BLOCKS(uint16_t); return 0;
      case 4: ELEMENT_BLOCKS(uint32_t); return 0;
      case 8: ELEMENT_BLOCKS(uint64_t); return 0;
      case 16: ELEMENT_BLOCKS(ma_16bytes); return 0;
    }
  }
  ma_array sv, bv;
  for (int64_t n = begin; n < end; n++) {
    int64_t off;
    BLOCK_OFFSET(off, n);
    char *sp = (char *)src->t.data + off * item;
    char *bp = (char *)blocks->t.data + n * (blocks->t.ndim ? blocks->t.strides[0] : 0) * item;
    if (src->t.ndim == k) { /* one element per block, of another size */
      if (scatter) memcpy(sp, bp, (size_t)item); else memcpy(bp, sp, (size_t)item);
      continue;
    }
    tail_view(&sv, src, k, sp);
    tail_view(&bv, blocks, 1, bp);
    const ma_array *ops[2] = {scatter ? &sv : &bv, scatter ? &bv : &sv};
    ma_iterate(2, ops, ma_cast_loops[tid][tid], NULL);
  }
  return 0;
}

/* copy_blocks split over the thread pool: chunk c copies its share of the
 * blocks and keeps its own first bad index; the lowest chunk's is the
 * first of all, as a serial walk would find. */
#define BLOCK_CHUNKS_MAX 64
typedef struct {
  const blocks_plan *P;
  int64_t n_blocks, nchunks;
  int64_t rc[BLOCK_CHUNKS_MAX], bad[BLOCK_CHUNKS_MAX];
} blocks_job;

static void blocks_chunk(void *ctx, int64_t c) {
  blocks_job *J = (blocks_job *)ctx;
  int64_t begin, end;
  ma_chunk_range(J->n_blocks, J->nchunks, c, &begin, &end);
  J->rc[c] = copy_blocks(J->P, begin, end, &J->bad[c]);
}

/* Whether every block of `blocks` is the same bytes (all strides 0): a
 * scalar value broadcast to every place a scatter writes. */
static int one_value(const ma_array *blocks) {
  for (int d = 0; d < blocks->t.ndim; d++)
    if (blocks->t.strides[d] && blocks->t.shape[d] > 1) return 0;
  return 1;
}

/* Whether any of the n indices p[0], p[st], ... is outside [-d, d): v + d
 * < 2 d as unsigned, a branchless compare the compiler vectorises (a
 * contiguous index array gets a loop of its own for that). */
MA_HOT static int any_outside(const int64_t *p, int64_t n, int64_t st, int64_t d) {
  uint64_t bad = 0, ud = (uint64_t)d, span = 2 * ud;
  if (st == 1) {
    for (int64_t i = 0; i < n; i++) bad |= (uint64_t)p[i] + ud >= span;
  } else {
    for (int64_t i = 0; i < n; i++) bad |= (uint64_t)p[i * st] + ud >= span;
  }
  return bad != 0;
}

int64_t ma_take_blocks(ma_array *src, ma_array *blocks, ma_array *const *idx, int k, int64_t n_blocks,
                       int scatter, int64_t *bad_value) {
  blocks_plan P = {.src = src, .blocks = blocks, .k = k, .scatter = scatter};
  for (int j = 0; j < k; j++) {
    P.ip[j] = (const int64_t *)idx[j]->t.data;
    P.is[j] = idx[j]->t.ndim ? idx[j]->t.strides[0] : 0;
    P.ss[j] = src->t.strides[j];
    P.dims[j] = src->t.shape[j];
  }
  if (scatter) {
    /* Every index is checked before the first write, as NumPy does: an
     * out-of-bounds index leaves the destination as it was.  This pass
     * only asks whether any index is out of [-dim, dim); the walk below
     * finds the first bad one, before anything is written. */
    int bad = 0;
    for (int j = 0; j < k; j++) bad |= any_outside(P.ip[j], n_blocks, P.is[j], P.dims[j]);
    const int64_t *const *ip = P.ip, *is = P.is, *ss = P.ss, *dims = P.dims;
    for (int64_t n = 0; bad && n < n_blocks; n++) {
      int64_t o;
      BLOCK_OFFSET(o, n);
      (void)o;
    }
  }
  /* Gathers write disjoint blocks of a fresh array, so any split gives the
   * same result.  Scatters of one value too (duplicate indices write the
   * same bytes); scatters of several keep their order, since NumPy's "the
   * last write wins" for a repeated index is an order. */
  int64_t work = ma_array_size(blocks);
  int threads = ma_get_num_threads();
  if (threads > 1 && work >= ma_get_parallel_min() && n_blocks >= 2 * threads && (!scatter || one_value(blocks))) {
    blocks_job J = {.P = &P, .n_blocks = n_blocks};
    J.nchunks = MA_CHUNKS_PER_THREAD * (int64_t)threads;
    if (J.nchunks > BLOCK_CHUNKS_MAX) J.nchunks = BLOCK_CHUNKS_MAX;
    ma_parallel_for(J.nchunks, blocks_chunk, &J);
    for (int64_t c = 0; c < J.nchunks; c++)
      if (J.rc[c]) {
        *bad_value = J.bad[c];
        return J.rc[c];
      }
    return 0;
  }
  return copy_blocks(&P, 0, n_blocks, bad_value);
}

int ma_snapshot_indices(const ma_array *x, ma_array **idx, char *owned, int k) {
  for (int j = 0; j < k; j++) {
    if (owned[j] || !ma_may_overlap(x, idx[j])) continue;
    ma_array *c = ma_snapshot(idx[j]);
    if (!c) return -1;
    idx[j] = c;
    owned[j] = 1;
  }
  return 0;
}

ma_array *ma_nonzero(const ma_array *a, int64_t *count_out) {
  int tid = ma_type_of(a->t.dtype);
  int nd = a->t.ndim, err = 0;
  /* First, a contiguous bool copy: one pass decides truth for every type. */
  DLDataType bdt = {kDLBool, 8, 1};
  ma_array *mask = ma_array_empty(bdt, nd, a->t.shape, 0, &err);
  if (!mask) return NULL;
  const ma_array *ops[2] = {mask, a};
  int64_t size = ma_array_size(a), count = 0;
  ma_iterate(2, ops, ma_cast_loops[tid][MA_BOOL], NULL);
  const uint8_t *m = (const uint8_t *)mask->t.data;
  for (int64_t i = 0; i < size; i++) count += m[i];
  DLDataType idt = {kDLInt, 64, 1};
  int64_t shape[2] = {count, nd};
  ma_array *out = ma_array_empty(idt, 2, shape, 0, &err);
  if (!out) {
    ma_array_free(mask);
    return NULL;
  }
  int64_t *o = (int64_t *)out->t.data;
  int64_t coord[MA_MAXDIMS] = {0};
  for (int64_t i = 0; i < size; i++) {
    if (m[i]) {
      for (int d = 0; d < nd; d++) *o++ = coord[d];
    }
    for (int d = nd - 1; d >= 0; d--) {
      if (++coord[d] < a->t.shape[d]) break;
      coord[d] = 0;
    }
  }
  ma_array_free(mask);
  *count_out = count;
  return out;
}

/* Whether `a` is walked in C order as one run, `*step` elements apart:
 * 1-d, or C-contiguous (size-1 axes may have any stride). */
static int one_run(const ma_array *a, int64_t *step) {
  if (a->t.ndim == 1) {
    *step = a->t.strides[0];
    return 1;
  }
  *step = 1;
  return ma_array_is_contiguous(a, 0);
}

/* One step of a C-order walk over `shape`: the coordinates, and the
 * running element offsets into x (strides xs) and the mask (strides ms). */
static inline void walk_step(int nd, const int64_t *shape, int64_t *coord, const int64_t *xs, int64_t *xo,
                             const int64_t *ms, int64_t *mo) {
  for (int d = nd - 1; d >= 0; d--) {
    *mo += ms[d];
    *xo += xs[d];
    if (++coord[d] < shape[d]) return;
    *mo -= ms[d] * shape[d];
    *xo -= xs[d] * shape[d];
    coord[d] = 0;
  }
}

/* The picks of ma_mask_select over one run each: branchless, writing every
 * element and moving on past the true ones only.  The loop stops at the
 * last true element, so it never writes past the `count` picked, and at
 * the end of x whatever the mask says (another thread may change it
 * between the count and the copy while the GIL is released). */
#define SELECT_RUN(T)                                                     \
  do {                                                                    \
    const T *x = (const T *)a->t.data;                                    \
    T *o = (T *)out->t.data;                                              \
    for (int64_t i = 0, j = 0; j < count && i < size; i++) {              \
      o[j] = x[i * xstep];                                                \
      j += mp[i * mstep] != 0;                                            \
    }                                                                     \
  } while (0)

/* ma_mask_fill over x and a mask both contiguous: a plain conditional store,
 * which GCC turns into masked vector stores in the AVX2 clone (only the
 * picked elements are written).  On a random mask that is 8x faster than
 * the branch per element of FILL_RUN's strided loop, which mispredicts
 * every other element. */
#define FILL_CONTIGUOUS(T, NAME)                                                  \
  MA_HOT static void NAME(T *restrict x, const uint8_t *restrict m, int64_t n, T v) { \
    for (int64_t i = 0; i < n; i++)                                               \
      if (m[i]) x[i] = v;                                                         \
  }
FILL_CONTIGUOUS(uint8_t, fill_contiguous_1)
FILL_CONTIGUOUS(uint16_t, fill_contiguous_2)
FILL_CONTIGUOUS(uint32_t, fill_contiguous_4)
FILL_CONTIGUOUS(uint64_t, fill_contiguous_8)
static void fill_contiguous_16(ma_16bytes *restrict x, const uint8_t *restrict m, int64_t n, ma_16bytes v) {
  for (int64_t i = 0; i < n; i++)
    if (m[i]) x[i] = v;
}

/* ma_mask_fill's stores over one run each */
#define FILL_RUN(T, CONTIGUOUS)                                           \
  do {                                                                    \
    T *x = (T *)a->t.data, v;                                             \
    memcpy(&v, one, sizeof(T));                                           \
    if (xstep == 1 && mstep == 1) {                                       \
      CONTIGUOUS(x, mp, size, v);                                         \
      return;                                                             \
    }                                                                     \
    for (int64_t i = 0; i < size; i++)                                    \
      if (mp[i * mstep]) x[i * xstep] = v;                                \
  } while (0)

ma_array *ma_mask_select(const ma_array *a, const ma_array *m) {
  int nd = a->t.ndim;
  int64_t size = ma_array_size(a), count = 0, item = ma_elsize(a->t.dtype);
  const int64_t *shape = a->t.shape, *xs = a->t.strides, *ms = m->t.strides;
  int64_t coord[MA_MAXDIMS] = {0}, xo = 0, mo = 0, xstep, mstep;
  const char *xp = (const char *)a->t.data;
  const uint8_t *mp = (const uint8_t *)m->t.data;
  int runs = one_run(a, &xstep) && one_run(m, &mstep);
  /* first pass counts, second copies: both walk C order, as one run or
   * with running element offsets (any strides, negative ones too) */
  if (runs) {
    for (int64_t i = 0; i < size; i++) count += mp[i * mstep] != 0;
  } else {
    for (int64_t i = 0; i < size; i++) {
      count += mp[mo] != 0;
      walk_step(nd, shape, coord, xs, &xo, ms, &mo);
    }
  }
  int err = 0;
  ma_array *out = ma_array_empty(a->t.dtype, 1, &count, 0, &err);
  if (!out) return NULL;
  if (runs) {
    switch (item) {
      case 1: SELECT_RUN(uint8_t); return out;
      case 2: SELECT_RUN(uint16_t); return out;
      case 4: SELECT_RUN(uint32_t); return out;
      case 8: SELECT_RUN(uint64_t); return out;
      case 16: SELECT_RUN(ma_16bytes); return out;
    }
  }
  char *op = (char *)out->t.data, *end = op + count * item;
  xo = mo = 0; /* (a whole walk brings coord back to zeros) */
  for (int64_t i = 0; i < size; i++) {
    if (mp[mo] && op < end) { /* bounded for the same reason as SELECT_RUN */
      memcpy(op, xp + xo * item, (size_t)item);
      op += item;
    }
    walk_step(nd, shape, coord, xs, &xo, ms, &mo);
  }
  return out;
}

/* One walk, as ma_mask_select's second. */
void ma_mask_fill(ma_array *a, const ma_array *m, const char *one) {
  int nd = a->t.ndim;
  int64_t size = ma_array_size(a), item = ma_elsize(a->t.dtype);
  const int64_t *shape = a->t.shape, *xs = a->t.strides, *ms = m->t.strides;
  int64_t coord[MA_MAXDIMS] = {0}, xo = 0, mo = 0, xstep, mstep;
  char *xp = (char *)a->t.data;
  const uint8_t *mp = (const uint8_t *)m->t.data;
  if (one_run(a, &xstep) && one_run(m, &mstep)) {
    switch (item) {
      case 1: FILL_RUN(uint8_t, fill_contiguous_1); return;
      case 2: FILL_RUN(uint16_t, fill_contiguous_2); return;
      case 4: FILL_RUN(uint32_t, fill_contiguous_4); return;
      case 8: FILL_RUN(uint64_t, fill_contiguous_8); return;
      case 16: FILL_RUN(ma_16bytes, fill_contiguous_16); return;
    }
  }
  for (int64_t i = 0; i < size; i++) {
    if (mp[mo]) memcpy(xp + xo * item, one, (size_t)item);
    walk_step(nd, shape, coord, xs, &xo, ms, &mo);
  }
}
