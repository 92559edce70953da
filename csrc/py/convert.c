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
 * None) holding x's elements cast to dtype (None: x's dtype), or None when
 * x is not an NDArray or dtype is not a DType singleton (the Python path
 * takes those and words any error).  The cast's floating-point errors are
 * reported as NumPy's `operation`'s (default "cast"). */
static PyObject *py_ndarray_copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 && nargs != 3) {
    PyErr_Format(PyExc_TypeError, "ndarray_copy() takes 2 or 3 arguments (%zd given)", nargs);
    return NULL;
  }
  const char *operation = nargs == 3 ? PyUnicode_AsUTF8(args[2]) : "cast";
  if (!operation) return NULL;
  PyObject *x = args[0];
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type)) Py_RETURN_NONE;
  PyObject *h = MA_ND(x)->h, *shape = h ? ma_nd_shape(x) : NULL;
  if (!shape) PyErr_Clear();
  if (!h || !shape || !PyTuple_CheckExact(shape)) Py_RETURN_NONE;
  ma_array *s = ma_handle_get(h);
  if (!s) return NULL;
  int tid = args[1] == Py_None ? ma_type_of(s->t.dtype) : ma_ndarray_tid(args[1]);
  if (tid < 0) Py_RETURN_NONE;
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
    FC("ndarray_copy", py_ndarray_copy, "ndarray_copy(x, dtype[, operation]) -> NDArray or None"),
    {NULL, NULL, 0, NULL}};
