/*
 * The entry points of packbits and unpackbits (minarray/_bit_packing.py):
 * the operands' checks, then one call to the core's kernels
 * (csrc/core/bit_packing.c).
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include "bit_packing.h"
#include "copy.h"

/* The shared body: the arguments (src, dst, axis, little) checked, then
 * `kernel`. */
static PyObject *bits_entry(PyObject *const *args, const char *name,
                            int (*kernel)(const ma_array *, ma_array *, int, int)) {
  ma_array *src = ma_handle_get(args[0]);
  ma_array *dst = src ? ma_handle_get(args[1]) : NULL;
  if (!dst) return NULL;
  long axis = PyLong_AsLong(args[2]);
  int little = axis == -1 && PyErr_Occurred() ? -1 : PyObject_IsTrue(args[3]);
  if (little < 0) return NULL;
  if (ma_type_of(dst->t.dtype) != MA_UINT8 || ma_may_overlap(src, dst) || ma_check_writeable(dst) < 0) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "%s kernel: dst must be a uint8 array apart from src", name);
    return NULL;
  }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = axis < 0 || axis >= src->t.ndim ? -1 : kernel(src, dst, (int)axis, little);
  Py_END_ALLOW_THREADS
  if (rc < 0) return PyErr_Format(PyExc_ValueError, "%s kernel: the shapes of src and dst do not agree with the axis", name);
  Py_RETURN_NONE;
}

/* packbits(src, dst, axis, little): dst (uint8) = src's single-byte
 * elements packed along axis (ma_packbits). */
static PyObject *py_packbits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "packbits");
  return bits_entry(args, "packbits", ma_packbits);
}

/* unpackbits(src, dst, axis, little): dst (uint8) = the bits of src
 * (uint8) along axis, as many as dst's length there (ma_unpackbits). */
static PyObject *py_unpackbits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "unpackbits");
  return bits_entry(args, "unpackbits", ma_unpackbits);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_bit_packing_methods[] = {
    FC("packbits", py_packbits, "packbits(src, dst, axis, little): src's elements packed eight to a byte of dst"),
    FC("unpackbits", py_unpackbits, "unpackbits(src, dst, axis, little): src's bits, one to a byte of dst"),
    {NULL, NULL, 0, NULL}};
