/*
 * Fills of new arrays that are not copies: arange and linspace with
 * NumPy's own arithmetic (so results match it bit for bit), and the zeroed
 * triangles of tril/triu.
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <math.h>
#include <string.h>

#include "scalar.h"

/* arange_fill(h, first, second): NumPy's algorithm.  Elements 0 and 1 are
 * assigned `first` and `second` (= start + step) like any scalar, then
 * element i = e0 + i * (e1 - e0), computed in the dtype's own arithmetic
 * (integers wrap, float16/bfloat16 in float), so results match NumPy's
 * arange bit for bit.  `h` is 1-d and contiguous. */
static PyObject *py_arange_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "arange_fill");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int tid = ma_type_of(a->t.dtype);
  int64_t n = a->t.ndim ? a->t.shape[0] : 1;
  char *d = (char *)a->t.data;
  if (n >= 1 && ma_store_scalar(args[1], tid, d) < 0) return NULL;
  if (n >= 2 && ma_store_scalar(args[2], tid, d + ma_type_size[tid]) < 0) return NULL;
  if (n <= 2) Py_RETURN_NONE;
  if (tid >= MA_NTYPES) { /* minarray/_creation.py fills a wider type and casts */
    PyErr_Format(PyExc_TypeError, "arange_fill: no arithmetic in the storage type %R", ma_nd.dtypes[tid]);
    return NULL;
  }
  if (tid == MA_BOOL) {
    PyErr_SetString(PyExc_ValueError, "arange of more than 2 elements is not defined for bool");
    return NULL;
  }
  Py_BEGIN_ALLOW_THREADS
#define MA_FILL_INT(T)                                          \
  {                                                             \
    T *o = (T *)d;                                              \
    uint64_t s = (uint64_t)o[0], delta = (uint64_t)o[1] - s;    \
    for (int64_t i = 2; i < n; i++) o[i] = (T)(s + (uint64_t)i * delta); \
  }
#define MA_FILL_REAL(T, V, LOAD, STORE)                         \
  {                                                             \
    T *o = (T *)d;                                              \
    V s = LOAD(o[0]), delta = LOAD(o[1]) - s;                   \
    for (int64_t i = 2; i < n; i++) o[i] = STORE(s + (V)i * delta); \
  }
#define MA_ID(x) (x)
  switch (tid) {
    case MA_INT8: MA_FILL_INT(int8_t) break;
    case MA_INT16: MA_FILL_INT(int16_t) break;
    case MA_INT32: MA_FILL_INT(int32_t) break;
    case MA_INT64: MA_FILL_INT(int64_t) break;
    case MA_UINT8: MA_FILL_INT(uint8_t) break;
    case MA_UINT16: MA_FILL_INT(uint16_t) break;
    case MA_UINT32: MA_FILL_INT(uint32_t) break;
    case MA_UINT64: MA_FILL_INT(uint64_t) break;
    case MA_FLOAT16: MA_FILL_REAL(ma_f16, float, (float), (ma_f16)) break;
    case MA_BFLOAT16: MA_FILL_REAL(ma_bf16, float, ma_bf16_load, ma_bf16_store) break;
    case MA_FLOAT32: MA_FILL_REAL(float, float, MA_ID, MA_ID) break;
    case MA_FLOAT64: MA_FILL_REAL(double, double, MA_ID, MA_ID) break;
    case MA_COMPLEX64: {
      float *o = (float *)d;
      float sr = o[0], si = o[1], dr = o[2] - sr, di = o[3] - si;
      for (int64_t i = 2; i < n; i++) { o[2 * i] = sr + (float)i * dr; o[2 * i + 1] = si + (float)i * di; }
      break;
    }
    case MA_COMPLEX128: {
      double *o = (double *)d;
      double sr = o[0], si = o[1], dr = o[2] - sr, di = o[3] - si;
      for (int64_t i = 2; i < n; i++) { o[2 * i] = sr + (double)i * dr; o[2 * i + 1] = si + (double)i * di; }
      break;
    }
  }
#undef MA_FILL_INT
#undef MA_FILL_REAL
#undef MA_ID
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* linspace_fill(h, start, stop, div, endpoint, floor): NumPy's linspace
 * in float64 (complex128 when `h` is complex128): y[i] = i * step + start
 * with step = (stop - start) / div, or (i / div) * delta + start when the
 * step underflows to 0; the last element is `stop` exactly when
 * `endpoint`; `floor` rounds down (NumPy does so for integer dtypes).  `h`
 * is a contiguous 1-d float64 or complex128 array. */
