/*
 * Python scalars in and out of array elements: NumPy 2's rules for storing
 * a Python bool, int, float or complex into an element of each dtype (the
 * errors NumPy raises included), and the Python scalar an element reads as
 * (item, tolist, float(x) of a size-1 array).
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <complex.h>

#include "copy.h"
#include "scalar.h"

static int is_integer_type(int tid) { return ma_type_kind[tid] == 'i' || ma_type_kind[tid] == 'u'; }
static int is_complex_type(int tid) { return ma_type_kind[tid] == 'c'; }

/* The range of an integer type (from its DLPack width and signedness). */
static void int_range(int tid, int64_t *lo, uint64_t *hi) {
  DLDataType dt = ma_dltypes[tid];
  if (dt.code == kDLInt) {
    *lo = dt.bits == 64 ? INT64_MIN : -((int64_t)1 << (dt.bits - 1));
    *hi = dt.bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (dt.bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = dt.bits == 64 ? UINT64_MAX : ((uint64_t)1 << dt.bits) - 1;
  }
}

/* Write Python scalar `v` into one element of type `tid` at `dst`.  The
 * rules are NumPy 2's for assigning a Python scalar to an array element:
 *   - an integer must fit an integer target (OverflowError otherwise);
 *   - a float going to an integer type is truncated toward zero and must
 *     then fit (NaN: ValueError, infinity: OverflowError);
 *   - a complex number cannot go to a real type (TypeError), only to bool;
 *   - None, NumPy's object None cast to the dtype, is NaN in a float type,
 *     NaN + NaN j in a complex one, False in bool, and a TypeError in an
 *     integer type (int(None) fails);
 *   - everything else converts like the cast kernels. */
int ma_store_scalar(PyObject *v, int tid, char *dst) {
  union { uint8_t b; int64_t i; uint64_t u; double f; ma_c128 c; } tmp;
  int src;
  int64_t zero[MA_MAXOPS] = {0}; /* strides of a one-element "loop" */
  char *ps[2];
  if (v == Py_None) {
    if (is_integer_type(tid)) {
      PyErr_SetString(PyExc_TypeError,
                      "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
      return -1;
    }
    if (tid == MA_BOOL) {
      tmp.b = 0;
      src = MA_BOOL;
    } else if (is_complex_type(tid)) {
      tmp.c = CMPLX(NAN, NAN);
      src = MA_COMPLEX128;
    } else {
      tmp.f = NAN;
      src = MA_FLOAT64;
    }
  } else if (PyBool_Check(v)) {
    tmp.b = (uint8_t)(v == Py_True);
    src = MA_BOOL;
  } else if (PyLong_Check(v) || (!PyFloat_Check(v) && !PyComplex_Check(v) && PyIndex_Check(v))) {
    PyObject *idx = PyNumber_Index(v);
    if (!idx) return -1;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(idx, &overflow);
    if (x == -1 && PyErr_Occurred()) { Py_DECREF(idx); return -1; }
    int fits64 = overflow == 0;
    if (overflow > 0) {
      unsigned long long ux = PyLong_AsUnsignedLongLong(idx);
      if (ux == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
      } else {
        tmp.u = ux;
        src = MA_UINT64;
        fits64 = 1;
      }
    } else if (overflow == 0) {
      tmp.i = x;
      src = MA_INT64;
    }
    if (!fits64) {
      /* beyond 64 bits: only floating targets can hold it */
      if (tid == MA_BOOL || is_integer_type(tid)) {
        PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", idx, ma_type_name[tid]);
        Py_DECREF(idx);
        return -1;
      }
      tmp.f = PyLong_AsDouble(idx);
      if (tmp.f == -1.0 && PyErr_Occurred()) { Py_DECREF(idx); return -1; }
      src = MA_FLOAT64;
    } else if (is_integer_type(tid)) {
      int64_t lo;
      uint64_t hi;
      int_range(tid, &lo, &hi);
      int bad = src == MA_UINT64 ? tmp.u > hi : (tmp.i < lo || (tmp.i > 0 && (uint64_t)tmp.i > hi));
      if (bad) {
        PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", idx, ma_type_name[tid]);
        Py_DECREF(idx);
        return -1;
      }
    }
    Py_DECREF(idx);
  } else if (PyComplex_Check(v)) {
    Py_complex c = PyComplex_AsCComplex(v);
    if (!is_complex_type(tid) && tid != MA_BOOL) {
      PyErr_Format(PyExc_TypeError, "cannot store the complex number %R in an array of %s", v, ma_type_name[tid]);
      return -1;
    }
    tmp.c = CMPLX(c.real, c.imag);
    src = MA_COMPLEX128;
  } else {
    double f = PyFloat_AsDouble(v);
    if (f == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "expected a number (bool, int, float or complex), got %.100s",
                   Py_TYPE(v)->tp_name);
      return -1;
    }
    if (is_integer_type(tid)) {
      /* As int(f) followed by the integer rules above. */
      if (isnan(f)) {
        PyErr_Format(PyExc_ValueError, "cannot convert float NaN to integer (%s)", ma_type_name[tid]);
        return -1;
      }
      if (isinf(f)) {
        PyErr_Format(PyExc_OverflowError, "cannot convert float infinity to integer (%s)", ma_type_name[tid]);
        return -1;
      }
      double t = trunc(f);
      int64_t lo;
      uint64_t hi;
      int_range(tid, &lo, &hi);
      int bad;
      if (t < 0) {
        bad = t < -9223372036854775808.0 || (int64_t)t < lo;
        tmp.i = bad ? 0 : (int64_t)t;
        src = MA_INT64;
      } else {
        bad = t >= 18446744073709551616.0 || (uint64_t)t > hi;
        tmp.u = bad ? 0 : (uint64_t)t;
        src = MA_UINT64;
      }
      if (bad) {
        PyErr_Format(PyExc_OverflowError, "Python float %R out of bounds for %s", v, ma_type_name[tid]);
        return -1;
      }
    } else {
      tmp.f = f;
      src = MA_FLOAT64;
    }
  }
  ps[0] = dst;
  ps[1] = (char *)&tmp;
  if (!ma_cast_can_raise(src, tid)) {
    ma_cast_loops[src][tid](ps, zero, 1, NULL);
    return 0;
  }
  /* 1e300 into float32 overflows: reported as NumPy reports it */
  ma_fpe_clear();
  ma_cast_loops[src][tid](ps, zero, 1, NULL);
  unsigned fpe = ma_fpe_read();
  return fpe ? ma_report_cast_fpe("cast", fpe) : 0;
}

/* Exported for the elementwise engine (csrc/py/elementwise_dispatch.c): Python scalar
 * operands are converted with exactly these rules. */

PyObject *ma_load_scalar(int tid, const char *p) {
  switch (tid) {
    case MA_BOOL: return PyBool_FromLong(*(const uint8_t *)p);
    case MA_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case MA_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case MA_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case MA_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case MA_UINT8: return PyLong_FromUnsignedLong(*(const uint8_t *)p);
    case MA_UINT16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
    case MA_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case MA_UINT64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case MA_FLOAT16: return PyFloat_FromDouble((double)*(const ma_f16 *)p);
    case MA_BFLOAT16: return PyFloat_FromDouble(ma_bf16_load(*(const ma_bf16 *)p));
    case MA_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    case MA_FLOAT64: return PyFloat_FromDouble(*(const double *)p);
    case MA_COMPLEX64: {
      ma_c64 c = *(const ma_c64 *)p;
      return PyComplex_FromDoubles(crealf(c), cimagf(c));
    }
    case MA_COMPLEX128: {
      ma_c128 c = *(const ma_c128 *)p;
      return PyComplex_FromDoubles(creal(c), cimag(c));
    }
  }
  if (tid >= MA_NTYPES && tid < MA_NALLTYPES) {
    /* a storage type reads as the Python scalar of the type it widens to */
    union { int64_t i; double f; ma_c128 c; } wide;
    int64_t zero[MA_MAXOPS] = {0};
    int to = is_complex_type(tid) ? MA_COMPLEX128 : is_integer_type(tid) ? MA_INT64 : MA_FLOAT64;
    char *ps[2] = {(char *)&wide, (char *)p};
    ma_cast_loops[tid][to](ps, zero, 1, NULL);
    return ma_load_scalar(to, (const char *)&wide);
  }
  PyErr_SetString(PyExc_TypeError, "unsupported dtype");
  return NULL;
}

/* from_scalar(value, code, bits) -> 0-d handle */
static PyObject *py_from_scalar(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "from_scalar");
  DLDataType dt;
  if (ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  int err = 0;
  ma_array *a = ma_array_empty(dt, 0, NULL, 0, &err);
  if (!a) return PyErr_NoMemory();
  if (ma_store_scalar(args[0], ma_type_of(dt), (char *)a->t.data) < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_handle_new(a);
}

/* item(h, offset) -> the element `offset` elements from element 0 */
static PyObject *py_item(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "item");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long long off = PyLong_AsLongLong(args[1]);
  if (off == -1 && PyErr_Occurred()) return NULL;
  int tid = ma_type_of(a->t.dtype);
  return ma_load_scalar(tid, (const char *)a->t.data + off * ma_type_size[tid]);
}

/* ndarray_item(x, use) -> the only element of the NDArray x as a Python
 * scalar, for `use` (NDArray's conversions, each one C call):
 *   0  x.item()              ValueError unless the size is 1
 *   1  int(x), float(x), complex(x)   TypeError unless x is 0-d (NumPy 2
 *                            refuses size-1 arrays of more dimensions)
 *   2  bool(x)               ValueError unless the size is 1
 *   3  operator.index(x)     TypeError unless x is a 0-d integer array
 * The messages are NumPy's own. */
static PyObject *py_ndarray_item(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_item");
  PyObject *x = args[0];
  long use = PyLong_AsLong(args[1]);
  if (use == -1 && PyErr_Occurred()) return NULL;
  if (use < 0 || use > 3) return PyErr_Format(PyExc_ValueError, "ndarray_item: no use %ld", use);
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type) || !MA_ND(x)->h) {
    PyErr_SetString(PyExc_TypeError, "ndarray_item expects an NDArray");
    return NULL;
  }
  ma_array *a = ma_handle_get(MA_ND(x)->h); /* a device array: the guard's error */
  if (!a) return NULL;
  int64_t size = ma_array_size(a);
  switch (use) {
  case 0:
    if (size != 1) {
      PyErr_SetString(PyExc_ValueError, "can only convert an array of size 1 to a Python scalar");
      return NULL;
    }
    break;
  case 1:
    if (a->t.ndim) {
      PyErr_SetString(PyExc_TypeError, "only 0-dimensional arrays can be converted to Python scalars");
      return NULL;
    }
    break;
  case 2:
    if (size == 0) {
      PyErr_SetString(PyExc_ValueError, "The truth value of an empty array is ambiguous. Use `array.size > 0` "
                                        "to check that an array is not empty.");
      return NULL;
    }
    if (size != 1) {
      PyErr_SetString(PyExc_ValueError, "The truth value of an array with more than one element is ambiguous. "
                                        "Use a.any() or a.all()");
      return NULL;
    }
    break;
  default:
    if (a->t.ndim || a->t.dtype.lanes != 1 || (a->t.dtype.code != kDLInt && a->t.dtype.code != kDLUInt)) {
      PyErr_SetString(PyExc_TypeError, "only integer scalar arrays can be converted to a scalar index");
      return NULL;
    }
  }
  return ma_load_scalar(ma_type_of(a->t.dtype), (const char *)a->t.data);
}

