/*
 * The NDArray class as C sees it: where its slots sit in an instance, the
 * DType singleton of each ma_type, and how C builds an NDArray without a
 * Python-level constructor call.
 *
 * NDArray (minarray/ndarray.py) is a Python class with __slots__ (_h,
 * _shape, _strides, _dtype, _base).  minarray.ndarray hands the class and
 * its dtypes to ndarray_setup() once at import; from then on imports,
 * elementwise results and new empty arrays are made here, in one place,
 * for ~100 ns instead of the ~1 us a Python constructor path costs.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include <structmember.h> /* T_OBJECT_EX: how __slots__ entries are stored */

ma_ndarray_class ma_nd;

int ma_ndarray_tid(PyObject *dtype) {
  for (int i = 0; i < MA_NTYPES; i++)
    if (ma_nd.dtypes[i] == dtype) return i;
  return -1;
}

PyObject *ma_ndarray_wrap(PyObject *h, PyObject *shape, PyObject *strides, PyObject *base) {
  ma_array *a = (ma_array *)PyCapsule_GetPointer(h, MA_HANDLE_NAME);
  int tid = a ? ma_type_of(a->t.dtype) : -1;
  if (!ma_nd.type || tid < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "minarray.ndarray is not initialised");
    goto fail;
  }
  if (!shape && !(shape = ma_dims_tuple(a->t.ndim, a->t.shape))) goto fail;
  if (!strides && !(strides = ma_dims_tuple(a->t.ndim, a->t.strides))) goto fail;
  PyObject *obj = ma_nd.type->tp_alloc(ma_nd.type, 0);
  if (!obj) goto fail;
  MA_SLOT(obj, ma_nd.off_h) = h;
  MA_SLOT(obj, ma_nd.off_shape) = shape;
  MA_SLOT(obj, ma_nd.off_strides) = strides;
  MA_SLOT(obj, ma_nd.off_dtype) = Py_NewRef(ma_nd.dtypes[tid]);
  MA_SLOT(obj, ma_nd.off_base) = Py_NewRef(base ? base : Py_None);
  return obj;
fail:
  Py_XDECREF(shape);
  Py_XDECREF(strides);
  /* the handle's destructor may release a foreign buffer, whose owner's
   * code must not see (or clear) the pending exception */
  {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    Py_DECREF(h);
    PyErr_Restore(et, ev, tb);
  }
  return NULL;
}

ma_array *ma_ndarray_array(PyObject *x) {
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type)) return NULL;
  PyObject *h = MA_SLOT(x, ma_nd.off_h);
  if (!h || !MA_SLOT(x, ma_nd.off_base) || !PyCapsule_CheckExact(h)) return NULL;
  ma_array *a = (ma_array *)PyCapsule_GetPointer(h, MA_HANDLE_NAME);
  if (!a) PyErr_Clear();
  return a;
}

PyObject *ma_ndarray_new(ma_array *a, PyObject *base) {
  PyObject *h = ma_handle_new(a); /* owns `a` from here on */
  return h ? ma_ndarray_wrap(h, NULL, NULL, base) : NULL;
}

/* The exact tuple of ints `shape` (or a bare int) as dims; 0 when it is
 * anything else (a list, a NumPy integer, a negative entry...), which the
 * Python layer then checks and words the error for. */
static int plain_dims(PyObject *shape, int64_t *out, int *nd) {
  if (PyLong_CheckExact(shape)) {
    *nd = 1;
    out[0] = PyLong_AsLongLong(shape);
    if (out[0] == -1 && PyErr_Occurred()) PyErr_Clear();
    return out[0] >= 0;
  }
  if (!PyTuple_CheckExact(shape) || PyTuple_GET_SIZE(shape) > MA_MAXDIMS) return 0;
  *nd = (int)PyTuple_GET_SIZE(shape);
  for (int i = 0; i < *nd; i++) {
    PyObject *v = PyTuple_GET_ITEM(shape, i);
    if (!PyLong_CheckExact(v)) return 0;
    out[i] = PyLong_AsLongLong(v);
    if (out[i] == -1 && PyErr_Occurred()) PyErr_Clear();
    if (out[i] < 0) return 0;
  }
  return 1;
}

