/*
 * The everyday DLPack entry points in C: NDArray.__dlpack__ and
 * ma.from_dlpack as vectorcall callables, which parse their keywords and
 * hand the rare cases (a device array's re-export, device= or dtype=
 * given, every error's wording) to their Python bodies in
 * minarray/dlpack.py.  dlpack_py.h says which file does what.
 *
 * They were Python functions around dlpack_export and dlpack_import: a
 * Python frame each, a large share of what NumPy takes for a whole
 * np.from_dlpack (docs/performance.md has the figures).
 */
#include <string.h>

#include "dlpack_py.h"

/* The index in `names` (interned, NULL-terminated) of keyword `k`, or -1.
 * Callers' keyword names are interned strings in practice: comparing
 * pointers first spares the string compares (9% of an np.from_dlpack). */
static int keyword_index(PyObject *k, PyObject *const *names) {
  for (int i = 0; names[i]; i++)
    if (k == names[i]) return i;
  for (int i = 0; names[i]; i++)
    if (PyUnicode_Check(k) && PyUnicode_Compare(k, names[i]) == 0) return i;
  if (PyErr_Occurred()) PyErr_Clear();
  return -1;
}

static PyObject *dlpack_kw[5], *from_kw[4]; /* interned names, NULL-terminated */

static PyObject *export_device_py; /* minarray.dlpack.export_device(x, stream, max_version, dl_device, copy) */

/* x.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None) */
static PyObject *m_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *v[5] = {MA_ND(self)->h, Py_None, Py_None, Py_None, Py_None};
  if (nargs) return PyErr_Format(PyExc_TypeError, "__dlpack__() takes no positional arguments (%zd given)", nargs);
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nk; i++) {
    int at = keyword_index(PyTuple_GET_ITEM(kwnames, i), dlpack_kw);
    if (at < 0)
      return PyErr_Format(PyExc_TypeError, "__dlpack__() got an unexpected keyword argument '%S'",
                          PyTuple_GET_ITEM(kwnames, i));
    v[at + 1] = args[i];
  }
  PyObject *cap = py_dlpack_export(NULL, v, 5);
  if (cap != Py_NotImplemented) return cap;
  Py_DECREF(cap); /* a device array: its producer re-exports it */
  v[0] = self;
  return PyObject_Vectorcall(export_device_py, v, 5, NULL);
}

static PyObject *from_dlpack_py; /* minarray.dlpack's Python from_dlpack */

/* ma.from_dlpack(x, /, *, device=None, copy=None, dtype=None) */
static PyObject *m_from_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  (void)self;
  PyObject *kw[3] = {Py_None, Py_None, Py_None};
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  int general = nargs != 1;
  for (Py_ssize_t i = 0; i < nk && !general; i++) {
    int at = keyword_index(PyTuple_GET_ITEM(kwnames, i), from_kw);
    if (at < 0) general = 1;
    else kw[at] = args[nargs + i];
  }
  /* A bare capsule goes the Python way too: its caller's reference is
   * often the last, and its destructor (any producer's C code) then runs
   * right after this call returns, where one that does not keep a pending
   * error (a BufferError of this import) would lose it; a Python frame
   * drops its arguments only once the error is on its way. */
  if (!general && PyCapsule_CheckExact(args[0])) general = 1;
  if (general || kw[0] != Py_None || kw[2] != Py_None) /* and every error: the Python body words it */
    return PyObject_Vectorcall(from_dlpack_py, args, (size_t)nargs, kwnames);
  PyObject *v[3] = {args[0], Py_False, kw[1]};
  return py_dlpack_import(NULL, v, 3);
}

/* A copy of a str's text that lives as long as the process (a method
 * definition's doc). */
static const char *lasting_text(PyObject *s) {
  const char *t = PyUnicode_AsUTF8(s);
  char *copy = t ? (char *)PyMem_RawMalloc(strlen(t) + 1) : NULL;
  if (t && !copy) PyErr_NoMemory();
  return copy ? strcpy(copy, t) : NULL;
}

/* dlpack_fast_setup(export_device, dlpack_doc, from_dlpack, from_dlpack_doc)
 * -> the C from_dlpack; installs NDArray.__dlpack__ (ndarray_setup has
 * run).  The docs may begin with a text signature. */
static PyObject *py_dlpack_fast_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "dlpack_fast_setup");
  static PyMethodDef dlpack_def = {"__dlpack__", (PyCFunction)(void (*)(void))m_dlpack,
                                   METH_FASTCALL | METH_KEYWORDS, NULL};
  static PyMethodDef from_def = {"from_dlpack", (PyCFunction)(void (*)(void))m_from_dlpack,
                                 METH_FASTCALL | METH_KEYWORDS, NULL};
  if (!ma_nd.type || !PyCallable_Check(args[0]) || !PyCallable_Check(args[2]) || !PyUnicode_Check(args[1]) ||
      !PyUnicode_Check(args[3])) {
    PyErr_SetString(PyExc_TypeError, "dlpack_fast_setup(export_device, doc, from_dlpack, doc), after ndarray_setup");
    return NULL;
  }
  if (!dlpack_def.ml_doc && (!(dlpack_def.ml_doc = lasting_text(args[1])) || !(from_def.ml_doc = lasting_text(args[3]))))
    return NULL;
  static const char *const dnames[] = {"stream", "max_version", "dl_device", "copy"};
  static const char *const fnames[] = {"device", "copy", "dtype"};
  for (int i = 0; i < 4 && !dlpack_kw[i]; i++)
    if (!(dlpack_kw[i] = PyUnicode_InternFromString(dnames[i]))) return NULL;
  for (int i = 0; i < 3 && !from_kw[i]; i++)
    if (!(from_kw[i] = PyUnicode_InternFromString(fnames[i]))) return NULL;
  Py_XSETREF(export_device_py, Py_NewRef(args[0]));
  Py_XSETREF(from_dlpack_py, Py_NewRef(args[2]));
  if (ma_ndarray_add_method(&dlpack_def) < 0) return NULL;
  PyObject *module = PyUnicode_FromString("minarray.dlpack");
  PyObject *f = module ? PyCFunction_NewEx(&from_def, NULL, module) : NULL;
  Py_XDECREF(module);
  return f;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_entry_methods[] = {
    FC("dlpack_fast_setup", py_dlpack_fast_setup,
       "dlpack_fast_setup(export_device, dlpack_doc, from_dlpack, from_dlpack_doc) -> the C from_dlpack"),
    {NULL, NULL, 0, NULL}};