/* One index of x.item(): an integer or an object with __index__, not a
 * bool (NumPy refuses True and False there). */
static int item_index(PyObject *o, int64_t *out) {
  if (PyBool_Check(o)) {
    PyErr_SetString(PyExc_TypeError, "an integer is required");
    return -1;
  }
  PyObject *i = PyNumber_Index(o);
  if (!i) return -1;
  long long v = PyLong_AsLongLong(i);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int64_t)v;
  return 0;
}

const char ma_ndarray_item_doc[] =
    "item(*args)\n--\n\n"
    "One element as a Python scalar: with no argument the only one (the size must be 1); with\n"
    "one integer the one at that flat index in C order; with one integer per axis (or a tuple\n"
    "of them) the one at those indices.  Negative indices count from the end.";

/* x.item(*args), as NumPy's ndarray.item decides: a lone tuple is the
 * indices; no index, the only element; as many indices as axes, one per
 * axis; one index otherwise, a flat index in C order; any other count is
 * refused.  The indices are all read (their __index__ may run Python code,
 * which may reshape the array) before the element is found. */
PyObject *ma_ndarray_item_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  PyObject *const *idx = args;
  Py_ssize_t n = nargs;
  if (n == 1 && PyTuple_Check(args[0])) {
    n = PyTuple_GET_SIZE(args[0]);
    idx = &PyTuple_GET_ITEM(args[0], 0);
  }
  if (!MA_ND(self)->h) {
    PyErr_SetString(PyExc_TypeError, "item() of an uninitialized array");
    return NULL;
  }
  ma_array *a = ma_handle_get(MA_ND(self)->h); /* a device array: the guard's error */
  if (!a) return NULL;
  if (n > 1 && n != a->t.ndim) { /* the count first, as NumPy checks it */
    PyErr_SetString(PyExc_ValueError, "incorrect number of indices for array");
    return NULL;
  }
  int64_t at[MA_MAXDIMS];
  for (Py_ssize_t i = 0; i < n; i++)
    if (item_index(idx[i], &at[i]) < 0) return NULL;
  if (n && !(a = ma_handle_get(MA_ND(self)->h))) return NULL; /* as it is now that the indices are read */
  int nd = a->t.ndim;
  int64_t off = 0; /* in elements */
  if (n == 0) {
    if (ma_array_size(a) != 1) {
      PyErr_SetString(PyExc_ValueError, "can only convert an array of size 1 to a Python scalar");
      return NULL;
    }
  } else if (n == nd) {
    for (int d = 0; d < nd; d++) {
      int64_t k = at[d], dim = a->t.shape[d];
      if (k < -dim || k >= dim)
        return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld",
                            (long long)k, d, (long long)dim);
      off += (k < 0 ? k + dim : k) * a->t.strides[d];
    }
  } else if (n == 1) {
    int64_t k = at[0], size = ma_array_size(a);
    if (k < -size || k >= size)
      return PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for size %lld", (long long)k,
                          (long long)size);
    if (k < 0) k += size;
    for (int d = nd - 1; d >= 0; d--) { /* the C-order coordinates, last axis first */
      off += (k % a->t.shape[d]) * a->t.strides[d];
      k /= a->t.shape[d];
    }
  } else {
    PyErr_SetString(PyExc_ValueError, "incorrect number of indices for array");
    return NULL;
  }
  int tid = ma_type_of(a->t.dtype);
  return ma_load_scalar(tid, (const char *)a->t.data + off * ma_type_size[tid]);
}

static PyObject *tolist_rec(const ma_array *a, int tid, int dim, const char *p) {
  if (dim == a->t.ndim) return ma_load_scalar(tid, p);
  int64_t n = a->t.shape[dim];
  int64_t step = a->t.strides[dim] * ma_type_size[tid];
  PyObject *list = PyList_New((Py_ssize_t)n);
  if (!list) return NULL;
  for (int64_t i = 0; i < n; i++) {
    /* the address of element i only: stepping past the last one could
     * overflow the pointer (a length-1 axis may carry any stride) */
    PyObject *v = tolist_rec(a, tid, dim + 1, p + i * step);
    if (!v) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, v);
  }
  return list;
}

static PyObject *py_tolist(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "tolist");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  return tolist_rec(a, ma_type_of(a->t.dtype), 0, (const char *)a->t.data);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_scalar_methods[] = {
    FC("from_scalar", py_from_scalar, "from_scalar(value, code, bits) -> handle"),
    FC("item", py_item, "item(h, offset) -> scalar"),
    FC("ndarray_item", py_ndarray_item, "ndarray_item(x, use) -> scalar"),
    FC("tolist", py_tolist, "tolist(h) -> list"),
    {NULL, NULL, 0, NULL}};
