#include "pyapi.h"

#include <pthread.h>

#include "copy.h"
#include "scalar.h"

/* ---- handles ----------------------------------------------------------- */

static void handle_destructor(PyObject *cap) {
  ma_array_free((ma_array *)PyCapsule_GetPointer(cap, MA_HANDLE_NAME));
}

ma_array *ma_handle_get(PyObject *h) {
  if (!PyCapsule_CheckExact(h)) {
    PyErr_SetString(PyExc_TypeError, "expected a minarray array handle");
    return NULL;
  }
  return (ma_array *)PyCapsule_GetPointer(h, MA_HANDLE_NAME);
}

PyObject *ma_empty_error(PyObject *shape, int err, int itemsize) {
  if (err == 1)
    return PyErr_Format(PyExc_ValueError,
                        "array of shape %R and %d-byte items is too large: its size in bytes overflows",
                        shape, itemsize);
  int64_t dims[MA_MAXDIMS];
  int nd = ma_parse_dims(shape, dims, "shape");
  return nd < 0 ? NULL : ma_alloc_error(nd, dims, itemsize);
}

PyObject *ma_alloc_error(int nd, const int64_t *shape, int itemsize) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double size = itemsize;
  for (int i = 0; i < nd; i++) size *= (double)shape[i];
  int u = 0;
  for (; size >= 1024 && u < 6; u++) size /= 1024;
  char amount[32]; /* PyErr_Format has no %f */
  snprintf(amount, sizeof amount, "%.2f %s", size, units[u]);
  PyObject *sh = ma_dims_tuple(nd, shape);
  if (!sh) return NULL;
  PyErr_Format(PyExc_MemoryError, "unable to allocate %s for an array of shape %R with %d-byte elements", amount,
               sh, itemsize);
  Py_DECREF(sh);
  return NULL;
}

PyObject *ma_handle_new(ma_array *a) {
  if (!a) return PyErr_NoMemory();
  PyObject *h = PyCapsule_New(a, MA_HANDLE_NAME, handle_destructor);
  if (!h) ma_array_free(a);
  return h;
}

int ma_parse_dims(PyObject *seq, int64_t *out, const char *what) {
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of integers");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > MA_MAXDIMS) {
    Py_DECREF(fast);
    PyErr_Format(PyExc_ValueError, "%s has %zd dimensions; at most %d are supported",
                 what, n, MA_MAXDIMS);
    return -1;
  }
  PyObject **items = PySequence_Fast_ITEMS(fast);
  for (Py_ssize_t i = 0; i < n; i++) {
    long long v = PyLong_AsLongLong(items[i]);
    if (v == -1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s entry %R does not fit in 64 bits", what, items[i]);
      }
      Py_DECREF(fast);
      return -1;
    }
    out[i] = v;
  }
  Py_DECREF(fast);
  return (int)n;
}

int ma_parse_dtype(PyObject *code, PyObject *bits, DLDataType *dt) {
  long c = PyLong_AsLong(code), b = PyLong_AsLong(bits);
  if (PyErr_Occurred()) return -1;
  dt->code = (uint8_t)c;
  dt->bits = (uint8_t)b;
  dt->lanes = 1;
  if (ma_type_of(*dt) < 0) {
    PyErr_Format(PyExc_TypeError, "unsupported DLPack dtype (code %ld, bits %ld)", c, b);
    return -1;
  }
  return 0;
}

/* A foreign buffer's release callback for memory a Python object owns.  It
 * may run on any thread and after the interpreter is gone (a DLPack consumer
 * can outlive Python): then the reference is leaked on purpose. */
static void release_pyobject(void *ctx) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE st = PyGILState_Ensure();
  Py_DECREF((PyObject *)ctx);
  PyGILState_Release(st);
}

ma_buffer *ma_buffer_for_object(PyObject *owner, void *data, size_t nbytes) {
  ma_buffer *b = ma_buffer_foreign(data, nbytes, release_pyobject, owner);
  if (b) Py_INCREF(owner);
  return b;
}

/* ---- scalars ----------------------------------------------------------- */

static const char *const type_names[MA_NTYPES] = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};

/* Range of each integer type, indexed by ma_type (bool unused). */
static const int64_t int_lo[] = {0, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0, 0, 0};
static const uint64_t int_hi[] = {1, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX,
                                  UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX};

static int is_integer_type(int tid) { return tid > MA_BOOL && tid <= MA_UINT64; }

