/*
 * Integer-array ("advanced") indexing's Python side: take_blocks and
 * nonzero, and the common advanced keys (parsed by csrc/py/views.c, see
 * index_key.h) gathered and scattered in C for NDArray's
 * __getitem__/__setitem__, around the kernels of csrc/core/gather.c (see
 * gather.h for the form every key is reduced to).
 */
#include "copy.h"
#include "gather.h"
#include "index_key.h"

/* take_blocks(src, blocks, indices, scatter): see gather.h.  `blocks`
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
  if (scatter && ma_snapshot_indices(src, idx, owned, k) < 0) {
    rc = 1;
  } else {
    Py_BEGIN_ALLOW_THREADS
    rc = ma_take_blocks(src, blocks, idx, k, n_blocks, scatter, &bad);
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

/* nonzero(h) -> (count, handle of an int64 (count, ndim) array of indices) */
static PyObject *py_nonzero(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "nonzero");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int64_t count = 0;
  ma_array *out;
  Py_BEGIN_ALLOW_THREADS
  out = ma_nonzero(a, &count);
  Py_END_ALLOW_THREADS
  if (!out) return PyErr_NoMemory();
  PyObject *h = ma_handle_new(out);
  return h ? Py_BuildValue("(LN)", (long long)count, h) : NULL;
}

/* A bool mask of exactly x's shape, alone: the key ma_mask_select and
 * ma_mask_fill take. */
static ma_array *full_mask(const ma_array *a, const index_key *K) {
  if (K->n != 1 || K->e[0].kind != KE_MASK) return NULL;
  ma_array *k = K->e[0].arr;
  int nd = a->t.ndim;
  return k && nd && k->t.ndim == nd && !memcmp(k->t.shape, a->t.shape, (size_t)nd * sizeof(int64_t)) ? k : NULL;
}

/* ---- the common advanced keys, answered in C -------------------------------
 * x[key] and x[key] = value where the parsed key is integer arrays alone,
 * 1-d and of one length (x[idx], x[rows, cols]), or a bool mask over x's
 * leading axes; and x[key] for an n-d integer array alone (emb[ids]).
 * Each resolves to the form of the gather.h comment (k int64 index arrays
 * of one length n over x's first k axes), the form minarray/_indexing.py
 * reduces every other advanced key to, so the answers are the same; here
 * they cost about a microsecond instead of 10-20.  The other advanced keys
 * (entries that broadcast, ints or slices beside several arrays,
 * assignment through an n-d key) go, parsed, to minarray/_indexing.py,
 * which also words the errors for shapes that do not fit. */

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

/* A 1-d integer array entry as the next index array: 1 added; 0 when it
 * is not 1-d, or its length differs from the entries before it (NumPy
 * would broadcast them: the general path does); -1 when out of memory. */
