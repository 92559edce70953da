/*
 * Integer-array ("advanced") indexing: gather, scatter and nonzero.
 *
 * Every advanced index is reduced to this form: a source view whose first
 * k axes are indexed by k int64 arrays of one broadcast length N, and the
 * remaining axes R are taken whole.  gather copies N blocks of shape R
 * out; scatter writes them in.  minarray/indexing.py reduces any key; the
 * common keys are reduced here, in C (see "the common advanced keys").
 */
#include "copy.h"
#include "pyapi.h"

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

/* What run_blocks reads, taken out of the structs once: the index arrays'
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

static int64_t run_blocks(ma_array *src, ma_array *blocks, ma_array *const *idx, int k,
                          int64_t n_blocks, int scatter, int64_t *bad_value) {
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

/* A scatter writes x while it reads its index arrays: one that shares
 * memory with x (x[x] = v) is read through a snapshot, as if the whole key
 * were read before anything is written.  idx[j] is replaced by its snapshot
 * and owned[j] set (the caller frees those); -1 when out of memory. */
static int snapshot_aliased(const ma_array *x, ma_array **idx, char *owned, int k) {
  for (int j = 0; j < k; j++) {
    if (owned[j] || !ma_may_overlap(x, idx[j])) continue;
    ma_array *c = ma_snapshot(idx[j]);
    if (!c) return -1;
    idx[j] = c;
    owned[j] = 1;
  }
  return 0;
}

/* take_blocks(src, blocks, indices, scatter): see the file comment.  `blocks`
 * has shape (N, R...) and src's dtype; each index is a 1-d int64 array of
 * length N (or 0-d). */
static PyObject *py_take_blocks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "take_blocks");
  ma_array *src = ma_handle_get(args[0]), *blocks = src ? ma_handle_get(args[1]) : NULL;
  if (!blocks) return NULL;
  int scatter = PyObject_IsTrue(args[3]);
  if (scatter && (src->flags & MA_READONLY)) {
    PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
    return NULL;
  }
  PyObject *fast = PySequence_Fast(args[2], "indices must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t nk = PySequence_Fast_GET_SIZE(fast);
  if (nk > src->t.ndim || nk > MA_MAXDIMS) {
    Py_DECREF(fast);
    return PyErr_Format(PyExc_ValueError, "take_blocks: %zd index arrays for %d axes", nk, src->t.ndim);
  }
  int k = (int)nk;
  ma_array *idx[MA_MAXDIMS] = {NULL};
  char owned[MA_MAXDIMS] = {0};
  for (int j = 0; j < k; j++) {
    idx[j] = ma_handle_get(PySequence_Fast_GET_ITEM(fast, j));
    if (!idx[j]) { Py_DECREF(fast); return NULL; }
  }
  int64_t bad = 0, rc = 0;
  int64_t n_blocks = blocks->t.ndim ? blocks->t.shape[0] : 1;
  if (scatter && snapshot_aliased(src, idx, owned, k) < 0) {
    rc = 1;
  } else {
    Py_BEGIN_ALLOW_THREADS
    rc = run_blocks(src, blocks, idx, k, n_blocks, scatter, &bad);
    Py_END_ALLOW_THREADS
  }
  for (int j = 0; j < k; j++)
    if (owned[j]) ma_array_free(idx[j]);
  Py_DECREF(fast);
  if (rc > 0) return PyErr_NoMemory();
  if (rc < 0) {
    int axis = (int)(-1 - rc);
    return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)bad, axis, (long long)src->t.shape[axis]);
  }
  Py_RETURN_NONE;
}

/* The indices of a's non-zero elements as a new int64 (count, ndim) array,
 * in C order; NULL when out of memory.  Runs without the GIL. */
static ma_array *nonzero_coords(const ma_array *a, int64_t *count_out) {
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

/* nonzero(h) -> (count, handle of an int64 (count, ndim) array of indices) */
static PyObject *py_nonzero(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "nonzero");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int64_t count = 0;
  ma_array *out;
  Py_BEGIN_ALLOW_THREADS
  out = nonzero_coords(a, &count);
  Py_END_ALLOW_THREADS
  if (!out) return PyErr_NoMemory();
  PyObject *h = ma_handle_new(out);
  return h ? Py_BuildValue("(LN)", (long long)count, h) : NULL;
}