/* Write Python scalar `v` into one element of type `tid` at `dst`.  The
 * rules are NumPy 2's for assigning a Python scalar to an array element:
 *   - an integer must fit an integer target (OverflowError otherwise);
 *   - a float going to an integer type is truncated toward zero and must
 *     then fit (NaN: ValueError, infinity: OverflowError);
 *   - a complex number cannot go to a real type (TypeError), only to bool;
 *   - everything else converts like the cast kernels. */
static int store_scalar(PyObject *v, int tid, char *dst) {
  union { uint8_t b; int64_t i; uint64_t u; double f; ma_c128 c; } tmp;
  int src;
  int64_t zero[MA_MAXOPS] = {0}; /* strides of a one-element "loop" */
  char *ps[2];
  if (PyBool_Check(v)) {
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
      if (tid < MA_FLOAT16) {
        PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", idx, type_names[tid]);
        Py_DECREF(idx);
        return -1;
      }
      tmp.f = PyLong_AsDouble(idx);
      if (tmp.f == -1.0 && PyErr_Occurred()) { Py_DECREF(idx); return -1; }
      src = MA_FLOAT64;
    } else if (is_integer_type(tid)) {
      int bad = src == MA_UINT64 ? tmp.u > int_hi[tid]
                                 : (tmp.i < int_lo[tid] || (tmp.i > 0 && (uint64_t)tmp.i > int_hi[tid]));
      if (bad) {
        PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", idx, type_names[tid]);
        Py_DECREF(idx);
        return -1;
      }
    }
    Py_DECREF(idx);
  } else if (PyComplex_Check(v)) {
    Py_complex c = PyComplex_AsCComplex(v);
    if (tid < MA_COMPLEX64 && tid != MA_BOOL) {
      PyErr_Format(PyExc_TypeError, "cannot store the complex number %R in an array of %s", v, type_names[tid]);
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
        PyErr_Format(PyExc_ValueError, "cannot convert float NaN to integer (%s)", type_names[tid]);
        return -1;
      }
      if (isinf(f)) {
        PyErr_Format(PyExc_OverflowError, "cannot convert float infinity to integer (%s)", type_names[tid]);
        return -1;
      }
      double t = trunc(f);
      int bad;
      if (t < 0) {
        bad = t < -9223372036854775808.0 || (int64_t)t < int_lo[tid];
        tmp.i = bad ? 0 : (int64_t)t;
        src = MA_INT64;
      } else {
        bad = t >= 18446744073709551616.0 || (uint64_t)t > int_hi[tid];
        tmp.u = bad ? 0 : (uint64_t)t;
        src = MA_UINT64;
      }
      if (bad) {
        PyErr_Format(PyExc_OverflowError, "Python float %R out of bounds for %s", v, type_names[tid]);
        return -1;
      }
    } else {
      tmp.f = f;
      src = MA_FLOAT64;
    }
  }
  ps[0] = dst;
  ps[1] = (char *)&tmp;
  ma_cast_loops[src][tid](ps, zero, 1, NULL);
  return 0;
}

/* Exported for the elementwise engine (csrc/elementwise.c): Python scalar
 * operands are converted with exactly these rules. */
int ma_store_scalar(PyObject *v, int tid, char *dst) { return store_scalar(v, tid, dst); }

static PyObject *load_scalar(int tid, const char *p) {
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
  PyErr_SetString(PyExc_TypeError, "unsupported dtype");
  return NULL;
}

/* ---- core functions ---------------------------------------------------- */

/* empty(shape, code, bits, zero) -> handle of a new C-contiguous array */
MA_FASTCALL(py_empty) {
  (void)self;
  MA_NARGS(4, "empty");
  int64_t shape[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[0], shape, "shape");
  if (nd < 0 || ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  for (int i = 0; i < nd; i++)
    if (shape[i] < 0) {
      PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed (shape %R)", args[0]);
      return NULL;
    }
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, PyObject_IsTrue(args[3]), &err);
  if (!a) return ma_empty_error(args[0], err, dt.bits / 8);
  return ma_handle_new(a);
}

/* view(h, offset, shape, strides, code, bits, readonly) -> a handle over the
 * same buffer; `offset` and `strides` in elements of the new dtype's size. */