static int adv_int_entry(adv_key *K, const key_entry *e) {
  int err = 0;
  ma_array *ke = e->kind == KE_ARRAY ? e->arr : NULL, *ix;
  if (!ke || ke->t.ndim != 1) return 0;
  int64_t n = ke->t.shape[0];
  if (K->k && n != K->n) return 0;
  K->n = n;
  DLDataType kt = ke->t.dtype;
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

/* Entries e[0..n) as index arrays over a's leading axes: 1 done; 0 when
 * they are not one of the keys above (nothing held); -1 with MemoryError
 * set.  The keys: one integer array (1-d, or n-d alone), at most ndim 1-d
 * integer arrays of one length (x[rows, cols]), or one bool mask over the
 * leading axes. */
static int adv_resolve(const ma_array *a, const key_entry *e, int n, adv_key *K) {
  K->k = 0;
  K->n = 0;
  K->ind = 1;
  K->store = NULL;
  int nd = a->t.ndim, rc = 0;
  if (nd == 0 || n == 0 || n > nd) return 0;
  ma_array *ka = e[0].kind == KE_MASK || e[0].kind == KE_ARRAY ? e[0].arr : NULL;
  if (n == 1 && ka && e[0].kind == KE_MASK) {
    /* a mask over the leading j axes: its nonzero coordinates, one
     * column per axis */
    int j = ka->t.ndim;
    if (j == 0 || j > nd) return 0;
    for (int d = 0; d < j; d++)
      if (ka->t.shape[d] != a->t.shape[d]) return 0;
    WITHOUT_GIL_IF_LARGE(ma_array_size(ka), K->store = ma_nonzero(ka, &K->n));
    if (!K->store) goto oom;
    for (int d = 0; d < j; d++) {
      int64_t stride = j;
      ma_array *col = ma_array_view(K->store, d, INT64_DT, 1, &K->n, &stride, 0);
      if (!col) goto oom;
      adv_add(K, col, 1);
    }
    return 1;
  }
  if (n == 1 && ka && ka->t.ndim > 1) {
    rc = adv_nd_entry(a, ka, K);
  } else {
    for (int i = 0; i < n; i++)
      if ((rc = adv_int_entry(K, &e[i])) <= 0) break;
  }
  if (rc > 0) return 1;
  adv_free(K);
  if (rc == 0) return 0;
oom:
  adv_free(K);
  PyErr_NoMemory();
  return -1;
}

/* ma_take_blocks, without the GIL when the work is large, and the IndexError
 * the general path raises (axis j of the key is axis axis0 + j of x) */
static int take_blocks_checked(ma_array *src, ma_array *blocks, const adv_key *K, int scatter, int axis0) {
  int64_t bad = 0, rc;
  WITHOUT_GIL_IF_LARGE(ma_array_size(blocks),
                       rc = ma_take_blocks(src, blocks, (ma_array *const *)K->idx, K->k, K->n, scatter, &bad));
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

ma_array *ma_gather_first(ma_array *a, const key_entry *e, int n, int axis0, int *failed) {
  adv_key K;
  int rc = adv_resolve(a, e, n, &K);
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
    if (take_blocks_checked(a, &blocks, &K, 0, axis0) < 0) {
      ma_array_free(out);
      out = NULL;
    }
  }
  *failed = !out;
  adv_free(&K);
  return out;
}

PyObject *ma_getitem_advanced(ma_array *a, const index_key *K) {
  ma_array *mask = full_mask(a, K), *out;
  int failed = 0;
  if (mask) { /* one pass picks the elements */
    WITHOUT_GIL_IF_LARGE(ma_array_size(a), out = ma_mask_select(a, mask));
    if (!out) return PyErr_NoMemory();
  } else {
    if (K->narrays != K->n) Py_RETURN_NONE; /* arrays alone: the rest go to the general route */
    out = ma_gather_first(a, K->e, K->n, 0, &failed);
    if (!out) return failed ? NULL : Py_NewRef(Py_None);
  }
  return ma_ndarray_new(out, NULL);
}

PyObject *ma_setitem_advanced(ma_array *a, const index_key *Kp, PyObject *value, ma_array *s) {
  ma_array *mask = full_mask(a, Kp);
  if (!s && mask && !ma_may_overlap(a, mask)) {
    /* x[mask] = scalar, the most common of all: one pass writes it */
    _Alignas(16) char one[16]; /* one element of any dtype, aligned for it */
    if (ma_check_writeable(a) < 0 || ma_store_scalar(value, ma_type_of(a->t.dtype), one) < 0) return NULL;
    WITHOUT_GIL_IF_LARGE(ma_array_size(a), ma_mask_fill(a, mask, one));
    Py_RETURN_TRUE;
  }
  if (!mask && Kp->narrays != Kp->n) Py_RETURN_NONE;
  adv_key K;
  int rc = adv_resolve(a, Kp->e, Kp->n, &K);
  if (rc <= 0) return rc < 0 ? NULL : Py_NewRef(Py_None);
  if (K.ind > 1) goto general; /* emb[ids] = v: the value broadcasts to an n-d key */
  if (ma_snapshot_indices(a, K.idx, K.owned, K.k) < 0) {
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
  if (take_blocks_checked(a, blocks, &K, 1, 0) == 0) result = Py_NewRef(Py_True);
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
