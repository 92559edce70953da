/*
 * Copy kernels for minarray/_manipulation.py that a broadcast copy cannot
 * express: repeat with per-element counts, take_along_axis (a gather
 * whose source position depends on the index array), and the scatter-add
 * behind bincount (minarray/_histograms.py).  Everything else in
 * minarray/_manipulation.py and _joining.py (concat, stack, tile, roll, scalar repeat) is a handful of
 * ma_copyto calls over views.
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <string.h>

#include "copy.h"

/* Copy one element of `item` bytes; constant sizes let the compiler inline
 * the common cases. */
static inline void copy_item(char *dst, const char *src, int64_t item) {
  switch (item) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, (size_t)item);
  }
}

/* repeat(src, counts, axis) -> (total, handle)
 *
 * src is C-contiguous; counts a 1-d int64 array with src.shape[axis]
 * entries (any stride).  The result has src's shape with `total` =
 * sum(counts) along axis: slab i of src appears counts[i] times. */
static PyObject *py_repeat(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "repeat");
  ma_array *src = ma_handle_get(args[0]);
  ma_array *cnt = src ? ma_handle_get(args[1]) : NULL;
  if (!cnt) return NULL;
  int axis = PyLong_AsLong(args[2]);
  if (axis == -1 && PyErr_Occurred()) return NULL;
  int nd = src->t.ndim;
  if (axis < 0 || axis >= nd || cnt->t.ndim != 1 || cnt->t.shape[0] != src->t.shape[axis] ||
      ma_type_of(cnt->t.dtype) != MA_INT64) {
    PyErr_SetString(PyExc_ValueError, "repeat kernel: bad axis or counts");
    return NULL;
  }
  int64_t n = src->t.shape[axis], total = 0;
  /* The counts are validated and summed here, and the copy below runs
   * without the GIL while another thread may write them: it must use
   * exactly the counts that were checked, so it reads a private snapshot
   * (docs/reliability.md, "Kernels that release the GIL"). */
  ma_array *snap = ma_snapshot(cnt);
  if (!snap) return PyErr_NoMemory();
  const int64_t *c = (const int64_t *)snap->t.data;
  for (int64_t i = 0; i < n; i++) {
    int64_t r = c[i];
    if (r < 0) {
      ma_array_free(snap);
      return PyErr_Format(PyExc_ValueError, "repeat: repeats must be non-negative, got %lld at index %lld",
                          (long long)r, (long long)i);
    }
    if (__builtin_add_overflow(total, r, &total)) {
      ma_array_free(snap);
      return PyErr_Format(PyExc_ValueError, "repeat: the total number of repeats overflows");
    }
  }
  int64_t shape[MA_MAXDIMS];
  memcpy(shape, src->t.shape, (size_t)nd * sizeof(int64_t));
  shape[axis] = total;
  int err = 0;
  ma_array *dst = ma_array_empty(src->t.dtype, nd, shape, 0, &err);
  if (!dst) {
    ma_array_free(snap);
    return err == 1 ? PyErr_Format(PyExc_ValueError, "repeat: the result is too large")
                    : ma_alloc_error(nd, shape, (int)ma_elsize(src->t.dtype));
  }
  int64_t item = ma_elsize(src->t.dtype), outer = 1, inner = item;
  for (int d = 0; d < axis; d++) outer *= src->t.shape[d];
  for (int d = axis + 1; d < nd; d++) inner *= src->t.shape[d];
  Py_BEGIN_ALLOW_THREADS
  const char *s = (const char *)src->t.data;
  char *o = (char *)dst->t.data;
  if (inner > 0)
    for (int64_t q = 0; q < outer; q++)
      for (int64_t i = 0; i < n; i++, s += inner) {
        int64_t r = c[i];
        if (inner == item)
          for (int64_t t = 0; t < r; t++, o += inner) copy_item(o, s, item);
        else
          for (int64_t t = 0; t < r; t++, o += inner) memcpy(o, s, (size_t)inner);
      }
  Py_END_ALLOW_THREADS
  ma_array_free(snap);
  PyObject *h = ma_handle_new(dst);
  return h ? Py_BuildValue("(LN)", (long long)total, h) : NULL;
}

/* take_along_axis(src, idx, out, axis)
 *
 * out is C-contiguous; idx (int64) has out's shape (broadcast views are
 * fine); src has out's shape except along `axis`, where it has its own
 * length L.  out[..., j, ...] = src[..., idx[..., j, ...], ...]; negative
 * indices count from the end, others raise IndexError. */