MA_FASTCALL(py_view) {
  (void)self;
  MA_NARGS(7, "view");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long long off = PyLong_AsLongLong(args[1]);
  if (off == -1 && PyErr_Occurred()) return NULL;
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[2], shape, "shape");
  if (nd < 0 || ma_parse_dtype(args[4], args[5], &dt) < 0) return NULL;
  /* The one shape rule (ma_nbytes), for every way an array gets a shape:
   * an empty array's other dims must fit too (reshape(0, 2**40, 2**40)). */
  size_t nbytes;
  if (ma_nbytes(nd, shape, (size_t)(dt.bits / 8), &nbytes) != 0) return ma_empty_error(args[2], 1, dt.bits / 8);
  if (ma_parse_dims(args[3], strides, "strides") != nd) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shape and strides differ in length");
    return NULL;
  }
  return ma_handle_new(ma_array_view(a, off, dt, nd, shape, strides, PyObject_IsTrue(args[6]) ? MA_READONLY : 0));
}

/* wrap(owner, ptr, shape, strides|None, code, bits, readonly) -> a handle
 * over foreign memory kept alive by a reference to `owner`. */
MA_FASTCALL(py_wrap) {
  (void)self;
  MA_NARGS(7, "wrap");
  void *ptr = PyLong_AsVoidPtr(args[1]);
  if (!ptr && PyErr_Occurred()) return NULL;
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[2], shape, "shape");
  if (nd < 0) return NULL;
  int have_strides = args[3] != Py_None;
  if (have_strides && ma_parse_dims(args[3], strides, "strides") != nd) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shape and strides differ in length");
    return NULL;
  }
  if (ma_parse_dtype(args[4], args[5], &dt) < 0) return NULL;
  /* The same checks as a DLPack import (span, overflow, alignment): a raw
   * pointer is one more door foreign memory comes in by. */
  DLTensor t = {ptr, {kDLCPU, 0}, nd, dt, shape, have_strides ? strides : NULL, 0};
  size_t nbytes;
  if (ma_check_tensor(&t, 0, &nbytes) < 0) return NULL;
  ma_buffer *b = ma_buffer_for_object(args[0], ptr, nbytes);
  if (!b) return PyErr_NoMemory();
  ma_array *a = ma_array_new(b, ptr, dt, nd, shape, have_strides ? strides : NULL,
                             PyObject_IsTrue(args[6]) ? MA_READONLY : 0);
  ma_buffer_release(b);
  return ma_handle_new(a);
}

MA_FASTCALL(py_data_ptr) {
  (void)self;
  MA_NARGS(1, "data_ptr");
  ma_array *a = ma_handle_get(args[0]);
  return a ? PyLong_FromVoidPtr(a->t.data) : NULL;
}

MA_FASTCALL(py_is_readonly) {
  (void)self;
  MA_NARGS(1, "is_readonly");
  ma_array *a = ma_handle_get(args[0]);
  return a ? PyBool_FromLong(a->flags & MA_READONLY) : NULL;
}

/* buffer_info(h) -> (buffer address, buffer start, buffer bytes, owned) */
MA_FASTCALL(py_buffer_info) {
  (void)self;
  MA_NARGS(1, "buffer_info");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  return Py_BuildValue("(NNnO)", PyLong_FromVoidPtr(a->buf), PyLong_FromVoidPtr(a->buf->data),
                       (Py_ssize_t)a->buf->nbytes, a->buf->owned ? Py_True : Py_False);
}

static int copy_checked(ma_array *dst, ma_array *src, PyObject *dsth, PyObject *srch) {
  int rc;
  (void)dsth;
  (void)srch;
  Py_BEGIN_ALLOW_THREADS rc = ma_copyto(dst, src);
  Py_END_ALLOW_THREADS if (rc == -2) {
    PyErr_NoMemory();
    return -1;
  }
  if (rc != 0) {
    PyErr_SetString(PyExc_ValueError, "could not broadcast the source array to the destination shape");
    return -1;
  }
  return 0;
}

int ma_check_writeable(const ma_array *d) {
  if (d->flags & MA_READONLY) {
    PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
    return -1;
  }
  return 0;
}

int ma_assign_array(ma_array *d, ma_array *s) {
  if (ma_check_writeable(d) < 0) return -1;
  return copy_checked(d, s, NULL, NULL);
}

int ma_assign_scalar(ma_array *d, PyObject *value) {
  if (ma_check_writeable(d) < 0) return -1;
  int tid = ma_type_of(d->t.dtype);
  _Alignas(16) char one[16]; /* one element of any dtype, aligned for it */
  if (store_scalar(value, tid, one) < 0) return -1;
  ma_array *s = ma_array_new(NULL, one, d->t.dtype, 0, NULL, NULL, 0);
  if (!s) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = copy_checked(d, s, NULL, NULL);
  ma_array_free(s);
  return rc;
}

