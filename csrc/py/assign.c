/*
 * Assignment: d[...] = s (an array, broadcast and cast) and d[...] = a
 * Python scalar (NumPy's rules for assigning one), for core.copyto,
 * core.fill and the C callers declared in pyapi.h.  A cast that raises a
 * floating-point flag reports it through the errstate (fperrors.c), as
 * NumPy's "encountered in cast".
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include "array.h"

/* The copy both assignments end in: 0, or -1 with the error set. */
static int copy_checked(ma_array *dst, ma_array *src) {
  int rc = ma_copyto_reported(dst, src, 1, "cast");
  if (rc == -3) return -1; /* the errstate raised */
  if (rc == -2) {
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
  return copy_checked(d, s);
}

int ma_assign_scalar(ma_array *d, PyObject *value) {
  if (ma_check_writeable(d) < 0) return -1;
  int tid = ma_type_of(d->t.dtype);
  _Alignas(16) char one[16]; /* one element of any dtype, aligned for it */
  if (ma_store_scalar(value, tid, one) < 0) return -1;
  ma_array *s = ma_array_new(NULL, one, d->t.dtype, 0, NULL, NULL, 0);
  if (!s) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = copy_checked(d, s);
  ma_array_free(s);
  return rc;
}

/* copyto(dst, src): dst[...] = src with broadcasting and casting. */
static PyObject *py_copyto(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "copyto");
  ma_array *d = ma_handle_get(args[0]), *s = d ? ma_handle_get(args[1]) : NULL;
  if (!s || ma_assign_array(d, s) < 0) return NULL;
  Py_RETURN_NONE;
}

/* fill(h, value): every element = value (a Python scalar). */
static PyObject *py_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "fill");
  ma_array *d = ma_handle_get(args[0]);
  if (!d || ma_assign_scalar(d, args[1]) < 0) return NULL;
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_assign_methods[] = {
    FC("copyto", py_copyto, "copyto(dst, src)"),
    FC("fill", py_fill, "fill(h, value)"),
    {NULL, NULL, 0, NULL},
};
