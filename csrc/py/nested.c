/*
 * Arrays from Python sequences: the shape and scalar kinds of nested lists
 * and tuples (what asarray([[1, 2], [3, 4.5]]) must become), and their
 * elements stored with the scalar rules of csrc/py/scalars.c.
 */
#include "pyapi.h"

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
static PyObject *py_nested_info(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
    if (ma_store_scalar(o, tid, *p) < 0) return -1;
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
static PyObject *py_from_nested(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
static PyObject *py_ndarray_from_nested(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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

/* from_flat(seq, shape, code, bits) -> handle; seq holds the elements in C
 * order as Python scalars. */
static PyObject *py_from_flat(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
    if (ma_store_scalar(items[i], tid, (char *)a->t.data + i * item) < 0) {
      Py_DECREF(fast);
      ma_array_free(a);
      return NULL;
    }
  }
  Py_DECREF(fast);
  return ma_handle_new(a);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_nested_methods[] = {
    FC("from_flat", py_from_flat, "from_flat(seq, shape, code, bits) -> handle"),
    FC("nested_info", py_nested_info, "nested_info(seq) -> (shape, kind, small, big, huge) | None"),
    FC("from_nested", py_from_nested, "from_nested(seq, shape, code, bits) -> handle"),
    FC("ndarray_from_nested", py_ndarray_from_nested, "ndarray_from_nested(seq, dtype) -> NDArray or None"),
    {NULL, NULL, 0, NULL}};
