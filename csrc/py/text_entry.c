/*
 * loadtxt's fast path from Python: the checks on the output array and the
 * text's buffer, then one call to the core's table reader
 * (csrc/core/text_parse.c) with the GIL released.  minarray/_text_io.py
 * is the Python side, and reads whatever this gives up on.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include "text_parse.h"

/* text_parse_f64(h, data, delimiter, comment, skiprows, max_rows) ->
 * (rows, cols) or None.  `h` is a 1-d contiguous float64 array the values
 * are written to (its length caps them); `data` any buffer of bytes, the
 * text; delimiter and comment are ASCII codes, 0 for whitespace delimiting
 * and no comments; max_rows -1 for all.  None: the Python reader must read
 * the text (h is then partly written). */
static PyObject *py_text_parse_f64(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(6, "text_parse_f64");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  if (a->t.dtype.code != kDLFloat || a->t.dtype.bits != 64 || a->t.ndim != 1 || !ma_array_is_contiguous(a, 0) ||
      (a->flags & MA_READONLY)) {
    PyErr_SetString(PyExc_ValueError, "text_parse_f64: the output must be a writable contiguous 1-d float64 array");
    return NULL;
  }
  long delim = PyLong_AsLong(args[2]);
  long comment = delim == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[3]);
  long long skip = comment == -1 && PyErr_Occurred() ? -1 : PyLong_AsLongLong(args[4]);
  long long max_rows = skip == -1 && PyErr_Occurred() ? -1 : PyLong_AsLongLong(args[5]);
  if (max_rows == -1 && PyErr_Occurred()) return NULL;
  if (delim < 0 || delim > 127 || comment < 0 || comment > 127 || delim == '\n' || delim == '\r' || skip < 0 ||
      max_rows < -1) {
    PyErr_SetString(PyExc_ValueError, "text_parse_f64: bad delimiter, comment, skiprows or max_rows");
    return NULL;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0) return NULL;
  ma_text_format fmt = {(char)delim, (char)comment, skip, max_rows};
  int64_t rows, cols;
  int rc;
  /* the buffer is held (a bytearray cannot resize while exported), and h
   * is an array the caller made for this call alone */
  Py_BEGIN_ALLOW_THREADS
  rc = ma_text_parse_f64((const char *)view.buf, (size_t)view.len, &fmt, (double *)a->t.data, a->t.shape[0], &rows,
                         &cols);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&view);
  if (rc != MA_TEXT_OK) Py_RETURN_NONE;
  return Py_BuildValue("(LL)", (long long)rows, (long long)cols);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_text_methods[] = {
    FC("text_parse_f64", py_text_parse_f64,
       "text_parse_f64(h, data, delimiter, comment, skiprows, max_rows) -> (rows, cols) | None"),
    {NULL, NULL, 0, NULL}};
