/*
 * Floating-point errors reported as NumPy reports them: a kernel's caller
 * reads the flags it raised (csrc/core/fpe.h) and, when there are any,
 * hands them to minarray._errstate's handler, which warns, raises
 * FloatingPointError, calls or ignores, by the errstate in force.  Nothing
 * is called when no flag was raised: the common case costs the two
 * reads and writes of the flags.
 */
#include "pyapi.h"

#include "copy.h"
#include "fpe.h"

static PyObject *handler; /* errstate._report(operation, flags) */

int ma_report_fpe(const char *operation, unsigned flags) {
  if (!handler || !flags) return 0;
  PyObject *r = PyObject_CallFunction(handler, "sI", operation, flags);
  Py_XDECREF(r);
  return r ? 0 : -1;
}

int ma_report_cast_fpe(const char *operation, unsigned flags) {
  ma_fpe_clear();
  return ma_report_fpe(operation, flags & (MA_FPE_OVERFLOW | MA_FPE_UNDERFLOW | MA_FPE_INVALID));
}

int ma_copyto_reported(ma_array *dst, const ma_array *src, int nogil, const char *operation) {
  int may = ma_cast_can_raise(ma_type_of(src->t.dtype), ma_type_of(dst->t.dtype)), rc;
  unsigned fpe = 0;
  if (nogil) {
    Py_BEGIN_ALLOW_THREADS
    if (may) ma_fpe_clear();
    rc = ma_copyto(dst, src);
    if (may) fpe = ma_fpe_read();
    Py_END_ALLOW_THREADS
  } else {
    if (may) ma_fpe_clear();
    rc = ma_copyto(dst, src);
    if (may) fpe = ma_fpe_read();
  }
  if (rc == 0 && fpe && ma_report_cast_fpe(operation, fpe) < 0) return -3;
  return rc;
}

/* fpe_setup(handler): errstate._report, called with (operation, flags) */
static PyObject *py_fpe_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "fpe_setup");
  if (!PyCallable_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "fpe_setup(handler) needs a callable");
    return NULL;
  }
  Py_XSETREF(handler, Py_NewRef(args[0]));
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_fpe_methods[] = {
    FC("fpe_setup", py_fpe_setup, "fpe_setup(handler)"),
    {NULL, NULL, 0, NULL}};
