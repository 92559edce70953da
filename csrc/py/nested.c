/*
 * Arrays from Python sequences: the shape and leaf kinds of nested lists
 * and tuples (what asarray([[1, 2], [3, 4.5]]) must become), found in one
 * walk, and their elements stored with the scalar rules of
 * csrc/py/scalars.c.
 */
#include "pyapi.h"

/* What the one walk over nested lists/tuples found: the shape, the kinds
 * of the Python scalars at the leaves, and the other leaves (NumPy scalars,
 * arrays, any array-like) converted once, in walk order, by
 * minarray._coerce.asarray; their axes continue the shape. */
typedef struct {
  int ndim;  /* depth of the leaves plus a leaf array's ndim; -1 until the first leaf or empty list */
  int known; /* how many leading entries of shape are fixed */
  int64_t shape[MA_MAXDIMS];
  int kind;  /* 0 bool, 1 int, 2 float, 3 complex; -1 no scalar leaf */
  int small_int, big_int; /* ints in int64 / in (INT64_MAX, UINT64_MAX] */
  PyObject *huge_int;     /* the first int beyond both (borrowed) */
  PyObject *arrays;       /* list of the converted leaves, or NULL */
  int target;             /* the dtype asked for (ma_type), or -1 */
} nest_info;

/* NumPy 2's error for a ragged sequence: `depth` axes agreed. */
static int ragged(const nest_info *ni, int depth) {
  PyObject *sh = ma_dims_tuple(depth, ni->shape);
  if (sh) {
    PyErr_Format(PyExc_ValueError,
                 "setting an array element with a sequence. The requested array has an inhomogeneous shape "
                 "after %d dimensions. The detected shape was %R + inhomogeneous part.",
                 depth, sh);
    Py_DECREF(sh);
  }
  return -1;
}

static int is_python_scalar(PyObject *o) {
  return PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o); /* bool is an int */
}

/* Fixes (or checks) axis `depth` at length n: 0, or -1 when ragged. */
static int axis_length(nest_info *ni, int depth, int64_t n) {
  if (depth >= MA_MAXDIMS) {
    PyErr_Format(PyExc_ValueError, "the nested sequence is deeper than %d levels", MA_MAXDIMS);
    return -1;
  }
  if (depth < ni->known) return ni->shape[depth] == n ? 0 : ragged(ni, depth);
  ni->shape[depth] = n;
  ni->known = depth + 1;
  return 0;
}

/* A leaf that is not a Python scalar: minarray._coerce.nested_leaf's array
 * of it, whose axes continue the shape. */
static int array_leaf(PyObject *o, int depth, nest_info *ni) {
  static PyObject *nested_leaf;
  if (!ma_python_function(&nested_leaf, "minarray._coerce", "nested_leaf")) return -1;
  PyObject *arr = PyObject_CallOneArg(nested_leaf, o);
  if (!arr) return -1;
  ma_array *a = ma_ndarray_array(arr);
  if (!a && !PyErr_Occurred() && MA_ND(arr)->h) ma_handle_get(MA_ND(arr)->h); /* a device array: the guard's error */
  if (!a || (!ni->arrays && !(ni->arrays = PyList_New(0))) || PyList_Append(ni->arrays, arr) < 0) {
    if (!a && !PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "cannot store a %.100s in an array", Py_TYPE(o)->tp_name);
    Py_DECREF(arr);
    return -1;
  }
  Py_DECREF(arr); /* the list holds it */
  int nd = depth + a->t.ndim;
  if (ni->ndim >= 0 && ni->ndim != nd) return ragged(ni, depth < ni->ndim ? depth : ni->ndim);
  for (int d = 0; d < a->t.ndim; d++)
    if (axis_length(ni, depth + d, a->t.shape[d]) < 0) return -1;
  ni->ndim = nd;
  return 0;
}

