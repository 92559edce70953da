/*
 * The dtype table for Python: minarray/_dtypes.py builds its DType objects
 * from these rows at import, so the Python layer holds no second copy of
 * csrc/core/dtypes.def.
 */
#include "pyapi.h"

/* One row per type id: the columns of dtypes.def the core's arrays do not
 * hold, which only Python uses. */
typedef struct {
  const char *typestr, *format;
  int kernel;
} row_text;

#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [e] = {typestr, format, 1},
#define MA_STORAGE_TYPE(e, name, code, bits, kind, typestr, format) [e] = {typestr, format, 0},
static const row_text rows[MA_NALLTYPES] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

/* dtype_table() -> tuple of (name, kind, dlpack_code, bits, itemsize,
 * typestr, format, kernel) rows in type-id order.  Name, kind, code, bits
 * and itemsize come from the arrays the core uses (ma_type_name,
 * ma_type_kind, ma_dltypes, ma_type_size), so Python sees what C computes
 * with. */
static PyObject *py_dtype_table(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "dtype_table");
  PyObject *out = PyTuple_New(MA_NALLTYPES);
  if (!out) return NULL;
  for (int t = 0; t < MA_NALLTYPES; t++) {
    PyObject *row = Py_BuildValue("(sCiiissO)", ma_type_name[t], ma_type_kind[t], (int)ma_dltypes[t].code,
                                  (int)ma_dltypes[t].bits, ma_type_size[t], rows[t].typestr, rows[t].format,
                                  rows[t].kernel ? Py_True : Py_False);
    if (!row) {
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SET_ITEM(out, t, row);
  }
  return out;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dtype_table_methods[] = {
    FC("dtype_table", py_dtype_table,
       "dtype_table() -> tuple of (name, kind, dlpack_code, bits, itemsize, typestr, format, kernel)"),
    {NULL, NULL, 0, NULL}};