/* copyto(dst, src): dst[...] = src with broadcasting and casting. */
MA_FASTCALL(py_copyto) {
  (void)self;
  MA_NARGS(2, "copyto");
  ma_array *d = ma_handle_get(args[0]), *s = d ? ma_handle_get(args[1]) : NULL;
  if (!s || ma_assign_array(d, s) < 0) return NULL;
  Py_RETURN_NONE;
}

/* fill(h, value): every element = value (a Python scalar). */
MA_FASTCALL(py_fill) {
  (void)self;
  MA_NARGS(2, "fill");
  ma_array *d = ma_handle_get(args[0]);
  if (!d || ma_assign_scalar(d, args[1]) < 0) return NULL;
  Py_RETURN_NONE;
}

/* from_scalar(value, code, bits) -> 0-d handle */
MA_FASTCALL(py_from_scalar) {
  (void)self;
  MA_NARGS(3, "from_scalar");
  DLDataType dt;
  if (ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  int err = 0;
  ma_array *a = ma_array_empty(dt, 0, NULL, 0, &err);
  if (!a) return PyErr_NoMemory();
  if (store_scalar(args[0], ma_type_of(dt), (char *)a->t.data) < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_handle_new(a);
}

/* from_flat(seq, shape, code, bits) -> handle; seq holds the elements in C
 * order as Python scalars. */
MA_FASTCALL(py_from_flat) {
  (void)self;
  MA_NARGS(4, "from_flat");
  int64_t shape[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[1], shape, "shape");
  if (nd < 0 || ma_parse_dtype(args[2], args[3], &dt) < 0) return NULL;
  PyObject *fast = PySequence_Fast(args[0], "expected a sequence");
  if (!fast) return NULL;
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, 0, &err);
  if (!a) {
    Py_DECREF(fast);
    return err == 1 ? PyErr_Format(PyExc_ValueError, "shape %R is too large", args[1]) : PyErr_NoMemory();
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n != ma_array_size(a)) {
    Py_DECREF(fast);
    ma_array_free(a);
    return PyErr_Format(PyExc_ValueError, "%zd values do not fill shape %R", n, args[1]);
  }
  int tid = ma_type_of(dt);
  int64_t item = ma_type_size[tid];
  PyObject **items = PySequence_Fast_ITEMS(fast);
  for (Py_ssize_t i = 0; i < n; i++) {
    if (store_scalar(items[i], tid, (char *)a->t.data + i * item) < 0) {
      Py_DECREF(fast);
      ma_array_free(a);
      return NULL;
    }
  }
  Py_DECREF(fast);
  return ma_handle_new(a);
}

/* item(h, offset) -> the element `offset` elements from element 0 */
MA_FASTCALL(py_item) {
  (void)self;
  MA_NARGS(2, "item");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long long off = PyLong_AsLongLong(args[1]);
  if (off == -1 && PyErr_Occurred()) return NULL;
  int tid = ma_type_of(a->t.dtype);
  return load_scalar(tid, (const char *)a->t.data + off * ma_type_size[tid]);
}

/* ndarray_item(x) -> the only element of the NDArray x as a Python scalar,
 * or None when x is not an NDArray or its size is not 1 (the caller words
 * the error): float(x), int(x), x.item() in one call. */
MA_FASTCALL(py_ndarray_item) {
  (void)self;
  MA_NARGS(1, "ndarray_item");
  PyObject *x = args[0];
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type)) Py_RETURN_NONE;
  PyObject *h = MA_SLOT(x, ma_nd.off_h);
  if (!h) Py_RETURN_NONE;
  ma_array *a = ma_handle_get(h);
  if (!a) return NULL;
  if (ma_array_size(a) != 1) Py_RETURN_NONE;
  return load_scalar(ma_type_of(a->t.dtype), (const char *)a->t.data);
}

static PyObject *tolist_rec(const ma_array *a, int tid, int dim, const char *p) {
  if (dim == a->t.ndim) return load_scalar(tid, p);
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

MA_FASTCALL(py_tolist) {
  (void)self;
  MA_NARGS(1, "tolist");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  return tolist_rec(a, ma_type_of(a->t.dtype), 0, (const char *)a->t.data);
}


/* A foreign buffer's release callback for a Py_buffer export. */
static void release_pybuffer(void *ctx) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE st = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
  PyGILState_Release(st);
}