static PyObject *py_linspace_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(6, "linspace_fill");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int tid = ma_type_of(a->t.dtype);
  if (a->t.ndim != 1 || (tid != MA_FLOAT64 && tid != MA_COMPLEX128)) {
    PyErr_SetString(PyExc_TypeError, "linspace_fill needs a 1-d float64 or complex128 array");
    return NULL;
  }
  Py_complex start = PyComplex_AsCComplex(args[1]), stop = PyComplex_AsCComplex(args[2]);
  if (PyErr_Occurred()) return NULL;
  long long div = PyLong_AsLongLong(args[3]);
  if (div == -1 && PyErr_Occurred()) return NULL;
  int endpoint = PyObject_IsTrue(args[4]), do_floor = PyObject_IsTrue(args[5]);
  int64_t n = a->t.shape[0];
  int cplx = tid == MA_COMPLEX128;
  double *o = (double *)a->t.data;
  Py_BEGIN_ALLOW_THREADS
  /* real and imaginary parts are independent: (i + 0j) * step only scales */
  for (int part = 0; part < (cplx ? 2 : 1); part++) {
    double s = part ? start.imag : start.real, e = part ? stop.imag : stop.real;
    double delta = e - s;
    double step = div > 0 ? delta / (double)div : NAN;
    int stride = cplx ? 2 : 1;
    for (int64_t i = 0; i < n; i++) {
      double y;
      if (div > 0 && step == 0) y = ((double)i / (double)div) * delta + s;
      else if (div > 0) y = (double)i * step + s;
      else y = (double)i * delta + s; /* num == 1: only i = 0 */
      o[i * stride + part] = y;
    }
    if (endpoint && n > 1) o[(n - 1) * stride + part] = e;
    if (do_floor)
      for (int64_t i = 0; i < n; i++) o[i * stride + part] = floor(o[i * stride + part]);
  }
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* tri_zero(h, k, lower): zero the elements outside the triangle of every
 * matrix in a C-contiguous array (last two axes): above diagonal k for
 * tril (`lower`), below it for triu.  Zero bytes are zero in every dtype. */
static PyObject *py_tri_zero(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "tri_zero");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long long k = PyLong_AsLongLong(args[1]);
  if (k == -1 && PyErr_Occurred()) return NULL;
  int lower = PyObject_IsTrue(args[2]);
  int nd = a->t.ndim;
  if (nd < 2) {
    PyErr_SetString(PyExc_ValueError, "tri_zero needs at least 2 dimensions");
    return NULL;
  }
  int64_t rows = a->t.shape[nd - 2], cols = a->t.shape[nd - 1];
  /* A diagonal past either corner keeps or zeroes every row the same as
   * the corner's own: clamping k there keeps i + k + 1 from overflowing
   * (k = 2**63 - 1 zeroed whole matrices instead of keeping them). */
  if (k > cols) k = cols;
  if (k < -rows - 1) k = -rows - 1;
  int64_t item = ma_type_size[ma_type_of(a->t.dtype)];
  int64_t size = ma_array_size(a);
  int64_t mats = rows && cols ? size / (rows * cols) : 0;
  char *base = (char *)a->t.data;
  Py_BEGIN_ALLOW_THREADS
  for (int64_t m = 0; m < mats; m++) {
    for (int64_t i = 0; i < rows; i++) {
      char *row = base + (m * rows + i) * cols * item;
      /* tril keeps j <= i + k; triu keeps j >= i + k */
      int64_t lo, hi;
      if (lower) { lo = i + k + 1; hi = cols; }
      else { lo = 0; hi = i + k; }
      if (lo < 0) lo = 0;
      if (hi > cols) hi = cols;
      if (lo < hi) memset(row + lo * item, 0, (size_t)((hi - lo) * item));
    }
  }
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_fill_methods[] = {
    FC("arange_fill", py_arange_fill, "arange_fill(h, first, second)"),
    FC("linspace_fill", py_linspace_fill, "linspace_fill(h, start, stop, div, endpoint, floor)"),
    FC("tri_zero", py_tri_zero, "tri_zero(h, k, lower)"),
    {NULL, NULL, 0, NULL}};
