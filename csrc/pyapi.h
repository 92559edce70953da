/*
 * The bridge between Python and the C core.
 *
 * cffi compiles csrc/ into the extension module minarray._core.  Besides the
 * plain C functions cffi exposes as `lib`, the core installs a few CPython
 * functions (METH_FASTCALL) into that module at import: they handle Python
 * objects directly (capsules, scalars, sequences), which cffi cannot, and
 * cost ~30 ns to call instead of cffi's ~150 ns.
 *
 * An NDArray's C metadata (ma_array) travels in a capsule named
 * "minarray.array", its "handle"; the capsule destructor frees it.
 */
#ifndef MINARRAY_PYAPI_H
#define MINARRAY_PYAPI_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "array.h"

#define MA_HANDLE_NAME "minarray.array"

/* The ma_array inside a handle; NULL with TypeError set if `h` is not one. */
ma_array *ma_handle_get(PyObject *h);
/* A new handle owning `a` (freed on failure).  NULL `a` means out of memory. */
PyObject *ma_handle_new(ma_array *a);
/* Read a tuple/list of ints into `out` (at most MA_MAXDIMS); returns the
 * count or -1 with an exception set. */
int ma_parse_dims(PyObject *seq, int64_t *out, const char *what);
/* DLDataType from Python ints (code, bits). */
int ma_parse_dtype(PyObject *code, PyObject *bits, DLDataType *dt);
/* A foreign buffer keeping a new reference to `owner` until released. */
ma_buffer *ma_buffer_for_object(PyObject *owner, void *data, size_t nbytes);

/* Installs the method tables below into the module `modname`. */
int ma_install(const char *modname);

/* Method tables, one per C file that talks to Python; pyapi.c installs them. */
extern PyMethodDef ma_core_methods[];
extern PyMethodDef ma_dlpack_methods[];
extern PyMethodDef ma_elementwise_methods[];
extern PyMethodDef ma_index_methods[];
extern PyMethodDef ma_reduce_methods[];
extern PyMethodDef ma_linalg_methods[];
extern PyMethodDef ma_sort_methods[];

#define MA_FASTCALL(name) \
  static PyObject *name(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
#define MA_NARGS(n, fname)                                                   \
  do {                                                                       \
    if (nargs != (n)) {                                                      \
      PyErr_Format(PyExc_TypeError, fname "() takes %d arguments (%zd given)", \
                   (int)(n), nargs);                                         \
      return NULL;                                                           \
    }                                                                        \
  } while (0)

#endif