/* Work below this many elements keeps the GIL: releasing and taking it
 * back costs more than such a loop. */
#define SMALL_WORK 4096

/* Runs `stmt` (no Python calls in it) without the GIL when `work`
 * elements are enough to pay for releasing it. */
#define WITHOUT_GIL_IF_LARGE(work, stmt)  \
  do {                                    \
    if ((work) < SMALL_WORK) {            \
      stmt;                               \
    } else {                              \
      Py_BEGIN_ALLOW_THREADS stmt;        \
      Py_END_ALLOW_THREADS                \
    }                                     \
  } while (0)

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

/* The picks of mask_select over one run each: branchless, writing every
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

/* mask_fill over x and a mask both contiguous: a plain conditional store,
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

/* mask_fill's stores over one run each */
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

/* x[mask] for a bool mask of x's shape (ndim >= 1): the elements where the
 * mask is true, in C order, as a new 1-d array; NULL when out of memory. */
static ma_array *mask_select(const ma_array *a, const ma_array *m) {
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

/* x[mask] = one element (at `one`, of x's dtype) for a bool mask of x's
 * shape that does not overlap x: one walk, as mask_select's second. */
static void mask_fill(ma_array *a, const ma_array *m, const char *one) {
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

/* A bool mask of exactly x's shape: the key mask_select and mask_fill take. */
static int is_full_mask(const ma_array *a, const ma_array *k) {
  int nd = a->t.ndim;
  return k && nd && k->t.ndim == nd && k->t.dtype.code == kDLBool && k->t.dtype.bits == 8 &&
         k->t.dtype.lanes == 1 && !memcmp(k->t.shape, a->t.shape, (size_t)nd * sizeof(int64_t));
}

/* ---- the common advanced keys, answered in C -------------------------------
 * x[key] and x[key] = value where the key is a 1-d array of any integer
 * dtype or a list of Python ints, a tuple of such entries of one length
 * (x[rows, cols]), or a bool mask over x's leading axes; and x[key] for an
 * n-d integer array alone (emb[ids]).  Each resolves to the form of the
 * file comment (k int64 index arrays of one length n over x's first k
 * axes), which is what minarray/indexing.py reduces such a key to, so the
 * answers are the same; here they cost about a microsecond instead of
 * 10-20.  Any other key (entries that broadcast, slices beside several
 * arrays, lists of bools, assignment through an n-d key) goes through
 * minarray/indexing.py, which also words the errors for shapes that do not
 * fit. */

static const DLDataType INT64_DT = {kDLInt, 64, 1};

typedef struct {
  int k;
  int64_t n;
  int ind;                   /* x[key]'s shape starts with (n,), or with */
  int64_t ishape[MA_MAXDIMS]; /* an n-d key's shape (ind > 1) */
  ma_array *idx[MA_MAXDIMS]; /* 1-d int64 arrays of length n */
  char owned[MA_MAXDIMS];    /* idx[j] was made here (not the caller's key) */
  ma_array *store;           /* what idx view: a mask's coordinates, an n-d key */
} adv_key;

static void adv_free(adv_key *K) {
  for (int j = 0; j < K->k; j++)
    if (K->owned[j]) ma_array_free(K->idx[j]);
  if (K->store) ma_array_free(K->store);
  K->k = 0;
  K->store = NULL;
}

static void adv_add(adv_key *K, ma_array *ix, int owned) {
  K->owned[K->k] = (char)owned;
  K->idx[K->k++] = ix;
}

/* One integer entry of the key (a 1-d NDArray of any integer dtype, or a
 * list of exact ints) as the next index array: 1 added; 0 when `e` is not
 * one, or its length differs from the entries before it (NumPy would
 * broadcast them: the general path does); -1 when out of memory. */
static int adv_int_entry(adv_key *K, PyObject *e) {
  int err = 0;
  int64_t n;
  ma_array *ke = ma_ndarray_array(e), *ix;
  if (ke) {
    DLDataType kt = ke->t.dtype;
    if (kt.lanes != 1 || ke->t.ndim != 1 || (kt.code != kDLInt && kt.code != kDLUInt)) return 0;
    n = ke->t.shape[0];
    if (K->k && n != K->n) return 0;
    K->n = n;
    if (kt.code == kDLInt && kt.bits == 64) { /* used as it is */
      adv_add(K, ke, 0);
      return 1;
    }
    /* other integer dtypes are read as int64, as astype(int64) reads them
     * (uint64 wraps, as in NumPy) */
    if (!(ix = ma_array_empty(INT64_DT, 1, &n, 0, &err))) return -1;
    const ma_array *ops[2] = {ix, ke};
    ma_iterate(2, ops, ma_cast_loops[ma_type_of(kt)][MA_INT64], NULL);
    adv_add(K, ix, 1);
    return 1;
  }
  /* a list of exact ints (bools make a mask, other items an error or a
   * nested key: those go the general way) */
  if (!PyList_CheckExact(e) || (n = PyList_GET_SIZE(e)) == 0 || (K->k && n != K->n)) return 0;
  if (!(ix = ma_array_empty(INT64_DT, 1, &n, 0, &err))) return -1;
  int64_t *out = (int64_t *)ix->t.data;
  for (int64_t i = 0; i < n; i++) {
    PyObject *item = PyList_GET_ITEM(e, i);
    int overflow = 1;
    long long v = 0;
    if (PyLong_CheckExact(item)) v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow) {
      ma_array_free(ix);
      return 0;
    }
    out[i] = v;
  }
  K->n = n;
  adv_add(K, ix, 1);
  return 1;
}

/* An integer key of two or more dimensions, alone (emb[ids]): its
 * elements in C order as one index array; x[key] has the key's shape
 * first.  1, 0 (x[key] would have too many dimensions), or -1 when out
 * of memory. */
static int adv_nd_entry(const ma_array *a, ma_array *ke, adv_key *K) {
  int err = 0;
  if (ke->t.ndim + a->t.ndim - 1 > MA_MAXDIMS) return 0;
  K->store = ma_array_empty(INT64_DT, ke->t.ndim, ke->t.shape, 0, &err);
  if (!K->store) return -1;
  const ma_array *ops[2] = {K->store, ke};
  ma_iterate(2, ops, ma_cast_loops[ma_type_of(ke->t.dtype)][MA_INT64], NULL);
  K->n = ma_array_size(ke);
  ma_array *flat = ma_array_view(K->store, 0, INT64_DT, 1, &K->n, NULL, 0);
  if (!flat) return -1;
  adv_add(K, flat, 1);
  K->ind = ke->t.ndim;
  memcpy(K->ishape, ke->t.shape, (size_t)K->ind * sizeof(int64_t));
  return 1;
}

/* `key` as index arrays over a's leading axes: 1 done; 0 when it is not
 * one of the keys above (nothing held); -1 with MemoryError set.  The
 * keys: one integer entry (1-d, or n-d alone), a tuple of at most ndim
 * 1-d integer entries of one length (x[rows, cols]), or a bool mask over
 * the leading axes. */
static int adv_resolve(const ma_array *a, PyObject *key, adv_key *K) {
  K->k = 0;
  K->n = 0;
  K->ind = 1;
  K->store = NULL;
  int nd = a->t.ndim, rc = 0;
  if (nd == 0) return 0;
  ma_array *ka = ma_ndarray_array(key);
  if (ka && ka->t.dtype.code == kDLBool && ka->t.dtype.bits == 8 && ka->t.dtype.lanes == 1) {
    /* a mask over the leading j axes: its nonzero coordinates, one
     * column per axis */
    int j = ka->t.ndim;
    if (j == 0 || j > nd) return 0;
    for (int d = 0; d < j; d++)
      if (ka->t.shape[d] != a->t.shape[d]) return 0;
    WITHOUT_GIL_IF_LARGE(ma_array_size(ka), K->store = nonzero_coords(ka, &K->n));
    if (!K->store) goto oom;
    for (int d = 0; d < j; d++) {
      int64_t stride = j;
      ma_array *col = ma_array_view(K->store, d, INT64_DT, 1, &K->n, &stride, 0);
      if (!col) goto oom;
      adv_add(K, col, 1);
    }
    return 1;
  }
  if (ka && ka->t.ndim > 1 && ka->t.dtype.lanes == 1 &&
      (ka->t.dtype.code == kDLInt || ka->t.dtype.code == kDLUInt)) {
    rc = adv_nd_entry(a, ka, K);
  } else if (PyTuple_CheckExact(key)) {
    Py_ssize_t nk = PyTuple_GET_SIZE(key);
    if (nk == 0 || nk > nd) return 0;
    for (Py_ssize_t i = 0; i < nk; i++)
      if ((rc = adv_int_entry(K, PyTuple_GET_ITEM(key, i))) <= 0) break;
  } else {
    rc = adv_int_entry(K, key);
  }
  if (rc > 0) return 1;
  adv_free(K);
  if (rc == 0) return 0;
oom:
  adv_free(K);
  PyErr_NoMemory();
  return -1;
}

/* run_blocks, without the GIL when the work is large, and the IndexError
 * the general path raises (axis j of the key is axis axis0 + j of x) */
static int run_blocks_checked(ma_array *src, ma_array *blocks, const adv_key *K, int scatter, int axis0) {
  int64_t bad = 0, rc;
  WITHOUT_GIL_IF_LARGE(ma_array_size(blocks),
                       rc = run_blocks(src, blocks, (ma_array *const *)K->idx, K->k, K->n, scatter, &bad));
  if (rc >= 0) return 0;
  int axis = (int)(-1 - rc);
  PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)bad,
               axis0 + axis, (long long)src->t.shape[axis]);
  return -1;
}