static PyObject *py_take_along_axis(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "take_along_axis");
  ma_array *src = ma_handle_get(args[0]);
  ma_array *idx = src ? ma_handle_get(args[1]) : NULL;
  ma_array *out = idx ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int axis = PyLong_AsLong(args[3]);
  if (axis == -1 && PyErr_Occurred()) return NULL;
  int nd = out->t.ndim;
  int ok = axis >= 0 && axis < nd && src->t.ndim == nd && idx->t.ndim == nd &&
           ma_type_of(idx->t.dtype) == MA_INT64 && src->t.dtype.bits == out->t.dtype.bits &&
           src->t.dtype.code == out->t.dtype.code;
  for (int d = 0; ok && d < nd; d++)
    ok = idx->t.shape[d] == out->t.shape[d] && (d == axis || src->t.shape[d] == out->t.shape[d]);
  if (!ok) {
    PyErr_SetString(PyExc_ValueError, "take_along_axis kernel: mismatched operands");
    return NULL;
  }
  int64_t size = ma_array_size(out);
  if (size == 0) Py_RETURN_NONE;
  int64_t L = src->t.shape[axis];
  int64_t item = ma_elsize(out->t.dtype);
  int64_t bad = 0;
  int failed = 0;
  Py_BEGIN_ALLOW_THREADS
  int64_t coord[MA_MAXDIMS] = {0};
  const char *ip = (const char *)idx->t.data;
  const char *sp = (const char *)src->t.data; /* src with coordinate `axis` = 0 */
  char *op = (char *)out->t.data;
  int last = nd - 1;
  int64_t n_inner = out->t.shape[last];
  int64_t is_inner = idx->t.strides[last] * 8, ss_inner = src->t.strides[last] * item;
  int64_t ss_axis = src->t.strides[axis] * item;
  for (int64_t done = 0; done < size && !failed; done += n_inner) {
    const char *ipp = ip, *spp = sp;
    for (int64_t j = 0; j < n_inner; j++, ipp += is_inner, op += item) {
      /* each index is read once, and checked where it is used: another
       * thread may write idx while the GIL is released */
      int64_t raw = *(const int64_t *)ipp, v = raw < 0 ? raw + L : raw;
      if (v < 0 || v >= L) {
        bad = raw;
        failed = 1;
        break;
      }
      /* along the last axis itself the gathered position replaces j */
      const char *from = (axis == last ? sp : spp) + v * ss_axis;
      copy_item(op, from, item);
      if (axis != last) spp += ss_inner;
    }
    /* advance the odometer over the outer dims */
    for (int d = last - 1; d >= 0; d--) {
      int64_t is = idx->t.strides[d] * 8, ss = d == axis ? 0 : src->t.strides[d] * item;
      ip += is;
      sp += ss;
      if (++coord[d] < out->t.shape[d]) break;
      ip -= is * out->t.shape[d];
      sp -= ss * out->t.shape[d];
      coord[d] = 0;
    }
  }
  Py_END_ALLOW_THREADS
  if (failed)
    return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)bad, axis, (long long)L);
  Py_RETURN_NONE;
}

/* bincount(x, weights, out): out[x[i]] += weights[i] (or += 1 when weights
 * is None), in the order of x, as NumPy accumulates.  x is 1-d int64 of
 * non-negative values below len(out) (checked); weights 1-d float64 of
 * x's length; out 1-d, C-contiguous, zeroed: int64 without weights,
 * float64 with them. */
static PyObject *py_bincount(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "bincount");
  ma_array *x = ma_handle_get(args[0]);
  if (!x) return NULL;
  ma_array *w = NULL;
  if (args[1] != Py_None && !(w = ma_handle_get(args[1]))) return NULL;
  ma_array *out = ma_handle_get(args[2]);
  if (!out) return NULL;
  int ok = x->t.ndim == 1 && out->t.ndim == 1 && ma_type_of(x->t.dtype) == MA_INT64 &&
           ma_type_of(out->t.dtype) == (w ? MA_FLOAT64 : MA_INT64) && ma_array_is_contiguous(out, 0) &&
           !(out->flags & MA_READONLY) &&
           (!w || (w->t.ndim == 1 && ma_type_of(w->t.dtype) == MA_FLOAT64 && w->t.shape[0] == x->t.shape[0]));
  if (!ok) {
    PyErr_SetString(PyExc_ValueError, "bincount kernel: mismatched operands");
    return NULL;
  }
  int64_t n = x->t.shape[0], bins = out->t.shape[0], sx = x->t.strides[0], sw = w ? w->t.strides[0] : 0;
  const int64_t *xp = (const int64_t *)x->t.data;
  const double *wp = w ? (const double *)w->t.data : NULL;
  int64_t bad = 0;
  int failed = 0;
  Py_BEGIN_ALLOW_THREADS
  for (int64_t i = 0; i < n; i++) {
    int64_t v = xp[i * sx];
    if (v < 0 || v >= bins) {
      bad = v;
      failed = 1;
      break;
    }
    if (wp) ((double *)out->t.data)[v] += wp[i * sw];
    else ((int64_t *)out->t.data)[v] += 1;
  }
  Py_END_ALLOW_THREADS
  if (failed) return PyErr_Format(PyExc_ValueError, "bincount: value %lld outside [0, %lld)", (long long)bad,
                                  (long long)bins);
  Py_RETURN_NONE;
}

/* bincount_range(x) -> (min, max) of a non-empty 1-d int64 array, in one
 * pass: bincount's checks of its input and the number of bins.  (Another
 * thread may write x meanwhile: bincount's count checks every value it
 * reads against the bins again.) */
static PyObject *py_bincount_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "bincount_range");
  ma_array *x = ma_handle_get(args[0]);
  if (!x) return NULL;
  if (x->t.ndim != 1 || ma_type_of(x->t.dtype) != MA_INT64 || x->t.shape[0] == 0) {
    PyErr_SetString(PyExc_ValueError, "bincount_range needs a non-empty 1-d int64 array");
    return NULL;
  }
  int64_t n = x->t.shape[0], sx = x->t.strides[0];
  const int64_t *xp = (const int64_t *)x->t.data;
  int64_t lo = xp[0], hi = xp[0];
  Py_BEGIN_ALLOW_THREADS
  for (int64_t i = 1; i < n; i++) {
    int64_t v = xp[i * sx];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  Py_END_ALLOW_THREADS
  return Py_BuildValue("(LL)", (long long)lo, (long long)hi);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_manipulation_methods[] = {
    FC("bincount_range", py_bincount_range, "bincount_range(x) -> (min, max)"),
    FC("repeat", py_repeat, "repeat(src, counts, axis) -> (total, handle)"),
    FC("take_along_axis", py_take_along_axis, "take_along_axis(src, idx, out, axis)"),
    FC("bincount", py_bincount, "bincount(x, weights, out)"),
    {NULL, NULL, 0, NULL}};