/* A new C-contiguous array holding a copy of the export's elements: for
 * data that cannot be used where it is (not aligned to its elements). */
static PyObject *copy_pybuffer(Py_buffer *view, DLDataType dt, int nd, const int64_t *shape) {
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, 0, &err);
  if (!a) return NULL;
  if (PyBuffer_ToContiguous(a->t.data, view, view->len, 'C') < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_handle_new(a);
}

/* wrap_buffer(obj, code, bits, copy_ok) -> (handle, shape, element strides,
 * readonly) over a buffer-protocol export of obj, held until the last view
 * dies.  Its fields pass the checks of every other door (ma_check_tensor);
 * data not aligned to its elements is refused with BufferError, or copied
 * into a new array when `copy_ok` (then readonly is False: the copy is the
 * caller's). */
MA_FASTCALL(py_wrap_buffer) {
  (void)self;
  MA_NARGS(4, "wrap_buffer");
  DLDataType dt;
  if (ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  int copy_ok = PyObject_IsTrue(args[3]);
  if (copy_ok < 0) return NULL;
  Py_buffer *view = (Py_buffer *)PyMem_RawMalloc(sizeof(Py_buffer));
  if (!view) return PyErr_NoMemory();
  if (PyObject_GetBuffer(args[0], view, PyBUF_RECORDS_RO) < 0) {
    PyMem_RawFree(view);
    return NULL;
  }
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  int nd = view->ndim, tid = ma_type_of(dt);
  int64_t item = dt.bits / 8;
  size_t nbytes;
  PyObject *h = NULL;
  const char *problem = NULL;
  if (view->itemsize != item) problem = "the buffer's itemsize does not match its format";
  if (nd > MA_MAXDIMS) problem = "the buffer has too many dimensions";
  for (int i = 0; i < nd && !problem; i++) {
    shape[i] = view->shape ? view->shape[i] : view->len / item;
    int64_t s = view->strides ? view->strides[i] : item;
    if (s % item) problem = "the buffer's strides are not multiples of its itemsize";
    strides[i] = s / item;
  }
  if (!view->strides && nd > 1) /* C-contiguous without explicit strides */
    for (int64_t i = nd - 1, s = 1; i >= 0; s *= shape[i] ? shape[i] : 1, i--) strides[i] = s;
  if (problem) {
    PyErr_SetString(PyExc_BufferError, problem);
  } else if (tid >= 0 && (uintptr_t)view->buf % (uintptr_t)ma_type_alignment(tid)) {
    if (copy_ok)
      h = copy_pybuffer(view, dt, nd, shape);
    else
      PyErr_Format(PyExc_BufferError,
                   "the buffer's data (%p) is not aligned to its %lld-byte elements: it cannot be used "
                   "in place (ma.asarray copies it unless copy=False)",
                   view->buf, (long long)item);
  } else {
    DLTensor t = {view->buf, {kDLCPU, 0}, nd, dt, shape, strides, 0};
    if (ma_check_tensor(&t, 0, &nbytes) == 0) {
      uint32_t flags = view->readonly ? MA_READONLY : 0;
      ma_buffer *b = ma_buffer_foreign(view->buf, (size_t)view->len, release_pybuffer, view);
      if (!b) {
        PyErr_NoMemory();
      } else {
        view = NULL; /* the buffer releases it from now on */
        h = ma_handle_new(ma_array_new(b, b->data, dt, nd, shape, strides, flags));
        ma_buffer_release(b);
      }
    }
  }
  if (view) { /* not handed to a buffer: refused, or copied */
    PyBuffer_Release(view);
    PyMem_RawFree(view);
  }
  if (!h) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  ma_array *a = ma_handle_get(h);
  return Py_BuildValue("(NNNO)", h, ma_dims_tuple(nd, a->t.shape), ma_dims_tuple(nd, a->t.strides),
                       (a->flags & MA_READONLY) ? Py_True : Py_False);
}

/* ---- nested sequences ---------------------------------------------------- */

/* What a walk over nested lists/tuples found: the shape, and the kinds of
 * the Python scalars at the leaves. */
typedef struct {
  int ndim;  /* depth of the leaves; -1 until the first leaf or empty list */
  int known; /* how many leading entries of shape are fixed */
  int64_t shape[MA_MAXDIMS];
  int kind;  /* 0 bool, 1 int, 2 float, 3 complex */
  int small_int, big_int, huge_int; /* ints in int64 / in (INT64_MAX, UINT64_MAX] / beyond */
  int other; /* met a leaf that is not a Python bool/int/float/complex */
} nest_info;

static int ragged(void) {
  PyErr_SetString(PyExc_ValueError,
                  "the nested sequence is ragged: its sub-sequences differ in length or depth, so it "
                  "has no array shape");
  return -1;
}

static int discover(PyObject *o, int depth, nest_info *ni) {
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    if (ni->ndim >= 0 && depth >= ni->ndim) return ragged();
    if (depth >= MA_MAXDIMS) {
      PyErr_Format(PyExc_ValueError, "the nested sequence is deeper than %d levels", MA_MAXDIMS);
      return -1;
    }
    if (depth < ni->known) {
      if (ni->shape[depth] != n) return ragged();
    } else {
      ni->shape[depth] = n;
      ni->known = depth + 1;
    }
    if (n == 0) {
      if (ni->ndim >= 0 && ni->ndim != depth + 1) return ragged();
      ni->ndim = depth + 1;
      return 0;
    }
    if (Py_EnterRecursiveCall(" while converting a nested sequence")) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0 && !ni->other; i++) {
      /* the list cannot change here: only C code runs during the walk */
      PyObject *item = PyList_Check(o) ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
      rc = discover(item, depth + 1, ni);
    }
    Py_LeaveRecursiveCall();
    return rc;
  }
  if (ni->ndim >= 0 && ni->ndim != depth) return ragged();
  ni->ndim = depth;
  if (PyBool_Check(o)) return 0;
  if (PyLong_Check(o)) {
    if (ni->kind < 1) ni->kind = 1;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow == 0) {
      ni->small_int = 1;
    } else if (overflow > 0) {
      unsigned long long ux = PyLong_AsUnsignedLongLong(o);
      if (ux == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        ni->huge_int = 1;
      } else {
        ni->big_int = 1;
      }
    } else {
      ni->huge_int = 1;
    }
    return 0;
  }
  if (PyFloat_Check(o)) {
    if (ni->kind < 2) ni->kind = 2;
    return 0;
  }
  if (PyComplex_Check(o)) {
    ni->kind = 3;
    return 0;
  }
  ni->other = 1;
  return 0;
}