/* ndarray_empty(shape, dtype, zero) -> NDArray, or None when shape is not a
 * plain int or tuple of non-negative ints or dtype is not a DType (the
 * general path in minarray/creation.py takes those). */
MA_FASTCALL(py_ndarray_empty) {
  (void)self;
  MA_NARGS(3, "ndarray_empty");
  int64_t dims[MA_MAXDIMS];
  int nd, tid = ma_ndarray_tid(args[1]);
  if (tid < 0 || !plain_dims(args[0], dims, &nd)) Py_RETURN_NONE;
  /* an exact tuple of exact ints is immutable: it can be the shape itself */
  PyObject *shape = PyTuple_CheckExact(args[0]) ? Py_NewRef(args[0]) : ma_dims_tuple(nd, dims);
  if (!shape) return NULL;
  int err = 0;
  ma_array *a = ma_array_empty(ma_dltypes[tid], nd, dims, PyObject_IsTrue(args[2]), &err);
  if (!a) {
    ma_empty_error(shape, err, ma_type_size[tid]);
    Py_DECREF(shape);
    return NULL;
  }
  PyObject *h = ma_handle_new(a);
  if (!h) {
    Py_DECREF(shape);
    return NULL;
  }
  return ma_ndarray_wrap(h, shape, NULL, NULL);
}

static int slot_offset(PyTypeObject *tp, const char *name, Py_ssize_t *off) {
  PyObject *key = PyUnicode_InternFromString(name);
  if (!key) return -1;
  PyObject *d = _PyType_Lookup(tp, key);
  Py_DECREF(key);
  if (!d || !PyObject_TypeCheck(d, &PyMemberDescr_Type) ||
      ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
    PyErr_Format(PyExc_TypeError, "%.200s has no __slots__ entry %s", tp->tp_name, name);
    return -1;
  }
  *off = ((PyMemberDescrObject *)d)->d_member->offset;
  return 0;
}

/* ndarray_setup(NDArray, dtypes): dtypes lists the DType singletons in
 * ma_type order, each checked against its DLPack code and bits. */
MA_FASTCALL(py_ndarray_setup) {
  (void)self;
  MA_NARGS(2, "ndarray_setup");
  if (!PyType_Check(args[0]) || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != MA_NTYPES) {
    PyErr_SetString(PyExc_TypeError, "ndarray_setup(NDArray, dtypes) expects a type and a tuple of all dtypes");
    return NULL;
  }
  PyTypeObject *tp = (PyTypeObject *)args[0];
  ma_ndarray_class nd = {0};
  if (slot_offset(tp, "_h", &nd.off_h) < 0 || slot_offset(tp, "_shape", &nd.off_shape) < 0 ||
      slot_offset(tp, "_strides", &nd.off_strides) < 0 || slot_offset(tp, "_dtype", &nd.off_dtype) < 0 ||
      slot_offset(tp, "_base", &nd.off_base) < 0)
    return NULL;
  for (int i = 0; i < MA_NTYPES; i++) {
    PyObject *dt = PyTuple_GET_ITEM(args[1], i);
    PyObject *code = PyObject_GetAttrString(dt, "code"), *bits = PyObject_GetAttrString(dt, "bits");
    long c = code ? PyLong_AsLong(code) : -1, b = bits ? PyLong_AsLong(bits) : -1;
    Py_XDECREF(code);
    Py_XDECREF(bits);
    if (PyErr_Occurred()) return NULL;
    if (c != ma_dltypes[i].code || b != ma_dltypes[i].bits)
      return PyErr_Format(PyExc_ValueError, "dtype %R is out of ma_type order (position %d)", dt, i);
  }
  /* the module keeps the class and the dtypes alive (module-level objects
   * of minarray); hold references all the same */
  for (int i = 0; i < MA_NTYPES; i++) {
    nd.dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(args[1], i));
    Py_XDECREF(ma_nd.dtypes[i]);
  }
  nd.type = (PyTypeObject *)Py_NewRef(tp);
  Py_XDECREF(ma_nd.type);
  ma_nd = nd;
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_ndarray_methods[] = {
    FC("ndarray_setup", py_ndarray_setup, "ndarray_setup(NDArray, dtypes)"),
    FC("ndarray_empty", py_ndarray_empty, "ndarray_empty(shape, dtype, zero) -> NDArray or None"),
    {NULL, NULL, 0, NULL}};
