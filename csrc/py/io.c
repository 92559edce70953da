/*
 * Bytes in and out: an array's elements as a bytes object in C or Fortran
 * order (x.tobytes, pickling, tofile).  minarray/bufferio.py is the Python
 * side.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include <string.h>

/* Element strides of a contiguous array of `shape`, C or Fortran order. */
static void contiguous_strides(int nd, const int64_t *shape, int fortran, int64_t *strides) {
  int64_t s = 1;
  for (int k = 0; k < nd; k++) {
    int i = fortran ? k : nd - 1 - k;
    strides[i] = s;
    s *= shape[i] ? shape[i] : 1;
  }
}

/* Copies of at least this many bytes release the GIL. */
#define IO_KEEP_GIL_BYTES (1 << 16)

/* tobytes(h, fortran) -> bytes: the elements in C (or Fortran) order. */
MA_FASTCALL(py_tobytes) {
  (void)self;
  MA_NARGS(2, "tobytes");
  ma_array *a = ma_handle_get(args[0]);
  int fortran = a ? PyObject_IsTrue(args[1]) : -1;
  if (fortran < 0) return NULL;
  int tid = ma_type_of(a->t.dtype);
  size_t nbytes = (size_t)ma_array_size(a) * (size_t)ma_type_size[tid]; /* fits: ma_nbytes checked it */
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nbytes);
  if (!out || nbytes == 0) return out;
  char *dst = PyBytes_AS_STRING(out);
  if (ma_array_is_contiguous(a, fortran)) {
    if (nbytes < IO_KEEP_GIL_BYTES) {
      memcpy(dst, a->t.data, nbytes);
    } else {
      Py_BEGIN_ALLOW_THREADS memcpy(dst, a->t.data, nbytes);
      Py_END_ALLOW_THREADS
    }
    return out;
  }
  /* any other layout: the copy kernel writes into the bytes object's
   * storage, seen as an array of a's shape in the order asked for */
  int64_t strides[MA_MAXDIMS];
  contiguous_strides(a->t.ndim, a->t.shape, fortran, strides);
  ma_array *d = ma_array_new(NULL, dst, a->t.dtype, a->t.ndim, a->t.shape, strides, 0);
  if (!d) {
    Py_DECREF(out);
    return PyErr_NoMemory();
  }
  int rc = ma_assign_array(d, a);
  ma_array_free(d);
  if (rc < 0) Py_CLEAR(out);
  return out;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_io_methods[] = {
    FC("tobytes", py_tobytes, "tobytes(h, fortran) -> bytes"),
    {NULL, NULL, 0, NULL}};