/* nested_info(seq) -> (shape, kind, small_int, big_int, huge_int), or None
 * when a leaf is not a Python scalar (NumPy scalars, arrays...: the caller
 * converts those itself).  kind: 0 bool, 1 int, 2 float, 3 complex.
 * ValueError when the sequence is ragged. */
MA_FASTCALL(py_nested_info) {
  (void)self;
  MA_NARGS(1, "nested_info");
  nest_info ni;
  memset(&ni, 0, sizeof(ni));
  ni.ndim = -1;
  if (discover(args[0], 0, &ni) < 0) return NULL;
  if (ni.other) Py_RETURN_NONE;
  PyObject *shape = PyTuple_New(ni.ndim);
  if (!shape) return NULL;
  for (int i = 0; i < ni.ndim; i++) PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(ni.shape[i]));
  return Py_BuildValue("(Niiii)", shape, ni.kind, ni.small_int, ni.big_int, ni.huge_int);
}

static int fill_nested(PyObject *o, int depth, const ma_array *a, int tid, char **p) {
  if (depth == a->t.ndim) {
    if (store_scalar(o, tid, *p) < 0) return -1;
    *p += ma_type_size[tid];
    return 0;
  }
  if (!(PyList_Check(o) || PyTuple_Check(o)) ||
      (PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o)) != a->t.shape[depth]) {
    PyErr_SetString(PyExc_RuntimeError, "the nested sequence changed while it was converted");
    return -1;
  }
  for (int64_t i = 0; i < a->t.shape[depth]; i++) {
    PyObject *item = PyList_Check(o) ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
    if (fill_nested(item, depth + 1, a, tid, p) < 0) return -1;
  }
  return 0;
}

/* from_nested(seq, shape, code, bits) -> handle of a new C-contiguous array
 * holding the leaves of `seq` (which nested_info accepted). */