/* The shape of x[key]: (n, the axes after the indexed ones), with an n-d
 * key's shape for (n,). */
static int adv_shape(const ma_array *a, const adv_key *K, int64_t *shape) {
  int ind = K->ind, nd = ind + a->t.ndim - K->k;
  if (ind == 1)
    shape[0] = K->n;
  else
    memcpy(shape, K->ishape, (size_t)ind * sizeof(int64_t));
  for (int d = ind; d < nd; d++) shape[d] = a->t.shape[K->k + d - ind];
  return nd;
}

ma_array *ma_gather_first(ma_array *a, PyObject *key, int axis0, int *failed) {
  adv_key K;
  int rc = adv_resolve(a, key, &K);
  *failed = rc < 0;
  if (rc <= 0) return NULL;
  int64_t shape[MA_MAXDIMS];
  int err = 0;
  int nd = adv_shape(a, &K, shape);
  ma_array *out = ma_array_empty(a->t.dtype, nd, shape, 0, &err);
  if (!out) {
    PyErr_NoMemory();
  } else {
    /* the blocks: out seen as (n, rest...), C-contiguous as out is */
    int bnd = nd - K.ind + 1;
    int64_t bshape[MA_MAXDIMS], bstrides[MA_MAXDIMS];
    ma_array blocks = *out;
    bshape[0] = K.n;
    memcpy(bshape + 1, shape + K.ind, (size_t)(bnd - 1) * sizeof(int64_t));
    memcpy(bstrides + 1, out->t.strides + K.ind, (size_t)(bnd - 1) * sizeof(int64_t));
    bstrides[0] = K.ind > 1 ? out->t.strides[K.ind - 1] : out->t.strides[0];
    blocks.t.ndim = bnd;
    blocks.t.shape = bshape;
    blocks.t.strides = bstrides;
    if (run_blocks_checked(a, &blocks, &K, 0, axis0) < 0) {
      ma_array_free(out);
      out = NULL;
    }
  }
  *failed = !out;
  adv_free(&K);
  return out;
}