static int discover(PyObject *o, int depth, nest_info *ni) {
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    if (ni->ndim >= 0 && depth >= ni->ndim) return ragged(ni, ni->ndim);
    if (axis_length(ni, depth, n) < 0) return -1;
    if (n == 0) {
      if (ni->ndim >= 0 && ni->ndim != depth + 1) return ragged(ni, depth + 1 < ni->ndim ? depth + 1 : ni->ndim);
      ni->ndim = depth + 1;
      return 0;
    }
    if (Py_EnterRecursiveCall(" while converting a nested sequence")) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
      /* a list could change under asarray's Python code: hold the item */
      PyObject *item;
      if (PyList_Check(o)) {
        if (i >= PyList_GET_SIZE(o)) break; /* fill_nested reports the change */
        item = Py_NewRef(PyList_GET_ITEM(o, i));
      } else {
        item = Py_NewRef(PyTuple_GET_ITEM(o, i));
      }
      rc = discover(item, depth + 1, ni);
      Py_DECREF(item);
    }
    Py_LeaveRecursiveCall();
    return rc;
  }
  /* None is a leaf of its own only when a dtype was asked for (NumPy casts
   * its object None to it: ma_store_scalar); without one NumPy would make
   * an object array, which array_leaf refuses */
  int none_leaf = o == Py_None && ni->target >= 0;
  if (!is_python_scalar(o) && !none_leaf) return array_leaf(o, depth, ni);
  if (ni->ndim >= 0 && ni->ndim != depth) return ragged(ni, depth < ni->ndim ? depth : ni->ndim);
  ni->ndim = depth;
  if (none_leaf) {
    /* no kind: the dtype is given */
  } else if (PyBool_Check(o)) {
    if (ni->kind < 0) ni->kind = 0;
  } else if (PyLong_Check(o)) {
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
        if (!ni->huge_int) ni->huge_int = o;
      } else {
        ni->big_int = 1;
      }
    } else if (!ni->huge_int) {
      ni->huge_int = o;
    }
  } else if (PyFloat_Check(o)) {
    if (ni->kind < 2) ni->kind = 2;
  } else {
    ni->kind = 3;
  }
  return 0;
}

/* The dtype NumPy gives the Python scalars a walk found (as a ma_type):
 * bool, int64 (uint64 when every int needs it, float64 when both kinds
 * mix), float64, complex128; -1 with OverflowError for an int beyond 64
 * bits, for which NumPy would make an object array (minarray has none). */
static int scalar_type(const nest_info *ni) {
  static const int by_kind[4] = {MA_BOOL, MA_INT64, MA_FLOAT64, MA_COMPLEX128};
  if (ni->kind != 1) return by_kind[ni->kind];
  if (ni->huge_int) {
    PyObject *r = PyObject_Repr(ni->huge_int);
    if (r && PyUnicode_GET_LENGTH(r) > 60) Py_SETREF(r, PyUnicode_Substring(r, 0, 57));
    if (r)
      PyErr_Format(PyExc_OverflowError,
                   "Python integer %U%s does not fit in 64 bits; pass dtype=float64 to store it as a float", r,
                   PyUnicode_GET_LENGTH(r) == 57 ? "..." : "");
    Py_XDECREF(r);
    return -1;
  }
  if (ni->big_int) return ni->small_int ? MA_FLOAT64 : MA_UINT64;
  return MA_INT64;
}

/* The dtype of the result when leaves were arrays: the Python scalars'
 * dtype and every leaf's, promoted as minarray._dtypes.promote does
 * (NumPy's array coercion: Python scalars count as int64, float64...,
 * not as weak scalars). */
static int leaves_type(const nest_info *ni) {
  static PyObject *promote;
  if (!ma_python_function(&promote, "minarray._dtypes", "promote")) return -1;
  int tid = -1;
  if (ni->kind >= 0 && (tid = scalar_type(ni)) < 0) return -1;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ni->arrays); i++) {
    ma_array *a = ma_ndarray_array(PyList_GET_ITEM(ni->arrays, i));
    int lt = ma_type_of(a->t.dtype);
    if (tid < 0) {
      tid = lt;
    } else if (lt != tid) {
      PyObject *d = PyObject_CallFunctionObjArgs(promote, ma_nd.dtypes[tid], ma_nd.dtypes[lt], NULL);
      if (!d) return -1;
      tid = ma_ndarray_tid(d);
      Py_DECREF(d);
      if (tid < 0) return PyErr_Format(PyExc_TypeError, "promote gave no minarray dtype"), -1;
    }
  }
  return tid;
}

/* Writes the leaves below `o` into a's elements from *p on; the leaf
 * arrays are taken from ni->arrays in walk order (*next). */