MA_FASTCALL(py_from_nested) {
  (void)self;
  MA_NARGS(4, "from_nested");
  int64_t shape[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[1], shape, "shape");
  if (nd < 0 || ma_parse_dtype(args[2], args[3], &dt) < 0) return NULL;
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, 0, &err);
  if (!a) return err == 1 ? PyErr_Format(PyExc_ValueError, "shape %R is too large", args[1]) : PyErr_NoMemory();
  char *p = (char *)a->t.data;
  if (fill_nested(args[0], 0, a, ma_type_of(dt), &p) < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_handle_new(a);
}

/* ndarray_from_nested(seq, dtype) -> a new NDArray from nested lists/tuples
 * of Python scalars: nested_info, the dtype choice and from_nested of
 * asarray's _from_sequence in one call.  dtype None picks bool, int64,
 * float64 or complex128 (float64 when there are no elements).  None when
 * the Python path must decide: other leaves, ints beyond int64 without a
 * dtype, or a dtype that is not a DType singleton.  A failed allocation
 * raises what from_nested raises. */
MA_FASTCALL(py_ndarray_from_nested) {
  (void)self;
  MA_NARGS(2, "ndarray_from_nested");
  int tid = args[1] == Py_None ? -1 : ma_ndarray_tid(args[1]);
  if (args[1] != Py_None && tid < 0) Py_RETURN_NONE;
  nest_info ni;
  memset(&ni, 0, sizeof(ni));
  ni.ndim = -1;
  if (discover(args[0], 0, &ni) < 0) return NULL;
  if (ni.other) Py_RETURN_NONE;
  if (tid < 0) {
    int64_t n = 1;
    for (int i = 0; i < ni.ndim; i++) n *= ni.shape[i];
    static const int by_kind[4] = {MA_BOOL, MA_INT64, MA_FLOAT64, MA_COMPLEX128};
    if (n == 0)
      tid = MA_FLOAT64;
    else if (ni.kind == 1 && (ni.big_int || ni.huge_int))
      Py_RETURN_NONE;
    else
      tid = by_kind[ni.kind];
  }
  int err = 0;
  ma_array *a = ma_array_empty(ma_dltypes[tid], ni.ndim, ni.shape, 0, &err);
  if (!a) {
    if (err != 1) return PyErr_NoMemory();
    PyObject *shape = ma_dims_tuple(ni.ndim, ni.shape);
    if (shape) {
      PyErr_Format(PyExc_ValueError, "shape %R is too large", shape);
      Py_DECREF(shape);
    }
    return NULL;
  }
  char *p = (char *)a->t.data;
  if (fill_nested(args[0], 0, a, tid, &p) < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_ndarray_new(a, NULL);
}

/* ---- arange, linspace, tril/triu --------------------------------------------- */

/* arange_fill(h, first, second): NumPy's algorithm.  Elements 0 and 1 are
 * assigned `first` and `second` (= start + step) like any scalar, then
 * element i = e0 + i * (e1 - e0), computed in the dtype's own arithmetic
 * (integers wrap, float16/bfloat16 in float), so results match NumPy's
 * arange bit for bit.  `h` is 1-d and contiguous. */
MA_FASTCALL(py_arange_fill) {
  (void)self;
  MA_NARGS(3, "arange_fill");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  int tid = ma_type_of(a->t.dtype);
  int64_t n = a->t.ndim ? a->t.shape[0] : 1;
  char *d = (char *)a->t.data;
  if (n >= 1 && store_scalar(args[1], tid, d) < 0) return NULL;
  if (n >= 2 && store_scalar(args[2], tid, d + ma_type_size[tid]) < 0) return NULL;
  if (n <= 2) Py_RETURN_NONE;
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
MA_FASTCALL(py_linspace_fill) {
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
MA_FASTCALL(py_tri_zero) {
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

/* ---- test hooks ---------------------------------------------------------- */

typedef struct {
  ma_buffer *buf;
  int64_t iters;
} stress_arg;

static void *stress_worker(void *p) {
  stress_arg *s = (stress_arg *)p;
  for (int64_t i = 0; i < s->iters; i++) {
    ma_buffer_retain(s->buf);
    ma_buffer_retain(s->buf);
    ma_buffer_release(s->buf);
    ma_buffer_release(s->buf);
  }
  return NULL;
}

/* stress_refcount(h, threads, iters) -> the buffer's refcount afterwards.
 * `threads` OS threads retain and release the array's buffer `iters` times
 * each, without the GIL: with atomic counts the result is the count before. */
MA_FASTCALL(py_stress_refcount) {
  (void)self;
  MA_NARGS(3, "stress_refcount");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long nt = PyLong_AsLong(args[1]);
  long long iters = PyLong_AsLongLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  if (nt < 1 || nt > 64) {
    PyErr_SetString(PyExc_ValueError, "threads must be in 1..64");
    return NULL;
  }
  pthread_t tids[64];
  stress_arg arg = {a->buf, iters};
  int started = 0;
  Py_BEGIN_ALLOW_THREADS
  for (; started < nt; started++)
    if (pthread_create(&tids[started], NULL, stress_worker, &arg) != 0) break;
  for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
  Py_END_ALLOW_THREADS
  if (started != nt) return PyErr_Format(PyExc_RuntimeError, "could only start %d threads", started);
  return PyLong_FromLongLong(__atomic_load_n(&a->buf->refcount, __ATOMIC_SEQ_CST));
}

/* stats() -> (live_buffers, live_bytes, total_allocations, live_foreign,
 *             total_foreign, failed_allocations) */
MA_FASTCALL(py_stats) {
  (void)self;
  (void)args;
  MA_NARGS(0, "stats");
  ma_stats_t s;
  ma_stats(&s);
  return Py_BuildValue("(LLLLLLL)", (long long)s.live_buffers, (long long)s.live_bytes,
                       (long long)s.total_allocations, (long long)s.live_foreign,
                       (long long)s.total_foreign, (long long)s.failed_allocations,
                       (long long)s.cached_bytes);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_core_methods[] = {
    FC("empty", py_empty, "empty(shape, code, bits, zero) -> handle"),
    FC("view", py_view, "view(h, offset, shape, strides, code, bits, readonly) -> handle"),
    FC("wrap", py_wrap, "wrap(owner, ptr, shape, strides, code, bits, readonly) -> handle"),
    FC("wrap_buffer", py_wrap_buffer, "wrap_buffer(obj, code, bits, copy_ok) -> (handle, shape, strides, readonly)"),
    FC("data_ptr", py_data_ptr, "data_ptr(h) -> int"),
    FC("is_readonly", py_is_readonly, "is_readonly(h) -> bool"),
    FC("buffer_info", py_buffer_info, "buffer_info(h) -> (id, start, nbytes, owned)"),
    FC("copyto", py_copyto, "copyto(dst, src)"),
    FC("fill", py_fill, "fill(h, value)"),
    FC("from_scalar", py_from_scalar, "from_scalar(value, code, bits) -> handle"),
    FC("from_flat", py_from_flat, "from_flat(seq, shape, code, bits) -> handle"),
    FC("item", py_item, "item(h, offset) -> scalar"),
    FC("ndarray_item", py_ndarray_item, "ndarray_item(x) -> scalar or None"),
    FC("tolist", py_tolist, "tolist(h) -> list"),
    FC("stats", py_stats, "stats() -> tuple"),
    FC("nested_info", py_nested_info, "nested_info(seq) -> (shape, kind, small, big, huge) | None"),
    FC("from_nested", py_from_nested, "from_nested(seq, shape, code, bits) -> handle"),
    FC("ndarray_from_nested", py_ndarray_from_nested, "ndarray_from_nested(seq, dtype) -> NDArray or None"),
    FC("arange_fill", py_arange_fill, "arange_fill(h, first, second)"),
    FC("linspace_fill", py_linspace_fill, "linspace_fill(h, start, stop, div, endpoint, floor)"),
    FC("tri_zero", py_tri_zero, "tri_zero(h, k, lower)"),
    FC("stress_refcount", py_stress_refcount, "stress_refcount(h, threads, iters) -> refcount"),
    {NULL, NULL, 0, NULL}};

/* Called once by minarray._native through cffi (so without the GIL). */
int ma_install(const char *modname) {
  PyGILState_STATE st = PyGILState_Ensure();
  int rc = -1;
  PyObject *m = PyImport_ImportModule(modname);
  if (m) {
    PyMethodDef *tables[] = {ma_core_methods,   ma_ndarray_methods, ma_dlpack_methods, ma_numpy_methods, ma_elementwise_methods,
                             ma_index_methods,  ma_reduce_methods, ma_linalg_methods,
                             ma_sort_methods,   ma_views_methods,  ma_convert_methods};
    rc = 0;
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && rc == 0; i++)
      rc = PyModule_AddFunctions(m, tables[i]);
    Py_DECREF(m);
  }
  if (rc < 0) PyErr_Print();
  PyGILState_Release(st);
  return rc;
}