PyObject *ma_getitem_advanced(ma_array *a, PyObject *key) {
  ma_array *ka = ma_ndarray_array(key), *out;
  int failed = 0;
  if (is_full_mask(a, ka)) { /* one pass picks the elements */
    WITHOUT_GIL_IF_LARGE(ma_array_size(a), out = mask_select(a, ka));
    if (!out) return PyErr_NoMemory();
  } else {
    out = ma_gather_first(a, key, 0, &failed);
    if (!out) return failed ? NULL : Py_NewRef(Py_None);
  }
  return ma_ndarray_new(out, NULL);
}

PyObject *ma_setitem_advanced(ma_array *a, PyObject *key, PyObject *value, ma_array *s) {
  ma_array *ka = ma_ndarray_array(key);
  if (!s && is_full_mask(a, ka) && !ma_may_overlap(a, ka)) {
    /* x[mask] = scalar, the most common of all: one pass writes it */
    _Alignas(16) char one[16]; /* one element of any dtype, aligned for it */
    if (ma_check_writeable(a) < 0 || ma_store_scalar(value, ma_type_of(a->t.dtype), one) < 0) return NULL;
    WITHOUT_GIL_IF_LARGE(ma_array_size(a), mask_fill(a, ka, one));
    Py_RETURN_TRUE;
  }
  adv_key K;
  int rc = adv_resolve(a, key, &K);
  if (rc <= 0) return rc < 0 ? NULL : Py_NewRef(Py_None);
  if (K.ind > 1) goto general; /* emb[ids] = v: the value broadcasts to an n-d key */
  if (snapshot_aliased(a, K.idx, K.owned, K.k) < 0) {
    adv_free(&K);
    return PyErr_NoMemory();
  }
  int64_t shape[MA_MAXDIMS], vshape[MA_MAXDIMS], strides[MA_MAXDIMS];
  int nd = adv_shape(a, &K, shape), sd = s ? s->t.ndim : 0, err = 0;
  PyObject *result = NULL;
  ma_array *vals = NULL, *blocks = NULL;
  /* the value broadcasts to x[key]'s shape, trailing axes aligned, as
   * _broadcastable_value checks (the general path words the error) */
  if (sd > nd) goto general;
  for (int i = 0; i < nd; i++) {
    int si = i - (nd - sd);
    vshape[i] = si >= 0 ? s->t.shape[si] : 1;
    if (vshape[i] != 1 && vshape[i] != shape[i]) goto general;
  }
  if (ma_check_writeable(a) < 0) goto done;
  /* The value, cast to x's dtype once into a temporary (which also makes
   * x[idx] = x[...] safe when they overlap), then read as x[key]'s shape
   * with stride 0 along the axes it broadcasts over. */
  vals = ma_array_empty(a->t.dtype, nd, vshape, 0, &err);
  if (!vals) {
    PyErr_NoMemory();
    goto done;
  }
  if (s) {
    if (ma_assign_array(vals, s) < 0) goto done;
  } else if (ma_store_scalar(value, ma_type_of(a->t.dtype), (char *)vals->t.data) < 0) {
    goto done;
  }
  int64_t st = 1;
  for (int i = nd - 1; i >= 0; i--) {
    strides[i] = vshape[i] == 1 ? 0 : st;
    st *= vshape[i];
  }
  blocks = ma_array_new(NULL, vals->t.data, a->t.dtype, nd, shape, strides, 0);
  if (!blocks) {
    PyErr_NoMemory();
    goto done;
  }
  if (run_blocks_checked(a, blocks, &K, 1, 0) == 0) result = Py_NewRef(Py_True);
done:
  if (blocks) ma_array_free(blocks);
  if (vals) ma_array_free(vals);
  adv_free(&K);
  return result;
general:
  adv_free(&K);
  Py_RETURN_NONE;
}

PyMethodDef ma_index_methods[] = {
    {"take_blocks", (PyCFunction)(void (*)(void))py_take_blocks, METH_FASTCALL,
     "take_blocks(src, blocks, indices, scatter)"},
    {"nonzero", (PyCFunction)(void (*)(void))py_nonzero, METH_FASTCALL, "nonzero(h) -> (count, handle)"},
    {NULL, NULL, 0, NULL}};