static int fill_nested(PyObject *o, int depth, ma_array *a, int tid, char **p, const nest_info *ni,
                       Py_ssize_t *next) {
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    if (depth >= a->t.ndim || n != a->t.shape[depth]) {
      PyErr_SetString(PyExc_RuntimeError, "the nested sequence changed while it was converted");
      return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
      if (PyList_Check(o) && i >= PyList_GET_SIZE(o)) {
        PyErr_SetString(PyExc_RuntimeError, "the nested sequence changed while it was converted");
        return -1;
      }
      PyObject *item = PyList_Check(o) ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
      if (fill_nested(item, depth + 1, a, tid, p, ni, next) < 0) return -1;
    }
    return 0;
  }
  if (is_python_scalar(o) || o == Py_None) {
    if (ma_store_scalar(o, tid, *p) < 0) return -1;
    *p += ma_type_size[tid];
    return 0;
  }
  /* the next converted leaf fills the block of the remaining axes */
  ma_array *src = ni->arrays && *next < PyList_GET_SIZE(ni->arrays)
                      ? ma_ndarray_array(PyList_GET_ITEM(ni->arrays, (*next)++))
                      : NULL;
  int bnd = a->t.ndim - depth;
  if (!src || src->t.ndim != bnd) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the nested sequence changed while it was converted");
    return -1;
  }
  int64_t off = (int64_t)(*p - (char *)a->t.data) / ma_type_size[tid];
  ma_array *dst = ma_array_view(a, off, a->t.dtype, bnd, a->t.shape + depth, NULL, 0);
  if (!dst) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = ma_assign_array(dst, src);
  *p += ma_array_size(dst) * ma_type_size[tid];
  ma_array_free(dst);
  return rc;
}

/* ndarray_from_nested(obj, dtype) -> a new NDArray from nested
 * lists/tuples (or a bare Python scalar): the one implementation of
 * asarray's sequence intake.  One walk finds the shape and the leaves'
 * kinds and converts every leaf that is not a Python scalar (NumPy
 * scalars, arrays, array-likes) with asarray; then the elements are
 * written.  dtype None picks NumPy's: float64 when there are no elements,
 * else as scalar_type and leaves_type say; a DType casts every leaf to it.
 * Errors: NumPy 2's ValueError for a ragged sequence, OverflowError for
 * an int beyond 64 bits without a dtype, ma_store_scalar's for a value the
 * dtype cannot hold. */
static PyObject *py_ndarray_from_nested(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_from_nested");
  int tid = args[1] == Py_None ? -1 : ma_ndarray_tid(args[1]);
  if (args[1] != Py_None && tid < 0)
    return PyErr_Format(PyExc_TypeError, "ndarray_from_nested expects a minarray dtype or None, not %R", args[1]);
  nest_info ni;
  memset(&ni, 0, sizeof(ni));
  ni.ndim = -1;
  ni.kind = -1;
  ni.target = tid;
  PyObject *result = NULL;
  if (discover(args[0], 0, &ni) < 0) goto done;
  if (tid < 0) {
    int64_t n = 1;
    for (int i = 0; i < ni.ndim; i++) n *= ni.shape[i];
    if (n == 0)
      tid = MA_FLOAT64;
    else if (ni.arrays)
      tid = leaves_type(&ni);
    else
      tid = scalar_type(&ni);
    if (tid < 0) goto done;
  }
  int err = 0;
  ma_array *a = ma_array_empty(ma_dltypes[tid], ni.ndim, ni.shape, 0, &err);
  if (!a) {
    if (err != 1) {
      PyErr_NoMemory();
    } else {
      PyObject *shape = ma_dims_tuple(ni.ndim, ni.shape);
      if (shape) {
        PyErr_Format(PyExc_ValueError, "shape %R is too large", shape);
        Py_DECREF(shape);
      }
    }
    goto done;
  }
  char *p = (char *)a->t.data;
  Py_ssize_t next = 0;
  if (fill_nested(args[0], 0, a, tid, &p, &ni, &next) < 0) {
    ma_array_free(a);
    goto done;
  }
  result = ma_ndarray_new(a, NULL);
done:
  Py_XDECREF(ni.arrays);
  return result;
}

PyObject *ma_from_nested(PyObject *obj) {
  PyObject *args[2] = {obj, Py_None};
  return py_ndarray_from_nested(NULL, args, 2);
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
    FC("ndarray_from_nested", py_ndarray_from_nested, "ndarray_from_nested(obj, dtype) -> NDArray"),
    {NULL, NULL, 0, NULL}};
