/*
 * Whole-array copies in one C call: NDArray.copy(), astype() and
 * asarray(..., copy=True) of an NDArray.  The Python route (allocate a
 * handle, wrap it in an NDArray, then copyto) spends many times longer in
 * the interpreter than the memcpy of a small array takes
 * (docs/performance.md, "Per call").
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include "copy.h"

/* Below this many bytes the copy is over before another thread could use
 * the GIL; releasing and taking it back would cost more than it gives. */
#define KEEP_GIL_BYTES (1 << 16)

/* ndarray_copy(x, dtype[, operation]) -> a new C-contiguous NDArray (base
 * None) holding x's elements cast to dtype (None: x's dtype).  Its callers
 * (NDArray.copy and astype, asarray, the reductions) send an NDArray and a
 * DType object or None: anything else is a TypeError.  The cast's
 * floating-point errors are reported as NumPy's `operation`'s (default
 * "cast"). */
static PyObject *py_ndarray_copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 && nargs != 3) {
    PyErr_Format(PyExc_TypeError, "ndarray_copy() takes 2 or 3 arguments (%zd given)", nargs);
    return NULL;
  }
  const char *operation = nargs == 3 ? PyUnicode_AsUTF8(args[2]) : "cast";
  if (!operation) return NULL;
  PyObject *x = args[0];
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type) || !MA_ND(x)->h)
    return PyErr_Format(PyExc_TypeError, "ndarray_copy expects an NDArray, not %.100s", Py_TYPE(x)->tp_name);
  PyObject *h = MA_ND(x)->h, *shape = ma_nd_shape(x);
  if (!shape) return NULL;
  if (!PyTuple_CheckExact(shape))
    return PyErr_Format(PyExc_TypeError, "ndarray_copy: the NDArray's shape is a %.100s, not a tuple",
                        Py_TYPE(shape)->tp_name);
  ma_array *s = ma_handle_get(h);
  if (!s) return NULL;
  int tid = args[1] == Py_None ? ma_type_of(s->t.dtype) : ma_ndarray_tid(args[1]);
  if (tid < 0)
    return PyErr_Format(PyExc_TypeError, "ndarray_copy expects a minarray dtype or None, not %R", args[1]);
  int err = 0;
  ma_array *a = ma_array_empty(ma_dltypes[tid], s->t.ndim, s->t.shape, 0, &err);
  if (!a) return ma_empty_error(shape, err, ma_type_size[tid]);
  int rc = ma_copyto_reported(a, s, ma_array_size(a) * ma_type_size[tid] >= KEEP_GIL_BYTES, operation);
  if (rc != 0) {
    ma_array_free(a);
    if (rc == -3) return NULL; /* the errstate raised */
    /* same shape, so only the temporary for overlapping memory can fail */
    return PyErr_NoMemory();
  }
  PyObject *nh = ma_handle_new(a);
  if (!nh) return NULL;
  /* the source's shape tuple is immutable: the copy can share it */
  return ma_ndarray_wrap(nh, Py_NewRef(shape), NULL, NULL);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_convert_methods[] = {
    FC("ndarray_copy", py_ndarray_copy, "ndarray_copy(x, dtype[, operation]) -> NDArray"),
    {NULL, NULL, 0, NULL}};
