/*
 * Integer-array ("advanced") indexing: gather, scatter and nonzero.
 *
 * Python reduces every advanced index to this form: a source view whose
 * first k axes are indexed by k int64 arrays of one broadcast length N, and
 * the remaining axes R are taken whole.  gather copies N blocks of shape R
 * out; scatter writes them in.
 */
#include "copy.h"
#include "pyapi.h"

/* The byte offset of block n in *off (negative strides make it negative),
 * 0; or -1 - axis when an index is out of range, the index in *bad_value. */
static int block_offset(const ma_array *src, int k, ma_array *const *idx, int64_t n,
                        int64_t *off, int64_t *bad_value) {
  int64_t o = 0, item = src->t.dtype.bits / 8;
  for (int j = 0; j < k; j++) {
    const ma_array *ix = idx[j];
    int64_t v = *((const int64_t *)ix->t.data + (ix->t.ndim ? n * ix->t.strides[0] : 0));
    int64_t dim = src->t.shape[j];
    if (v < -dim || v >= dim) {
      *bad_value = v;
      return -1 - j;
    }
    if (v < 0) v += dim;
    o += v * src->t.strides[j] * item;
  }
  *off = o;
  return 0;
}

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

static int64_t run_blocks(ma_array *src, ma_array *blocks, ma_array *const *idx, int k,
                          int64_t n_blocks, int scatter, int64_t *bad_value) {
  int tid = ma_type_of(src->t.dtype);
  int64_t item = src->t.dtype.bits / 8;
  ma_array sv, bv;
  for (int64_t n = 0; n < n_blocks; n++) {
    int64_t off;
    int rc = block_offset(src, k, idx, n, &off, bad_value);
    if (rc < 0) return rc;
    char *sp = (char *)src->t.data + off;
    char *bp = (char *)blocks->t.data + n * blocks->t.strides[0] * item;
    if (src->t.ndim == k) { /* one element per block */
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

/* take_blocks(src, blocks, indices, scatter): see the file comment.  `blocks`
 * has shape (N, R...) and src's dtype; each index is a 1-d int64 array of
 * length N (or 0-d). */
MA_FASTCALL(py_take_blocks) {
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
  int k = (int)PySequence_Fast_GET_SIZE(fast);
  ma_array *idx[MA_MAXDIMS];
  for (int j = 0; j < k && j < MA_MAXDIMS; j++) {
    idx[j] = ma_handle_get(PySequence_Fast_GET_ITEM(fast, j));
    if (!idx[j]) { Py_DECREF(fast); return NULL; }
  }
  int64_t bad = 0, rc;
  int64_t n_blocks = blocks->t.ndim ? blocks->t.shape[0] : 1;
  Py_BEGIN_ALLOW_THREADS
  rc = run_blocks(src, blocks, idx, k, n_blocks, scatter, &bad);
  Py_END_ALLOW_THREADS
  Py_DECREF(fast);
  if (rc < 0) {
    int axis = (int)(-1 - rc);
    return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)bad, axis, (long long)src->t.shape[axis]);
  }
  Py_RETURN_NONE;
}

/* nonzero(h) -> (count, handle of an int64 (count, ndim) array of indices) */
MA_FASTCALL(py_nonzero) {
  (void)self;
  MA_NARGS(1, "nonzero");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int tid = ma_type_of(a->t.dtype);
  int nd = a->t.ndim;
  /* First, a contiguous bool copy: one pass decides truth for every type. */
  int err = 0;
  DLDataType bdt = {kDLBool, 8, 1};
  ma_array *mask = ma_array_empty(bdt, nd, a->t.shape, 0, &err);
  if (!mask) return PyErr_NoMemory();
  const ma_array *ops[2] = {mask, a};
  int64_t size = ma_array_size(a), count = 0;
  Py_BEGIN_ALLOW_THREADS
  ma_iterate(2, ops, ma_cast_loops[tid][MA_BOOL], NULL);
  for (int64_t i = 0; i < size; i++) count += ((uint8_t *)mask->t.data)[i];
  Py_END_ALLOW_THREADS
  DLDataType idt = {kDLInt, 64, 1};
  int64_t shape[2] = {count, nd};
  ma_array *out = ma_array_empty(idt, 2, shape, 0, &err);
  if (!out) { ma_array_free(mask); return PyErr_NoMemory(); }
  int64_t *o = (int64_t *)out->t.data;
  int64_t coord[MA_MAXDIMS] = {0};
  const uint8_t *m = (const uint8_t *)mask->t.data;
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
  PyObject *h = ma_handle_new(out);
  return h ? Py_BuildValue("(LN)", (long long)count, h) : NULL;
}

/* Work below this many elements keeps the GIL: releasing and taking it
 * back costs more than such a loop. */
#define SMALL_WORK 4096

/* x[mask] for a bool mask of x's shape (ndim >= 1): the elements where the
 * mask is true, in C order, as a new 1-d array; NULL when out of memory. */
static ma_array *mask_select(const ma_array *a, const ma_array *m) {
  int nd = a->t.ndim;
  int64_t size = ma_array_size(a), count = 0, item = a->t.dtype.bits / 8;
  const int64_t *shape = a->t.shape, *xs = a->t.strides, *ms = m->t.strides;
  int64_t coord[MA_MAXDIMS] = {0}, xo = 0, mo = 0;
  const char *xp = (const char *)a->t.data;
  const uint8_t *mp = (const uint8_t *)m->t.data;
  /* first pass counts, second copies: both walk C order with running
   * element offsets (any strides, negative ones too) */
  for (int64_t i = 0; i < size; i++) {
    count += mp[mo] != 0;
    for (int d = nd - 1; d >= 0; d--) {
      mo += ms[d];
      if (++coord[d] < shape[d]) break;
      mo -= ms[d] * shape[d];
      coord[d] = 0;
    }
  }
  int err = 0;
  ma_array *out = ma_array_empty(a->t.dtype, 1, &count, 0, &err);
  if (!out) return NULL;
  char *op = (char *)out->t.data;
  mo = 0;
  for (int64_t i = 0; i < size; i++) {
    if (mp[mo]) {
      memcpy(op, xp + xo * item, (size_t)item);
      op += item;
    }
    for (int d = nd - 1; d >= 0; d--) {
      mo += ms[d];
      xo += xs[d];
      if (++coord[d] < shape[d]) break;
      mo -= ms[d] * shape[d];
      xo -= xs[d] * shape[d];
      coord[d] = 0;
    }
  }
  return out;
}

PyObject *ma_getitem_array(PyObject *x, ma_array *a, ma_array *k) {
  (void)x;
  int nd = a->t.ndim;
  DLDataType kt = k->t.dtype;
  if (nd == 0 || kt.lanes != 1) Py_RETURN_NONE;
  if (kt.code == kDLBool && kt.bits == 8) {
    /* a mask of another shape (an error, or a mask over leading axes)
     * goes the general way */
    if (k->t.ndim != nd) Py_RETURN_NONE;
    for (int d = 0; d < nd; d++)
      if (k->t.shape[d] != a->t.shape[d]) Py_RETURN_NONE;
    ma_array *out;
    if (ma_array_size(a) < SMALL_WORK) {
      out = mask_select(a, k);
    } else {
      Py_BEGIN_ALLOW_THREADS
      out = mask_select(a, k);
      Py_END_ALLOW_THREADS
    }
    /* out of memory: the general path words the error */
    return out ? ma_ndarray_new(out, NULL) : Py_NewRef(Py_None);
  }
  if (kt.code != kDLInt || kt.bits != 64 || k->t.ndim != 1) Py_RETURN_NONE;
  /* x[idx]: N blocks of shape x.shape[1:], as the general path's
   * take_blocks gathers them */
  int64_t shape[MA_MAXDIMS], n = k->t.shape[0], bad = 0, rc;
  shape[0] = n;
  for (int d = 1; d < nd; d++) shape[d] = a->t.shape[d];
  int err = 0;
  ma_array *out = ma_array_empty(a->t.dtype, nd, shape, 0, &err);
  if (!out) Py_RETURN_NONE; /* the general path words the error */
  ma_array *idx[1] = {k};
  if (ma_array_size(out) < SMALL_WORK) {
    rc = run_blocks(a, out, idx, 1, n, 0, &bad);
  } else {
    Py_BEGIN_ALLOW_THREADS
    rc = run_blocks(a, out, idx, 1, n, 0, &bad);
    Py_END_ALLOW_THREADS
  }
  if (rc < 0) {
    ma_array_free(out);
    return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis 0 with size %lld",
                        (long long)bad, (long long)a->t.shape[0]);
  }
  return ma_ndarray_new(out, NULL);
}

PyMethodDef ma_index_methods[] = {
    {"take_blocks", (PyCFunction)(void (*)(void))py_take_blocks, METH_FASTCALL,
     "take_blocks(src, blocks, indices, scatter)"},
    {"nonzero", (PyCFunction)(void (*)(void))py_nonzero, METH_FASTCALL, "nonzero(h) -> (count, handle)"},
    {NULL, NULL, 0, NULL}};
